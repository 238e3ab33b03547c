"""Token counts shared across processes: a SQLite file of (meter, item hash) -> count.

A sweep replays the same sessions under many configs, often in several worker processes at
once. :class:`CachedMeter` keeps counts per process; with a :class:`CountStore` attached it
also starts from every count any earlier job wrote, and adds its own at the end of a job.

Safe under concurrent writers: WAL journal, a busy timeout, and ``INSERT OR IGNORE`` (an
item's count is a pure function of its bytes, so whichever writer wins wrote the same value).
SOBA's estimator needs no store: estimating is cheaper than a lookup.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from soba_bench.sqlite_wal import enable_wal, insert_rows

_SCHEMA = """
CREATE TABLE IF NOT EXISTS counts (
    meter TEXT NOT NULL,
    key BLOB NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (meter, key)
) WITHOUT ROWID
"""
BUSY_TIMEOUT_S = 60.0


class CountStore:
    """One meter's counts in a shared SQLite file. Reads once (``load``), writes in batches
    (``add`` buffers, ``flush`` commits)."""

    def __init__(self, path: str | Path, meter: str) -> None:
        self.path = Path(path)
        self.meter = meter
        self._pending: list[tuple[str, bytes, int]] = []
        self.loaded = 0
        self.written = 0

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S)
        enable_wal(conn, BUSY_TIMEOUT_S)
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(_SCHEMA)
        return conn

    def load(self) -> dict[bytes, int]:
        """Every count stored for this meter."""
        conn = self._connect()
        try:
            rows = conn.execute(
                "SELECT key, count FROM counts WHERE meter = ?", (self.meter,)
            ).fetchall()
        finally:
            conn.close()
        self.loaded = len(rows)
        return {bytes(key): count for key, count in rows}

    def add(self, key: bytes, count: int) -> None:
        self._pending.append((self.meter, key, count))

    def flush(self) -> int:
        """Commit the buffered counts; returns how many were buffered."""
        if not self._pending:
            return 0
        pending, self._pending = self._pending, []
        sql = "INSERT OR IGNORE INTO counts (meter, key, count) VALUES (?, ?, ?)"
        insert_rows(self._connect(), sql, pending)
        self.written += len(pending)
        return len(pending)
