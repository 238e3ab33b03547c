"""Finding run records under a results folder and reading their files.

A results folder may be one run folder (``run.json``), a sweep folder (job folders, some of
which hold a ``reused.json`` pointer to an earlier complete record) or a results root with
many of both. What a job is comes from its ``run.json`` only, never from folder names.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError

# Folders that never hold a job's record: Hydra's copies, the resume index, our own output.
SKIP_DIRS = frozenset({".hydra", ".index", "report", "replays", "barriers", "capsules", "scores"})


@dataclass(frozen=True)
class FoundRecord:
    """One job's record: its folder, the parsed run.json, and the pointer that led there."""

    folder: Path
    record: dict[str, Any]
    via: Path | None = None  # the reused.json that pointed here, if any


def _walk(root: Path):
    """Folders under root (root included) holding run.json or reused.json, in sorted order."""
    stack = [root]
    while stack:
        folder = stack.pop()
        names = sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []
        if "run.json" in names or "reused.json" in names:
            yield folder
            if "run.json" in names:
                continue  # a job folder holds no other job
        subdirs = [folder / n for n in names if n not in SKIP_DIRS and (folder / n).is_dir()]
        stack.extend(reversed(subdirs))


def read_json(path: Path) -> Any:
    """A JSON file, or an InputError naming it."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError("file not found", path=str(path)) from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputError(f"not valid JSON ({exc})", path=str(path)) from None


def find_records(path: Path) -> tuple[list[FoundRecord], list[str]]:
    """Every job record under ``path`` (reused pointers followed, each folder once), and notes
    on pointers that lead nowhere. Raises InputError when there is no record at all."""
    path = Path(path)
    if not path.is_dir():
        raise InputError("not a folder", path=str(path), expected="a run, sweep or results folder")
    found: dict[Path, FoundRecord] = {}
    notes: list[str] = []
    for folder in _walk(path):
        via = None
        if (folder / "run.json").is_file():
            target = folder
        else:
            via = folder / "reused.json"
            pointer = read_json(via)
            record_path = pointer.get("record") if isinstance(pointer, dict) else None
            if not isinstance(record_path, str):
                raise InputError(
                    "reused.json has no record path",
                    path=str(via),
                    field="record",
                    value=record_path,
                    has_value=True,
                    expected="the path of the complete run.json it reuses",
                )
            target = Path(record_path).parent
            if not (target / "run.json").is_file():
                notes.append(f"{via}: points at {record_path}, which no longer exists")
                continue
        key = target.resolve()
        if key in found:
            continue  # an earlier pointer (or the record itself) already counted it
        record = read_json(target / "run.json")
        if not isinstance(record, dict):
            raise InputError("run.json is not an object", path=str(target / "run.json"))
        found[key] = FoundRecord(target, record, via)
    if not found:
        raise InputError(
            "no run record (run.json) here or below",
            path=str(path),
            expected="a folder written by 'soba-bench run' or 'soba-bench sweep'",
        )
    return sorted(found.values(), key=_order), notes


def _order(item: FoundRecord) -> tuple[str, int, str]:
    """Sweep folder, then the job's number in its sweep (so job 10 follows job 9)."""
    num = (item.record.get("job") or {}).get("num")
    return (str(item.folder.parent), num if isinstance(num, int) else -1, str(item.folder))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Rows of a JSONL file (gzip when the name ends in .gz); an InputError names the line."""
    opener = gzip.open if path.name.endswith(".gz") else open
    rows: list[dict[str, Any]] = []
    with opener(path, "rt", encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise InputError(f"not valid JSON ({exc})", path=str(path), line=number) from None
            if not isinstance(row, dict):
                raise InputError("a line is not a JSON object", path=str(path), line=number)
            rows.append(row)
    return rows
