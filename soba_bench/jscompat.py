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
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def js_number(value: float | int) -> str:
    """``String(number)`` as JavaScript prints it (ECMA-262 Number::toString)."""
    if isinstance(value, bool):
        return "true" if value else "false"
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


def _escape_lone_surrogates(text: str) -> str:
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def js_json_stringify(value: Any) -> str:
    """``JSON.stringify(value)`` for JSON-derived values (compact, key order kept)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
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
