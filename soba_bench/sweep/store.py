"""The results store: run folders (layout in :mod:`soba_bench.runs.layout`) and the resume index.

A sweep's results root (``results/<sweep name>/``) keeps ``.index/<job key>.json``, pointing at
the complete record of each job key, so re-running a sweep skips finished jobs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from soba_bench.errors import InputError
from soba_bench.jsonio import read_json_object
from soba_bench.runs.layout import RunLayout, write_json


@dataclass(frozen=True)
class JobIndex:
    """job key -> the folder of its complete record, under a sweep's results root."""

    root: Path

    def _entry(self, key: str) -> Path:
        return self.root / ".index" / f"{key}.json"

    def lookup(self, key: str) -> Path | None:
        """The folder of a complete record with this key, if one still exists. A damaged index
        entry is no entry: the job is redone rather than trusted."""
        try:
            entry = read_json_object(self._entry(key), "job index entry")
        except InputError:
            return None
        if not isinstance(entry.get("folder"), str) or not entry["folder"]:
            return None
        folder = self.root / entry["folder"]
        return folder if RunLayout(folder).complete_record(key) is not None else None

    def add(self, key: str, folder: Path) -> None:
        try:
            relative = folder.resolve().relative_to(self.root.resolve())
        except ValueError:
            return  # a job outside this results root is not indexed here
        write_json(self._entry(key), {"jobKey": key, "folder": str(relative)})
