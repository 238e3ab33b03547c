"""Reading sources strictly: JSON / JSONL readers and typed field access whose errors name
the file, the line, the field and the value, and what would be accepted; and writing values
back as JSON with the same kind of errors."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from soba_bench.corpora.importers.base import IssueLog, SourceFile
from soba_bench.errors import InputError, json_error_text
from soba_bench.jscompat import js_json_parse


@dataclass
class Where:
    """A position in a source (file, line, field path) for error messages."""

    path: str
    line: int | None = None
    field: str = ""

    def at(self, key: str | int) -> Where:
        if isinstance(key, int):
            return Where(self.path, self.line, f"{self.field}[{key}]")
        return Where(self.path, self.line, f"{self.field}.{key}" if self.field else key)

    def error(
        self, message: str, *, value: Any = None, has_value: bool = False, expected: str = ""
    ) -> InputError:
        if isinstance(value, dict | list):
            try:
                json.dumps(value)
            except (RecursionError, ValueError, TypeError):
                value = f"<a {type(value).__name__} nested too deeply to show>"
        return InputError(
            message,
            path=self.path,
            line=self.line,
            field=self.field or None,
            value=value,
            has_value=has_value,
            expected=expected or None,
        )


_KINDS = {
    "string": (str,),
    "object": (dict,),
    "list": (list,),
}


def get(obj: dict[str, Any], key: str, kind: str, where: Where, *, required: bool = False) -> Any:
    """``obj[key]`` checked against ``kind`` (string|object|list|integer|number|boolean);
    missing or null gives None unless ``required``."""
    value = obj.get(key)
    if value is None:
        if required:
            raise where.at(key).error("field is missing", expected=kind)
        return None
    if kind == "integer":
        ok = isinstance(value, int) and not isinstance(value, bool)
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
            value, ok = int(value), True
    elif kind == "number":
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif kind == "boolean":
        ok = isinstance(value, bool)
    else:
        ok = isinstance(value, _KINDS[kind])
    if not ok:
        raise where.at(key).error("wrong type", value=value, has_value=True, expected=kind)
    return value


def expect_object(value: Any, where: Where, what: str = "a JSON object") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise where.error(f"expected {what}", value=value, has_value=True, expected=what)
    return value


def parse_json_text(text: str, where: Where) -> Any:
    try:
        return js_json_parse(text)
    except json.JSONDecodeError as exc:
        line = where.line if where.line is not None else exc.lineno
        raise InputError(
            f"not valid JSON ({json_error_text(exc)}); the file may be truncated",
            path=where.path,
            line=line,
            expected="valid JSON",
        ) from None
    except ValueError as exc:
        raise where.error(f"not valid JSON ({exc})", expected="valid JSON") from None
    except RecursionError:
        raise where.error("JSON nested too deeply", expected="valid JSON") from None


def decode_utf8(content: bytes, path: str) -> str:
    try:
        return content.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as exc:
        line = content.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"invalid UTF-8 at byte {exc.start}", path=path, line=line, expected="UTF-8 text"
        ) from None


def load_json(source: SourceFile) -> Any:
    """The whole file as one JSON document."""
    return parse_json_text(decode_utf8(source.content, source.path), Where(source.path))


def iter_jsonl(source: SourceFile, issues: IssueLog):
    """(line number, object) per non-blank line. Bad lines raise, or in lenient mode are
    recorded in ``issues`` and skipped."""
    content = source.content.removeprefix(b"\xef\xbb\xbf")
    for lineno, raw in enumerate(content.split(b"\n"), start=1):
        if not raw.strip():
            continue
        where = Where(source.path, lineno)
        try:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise where.error(
                    f"invalid UTF-8 at byte {exc.start}", expected="UTF-8 text"
                ) from None
            obj = expect_object(parse_json_text(text, where), where, "a JSON object per line")
        except InputError as err:
            issues.record(err)
            continue
        yield lineno, obj


def looks_like_jsonl(content: bytes) -> bool:
    """True when the first non-blank line is a complete JSON value and more lines follow."""
    lines = [ln for ln in content.removeprefix(b"\xef\xbb\xbf").split(b"\n") if ln.strip()]
    if len(lines) < 2:
        return False
    try:
        json.loads(lines[0].decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False
    return True


def as_timestamp(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def dumps_args(value: Any, where: Where) -> str:
    """A call's arguments as the JSON string SOBA stores (compact, like JSON.stringify)."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError) as exc:
        raise where.error(f"arguments cannot be written as JSON ({exc})") from None


def writable(value: Any, where: Where | None) -> None:
    """Values copied verbatim from the source must be writable as JSON again (a structure
    nested deeper than the JSON writer's limit is not)."""
    try:
        json.dumps(value, ensure_ascii=True)
    except RecursionError:
        raise (where or Where("input")).error(
            "value nested too deeply to write as JSON", expected="less deeply nested JSON"
        ) from None
