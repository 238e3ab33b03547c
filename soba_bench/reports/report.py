"""``write_report``: report.md, a self-contained report.html and the figures as PNG files,
from the run records under a run, sweep or results folder."""

from __future__ import annotations

import logging
from pathlib import Path

from soba_bench.errors import OutputError
from soba_bench.jsonio import atomic_write_bytes
from soba_bench.reports.frames import RunSet, load_runs
from soba_bench.reports.html import render_html
from soba_bench.reports.markdown import render_markdown
from soba_bench.reports.sections import FigureItem, build_sections
from soba_bench.secrets_scan import scrub_text

log = logging.getLogger("soba_bench.reports.report")

FIGURE_DIR = "figures"
REPORT_FILES = ("report.md", "report.html")


def write_report(results_dir: str | Path, out_dir: str | Path | None = None) -> Path:
    """Write ``report.md``, ``report.html`` (figures embedded) and ``figures/*.png`` to
    ``out_dir`` (default ``<results_dir>/report/``); return that folder. Every file is
    written atomically, the two reports last, so a reader never sees a report pointing at a
    figure that is not there yet. Raises InputError when there is no run record."""
    results_dir = Path(results_dir)
    out = Path(out_dir) if out_dir is not None else results_dir / "report"
    return write_runset_report(load_runs(results_dir), out)


def write_runset_report(runset: RunSet, out: Path) -> Path:
    """``write_report`` for run records already loaded (the main job reuses them for its
    closing verdict)."""
    _check_writable(out / FIGURE_DIR)
    sections = build_sections(runset)
    title = f"soba-bench report: {runset.root.resolve().name}"
    figures = [
        item
        for section in sections
        for item in section.items
        if isinstance(item, FigureItem) and item.png is not None
    ]
    for item in figures:
        assert item.png is not None  # kept above only with a picture
        atomic_write_bytes(out / FIGURE_DIR / f"{item.name}.png", item.png)
    # Names and notes come from run records: credentials in them become typed markers.
    markdown = scrub_text(render_markdown(title, sections, FIGURE_DIR))
    atomic_write_bytes(out / "report.md", markdown.encode())
    atomic_write_bytes(out / "report.html", scrub_text(render_html(title, sections)).encode())
    current = {f"{item.name}.png" for item in figures}
    for old in (out / FIGURE_DIR).glob("*.png"):
        if old.name not in current:  # a figure of an earlier report of other runs
            try:
                old.unlink()
            except OSError as exc:
                raise OutputError(str(old), exc.strerror or str(exc)) from None
    log.info("report: %d jobs, %d figures in %s", len(runset.jobs), len(figures), out)
    return out


def _check_writable(folder: Path) -> None:
    """Fail before drawing (seconds of matplotlib) when the report cannot be written: a probe
    file goes through the same atomic write as every output, and is removed."""
    probe = folder / ".write-check"
    atomic_write_bytes(probe, b"")
    try:
        probe.unlink()
    except OSError as exc:
        raise OutputError(str(probe), exc.strerror or str(exc)) from None
