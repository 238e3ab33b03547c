"""The project's documented error types.

Everything soba-bench raises on bad input is a :class:`SobaBenchError`; the CLI turns it into
a one-line message and a non-zero exit. Input errors name the file, the line, the field and the
value, and say what would be accepted.
"""

from __future__ import annotations

import json
from typing import Any

_MAX_VALUE_CHARS = 80


def describe_value(value: Any) -> str:
    """A short rendering of an offending value for error messages, as JSON when it is JSON
    (``null``, ``true``, ``{"a": 1}``) since that is how the user wrote it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > _MAX_VALUE_CHARS:
        text = text[: _MAX_VALUE_CHARS - 3] + "..."
    return text


def json_error_text(exc: json.JSONDecodeError) -> str:
    """``Expecting value at column 7`` from a JSON syntax error. Some of the parser's messages
    already end in "at" ("Unterminated string starting at"); those get the column only."""
    msg = exc.msg.rstrip()
    joiner = " column " if msg.endswith(" at") else " at column "
    return f"{msg}{joiner}{exc.colno}"


class SobaBenchError(Exception):
    """Base class of every error soba-bench reports on purpose."""

    exit_code = 2


class InputError(SobaBenchError):
    """Bad input data: names where (file, line), what (field, value) and what is accepted."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        line: int | None = None,
        field: str | None = None,
        value: Any = None,
        has_value: bool = False,
        expected: str | None = None,
    ) -> None:
        self.path = path
        self.line = line
        self.field = field
        self.value = value
        self.has_value = has_value
        self.expected = expected
        self.reason = message
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = str(self.path)
            if self.line is not None:
                where += f":{self.line}"
            where += ": "
        text = where + self.reason
        if self.field is not None:
            text += f" (field {self.field!r}"
            if self.has_value:
                text += f", value {describe_value(self.value)}"
            text += ")"
        elif self.has_value:
            text += f" (value {describe_value(self.value)})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


class OutputError(SobaBenchError):
    """An output could not be written (permission denied, read-only file system, disk full):
    names the path and the operating system's reason. Nothing partial is left behind, since
    every output is written to a temporary file and renamed."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"{path}: cannot write: {reason}")


class ConfigError(SobaBenchError):
    """An invalid configuration (SOBA's own messages for SOBA's rules)."""


class UnknownNameError(SobaBenchError, KeyError):
    """A registry lookup for a name that is not registered; lists the valid names."""

    def __init__(self, kind: str, name: str, valid: list[str]) -> None:
        self.kind = kind
        self.name = name
        self.valid = valid
        super().__init__(f"unknown {kind} {name!r}; valid names: {', '.join(valid) or '(none)'}")

    def __str__(self) -> str:  # KeyError would otherwise quote the whole message
        return self.args[0]


class HarnessFault(SobaBenchError):
    """A fault of the harness's own setup met during a replay (a cache miss in replay mode, a
    missing model package, an unset API key variable). SOBA's fallbacks must not absorb it:
    turned into a degraded capsule it would silently change what a run measures, so it stops
    the replay instead."""
