"""Read and write SOBA session JSONL (plain or gzip), strict or lenient.

Strict (the default) raises :class:`InputError` naming file, line, field and value. Lenient
skips bad lines, counts them and reports them on ``Session.issues``. Reading never touches the
file on disk; writing is atomic (a temporary file renamed into place). The file-level part
(gzip, unreadable files, atomic writes) is :mod:`soba_bench.jsonio`, shared with every other
JSON file; this module adds SOBA's line rules (JS number semantics, the line schema, ids).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from typing import Any

from soba_bench.errors import InputError, json_error_text
from soba_bench.gc_pause import paused_gc
from soba_bench.jscompat import js_json_parse
from soba_bench.jsonio import read_bytes, write_jsonl
from soba_bench.session import entries as E
from soba_bench.session import schema
from soba_bench.session.entries import Entry
from soba_bench.session.model import LineIssue, Session


def parse_lines(
    content: bytes, *, path: str | None = None, strict: bool = True
) -> tuple[list[Entry], list[LineIssue]]:
    """Parse JSONL content into entries. Blank lines are skipped, as SOBA does."""
    out: list[Entry] = []
    issues: list[LineIssue] = []
    seen_ids: set[str] = set()

    def bad(lineno: int, message: str, **kw: Any) -> None:
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


def read_session(path: str | os.PathLike[str], *, strict: bool = True) -> Session:
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


def write_session(session: Session | Iterable[Entry], path: str | os.PathLike[str]) -> None:
    """Write every line of a session, in order, atomically."""
    lines = session.lines if isinstance(session, Session) else session
    write_jsonl(path, (e.data for e in lines))
