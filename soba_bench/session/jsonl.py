"""Read and write SOBA session JSONL (plain or gzip), strict or lenient.

Strict (the default) raises :class:`InputError` naming file, line, field and value. Lenient
skips bad lines, counts them and reports them on ``Session.issues``. Reading never touches the
file on disk; writing is atomic (a temporary file renamed into place).
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path

from soba_bench.errors import InputError, OutputError, json_error_text
from soba_bench.gc_pause import paused_gc
from soba_bench.jscompat import js_json_parse
from soba_bench.session import entries as E
from soba_bench.session import schema
from soba_bench.session.entries import Entry
from soba_bench.session.model import LineIssue, Session

GZIP_MAGIC = b"\x1f\x8b"


def read_bytes(path: str | os.PathLike) -> bytes:
    """File content, gunzipped when it is gzip (detected by content, not by name)."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=str(p)) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a session file", path=str(p)) from None
    except OSError as exc:
        raise InputError(f"cannot read file: {exc.strerror}", path=str(p)) from None
    if raw[:2] == GZIP_MAGIC:
        try:
            return gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise InputError(f"corrupt gzip data: {exc}", path=str(p)) from None
    return raw


def parse_lines(
    content: bytes, *, path: str | None = None, strict: bool = True
) -> tuple[list[Entry], list[LineIssue]]:
    """Parse JSONL content into entries. Blank lines are skipped, as SOBA does."""
    out: list[Entry] = []
    issues: list[LineIssue] = []
    seen_ids: set[str] = set()

    def bad(lineno: int, message: str, **kw) -> None:
        err = InputError(message, path=path, line=lineno, **kw)
        if strict:
            raise err
        issues.append(LineIssue(lineno, str(err), skipped=True))

    # SOBA trims the whole file first, which also drops a leading byte-order mark.
    content = content.removeprefix(b"\xef\xbb\xbf")
    for lineno, raw_line in enumerate(content.split(b"\n"), start=1):
        if not raw_line.strip():
            continue
        try:
            text = raw_line.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad(lineno, f"invalid UTF-8 at byte {exc.start}", expected="UTF-8 text")
            continue
        try:
            data = js_json_parse(text)  # NaN/Infinity are not JSON: SOBA skips such a line
        except json.JSONDecodeError as exc:
            bad(
                lineno,
                f"not valid JSON ({json_error_text(exc)}); the line may be truncated",
                expected="one JSON object per line",
            )
            continue
        except ValueError as exc:  # NaN / Infinity, integers past Python's digit limit
            bad(lineno, f"not valid JSON ({exc})", expected="one JSON object per line")
            continue
        except RecursionError:  # nesting deeper than the parser's stack
            bad(lineno, "not valid JSON (nested too deeply)", expected="one JSON object per line")
            continue
        if not isinstance(data, dict):
            bad(
                lineno,
                "line is not a JSON object",
                value=data,
                has_value=True,
                expected="a JSON object with a 'type' field",
            )
            continue
        kind = data.get("type")
        if not isinstance(kind, str):
            bad(
                lineno,
                "line has no string 'type'",
                field="type",
                value=kind,
                has_value="type" in data,
                expected="a line kind such as 'item' or 'session'",
            )
            continue
        violation = next(schema.line_violations(data), None)
        if violation is not None:
            fld, value, accepted = violation
            missing = schema.is_missing(value)
            bad(
                lineno,
                f"{kind} line: field is missing" if missing else f"{kind} line: wrong type",
                field=fld,
                value=None if missing else value,
                has_value=not missing,
                expected=accepted,
            )
            continue
        if kind in E.TREE_KINDS:
            if data["id"] in seen_ids:
                bad(
                    lineno,
                    f"{kind} line: duplicate entry id",
                    field="id",
                    value=data["id"],
                    has_value=True,
                    expected="ids unique among tree entries",
                )
                continue
            seen_ids.add(data["id"])
        if kind == E.ITEM and data["item"]["type"] not in E.ITEM_TYPES:
            # Kept (SOBA stores and round-trips it) but flagged: the engine counts it as 0.
            issues.append(
                LineIssue(
                    lineno,
                    str(
                        InputError(
                            "item line: unknown item type (kept, counted as 0 tokens)",
                            path=path,
                            line=lineno,
                            field="item.type",
                            value=data["item"]["type"],
                            has_value=True,
                            expected=", ".join(sorted(E.ITEM_TYPES)),
                        )
                    ),
                    skipped=False,
                )
            )
        out.append(Entry(kind, data, lineno))
    return out, issues


def read_session(path: str | os.PathLike, *, strict: bool = True) -> Session:
    """Read a ``.jsonl`` or ``.jsonl.gz`` SOBA session. The file is opened read-only."""
    path_str = str(path)
    with paused_gc():  # parsed JSON has no cycles; collections only slow a big read
        entries, issues = parse_lines(read_bytes(path), path=path_str, strict=strict)
    if not any(e.kind == E.HEADER for e in entries):
        err = InputError(
            "not a SOBA session: no 'session' header line",
            path=path_str,
            expected='a first line like {"type":"session","version":2,"id":...}',
        )
        if strict or not entries:
            raise err
        issues.append(LineIssue(0, str(err), skipped=False))
    return Session(tuple(entries), path=path_str, issues=tuple(issues))


def dumps_line(data: dict) -> str:
    """One compact JSON line, as SOBA's JSON.stringify writes it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot be UTF-8; escape them (still JSON-equal).
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text


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


def encode_jsonl(objects: Iterable[dict], *, gz: bool = False) -> bytes:
    payload = "".join(dumps_line(o) + "\n" for o in objects).encode("utf-8")
    return gzip.compress(payload, mtime=0) if gz else payload


def write_jsonl(path: str | os.PathLike, objects: Iterable[dict]) -> None:
    """Atomically write JSON objects as JSONL; gzip when the name ends in ``.gz``."""
    atomic_write_bytes(path, encode_jsonl(objects, gz=str(path).endswith(".gz")))


def write_session(session: Session | Iterable[Entry], path: str | os.PathLike) -> None:
    """Write every line of a session, in order, atomically."""
    lines = session.lines if isinstance(session, Session) else session
    write_jsonl(path, (e.data for e in lines))
