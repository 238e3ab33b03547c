"""Progress for runs and sweeps: a tqdm bar per job (sessions) and per sweep (jobs), and one
line per finished job. Bars only on a terminal and never in CI (``CI`` set); the one-line job
summaries are always printed (they are the sweep's log).

Jobs may run in other processes (joblib, Ray, submitit), so a finished job drops a small
marker file in ``<sweep dir>/.progress/``; the :class:`SweepMonitor` thread in the launching
process turns markers into bar updates and summary lines.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

from tqdm import tqdm

from soba_bench.jsonio import atomic_write_bytes

MARKERS = ".progress"
POLL_SECONDS = 0.25


def bars_enabled(setting: bool | None = None, stream: Any = None) -> bool:
    """True/False as configured; None (auto): a terminal, and not in CI."""
    if setting is not None:
        return bool(setting)
    stream = stream or sys.stderr
    if os.environ.get("CI"):
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def job_bar(total: int, desc: str, enabled: bool, position: int = 0, leave: bool = True) -> tqdm:
    return tqdm(
        total=total,
        desc=desc,
        unit="session",
        disable=not enabled,
        position=position,
        leave=leave,
        dynamic_ncols=True,
        file=sys.stderr,
    )


def mark_done(sweep_dir: Path, job_id: str, status: str, line: str) -> None:
    """Tell the sweep's monitor that a job finished (complete, failed or reused)."""
    payload = json.dumps({"jobId": job_id, "status": status, "line": line}) + "\n"
    atomic_write_bytes(sweep_dir / MARKERS / f"{job_id}.json", payload.encode("utf-8"))


class SweepMonitor:
    """Polls a sweep folder's markers: a bar over jobs and a summary line per job."""

    def __init__(self, sweep_dir: Path, total: int | None, bars: bool, name: str) -> None:
        self.sweep_dir = sweep_dir
        self.markers = sweep_dir / MARKERS
        self.seen: dict[str, dict[str, Any]] = {}
        self.bar = tqdm(
            total=total, desc=f"sweep {name}", unit="job", disable=not bars, file=sys.stderr
        )
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="soba-bench-sweep", daemon=True)

    def start(self) -> SweepMonitor:
        shutil.rmtree(self.markers, ignore_errors=True)  # markers of an earlier run
        self.markers.mkdir(parents=True, exist_ok=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            self.poll()

    def poll(self) -> None:
        try:
            names = sorted(p.name for p in self.markers.glob("*.json"))
        except OSError:
            return
        for name in names:
            if name in self.seen:
                continue
            try:
                marker = json.loads((self.markers / name).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # being written: next poll
            self.seen[name] = marker
            self.bar.write(marker["line"], file=sys.stdout)
            sys.stdout.flush()
            self.bar.update(1)

    def stop(self) -> dict[str, int]:
        """Stop polling (after a last poll); counts of jobs by status."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self.poll()
        self.bar.close()
        shutil.rmtree(self.markers, ignore_errors=True)
        counts: dict[str, int] = {}
        for marker in self.seen.values():
            counts[marker["status"]] = counts.get(marker["status"], 0) + 1
        return counts
