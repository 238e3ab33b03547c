"""Hostile inputs shared by the reliability tests: raw JSON tokens that no ``json.dumps`` can
produce (1e400, a 5,000-digit integer, 100k open brackets, NaN), junk bytes, and a hypothesis
strategy that mutates a valid sample file into truncated, mistyped or corrupt variants."""

from __future__ import annotations

import copy
import gzip
import json
from typing import Any

from hypothesis import strategies as st

from tests.property.strategies import json_values

HOLE = "\u0000@@hole@@"
DEEP = "[" * 100_000 + "]" * 100_000

# Spliced into a document as raw text in place of one value.
RAW_TOKENS = [
    "1e400",
    "-1e400",
    "1e-400",
    "1" * 5000,  # past Python's 4,300-digit int parsing limit
    "-" + "9" * 5000,
    "123456789012345678901234567890",
    "NaN",
    "Infinity",
    "-0",
    DEEP,
    '{"a":' * 2000 + "1" + "}" * 2000,
    '"\\ud800"',  # an escaped lone surrogate
    '"\\u0000\\u001b[31m"',
    '"' + "x" * 200_000 + '"',
    "null",
    "true",
    "{}",
    "[]",
    '"text"',
    "3.5",
    '{"unbalanced": [',
    '"}]}',
]
JUNK_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\xe2\x80", b"\r"]
EMPTY = [b"", b"\n", b"\n\n  \n", b"\xef\xbb\xbf", b"\x1f\x8b"]


def _paths(node: Any, prefix: tuple = ()):
    yield prefix
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _paths(child, (*prefix, i))


@st.composite
def spliced(draw, doc: Any) -> bytes:
    """``doc`` as JSON with one value (or key removal) replaced by a hostile raw token or a
    random JSON value of the wrong type."""
    doc = copy.deepcopy(doc)
    candidates = list(_paths(doc))
    path = draw(st.sampled_from(candidates[:5000]))
    replacement = draw(st.one_of(st.sampled_from(RAW_TOKENS), json_values.map(json.dumps)))
    if not path:
        return replacement.encode("utf-8", "surrogatepass")
    parent = doc
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[path[-1]]
        return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    parent[path[-1]] = HOLE
    text = json.dumps(doc, ensure_ascii=False).replace(json.dumps(HOLE), replacement, 1)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated(draw, sample: bytes, *, jsonl: bool) -> bytes:
    """One hostile variant of ``sample`` (a JSON document, or JSONL when ``jsonl``)."""
    how = draw(st.sampled_from(["truncate", "junk", "splice", "empty", "random", "gzip"]))
    if how == "truncate":
        return sample[: draw(st.integers(0, len(sample)))]
    if how == "junk":
        at = draw(st.integers(0, len(sample)))
        return sample[:at] + draw(st.sampled_from(JUNK_BYTES)) + sample[at:]
    if how == "empty":
        return draw(st.sampled_from(EMPTY))
    if how == "random":
        value = draw(st.one_of(json_values, st.sampled_from(RAW_TOKENS)))
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        return text.encode("utf-8", "surrogatepass")
    if how == "gzip":  # a gzip stream, whole or cut short
        packed = gzip.compress(sample, mtime=0)
        return packed[: draw(st.integers(2, len(packed)))]
    if not jsonl:
        return draw(spliced(json.loads(sample)))
    lines = sample.split(b"\n")
    index = draw(st.integers(0, len(lines) - 1))
    try:
        lines[index] = draw(spliced(json.loads(lines[index])))
    except ValueError:
        lines[index] = draw(st.sampled_from(RAW_TOKENS)).encode()
    return b"\n".join(lines)
