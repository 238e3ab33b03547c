"""The model response cache: one SQLite file of answers keyed by (model, full request).

Runs that share a cache never pay twice for the same summary, and a run recorded once can be
replayed offline, byte for byte, in ``read-only`` mode, where a miss is an error rather than a
silent model call. Every answer keeps the latency measured when it was recorded, so a replay
on the virtual clock reproduces the same timeouts.

Several processes (a sweep's workers) may share one file: WAL journal, a busy timeout, and
``INSERT OR IGNORE`` so that the first answer stored for a key is the one everybody replays.
Only answers are stored; a failed call is not, so it is retried next time.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import ConfigError, HarnessFault, UnknownNameError
from soba_bench.sqlite_wal import enable_wal

# 2: request bodies in SOBA's wire shape ("stream": false, "max_tokens" unless SOBA's rules
# pick "max_completion_tokens"). Version 1 files are upgraded by cache_migrate.
SCHEMA_VERSION = 2
READ_WRITE, READ_ONLY, OFF = "read-write", "read-only", "off"
MODES = {READ_WRITE: READ_WRITE, "rw": READ_WRITE, READ_ONLY: READ_ONLY, "replay": READ_ONLY}
MODES[OFF] = OFF
BUSY_TIMEOUT_MS = 60_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    text TEXT NOT NULL,
    latency_ms REAL NOT NULL,
    finish_reason TEXT,
    usage TEXT,
    endpoint TEXT,
    created_at TEXT NOT NULL
);
"""


class CacheMissError(HarnessFault):
    """A replay (read-only cache) needed an answer that was never recorded."""


@dataclass(frozen=True)
class CachedReply:
    text: str
    latency_ms: float
    finish_reason: str | None = None
    usage: dict[str, Any] | None = None


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def request_key(model: str, request: dict[str, Any]) -> str:
    """The cache key: the model and the whole request body. The endpoint address is not part
    of it, so answers recorded from a local server on one port replay on any other."""
    return hashlib.sha256(canonical_json({"model": model, "request": request}).encode()).hexdigest()


def normalize_mode(mode: str) -> str:
    try:
        return MODES[mode]
    except KeyError:
        raise UnknownNameError("cache mode", mode, sorted(MODES)) from None


class ResponseCache:
    """One cache file in one mode. Thread-safe (the real clock calls models from a worker
    thread) and fork-safe (a connection is never reused in a child process)."""

    def __init__(self, path: str | Path, mode: str = READ_WRITE) -> None:
        self.mode = normalize_mode(mode)
        if self.mode == OFF:
            raise ConfigError("cache mode 'off' has no cache file; use no ResponseCache")
        self.path = Path(path)
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._pid = -1
        if self.mode == READ_ONLY and not self.path.is_file():
            raise HarnessFault(
                f"response cache {self.path} does not exist; a read-only (replay) cache must "
                "have been recorded first with cache mode read-write"
            )

    def _connect(self) -> sqlite3.Connection:
        if self._conn is not None and self._pid == os.getpid():
            return self._conn
        if self.mode == READ_ONLY:
            uri = self.path.resolve().as_uri() + "?mode=ro"
            conn = sqlite3.connect(
                uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            enable_wal(conn, BUSY_TIMEOUT_MS / 1000)
            with conn:
                conn.executescript(_SCHEMA)
                conn.execute(
                    "INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                    (str(SCHEMA_VERSION),),
                )
        self._check_version(conn)
        self._conn, self._pid = conn, os.getpid()
        return conn

    def _check_version(self, conn: sqlite3.Connection) -> None:
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise HarnessFault(f"response cache {self.path} is not readable: {exc}") from None
        if row is None or row[0] != str(SCHEMA_VERSION):
            found = None if row is None else row[0]
            hint = ""
            if found == "1":
                hint = (
                    "; upgrade it with `python -m soba_bench.models.cache_migrate "
                    f"{self.path} {self.path}`"
                )
            raise HarnessFault(
                f"response cache {self.path} has schema version {found}; this soba-bench "
                f"reads version {SCHEMA_VERSION}{hint}"
            )

    def get(self, key: str) -> CachedReply | None:
        with self._lock:
            row = (
                self._connect()
                .execute(
                    "SELECT text, latency_ms, finish_reason, usage FROM responses WHERE key = ?",
                    (key,),
                )
                .fetchone()
            )
        if row is None:
            return None
        return CachedReply(row[0], row[1], row[2], json.loads(row[3]) if row[3] else None)

    def require(self, key: str, model: str) -> CachedReply:
        """``get`` for replay mode: a miss names the cache, the model and the key."""
        reply = self.get(key)
        if reply is None:
            raise CacheMissError(
                f"response cache {self.path} (read-only) has no answer for model {model!r}, "
                f"request {key[:16]}; record it with cache mode read-write against a live "
                "endpoint, or check that prompt, model and engine config match the recording"
            )
        return reply

    def put(
        self,
        key: str,
        model: str,
        request: dict[str, Any],
        reply: CachedReply,
        endpoint: str | None = None,
    ) -> None:
        if self.mode != READ_WRITE:
            return
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        usage = canonical_json(reply.usage) if reply.usage is not None else None
        row = (
            key,
            model,
            canonical_json(request),
            reply.text,
            float(reply.latency_ms),
            reply.finish_reason,
            usage,
            endpoint,
            stamp,
        )
        with self._lock:
            conn = self._connect()
            with conn:
                conn.execute("INSERT OR IGNORE INTO responses VALUES (?,?,?,?,?,?,?,?,?)", row)

    def latencies(self, model: str | None = None) -> list[float]:
        """Every recorded latency (for the empirical latency model), oldest first."""
        sql = "SELECT latency_ms FROM responses"
        args: tuple[Any, ...] = ()
        if model is not None:
            sql, args = sql + " WHERE model = ?", (model,)
        with self._lock:
            rows = self._connect().execute(sql + " ORDER BY rowid", args).fetchall()
        return [r[0] for r in rows]

    def __len__(self) -> int:
        with self._lock:
            return self._connect().execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            if self._conn is not None and self._pid == os.getpid():
                self._conn.close()
            self._conn = None

    def describe(self) -> dict[str, Any]:
        return {"mode": self.mode, "path": str(self.path)}


def open_cache(path: str | Path | None, mode: str = READ_WRITE) -> ResponseCache | None:
    """The cache for a summarizer config (default path: :func:`default_cache_path`); None
    when the mode is ``off``."""
    mode = normalize_mode(mode)
    if mode == OFF:
        return None
    return ResponseCache(default_cache_path() if path is None else path, mode)


def default_cache_path() -> Path:
    """``$SOBA_BENCH_CACHE`` if set, else ``~/.cache/soba-bench/responses.sqlite``."""
    env = os.environ.get("SOBA_BENCH_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "soba-bench" / "responses.sqlite"
