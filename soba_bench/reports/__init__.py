"""Reports from run records: pandas frames, tables, matplotlib figures, report.md/html.

Never imported by the core stages (session, meter, engine, replay)."""

from soba_bench.reports.frames import RunSet, load_runs, session_metrics, swept_parameters
from soba_bench.reports.report import write_report

__all__ = ["RunSet", "load_runs", "session_metrics", "swept_parameters", "write_report"]
