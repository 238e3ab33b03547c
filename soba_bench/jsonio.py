"""JSON and JSONL files on disk: the one reader and the one atomic writer every stage uses.

Reading has one error discipline: whatever is wrong with a file (missing, a folder,
unreadable, truncated gzip, not UTF-8, not JSON, nested deeper than the parser's stack, a
line that is not an object) ends in one :class:`~soba_bench.errors.InputError` naming the
file and the line (and the value when there is one), which the CLI turns into a one-line
message and exit status 2, never a traceback. Gzip is detected by content, not by name, and
a file is only ever opened for reading.

Writing is atomic: a temporary file in the target's folder, flushed, then renamed into
place, so a reader sees the old file or the new one and a killed writer leaves only a
temporary file that :func:`remove_stale_temps` clears later.

This module sits below every stage (next to :mod:`soba_bench.errors`); SOBA session files
add their own line rules on top of it in :mod:`soba_bench.session.jsonl`.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import stat
import tempfile
import zlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError, OutputError, json_error_text

GZIP_MAGIC = b"\x1f\x8b"


# ---------------------------------------------------------------------------------------------
# reading


def read_bytes(path: str | os.PathLike, what: str = "file") -> bytes:
    """The bytes of a file, gunzipped when it is gzip (detected by content), or an InputError
    that says why not: missing, a folder, permission denied, corrupt gzip. ``what`` names the
    kind of file in the message ("run record (run.json)", "ground-truth file")."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} not found", path=str(p)) from None
    except IsADirectoryError:
        raise InputError(f"is a directory, expected a {what}", path=str(p)) from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(p)) from None
    if raw[:2] == GZIP_MAGIC:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"corrupt gzip data ({exc})", path=str(p)) from None
    return raw


def decode_text(raw: bytes, path: str | os.PathLike) -> str:
    """UTF-8 text of a file's bytes, or an InputError naming the file and the bad byte."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"not UTF-8 text (byte {exc.start}: {exc.reason})", path=str(path)
        ) from None


def parse_json(text: str, path: str | os.PathLike, line: int | None = None) -> Any:
    """One JSON document; an InputError names the file, line and column of a syntax error.
    ``line`` is the document's line in its file (a JSONL row); without it the error's own
    line within the document is named."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON ({json_error_text(exc)})",
            path=str(path),
            line=exc.lineno if line is None else line,
        ) from None
    except RecursionError:  # nesting deeper than the parser's stack
        raise InputError("JSON nested too deeply", path=str(path), line=line) from None
    except ValueError as exc:  # an integer literal too long to convert
        raise InputError(f"not valid JSON ({exc})", path=str(path), line=line) from None


def read_json(path: str | os.PathLike, what: str = "JSON file") -> Any:
    """A JSON file (gzip allowed), or an InputError naming it."""
    return parse_json(decode_text(read_bytes(path, what), path), path)


def read_json_object(path: str | os.PathLike, what: str = "JSON file") -> dict[str, Any]:
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


def iter_jsonl(
    path: str | os.PathLike, what: str = "JSONL file"
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, row)`` for every non-blank line of a JSONL file (gzip detected by
    content); every line must be a JSON object. The line numbers are the file's own, blank
    lines counted, so a caller's field errors point at the right line."""
    text = decode_text(read_bytes(path, what), path)
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
        yield number, row


def read_jsonl(path: str | os.PathLike, what: str = "JSONL file") -> list[dict[str, Any]]:
    """Rows of a JSONL file (see :func:`iter_jsonl`)."""
    return [row for _, row in iter_jsonl(path, what)]


# ---------------------------------------------------------------------------------------------
# writing


def dumps_line(data: dict) -> str:
    """One compact JSON line, as SOBA's JSON.stringify writes it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot be UTF-8; escape them (still JSON-equal).
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text


def encode_jsonl(objects: Iterable[dict], *, gz: bool = False) -> bytes:
    """JSONL bytes of ``objects`` (gzip with a zero mtime, so equal rows give equal bytes)."""
    payload = "".join(dumps_line(o) + "\n" for o in objects).encode("utf-8")
    return gzip.compress(payload, mtime=0) if gz else payload


def _file_mode(target: Path) -> int:
    """The replaced file's permissions, or what a plain open() would create."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


# ".<target name>.<writer pid>-<random>.tmp": the writer's pid in the name lets a later run tell
# a killed writer's leftover (pid gone) from a file another live process is still writing.
_TEMP_NAME = re.compile(r"^\..+\.(?P<pid>\d+)-[A-Za-z0-9_]+\.tmp$")


def atomic_write_bytes(path: str | os.PathLike, payload: bytes) -> None:
    """Write ``payload`` to ``path`` via a temporary file in the same folder and a rename."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        prefix = f".{target.name}.{os.getpid()}-"
        fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=target.parent)
    except OSError as exc:  # read-only folder, permission denied, a file where a folder goes
        raise OutputError(str(target), exc.strerror or str(exc)) from None
    try:
        os.fchmod(fd, _file_mode(target))  # mkstemp's 0600 would survive the rename
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:  # disk full (ENOSPC), quota, a folder in the way
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(str(target), exc.strerror or str(exc)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_jsonl(path: str | os.PathLike, objects: Iterable[dict]) -> None:
    """Atomically write JSON objects as JSONL; gzip when the name ends in ``.gz``."""
    atomic_write_bytes(path, encode_jsonl(objects, gz=str(path).endswith(".gz")))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def remove_stale_temps(folder: str | os.PathLike, *, recursive: bool = False) -> list[Path]:
    """Delete the temporary files that killed writers left in ``folder`` (their pid is gone);
    a temporary file of a live process is left alone. Returns what was removed."""
    root = Path(folder)
    if not root.is_dir():
        return []
    removed = []
    for path in root.rglob(".*.tmp") if recursive else root.glob(".*.tmp"):
        found = _TEMP_NAME.match(path.name)
        if found is None or _alive(int(found["pid"])) or not path.is_file():
            continue
        with contextlib.suppress(FileNotFoundError):  # another resumer got there first
            path.unlink()
            removed.append(path)
    return removed
