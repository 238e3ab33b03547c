"""Typed reading of a run folder's score tables (``scores/*.jsonl``): every row must be an
object and every field a reader uses must have its JSON type, so a damaged table is one
InputError naming the file, the line, the field and the value instead of a failure deep in a
report. Fields a reader does not name are passed through unchecked (scorers add columns)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import read_jsonl

# The field kinds a table schema may name. "label" is a string or an integer (a capsule's
# generation is 1, 2, ... or "final"); "records" an array of objects.
_KINDS = {
    "string": "a string",
    "number": "a finite number",
    "boolean": "true or false",
    "label": "a string or an integer",
    "records": "an array of objects",
    "object": "an object",
}


def _fits(value: Any, kind: str) -> bool:
    if value is None:
        return True
    if kind == "string":
        return isinstance(value, str)
    if kind == "number":
        return (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "label":
        return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
    if kind == "records":
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    if kind == "object":
        return isinstance(value, dict)
    raise ValueError(f"unknown field kind {kind!r}")


def check_row(
    row: Mapping[str, Any], fields: Mapping[str, str], path: Path, line: int | None
) -> None:
    """Raise unless each named field of ``row`` is absent, null or of its kind (a kind ending
    in ``!`` is required: present and not null). A dotted name (``dimensions.score``) checks
    that field of every object in an array of objects."""
    for name, kind in fields.items():
        required = kind.endswith("!")
        kind = kind.rstrip("!")
        head, _, rest = name.partition(".")
        if rest:
            for item in row.get(head) or []:
                check_row(item, {rest: kind + ("!" if required else "")}, path, line)
            continue
        value = row.get(name)
        if required and value is None:
            raise InputError(
                "missing field",
                path=str(path),
                line=line,
                field=name,
                expected=_KINDS[kind],
            )
        if not _fits(value, kind):
            raise InputError(
                "wrong type",
                path=str(path),
                line=line,
                field=name,
                value=value,
                has_value=True,
                expected=_KINDS[kind] + " or null",
            )


def load_table(path: Path, fields: Mapping[str, str]) -> list[dict[str, Any]]:
    """The rows of a JSONL score table, each checked against ``fields`` (name -> kind)."""
    rows = read_jsonl(Path(path), "score table")
    for number, row in enumerate(rows, 1):
        check_row(row, fields, Path(path), number)
    return rows
