"""A job's per-attempt and per-barrier tables as Parquet (pandas + pyarrow; the sweep stage may
use them, the core stages never do). Every row carries the job's key and its varied settings,
so the tables of a whole sweep concatenate into one tidy frame."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from soba_bench.jsonio import atomic_write_bytes
from soba_bench.secrets_scan import scrub_value


def _flat(value: Any) -> Any:
    # Parquet wants one type per column: nested structures go in as JSON text.
    if isinstance(value, dict) or (
        isinstance(value, list) and any(isinstance(v, dict | list) for v in value)
    ):
        return json.dumps(value, sort_keys=True)
    return value


def write_parquet(path: Path, rows: list[dict[str, Any]]) -> int:
    """Write rows (dicts; missing keys are nulls) atomically as a Parquet file; returns the
    row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [scrub_value(row) for row in rows]  # credentials as typed markers
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    columns = {}
    for name in names:
        values = [row.get(name) for row in rows]
        try:
            columns[name] = pa.array(values)
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            columns[name] = pa.array([_flat(v) for v in values])
    table = pa.table(columns) if columns else pa.table({})
    buffer = io.BytesIO()
    pq.write_table(table, buffer)
    atomic_write_bytes(path, buffer.getvalue())
    return table.num_rows


def read_table(path: str | Path):
    """A Parquet table as a pandas DataFrame."""
    import pandas as pd

    return pd.read_parquet(path, engine="pyarrow")
