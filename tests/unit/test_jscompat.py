"""JavaScript semantics the estimator depends on: UTF-16 lengths, String(), JSON.stringify."""

from __future__ import annotations

import pytest

from soba_bench.jscompat import (
    UNDEFINED,
    js_json_stringify,
    js_number,
    js_string,
    js_truthy,
    utf16_len,
)


@pytest.mark.parametrize(
    ("text", "units"),
    [("", 0), ("abc", 3), ("é", 1), ("中文", 2), ("😀", 2), ("a😀b", 4), ("\ud83d", 1)],
)
def test_utf16_len(text: str, units: int) -> None:
    assert utf16_len(text) == units
    if "\ud83d" not in text:
        assert utf16_len(text) == len(text.encode("utf-16-le")) // 2


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "0"),
        (-0.0, "0"),
        (5.0, "5"),
        (1.5, "1.5"),
        (-2.25, "-2.25"),
        (0.1, "0.1"),
        (0.001, "0.001"),
        (0.000001, "0.000001"),
        (1e-7, "1e-7"),
        (1.5e-10, "1.5e-10"),
        (123456789.125, "123456789.125"),
        (1e20, "100000000000000000000"),
        (1e21, "1e+21"),
        (1.5e300, "1.5e+300"),
        (float("nan"), "NaN"),
        (float("inf"), "Infinity"),
        (float("-inf"), "-Infinity"),
        (True, "true"),
        (2**53, "9007199254740992"),
        # JSON integers become doubles in JavaScript: digits past 2**53 are lost.
        (2**53 + 1, "9007199254740992"),
        (12345678901234567890, "12345678901234567000"),
        (10**22, "1e+22"),
        (-(10**400), "-Infinity"),
    ],
)
def test_js_number(value, text: str) -> None:
    assert js_number(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (UNDEFINED, "undefined"),
        (None, "null"),
        ("s", "s"),
        (False, "false"),
        (3.0, "3"),
        ([1, None, "a", [2, 3]], "1,,a,2,3"),
        ({"a": 1}, "[object Object]"),
    ],
)
def test_js_string(value, text: str) -> None:
    assert js_string(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "null"),
        (True, "true"),
        (2.0, "2"),
        (float("nan"), "null"),
        ('é\n\t"\\/\u001f\u2028', '"é\\n\\t\\"\\\\/\\u001f\u2028"'),
        ("lone \ud800", '"lone \\ud800"'),
        ([1, "a", None, {"k": [True]}], '[1,"a",null,{"k":[true]}]'),
        ({"b": 1, "a": UNDEFINED, "c": 1e21}, '{"b":1,"c":1e+21}'),
        ([2**60, 10**21, 10**400], "[1152921504606847000,1e+21,null]"),
    ],
)
def test_js_json_stringify(value, text: str) -> None:
    assert js_json_stringify(value) == text


@pytest.mark.parametrize(
    ("value", "truthy"),
    [
        (None, False),
        (UNDEFINED, False),
        (False, False),
        (0, False),
        (0.0, False),
        (float("nan"), False),
        ("", False),
        ("0", True),
        ([], True),
        ({}, True),
        (-1, True),
    ],
)
def test_js_truthy(value, truthy: bool) -> None:
    assert js_truthy(value) is truthy
