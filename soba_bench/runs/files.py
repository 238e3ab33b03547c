"""Reading the Parquet tables of a run folder with the loaders' error discipline (the JSON and
JSONL files are read by :mod:`soba_bench.jsonio`): a missing, folder or garbage table ends in
one :class:`InputError` naming the file, never in a traceback."""

from __future__ import annotations

from pathlib import Path

from soba_bench.errors import InputError


def read_parquet(path: Path):
    """A Parquet table as a pandas DataFrame, or an InputError naming the file."""
    import pandas as pd
    import pyarrow as pa

    if path.is_dir():
        raise InputError("is a directory, expected a Parquet table", path=str(path))
    try:
        return pd.read_parquet(path, engine="pyarrow")
    except FileNotFoundError:
        raise InputError("Parquet table not found", path=str(path)) from None
    except (pa.ArrowException, OSError, ValueError, TypeError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"not a readable Parquet table ({reason})", path=str(path)) from None
