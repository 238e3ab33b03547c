"""The drill-down viewer in a real browser: two real runs of the tiny generated session (SOBA's
deterministic capsule, and SOBA's prompt on the embedded local model from its recorded
answers) written by ``soba-bench view``, alone and side by side, opened in headless Chromium
(Debian's /usr/bin/chromium, driven by Playwright). Pages load from disk with no network and no
console message, the kept / missed markers are there, and screenshots are kept in
tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integration.sweeps import cli
from tests.integration.test_report_browser import ARTIFACTS, CHROMIUM, LAUNCH_ARGS

pytestmark = pytest.mark.browser


def _run(results: Path, *overrides: str) -> Path:
    done = cli(
        "run",
        "experiment=local_model",
        "progress.bars=false",
        *overrides,
        f"paths.results_dir={results}",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (folder,) = [p for p in results.iterdir() if p.name.startswith("run-")]
    return folder


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("view")
    deterministic = _run(base / "a", "summarizer=deterministic")
    model = _run(base / "b", "engine.timeoutMs=600000")
    return deterministic, model


def _open(page_path: Path, shot_name: str) -> dict:
    from playwright.sync_api import sync_playwright

    console: list[str] = []
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            page.on("request", lambda r: requests.append(r.url))
            response = page.goto(page_path.as_uri(), wait_until="load")
            assert response is not None and response.ok
            found = {
                "title": page.title(),
                "outcomes": page.eval_on_selector_all(
                    ".fact", "fs => fs.map(f => f.dataset.outcome)"
                ),
                "sides": page.eval_on_selector_all(".side h2", "hs => hs.map(h => h.textContent)"),
                "capsules": page.eval_on_selector_all("pre.capsule", "ps => ps.length"),
                "links": page.eval_on_selector_all(
                    "a", "as => as.map(a => a.getAttribute('href'))"
                ),
            }
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / shot_name), full_page=True)
        finally:
            browser.close()
    assert not console, console
    assert all(u == page_path.as_uri() for u in requests), requests
    assert (ARTIFACTS / shot_name).stat().st_size > 10_000
    return found


def _require_chromium() -> None:
    if not CHROMIUM.is_file():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/ensure-chromium.sh (as root)")


def test_single_run_viewer_in_chromium(runs, tmp_path):
    _require_chromium()
    out = tmp_path / "view"
    done = cli("view", str(runs[0]), "--out", str(out))
    assert done.returncode == 0, done.stderr
    index = _open(out / "index.html", "view-index.png")
    moments = [h for h in index["links"] if h != "index.html"]
    assert len(moments) == 3  # the tiny session compacts three times at a 6k window
    page = _open(out / moments[1], "view-moment.png")
    assert page["capsules"] == 1
    # The deterministic capsule keeps some facts and misses others at its second moment.
    assert "kept" in page["outcomes"] and "missed" in page["outcomes"]


def test_two_runs_side_by_side_in_chromium(runs, tmp_path):
    _require_chromium()
    out = tmp_path / "pair"
    done = cli("view", str(runs[0]), str(runs[1]), "--out", str(out))
    assert done.returncode == 0, done.stderr
    index = _open(out / "index.html", "view-pair-index.png")
    pages = [h for h in index["links"] if h != "index.html"]
    page = _open(out / pages[-1], "view-pair-moment.png")
    assert page["capsules"] == 2
    assert page["sides"][0].startswith("A: soba / soba-0.6.14 / deterministic")
    assert page["sides"][1].startswith("B: soba / soba-0.6.14 / local")
    assert {"kept", "missed"} <= set(page["outcomes"])


def test_a_resumed_sweeps_pointer_is_followed(runs, tmp_path):
    job = tmp_path / "job"
    job.mkdir()
    (job / "reused.json").write_text(json.dumps({"record": str(runs[0] / "run.json")}))
    done = cli("view", str(job), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "3 compaction moments" in done.stdout
    missing = cli("view", str(tmp_path / "nothing"))
    assert missing.returncode == 2 and "no run.json" in missing.stderr
