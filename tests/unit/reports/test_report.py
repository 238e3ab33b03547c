"""write_report and ``soba-bench report``: every section, figures embedded and beside,
"not recorded" where the records hold nothing, atomic output, inputs untouched."""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import struct

import pytest

from soba_bench.cli.main import main
from soba_bench.errors import InputError
from soba_bench.reports import figures_scores, tables
from soba_bench.reports import report as report_module
from soba_bench.reports.frames import load_runs, session_metrics
from soba_bench.reports.report import write_report
from soba_bench.reports.sections import SECTIONS, build_sections
from tests.unit.reports.conftest import soba_bench

TITLES = [
    "Verdict",
    "Overview",
    "Outcomes by trigger and attempts per session",
    "Reclaimed tokens",
    "Skip rate by reason; failed, stale and cancelled attempts",
    "Degraded fallbacks and generation latency",
    "Settings against availability, Pareto front, retention and soba_quality",
    "Failure modes",
    "Per-session drill-down",
    "Provenance",
]


def _tree_digest(folder):
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def root_report(runs, tmp_path_factory):
    copy = tmp_path_factory.mktemp("root") / "results"
    shutil.copytree(runs.root, copy, symlinks=True)
    before = _tree_digest(copy)
    out = write_report(copy)
    return copy, out, before


def test_every_section_is_in_both_reports(root_report):
    _, out, _ = root_report
    md = (out / "report.md").read_text()
    html = (out / "report.html").read_text()
    assert len(SECTIONS) == len(TITLES)
    for title in TITLES:
        assert f"## {title}" in md
        assert f"<h2>{title}</h2>" in html
    # the provenance section lists every job's git revision and corpus hash
    rs = load_runs(out.parent)
    for sha in rs.provenance["corpora_sha256"]:
        assert sha in md


def test_figures_are_embedded_and_written_beside(root_report):
    _, out, _ = root_report
    html = (out / "report.html").read_text()
    embedded = re.findall(r'src="data:image/png;base64,([^"]+)"', html)
    files = sorted((out / "figures").glob("*.png"))
    assert len(embedded) == len(files)
    # Every figure this record set supports, by name: a figure that silently returned nothing
    # would show "not recorded" and vanish from this set. These runs call no model, so the
    # fallback and latency figures are rightly absent.
    assert {f.stem for f in files} == {
        "attempts_per_session",
        "failure_modes",
        "outcomes_by_trigger",
        "pareto_front",
        "quality_pass_rate",
        "reclaimed_distribution",
        "retention_heatmap",
        "availability_vs_keepRecentTokens",
        "availability_vs_minReclaimableTokens",
        "availability_vs_minSavingsRatio",
        "skip_rates",
        "tokens_vs_limits",
    }
    linked = re.findall(r"\]\(figures/([^)]+\.png)\)", (out / "report.md").read_text())
    assert sorted(linked) == [f.name for f in files]
    payloads = {base64.b64decode(e) for e in embedded}
    for path in files:
        data = path.read_bytes()
        assert data in payloads
        width, height = _png_size(data)
        assert width > 300 and height > 100
    # the sweep varied keepRecentTokens: availability is plotted against it
    assert (out / "figures" / "availability_vs_keepRecentTokens.png").is_file()
    # self-contained: nothing fetched from elsewhere
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_settings_are_compared_on_availability_not_on_capsule_moment_recall(runs):
    """The Pareto front and the curves against a swept setting read availability (every job
    asked at the same evaluation points), not recall at each job's own capsule moments, and
    the front's savings are tune's (request input tokens saved)."""
    rs = load_runs(runs.first)
    per_session = session_metrics(rs)
    table = tables.pareto(rs, ids=True).set_index("job_id")
    assert "recall" not in table.columns and len(table) == 2
    expected = per_session.groupby("job_id")["availability"].mean().round(4)
    assert table["availability"].to_dict() == expected.to_dict()
    # ... against the savings tune optimises (request input tokens saved), not the ratio
    # of each compaction
    savings = per_session.groupby("job_id")["savings"].mean().round(4)
    assert table["savings"].to_dict() == savings.to_dict()
    assert (table["savings"] > 0).all()
    fig = figures_scores.availability_vs_parameter(rs, "keepRecentTokens")
    assert fig is not None and "Availability per fact kind" in fig._suptitle.get_text()
    assert fig.axes[0].get_ylabel().startswith("availability")
    # one line per fact kind, its points the per-kind availability of the two jobs
    kinds = [c.removeprefix("availability.") for c in per_session if c.startswith("availability.")]
    assert {line.get_label() for line in fig.axes[0].get_lines()} <= set(kinds)


