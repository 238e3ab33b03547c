"""JavaScript semantics that SOBA's numbers depend on.

SOBA is TypeScript: string lengths are UTF-16 code units, template strings stringify any value,
and ``JSON.stringify`` formats numbers its own way. A faithful port has to copy these on
purpose, or its token estimates drift on non-BMP text, odd field types and array outputs.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# Marks a value that is absent in JS (``undefined``), as opposed to ``null`` (Python None).
UNDEFINED: Any = type("Undefined", (), {"__repr__": lambda self: "undefined"})()

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def utf16_len(text: str) -> int:
    """JavaScript ``text.length``: UTF-16 code units (non-BMP characters count 2)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _js_double(value: int) -> int | float:
    """A JSON integer as the double JavaScript holds: exact below 2**53, else rounded (and
    printed in exponent form from 1e21), Infinity past the double range."""
    if abs(value) < 2**53:
        return value
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def js_number(value: float | int) -> str:
    """``String(number)`` as JavaScript prints it (ECMA-262 Number::toString)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        value = _js_double(value)
        if isinstance(value, int):
            return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr gives the shortest round-tripping digits, as JS does; only the layout differs.
    mantissa, _, exp_text = repr(abs(value)).partition("e")
    int_part, _, frac_part = mantissa.partition(".")
    digits = (int_part + frac_part).lstrip("0")
    point = len(int_part) + (int(exp_text) if exp_text else 0)
    point -= len(int_part + frac_part) - len((int_part + frac_part).lstrip("0"))
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    exponent = n - 1
    exp_sign = "+" if exponent >= 0 else "-"
    head = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{head}e{exp_sign}{abs(exponent)}"


def js_string(value: Any) -> str:
    """``String(value)`` / template-literal conversion of a JSON-derived value."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else js_string(v) for v in value)
    return "[object Object]"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def js_json_parse(text: str) -> Any:
    """``JSON.parse``: like ``json.loads``, but NaN, Infinity and -Infinity are errors
    (Python accepts them; JavaScript does not)."""
    return json.loads(text, parse_constant=_reject_constant)


def js_join(values: Any, separator: str = ",") -> str:
    """``Array.prototype.join``: null and undefined elements become empty strings (unlike
    ``String(null)``, which is "null")."""
    return separator.join("" if v is None or v is UNDEFINED else js_string(v) for v in values)


def _escape_lone_surrogates(text: str) -> str:
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def js_json_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON-derived values (compact, key order kept)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        value = _js_double(value)
        if isinstance(value, int):
            return str(value)
    if isinstance(value, float):
        return "null" if math.isnan(value) or math.isinf(value) else js_number(value)
    if isinstance(value, str):
        return _escape_lone_surrogates(json.dumps(value, ensure_ascii=False))
    if isinstance(value, list | tuple):
        return "[" + ",".join(js_json_stringify(v) for v in value) + "]"
    if isinstance(value, dict):
        parts = [
            _escape_lone_surrogates(json.dumps(str(k), ensure_ascii=False))
            + ":"
            + js_json_stringify(v)
            for k, v in value.items()
            if v is not UNDEFINED
        ]
        return "{" + ",".join(parts) + "}"
    return js_json_stringify(js_string(value))


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON-derived value."""
    if value is None or value is UNDEFINED or value is False:
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value != 0 and not (isinstance(value, float) and math.isnan(value))
    if isinstance(value, str):
        return value != ""
    return True


# ECMAScript WhiteSpace + LineTerminator: what ``\s`` and ``String.prototype.trim`` use.
# Python's own notion differs (it includes \x1c-\x1f and \x85, and lacks \ufeff).
JS_WHITESPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
JS_WS_CLASS = f"[{JS_WHITESPACE}]"
JS_NOT_LINE_TERMINATOR = "[^\n\r\u2028\u2029]"  # what ``.`` matches in a JS regex
_WS_RUN_RE = re.compile(f"{JS_WS_CLASS}+")


_WS_CHARS = "".join(
    chr(c)
    for c in (
        0x09,
        0x0A,
        0x0B,
        0x0C,
        0x0D,
        0x20,
        0xA0,
        0x1680,
        *range(0x2000, 0x200B),
        0x2028,
        0x2029,
        0x202F,
        0x205F,
        0x3000,
        0xFEFF,
    )
)


def js_trim(text: str) -> str:
    """``String.prototype.trim`` (JavaScript's whitespace set, not Python's)."""
    return text.strip(_WS_CHARS)


def js_trim_end(text: str) -> str:
    return text.rstrip(_WS_CHARS)


def js_collapse_whitespace(text: str) -> str:
    """``text.replaceAll(/\\s+/g, " ")``."""
    return _WS_RUN_RE.sub(" ", text)


def js_slice(text: str, start: int, end: int | None = None) -> str:
    """``text.slice(start, end)`` in UTF-16 code units (may split a surrogate pair, as JS
    does; the half is kept as a lone surrogate)."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return text[start:end]
    units = text.encode("utf-16-le", "surrogatepass")
    n = len(units) // 2
    s = start if start >= 0 else max(0, n + start)
    e = n if end is None else (end if end >= 0 else max(0, n + end))
    return units[2 * s : 2 * max(s, e)].decode("utf-16-le", "surrogatepass")


def js_round(value: float) -> int:
    """``Math.round``: halves round toward +infinity (Python's round is banker's)."""
    floor = math.floor(value)
    return floor + 1 if value - floor >= 0.5 else floor


def js_to_fixed(value: float, digits: int) -> str:
    """``Number.prototype.toFixed``: the exact binary value, halves rounded up in
    magnitude (Python's format rounds halves to even)."""
    from decimal import ROUND_HALF_UP, Decimal

    quantum = Decimal(1).scaleb(-digits)
    if value == 0:
        value = 0.0  # (-0).toFixed() has no sign in JS; (-0.001).toFixed(2) keeps it
    return str(Decimal(value).quantize(quantum, rounding=ROUND_HALF_UP))
