"""Scrubbing a JSON value hands numbers, flags and nulls back without a call per value, and
looks up whether a key names a credential once per key: the result must be what scrubbing
every value one by one gives (the order of keys, the types and the depth limit included)."""

from __future__ import annotations

import enum
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from soba_bench import secrets_scan
from soba_bench.secrets_scan import MARKER, SECRET_KEY, scrub_text, scrub_value
from tests.reliability.planted_secrets import PLANTED


def plain_scrub(value: Any, depth: int = 0) -> Any:
    """Every value through one recursive call: the straightforward computation."""
    if isinstance(value, str):
        return scrub_text(value)
    if depth > secrets_scan._MAX_DEPTH:
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            secret = isinstance(key, str) and SECRET_KEY.fullmatch(key) is not None
            if secret and isinstance(item, str) and item and not item.startswith("[REDACTED"):
                out[scrub_text(key)] = MARKER.format(kind="password")
            else:
                name = scrub_text(key) if isinstance(key, str) else key
                out[name] = plain_scrub(item, depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [plain_scrub(v, depth + 1) for v in value]
    return value


class Level(enum.IntEnum):  # an int subclass: not a plain value, scrubbed by the call
    LOW = 1


_TEXT = st.one_of(
    st.text(max_size=12),
    st.sampled_from([text for text, _ in PLANTED.values()]),
    st.sampled_from(["", "[REDACTED:password]", "hunter2", "ok"]),
)
_KEY = st.one_of(
    st.sampled_from(["password", "api_key", "token", "tokensBefore", "name", "secret"]),
    _TEXT,
    st.integers(-2, 2),
)
_LEAF = st.one_of(
    _TEXT,
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
    st.just(Level.LOW),
)
_VALUE = st.recursive(
    _LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEY, inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_VALUE, st.sampled_from([200, 2]))
def test_scrubbed_values_match_scrubbing_each_value(value, max_depth):
    saved = secrets_scan._MAX_DEPTH
    secrets_scan._MAX_DEPTH = max_depth  # 2: nested values reach the depth limit
    try:
        assert repr(scrub_value(value)) == repr(plain_scrub(value))
    finally:
        secrets_scan._MAX_DEPTH = saved
