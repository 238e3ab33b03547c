"""Figures the reliability tier records (inputs tried, faults injected, outcomes seen).

Tests call :func:`tally`; at the end of the session ``conftest.py`` merges the figures into
``tests/artifacts/reliability.json`` (git-ignored), which ``docs/reliability.md`` quotes. A
partial run updates only the areas it ran, so the file always holds each area's last run.
Under pytest-xdist each worker process flushes its own share of the run: workers of one run add
their counts to each other's (they share PYTEST_XDIST_TESTRUNUID), under a file lock.
"""

from __future__ import annotations

import fcntl
import json
import os
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from soba_bench.jsonio import atomic_write_bytes

ARTIFACT = Path(__file__).resolve().parents[1] / "artifacts" / "reliability.json"
SCHEMA_VERSION = 1
# One id per test run, the same in every xdist worker of that run.
RUN_ID = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex

META = {"at", "run"}  # an area's keys that are not counts

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
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another worker of this run may be merging too
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            assert data.get("schemaVersion") == SCHEMA_VERSION
        except (OSError, ValueError, AssertionError):
            data = {"schemaVersion": SCHEMA_VERSION, "areas": {}}
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        for area, counts in snapshot().items():
            old = data["areas"].get(area, {})
            if old.get("run") == RUN_ID:  # this run's other worker: add up
                counts = {k: counts.get(k, 0) + old.get(k, 0) for k in {*counts, *old} - META}
            data["areas"][area] = {**counts, "at": stamp, "run": RUN_ID}
        atomic_write_bytes(path, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())
