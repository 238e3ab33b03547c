"""JSONL round trip for generated sessions (random unicode, non-BMP, control characters)."""

from __future__ import annotations

import gzip
import json
import tempfile
from pathlib import Path

from hypothesis import given, settings

from soba_bench.jsonio import encode_jsonl
from soba_bench.session import read_session, write_session
from soba_bench.session.jsonl import parse_lines
from tests.builders import session_of
from tests.property.strategies import session_lines


@given(session_lines())
def test_generated_sessions_round_trip_in_memory(lines: list[dict]) -> None:
    payload = encode_jsonl(lines)
    assert payload.count(b"\n") == len(lines)  # one physical line per entry
    entries, issues = parse_lines(payload, strict=True)
    assert [e.data for e in entries] == lines
    assert all(not i.skipped for i in issues)
    assert json.loads(gzip.decompress(encode_jsonl(lines, gz=True)).split(b"\n")[0]) == lines[0]


@settings(max_examples=40)
@given(session_lines())
def test_generated_sessions_round_trip_through_files(lines: list[dict]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("s.jsonl", "s.jsonl.gz"):
            path = Path(tmp) / name
            write_session(session_of(lines, with_header=False), path)
            again = read_session(path)
            assert [e.data for e in again.lines] == lines
            assert again.warnings == ()
            item_ids = [line["id"] for line in lines if line["type"] == "item"]
            assert [e.id for e in again.active_branch] == item_ids
