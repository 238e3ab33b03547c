"""Finding run records under a results folder and reading their files: the readers live in
:mod:`soba_bench.runs` (typed, versioned, safe on damaged files); re-exported here for the
report modules."""

from __future__ import annotations

from soba_bench.runs.files import read_json, read_jsonl
from soba_bench.runs.find import SKIP_DIRS, FoundRecord, find_records

__all__ = ["SKIP_DIRS", "FoundRecord", "find_records", "read_json", "read_jsonl"]
