"""Figures the reliability tier records (inputs tried, faults injected, outcomes seen).

Tests call :func:`tally`; at the end of the session ``conftest.py`` merges the figures into
``tests/artifacts/reliability.json`` (git-ignored), which ``docs/reliability.md`` quotes. A
partial run updates only the areas it ran, so the file always holds each area's last run.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from soba_bench.jsonio import atomic_write_bytes

ARTIFACT = Path(__file__).resolve().parents[1] / "artifacts" / "reliability.json"
SCHEMA_VERSION = 1

_FIGURES: defaultdict[str, Counter] = defaultdict(Counter)


def tally(area: str, key: str = "inputs", n: int = 1) -> None:
    """Add ``n`` to figure ``key`` of ``area`` (e.g. ``tally("session strict", "rejected")``)."""
    _FIGURES[area][key] += n


def snapshot() -> dict[str, dict[str, int]]:
    return {area: dict(counts) for area, counts in _FIGURES.items()}


def flush(path: Path = ARTIFACT) -> None:
    """Merge this run's figures into the artifact (areas of this run replace older ones)."""
    if not _FIGURES:
        return
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data.get("schemaVersion") == SCHEMA_VERSION
    except (OSError, ValueError, AssertionError):
        data = {"schemaVersion": SCHEMA_VERSION, "areas": {}}
    stamp = datetime.now(UTC).isoformat(timespec="seconds")
    for area, counts in snapshot().items():
        data["areas"][area] = {**counts, "at": stamp}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
