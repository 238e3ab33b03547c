"""report.html in a real browser: headless Chromium (Debian's /usr/bin/chromium) driven by
Playwright opens a report generated from a real sweep; the page loads, every figure decodes,
nothing is requested from the network and nothing is logged to the console. A full-page
screenshot is kept in tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from soba_bench.reports.report import write_report
from tests.integration.sweeps import cli

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def report_html(tmp_path_factory) -> Path:
    sweep = tmp_path_factory.mktemp("browser") / "sweep"
    done = cli(
        "run",
        "-m",
        "engine.keepRecentTokens=8000,20000",
        "corpus=synthetic-small",
        "hydra/launcher=basic",
        "progress.bars=false",
        f"hydra.sweep.dir={sweep}",
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return write_report(sweep) / "report.html"


def test_report_loads_in_headless_chromium(report_html):
    if not CHROMIUM.is_file():
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium package "
            "(as root: apt-get install -y chromium, or run scripts/ensure-chromium.sh; "
            "`make test` does it for you)"
        )
    from playwright.sync_api import sync_playwright

    console: list[str] = []
    failed: list[str] = []
    requests: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            page.on("requestfailed", lambda r: failed.append(r.url))
            page.on("request", lambda r: requests.append(r.url))
            response = page.goto(report_html.as_uri(), wait_until="load")
            assert response is not None and response.ok
            assert page.title().startswith("soba-bench report")
            images = page.eval_on_selector_all(
                "img",
                "imgs => imgs.map(i => ({alt: i.alt, complete: i.complete, "
                "w: i.naturalWidth, h: i.naturalHeight}))",
            )
            headings = page.eval_on_selector_all("h2", "hs => hs.map(h => h.textContent)")
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / "report-browser.png"
            page.screenshot(path=str(shot), full_page=True)
        finally:
            browser.close()
    # One <img> per figure the report wrote, and at least the eight every sweep gets.
    written = list((report_html.parent / "figures").glob("*.png"))
    assert len(images) == len(written) >= 8
    broken = [i["alt"] for i in images if not (i["complete"] and i["w"] > 0 and i["h"] > 0)]
    assert not broken, f"figures that did not load: {broken}"
    assert "Skip rate by reason; failed, stale and cancelled attempts" in headings
    assert "Provenance" in headings
    errors = [c for c in console if c.startswith(("error", "pageerror", "warning"))]
    assert not errors, errors
    assert not failed, failed
    # Self-contained: the page itself and data: URIs only, never the network.
    assert all(u == report_html.as_uri() or u.startswith("data:") for u in requests), requests
    assert shot.stat().st_size > 10_000
    shutil.copy(report_html, ARTIFACTS / "report-browser.html")
