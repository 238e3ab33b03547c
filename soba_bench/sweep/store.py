"""The layout of one run folder (the results store). Every file is written atomically;
``run.json`` is written last, so a folder without it is an unfinished run.

    run.json                 the self-describing run record
    sessions.jsonl           one row per replayed session
    replays/<name>.jsonl.gz  the replayed session (SOBA format, capsules included)
    barriers/<name>.jsonl.gz every barrier (conformance check/attempt lines)
    scores/*.jsonl           score tables (rows, summaries, quality, findings, drift, tables)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.session.jsonl import atomic_write_bytes, encode_jsonl

SCORE_TABLES = ("rows", "summaries", "quality", "findings", "drift", "sessions", "corpus")


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


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, encode_jsonl(rows, gz=str(path).endswith(".gz")))
