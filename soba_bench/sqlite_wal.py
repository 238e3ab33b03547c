"""SQLite files that several processes open at once (the response cache, the token-count
store): switch them to WAL, which SQLite cannot always do under contention."""

from __future__ import annotations

import random
import sqlite3
import time


def enable_wal(conn: sqlite3.Connection, timeout_s: float) -> None:
    """Put ``conn``'s database in WAL mode, retrying while another process holds it.

    Changing the journal mode needs an exclusive lock, and while a brand-new file is being
    created by another process SQLite reports ``database is locked`` at once instead of
    waiting for the busy timeout; two workers creating the same cache would otherwise fail at
    random. Once the file is in WAL mode the pragma is a no-op that takes no lock."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if time.monotonic() >= deadline:
                raise
            time.sleep(0.01 + random.random() * 0.04)  # jitter: the two writers desynchronise


def insert_rows(conn: sqlite3.Connection, sql: str, rows: list[tuple]) -> None:
    """Run ``sql`` for every row in one transaction, then close ``conn`` (the shared stores
    commit what a job buffered this way)."""
    try:
        with conn:
            conn.executemany(sql, rows)
    finally:
        conn.close()
