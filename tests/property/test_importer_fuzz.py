"""Fuzzing every importer: truncated files, reordered lines, wrong types, huge values,
invalid UTF-8 and random JSON. An importer may accept the input or reject it with an
InputError, nothing else; and whatever it accepts it writes as a valid SOBA session."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.errors import InputError
from tests.property.strategies import json_values
from tests.unit.corpora.helpers import DATA, SWE_REAL, check_session


def _small_traj() -> bytes:
    data = json.loads((SWE_REAL / "marshmallow-1867.function_calling.traj").read_text())
    return json.dumps(
        {
            "history": data["history"][:8],
            "trajectory": data["trajectory"][-1:],
            "info": {"exit_status": "submitted"},
        }
    ).encode()


SAMPLES = {
    "claude-code": (
        DATA / "claude-code" / "7d3c2a91-5b1e-4f0a-9c8d-2e6f4b1a7c35.jsonl"
    ).read_bytes(),
    "claude-code-stream": (DATA / "claude-code-stream" / "stream-lint-fix.jsonl").read_bytes(),
    "codex": next((DATA / "codex").glob("*.jsonl")).read_bytes(),
    "openhands": (DATA / "openhands" / "inventory-csv-newlines.json").read_bytes(),
    "aider": (DATA / "aider" / ".aider.chat.history.md").read_bytes(),
    "openai-messages": (DATA / "openai-messages" / "slugify-accents.json").read_bytes(),
    "openai-messages-jsonl": (DATA / "openai-messages" / "finetune.jsonl").read_bytes(),
    "swe-agent": _small_traj(),
}
JSONL = {"claude-code", "claude-code-stream", "codex", "openai-messages-jsonl"}
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

huge = st.one_of(
    st.integers(min_value=2**63, max_value=10**40),
    st.integers(min_value=-(10**40), max_value=-(2**63)),
    st.floats(min_value=1e300, max_value=1.7e308),
    st.just("x" * 200_000),
    st.just("9" * 5000),
    st.just(json.loads("[" * 20 + "0" + "]" * 20)),
)
any_value = st.one_of(json_values, huge)


def fmt_of(name: str) -> str:
    return name.removesuffix("-stream").removesuffix("-jsonl")


def convert(name: str, content: bytes, lenient: bool = False) -> None:
    """Import, then check what was accepted; only InputError may escape."""
    try:
        sessions = import_bytes(fmt_of(name), content, "fuzz", ImportOptions(lenient=lenient))
    except InputError as err:
        assert str(err)  # the message renders
        return
    for session in sessions:
        check_session(session)
        session.truth().to_dict()


def paths(node, prefix=()):
    yield prefix
    children = (
        node.items()
        if isinstance(node, dict)
        else enumerate(node)
        if isinstance(node, list)
        else ()
    )
    for key, child in children:
        yield from paths(child, (*prefix, key))


@st.composite
def mutated_document(draw, doc):
    doc = copy.deepcopy(doc)
    candidates = list(paths(doc))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(candidates))
        if not path:
            return draw(any_value)
        try:
            parent = doc
            for key in path[:-1]:
                parent = parent[key]
            if draw(st.booleans()) and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = draw(any_value)
        except (KeyError, IndexError, TypeError):
            continue
    return doc


def dumps(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


NAMES = sorted(SAMPLES)


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_truncated_files(name, data):
    sample = SAMPLES[name]
    cut = data.draw(st.integers(0, len(sample)))
    convert(name, sample[:cut], lenient=data.draw(st.booleans()))


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_reordered_lines(name, data):
    lines = SAMPLES[name].split(b"\n")
    shuffled = data.draw(st.permutations(lines))
    convert(name, b"\n".join(shuffled), lenient=data.draw(st.booleans()))


@pytest.mark.parametrize("name", [n for n in NAMES if n != "aider"])
@FUZZ
@given(data=st.data())
def test_wrong_types_and_huge_values(name, data):
    sample = SAMPLES[name]
    if name in JSONL:
        lines = [json.loads(ln) for ln in sample.splitlines() if ln.strip()]
        index = data.draw(st.integers(0, len(lines) - 1))
        lines[index] = data.draw(mutated_document(lines[index]))
        content = b"\n".join(dumps(ln) for ln in lines)
    else:
        content = dumps(data.draw(mutated_document(json.loads(sample))))
    convert(name, content, lenient=data.draw(st.booleans()))


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(data=st.data())
def test_invalid_utf8(name, data):
    sample = SAMPLES[name]
    at = data.draw(st.integers(0, len(sample)))
    junk = data.draw(
        st.sampled_from(
            [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\xe2\x80"]
        )
    )
    convert(name, sample[:at] + junk + sample[at:], lenient=data.draw(st.booleans()))


@pytest.mark.parametrize("name", NAMES)
@FUZZ
@given(value=st.lists(any_value, max_size=4), as_lines=st.booleans(), lenient=st.booleans())
def test_random_json(name, value, as_lines, lenient):
    content = b"\n".join(dumps(v) for v in value) if as_lines else dumps(value)
    convert(name, content, lenient)


@pytest.mark.parametrize("name", NAMES)
def test_nesting_deeper_than_the_json_parser_allows(name):
    deep = b"[" * 100_000 + b"]" * 100_000
    convert(name, deep)
    convert(name, SAMPLES[name] + b"\n" + deep + b"\n", lenient=True)
    convert(name, b'{"history": ' + deep + b"}")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(
        st.dictionaries(st.sampled_from(["id", "messages", "x"]), any_value, max_size=3),
        min_size=1,
        max_size=3,
    ),
    lenient=st.booleans(),
)
def test_hf_random_rows(rows, lenient):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows.jsonl"
        path.write_bytes(b"\n".join(dumps(r) for r in rows))
        try:
            result = import_source("hf", path, ImportOptions(lenient=lenient))
        except InputError:
            return
        for session in result.sessions:
            check_session(session)
