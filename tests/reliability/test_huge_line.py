"""A 100 MB line in a session and in an importer's input: read (valid) or rejected naming its
line (truncated), never a crash or a hang. One test each, in the slow tier."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.errors import InputError
from soba_bench.session import read_session
from tests.builders import function_output, header, item_line
from tests.reliability.figures import tally

SIZE = 100 * 1024 * 1024

pytestmark = pytest.mark.slow


def big_output_line() -> bytes:
    return json.dumps(item_line("a1", None, function_output("call_1", "x" * SIZE))).encode()


def test_a_100mb_session_line(tmp_path):
    head = json.dumps(header()).encode()
    line = big_output_line()
    path = tmp_path / "big.jsonl"
    path.write_bytes(head + b"\n" + line + b"\n")
    session = read_session(path)
    assert len(session.lines) == 2 and len(session.lines[1].data["item"]["output"]) == SIZE
    path.write_bytes(head + b"\n" + line[:-2] + b"\n" + head + b"\n")
    with pytest.raises(InputError) as info:
        read_session(path)
    assert info.value.line == 2 and str(info.value).startswith(f"{path}:2: not valid JSON")
    lenient = read_session(path, strict=False)
    assert [i.line for i in lenient.issues if i.skipped] == [2] and len(lenient.lines) == 2
    tally("100 MB line", "session reader (valid, truncated strict, truncated lenient)", 3)


def test_a_100mb_line_in_an_importer_input(tmp_path):
    record = {
        "type": "user",
        "sessionId": "s",
        "uuid": "u",
        "message": {"role": "user", "content": "y" * SIZE},
    }
    src = tmp_path / "big.jsonl"
    src.write_bytes(json.dumps(record).encode()[:-3] + b"\n")  # truncated
    with pytest.raises(InputError) as info:
        import_source("claude-code", src, ImportOptions(lenient=False))
    assert str(info.value).startswith(f"{src}:1: not valid JSON")
    # Lenient skips the bad line, counts it, and then has nothing to import: an error, not
    # an empty session.
    with pytest.raises(InputError) as info:
        import_source("claude-code", src, ImportOptions(lenient=True))
    assert "nothing to import" in str(info.value) and "1 bad records skipped" in str(info.value)
    tally("100 MB line", "importer (truncated, strict and lenient)", 2)
