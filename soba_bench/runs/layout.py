"""The layout of one run folder. Every file is written atomically; ``run.json`` is written
last, so a folder without it is an unfinished run.

    run.json                 the self-describing run record (status complete | failed)
    sessions.jsonl           one row per replayed session
    replays/<name>.jsonl.gz  the replayed session (SOBA format, capsules included)
    barriers/<name>.jsonl.gz every barrier (conformance check/attempt lines)
    capsules/<name>.jsonl.gz the capsules the engine wrote (SOBA context_capsule entries)
    events.jsonl.gz          the engine's event log, every session (``session`` field added)
    tables/attempts.parquet  one row per compaction attempt (sweep jobs)
    tables/barriers.parquet  one row per barrier (sweep jobs)
    scores/*.jsonl           score tables (rows, summaries, quality, findings, drift, tables)
    reused.json              instead of all the above: a resumed sweep found this job's
                             complete record elsewhere (its path and the job key)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import atomic_write_bytes, encode_jsonl
from soba_bench.runs.record import RunRecord, SessionRow, load_record, load_sessions
from soba_bench.secrets_scan import scrub_value

SCORE_TABLES = ("rows", "summaries", "quality", "findings", "drift", "sessions", "corpus")
# What a job writes besides run.json; an unfinished job's leftovers are removed before a redo.
OUTPUTS = (
    "sessions.jsonl",
    "replays",
    "barriers",
    "capsules",
    "events.jsonl.gz",
    "tables",
    "scores",
)


@dataclass(frozen=True)
class RunLayout:
    """Where each file of one run folder lives, and the typed readers of its records."""

    root: Path

    @property
    def record(self) -> Path:
        return self.root / "run.json"

    @property
    def sessions(self) -> Path:
        return self.root / "sessions.jsonl"

    def replay(self, name: str) -> Path:
        return self.root / "replays" / f"{name}.jsonl.gz"

    def barriers(self, name: str) -> Path:
        return self.root / "barriers" / f"{name}.jsonl.gz"

    def capsules(self, name: str) -> Path:
        return self.root / "capsules" / f"{name}.jsonl.gz"

    @property
    def events(self) -> Path:
        return self.root / "events.jsonl.gz"

    def table(self, name: str) -> Path:
        return self.root / "tables" / f"{name}.parquet"

    @property
    def reused(self) -> Path:
        return self.root / "reused.json"

    def scores(self, table: str, scores_dir: Path | None = None) -> Path:
        return (scores_dir or self.root / "scores") / f"{table}.jsonl"

    def scored(self, scores_dir: Path | None = None) -> Path:
        """Which scorers the score tables beside it hold (:class:`ScoredTables`)."""
        return (scores_dir or self.root / "scores") / "scored.json"

    def output_paths(self, names: list[str]) -> dict[Path, str]:
        """Every file a job writes per session name; raises when two names map to one path
        (the second would silently overwrite the first's replay, barriers and capsules)."""
        paths: dict[Path, str] = {}
        for name in names:
            for path in (self.replay(name), self.barriers(name), self.capsules(name)):
                # Case-insensitive file systems fold names: compare folded.
                key = Path(str(path).casefold())
                if key in paths:
                    raise InputError(
                        f"two sessions would write one output file {path} "
                        f"(session {paths[key]!r} and session {name!r})",
                        field="session",
                        value=name,
                        has_value=True,
                        expected="distinct corpus/session names",
                    )
                paths[key] = name
        return paths

    def complete_record(self, key: str | None = None) -> RunRecord | None:
        """The run record if it is readable and complete (and, given ``key``, of that job
        key); None otherwise, so resume redoes a job whose record is damaged or failed."""
        try:
            record = load_record(self.record)
        except InputError:
            return None
        if not record.complete:
            return None
        if key is not None and record.job_key != key:
            return None
        return record

    def clear_outputs(self) -> None:
        """Remove what an unfinished or superseded job left (never .hydra or logs)."""
        for name in (*OUTPUTS, "run.json", "reused.json"):
            path = self.root / name
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)

    def check_folder(self) -> None:
        """Raise unless the root is a folder holding a run.json."""
        if self.root.exists() and not self.root.is_dir():
            raise InputError(
                "not a folder",
                path=str(self.root),
                expected="a run folder written by 'soba-bench run'",
            )
        if not self.record.exists():
            raise InputError(
                "not a complete run folder (no run.json)",
                path=str(self.root),
                expected="a folder written by 'soba-bench run'",
            )

    def read_record(self) -> RunRecord:
        """The validated run record of this folder."""
        self.check_folder()
        return load_record(self.record)

    def read_sessions(self) -> list[SessionRow]:
        """The validated rows of sessions.jsonl."""
        self.check_folder()
        if not self.sessions.exists():
            raise InputError("run folder has no sessions.jsonl", path=str(self.root))
        return load_sessions(self.sessions)


# Run folders are written once per job and read rarely: fast gzip beats small files.
GZIP_LEVEL = 1


def write_jsonl(path: Path, rows: list[dict[str, Any]], *, raw: bool = False) -> str:
    """Rows as JSONL, gzip when the name ends in .gz, atomically; returns the sha256 of the
    bytes written. Credentials are replaced by typed markers (:mod:`soba_bench.secrets_scan`)
    unless ``raw``: the replay is the lossless record ``score`` re-reads, and capsules are the
    engine's (SOBA's sanitizer rules)."""
    payload = encode_jsonl(rows if raw else (scrub_value(row) for row in rows))
    if str(path).endswith(".gz"):
        payload = gzip.compress(payload, compresslevel=GZIP_LEVEL, mtime=0)
    atomic_write_bytes(path, payload)
    return hashlib.sha256(payload).hexdigest()


def write_json(path: Path, data: Any) -> None:
    """One JSON document, indented, atomically, credentials replaced by typed markers."""
    text = json.dumps(scrub_value(data), indent=1, ensure_ascii=False) + "\n"
    atomic_write_bytes(path, text.encode())
