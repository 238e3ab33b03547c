"""The layout of one run folder (the results store). Every file is written atomically;
``run.json`` is written last, so a folder without it is an unfinished run.

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

A sweep's results root (``results/<sweep name>/``) keeps ``.index/<job key>.json``, pointing at
the complete record of each job key, so re-running a sweep skips finished jobs.
"""

from __future__ import annotations

import gzip
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.session.jsonl import atomic_write_bytes, encode_jsonl

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

    def complete_record(self, key: str | None = None) -> dict[str, Any] | None:
        """The run record if it is complete (and, given ``key``, of that job key)."""
        try:
            record = json.loads(self.record.read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        if not isinstance(record, dict) or record.get("status") != "complete":
            return None
        if key is not None and record.get("jobKey") != key:
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

    def scores(self, table: str, scores_dir: Path | None = None) -> Path:
        return (scores_dir or self.root / "scores") / f"{table}.jsonl"

    def read_record(self) -> dict[str, Any]:
        try:
            data = json.loads(self.record.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(
                "not a complete run folder (no run.json)",
                path=str(self.root),
                expected="a folder written by 'soba-bench run'",
            ) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise InputError(f"run.json is not valid JSON ({exc})", path=str(self.record)) from None
        return data

    def read_sessions(self) -> list[dict[str, Any]]:
        try:
            text = self.sessions.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError("run folder has no sessions.jsonl", path=str(self.root)) from None
        return [json.loads(line) for line in text.splitlines() if line.strip()]


# Run folders are written once per job and read rarely: fast gzip beats small files.
GZIP_LEVEL = 1


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    payload = encode_jsonl(rows)
    if str(path).endswith(".gz"):
        payload = gzip.compress(payload, compresslevel=GZIP_LEVEL, mtime=0)
    atomic_write_bytes(path, payload)


def write_json(path: Path, data: Any) -> None:
    atomic_write_bytes(path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())


@dataclass(frozen=True)
class JobIndex:
    """job key -> the folder of its complete record, under a sweep's results root."""

    root: Path

    def _entry(self, key: str) -> Path:
        return self.root / ".index" / f"{key}.json"

    def lookup(self, key: str) -> Path | None:
        """The folder of a complete record with this key, if one still exists."""
        try:
            entry = json.loads(self._entry(key).read_text(encoding="utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            return None
        folder = self.root / entry.get("folder", "")
        return folder if RunLayout(folder).complete_record(key) is not None else None

    def add(self, key: str, folder: Path) -> None:
        try:
            relative = folder.resolve().relative_to(self.root.resolve())
        except ValueError:
            return  # a job outside this results root is not indexed here
        write_json(self._entry(key), {"jobKey": key, "folder": str(relative)})
