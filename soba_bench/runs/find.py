"""Finding run records under a results folder.

A results folder may be one run folder (``run.json``), a sweep folder (job folders, some of
which hold a ``reused.json`` pointer to an earlier complete record) or a results root with
many of both. What a job is comes from its ``run.json`` only, never from folder names.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.runs.record import ReusedPointer, RunRecord, load_record

# Folders that never hold a job's record: Hydra's copies, the resume index, our own output.
SKIP_DIRS = frozenset({".hydra", ".index", "report", "replays", "barriers", "capsules", "scores"})


@dataclass(frozen=True)
class FoundRecord:
    """One job's record: its folder, the validated run.json, and the pointer that led there."""

    folder: Path
    run: RunRecord
    via: Path | None = None  # the reused.json that pointed here, if any

    @property
    def record(self) -> dict[str, Any]:
        """The run.json as parsed (validated by :class:`RunRecord`), for fields read raw."""
        return self.run.raw


def _names(folder: Path) -> list[str]:
    try:
        return sorted(p.name for p in folder.iterdir())
    except OSError as exc:
        raise InputError(f"cannot list folder: {exc.strerror or exc}", path=str(folder)) from None


def _walk(root: Path) -> Iterator[Path]:
    """Folders under root (root included) holding run.json or reused.json, in sorted order."""
    stack = [root]
    while stack:
        folder = stack.pop()
        names = _names(folder) if folder.is_dir() else []
        if "run.json" in names or "reused.json" in names:
            yield folder
            if "run.json" in names:
                continue  # a job folder holds no other job
        subdirs = [
            folder / n
            for n in names
            if n not in SKIP_DIRS and (folder / n).is_dir() and not (folder / n).is_symlink()
        ]
        stack.extend(reversed(subdirs))


def find_records(path: Path) -> tuple[list[FoundRecord], list[str]]:
    """Every job record under ``path`` (reused pointers followed, each folder once), and notes
    on pointers that lead nowhere. Raises InputError when there is no record at all, or when
    a record or pointer is damaged (naming its file, field and value)."""
    path = Path(path)
    if not path.exists():
        raise InputError(
            "not a folder (nothing at this path)",
            path=str(path),
            expected="a run, sweep or results folder",
        )
    if not path.is_dir():
        raise InputError("not a folder", path=str(path), expected="a run, sweep or results folder")
    found: dict[Path, FoundRecord] = {}
    notes: list[str] = []
    for folder in _walk(path):
        via = None
        if (folder / "run.json").exists():
            target = folder
        else:
            via = folder / "reused.json"
            pointer = ReusedPointer.load(via)
            target = pointer.record.parent
            if not (target / "run.json").is_file():
                notes.append(f"{via}: points at {pointer.record}, which no longer exists")
                continue
        key = target.resolve()
        if key in found:
            continue  # an earlier pointer (or the record itself) already counted it
        found[key] = FoundRecord(target, load_record(target / "run.json"), via)
    if not found:
        raise InputError(
            "no run record (run.json) here or below",
            path=str(path),
            expected="a folder written by 'soba-bench run' or 'soba-bench sweep'",
        )
    return sorted(found.values(), key=_order), notes


def _order(item: FoundRecord) -> tuple[str, int, str]:
    """Sweep folder, then the job's number in its sweep (so job 10 follows job 9)."""
    num = item.run.job.num
    return (str(item.folder.parent), num if num is not None else -1, str(item.folder))
