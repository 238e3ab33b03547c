"""Reports from run records: pandas frames, tables, matplotlib figures, report.md/html.

Never imported by the core stages (session, meter, engine, replay). The names below load on
first use, so the CLI can import a report module's argument parser without pandas."""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "RunSet": "soba_bench.reports.frames",
    "load_runs": "soba_bench.reports.frames",
    "session_metrics": "soba_bench.reports.frames",
    "swept_parameters": "soba_bench.reports.frames",
    "write_report": "soba_bench.reports.report",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'soba_bench.reports' has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name]), name)
