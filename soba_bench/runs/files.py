"""Reading the files of a run folder with the loaders' error discipline: whatever is wrong with
a file (missing, a folder, unreadable, truncated gzip, not UTF-8, not JSON, nested deeper than
the parser's stack, garbage Parquet) ends in one :class:`InputError` naming the file (and the
line), never in a traceback."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError, json_error_text

GZIP_MAGIC = b"\x1f\x8b"


def read_file_bytes(path: Path, what: str = "file") -> bytes:
    """The bytes of a file (gunzipped when it is gzip, detected by content), or an InputError
    that says why not: missing, a folder, permission denied, corrupt gzip."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} not found", path=str(path)) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, expected a {what}", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None
    if raw[:2] == GZIP_MAGIC:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"corrupt gzip data ({exc})", path=str(path)) from None
    return raw


def _decode(raw: bytes, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (byte {exc.start}: {exc.reason})", path=str(path)
        ) from None


def parse_json(text: str, path: Path, line: int | None = None) -> Any:
    """One JSON document; an InputError names the file, line and column of a syntax error."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON ({json_error_text(exc)})", path=str(path), line=line
        ) from None
    except RecursionError:  # nesting deeper than the parser's stack
        raise InputError("JSON nested too deeply", path=str(path), line=line) from None
    except ValueError as exc:  # an integer literal too long to convert
        raise InputError(f"not valid JSON ({exc})", path=str(path), line=line) from None


def read_json(path: Path, what: str = "JSON file") -> Any:
    """A JSON file (gzip allowed), or an InputError naming it."""
    return parse_json(_decode(read_file_bytes(path, what), path), path)


def read_json_object(path: Path, what: str = "JSON file") -> dict[str, Any]:
    """A JSON file that must hold one object."""
    data = read_json(path, what)
    if not isinstance(data, dict):
        raise InputError(
            f"{what} is not a JSON object",
            path=str(path),
            value=type(data).__name__,
            has_value=True,
            expected="an object {...}",
        )
    return data


def read_jsonl(path: Path, what: str = "JSONL file") -> list[dict[str, Any]]:
    """Rows of a JSONL file (gzip detected by content); every line must be a JSON object.
    An InputError names the file and the line."""
    text = _decode(read_file_bytes(path, what), path)
    rows: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        row = parse_json(line, path, number)
        if not isinstance(row, dict):
            raise InputError(
                "line is not a JSON object",
                path=str(path),
                line=number,
                value=type(row).__name__,
                has_value=True,
                expected="one object {...} per line",
            )
        rows.append(row)
    return rows


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