def test_inputs_are_not_modified(root_report):
    results, out, before = root_report
    shutil.rmtree(out)
    assert _tree_digest(results) == before


def test_not_recorded_instead_of_a_crash(runs, tmp_path):
    # scorer=none and a deterministic summarizer: no scores, no fallbacks, no latency
    out = write_report(runs.single, tmp_path / "out")
    md = (out / "report.md").read_text()
    assert "**Recall per fact kind (model input at capsule moments; a diagnostic):** not" in md
    assert "**Pareto front: savings vs availability:** not recorded" in md
    assert "**soba_quality:** not recorded" in md
    assert "**Failure modes per job:** not recorded" in md
    assert "no model summarizer" in md
    html = (out / "report.html").read_text()
    assert html.count('class="missing"') >= 5
    # what the run did record is still there
    assert "post-generation ROI miss" in md and "once-per-turn" in md


def test_an_old_run_without_tables_or_scores(runs, tmp_path):
    job = next(p for p in sorted(runs.first.iterdir()) if (p / "run.json").is_file())
    old = tmp_path / "old"
    shutil.copytree(job, old)
    shutil.rmtree(old / "tables")
    shutil.rmtree(old / "scores")
    (old / "events.jsonl.gz").unlink()
    out = write_report(old)
    md = (out / "report.md").read_text()
    assert "read from barriers/" in md
    assert "Attempts by trigger and outcome" in md


def test_sections_build_for_a_bare_record(runs, tmp_path):
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(runs.single / "run.json", bare / "run.json")
    sections = build_sections(load_runs(bare))
    assert [s.title for s in sections] == TITLES
    out = write_report(bare)
    assert "attempts not recorded" in (out / "report.md").read_text()


def test_output_is_atomic_and_stale_figures_go(runs, tmp_path, monkeypatch):
    out = write_report(runs.first, tmp_path / "out")
    (out / "figures" / "left_over.png").write_bytes(b"old")
    good = (out / "report.html").read_bytes()

    def broken(*_args, **_kwargs):
        raise RuntimeError("renderer broke")

    monkeypatch.setattr(report_module, "render_html", broken)
    with pytest.raises(RuntimeError):
        write_report(runs.first, out)
    assert (out / "report.html").read_bytes() == good  # the old report, whole
    monkeypatch.undo()
    write_report(runs.first, out)
    assert not (out / "figures" / "left_over.png").exists()
    assert not [p for p in out.rglob("*") if p.name.startswith(".") or p.suffix == ".tmp"]


def test_no_record_is_an_input_error(tmp_path):
    with pytest.raises(InputError):
        write_report(tmp_path)


def test_cli_writes_the_report_and_says_where(runs, tmp_path, capsys):
    assert main(["report", str(runs.first), "--out", str(tmp_path / "r")]) == 0
    printed = capsys.readouterr().out
    assert str(tmp_path / "r" / "report.html") in printed
    assert (tmp_path / "r" / "report.md").is_file()


def test_cli_status_2_without_a_record(tmp_path, capsys):
    assert main(["report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no run record" in err and str(tmp_path) in err


@pytest.fixture(scope="module")
def mixed_strategies(tmp_path_factory):
    sweep = tmp_path_factory.mktemp("mixed") / "sweep"
    soba_bench(
        "run",
        "-m",
        "strategy=soba,truncation,none",
        "corpus=synthetic-small",
        "hydra/launcher=basic",
        "progress.bars=false",
        f"hydra.sweep.dir={sweep}",
    )
    return sweep


def test_a_sweep_mixing_strategies(mixed_strategies, tmp_path):
    rs = load_runs(mixed_strategies)
    assert set(rs.jobs["strategy"]) == {"soba", "truncation", "none"}
    out = write_report(mixed_strategies, tmp_path / "out")
    md = (out / "report.md").read_text()
    for strategy in ("soba", "truncation", "none"):
        assert f"| {strategy} |" in md
    assert "strategy never compacts" in md
    from soba_bench.reports import tables

    recall = tables.retention_by_kind(rs).set_index("strategy")["all"]
    # each job's own replay is scored: truncation's recall is its own, not SOBA's
    assert recall["soba"] != recall["truncation"]
    assert 0 < recall["truncation"] <= 1
