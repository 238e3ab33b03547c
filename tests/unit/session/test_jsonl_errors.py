"""Strict and lenient reading: errors name file, line, field and value; lenient mode counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from soba_bench.errors import InputError, SobaBenchError
from soba_bench.session import read_session
from tests.builders import (
    capsule_line,
    function_call,
    header,
    item_line,
    user,
    write_lines,
)


def write_raw(path: Path, raw_lines: list[bytes]) -> Path:
    path.write_bytes(b"\n".join(raw_lines) + b"\n")
    return path


def good_lines() -> list[bytes]:
    return [
        json.dumps(header()).encode(),
        json.dumps(item_line("a", None, user("hello"))).encode(),
    ]


def strict_error(path: Path) -> InputError:
    with pytest.raises(InputError) as info:
        read_session(path)
    assert isinstance(info.value, SobaBenchError)
    assert info.value.exit_code == 2
    return info.value


def test_truncated_json_line_names_file_and_line(tmp_path: Path) -> None:
    truncated = json.dumps(item_line("b", "a", user("cut here")))[:40].encode()
    path = write_raw(tmp_path / "trunc.jsonl", [*good_lines(), truncated])
    err = strict_error(path)
    message = str(err)
    assert message.startswith(f"{path}:3: not valid JSON (")
    assert "truncated" in message
    assert "expected one JSON object per line" in message
    assert err.line == 3


def test_function_call_arguments_as_object(tmp_path: Path) -> None:
    bad = item_line("b", "a", function_call("c1", "read", "x"))
    bad["item"]["arguments"] = {"path": "src/a.ts"}
    path = write_lines(tmp_path / "args.jsonl", [header(), item_line("a", None, user("hi")), bad])
    err = strict_error(path)
    assert str(err) == (
        f"{path}:3: item line: wrong type (field 'item.arguments', "
        'value {"path": "src/a.ts"})'
        "; expected string"
    )
    assert (err.field, err.value, err.line) == ("item.arguments", {"path": "src/a.ts"}, 3)


def test_parent_id_as_number(tmp_path: Path) -> None:
    bad = item_line("b", "a", user("x"))
    bad["parentId"] = 17
    path = write_lines(tmp_path / "parent.jsonl", [header(), item_line("a", None, user("hi")), bad])
    message = str(strict_error(path))
    assert message == (
        f"{path}:3: item line: wrong type (field 'parentId', value 17); expected string or null"
    )


def test_missing_id(tmp_path: Path) -> None:
    bad = item_line("b", "a", user("x"))
    del bad["id"]
    path = write_lines(tmp_path / "noid.jsonl", [header(), bad])
    err = strict_error(path)
    assert str(err) == (
        f"{path}:2: item line: field is missing (field 'id'); expected non-empty string"
    )
    assert err.has_value is False


def test_empty_id_is_rejected(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "empty.jsonl", [header(), item_line("", None, user("x"))])
    message = str(strict_error(path))
    assert "(field 'id', value \"\")" in message
    assert "expected non-empty string" in message


def test_duplicate_tree_id(tmp_path: Path) -> None:
    lines = [header(), item_line("a", None, user("1")), item_line("a", "a", user("2"))]
    path = write_lines(tmp_path / "dup.jsonl", lines)
    message = str(strict_error(path))
    assert message.startswith(f"{path}:3: item line: duplicate entry id (field 'id', value \"a\")")


def test_nested_capsule_field_type(tmp_path: Path) -> None:
    capsule = capsule_line("k", None, first_kept="root")
    capsule["portableState"]["blockers"] = ["ok", 3]
    path = write_lines(tmp_path / "cap.jsonl", [header(), capsule])
    message = str(strict_error(path))
    assert "context_capsule line: wrong type" in message
    assert "field 'portableState.blockers', value [\"ok\", 3]" in message
    assert "expected list of strings" in message


@pytest.mark.parametrize(
    ("path_", "value", "accepted"),
    [
        (("portableState", "decisions"), ["plain string"], "list of objects"),
        (("activatedSkills",), ["review"], "list of objects"),
        (("nativeContinuation",), "opaque", "object or null"),
    ],
)
def test_capsule_shapes_the_serializer_relies_on(tmp_path: Path, path_, value, accepted) -> None:
    capsule = capsule_line("k", None, first_kept="root")
    target = capsule
    for key in path_[:-1]:
        target = target[key]
    target[path_[-1]] = value
    path = write_lines(tmp_path / "cap.jsonl", [header(), capsule])
    message = str(strict_error(path))
    assert f"field '{'.'.join(path_)}'" in message
    assert f"expected {accepted}" in message


def test_null_native_continuation_is_accepted(tmp_path: Path) -> None:
    capsule = capsule_line("k", None, first_kept="root")
    capsule["nativeContinuation"] = None
    session = read_session(write_lines(tmp_path / "cap.jsonl", [header(), capsule]))
    assert session.lines[1].data["nativeContinuation"] is None


def test_message_block_text_must_be_string(tmp_path: Path) -> None:
    bad = item_line("a", None, user("x"))
    bad["item"]["content"][0]["text"] = 5
    path = write_lines(tmp_path / "block.jsonl", [header(), bad])
    assert "(field 'item.content[0].text', value 5); expected string" in str(strict_error(path))


def test_bool_is_not_a_number(tmp_path: Path) -> None:
    bad = item_line(
        "a",
        None,
        {"type": "local_shell_call_output", "call_id": "c", "output": "x", "exit_code": True},
    )
    path = write_lines(tmp_path / "bool.jsonl", [header(), bad])
    message = str(strict_error(path))
    assert "(field 'item.exit_code', value true); expected integer or null" in message


@pytest.mark.parametrize("constant", ["NaN", "Infinity", "-Infinity"])
def test_non_json_constants_are_rejected(tmp_path: Path, constant: str) -> None:
    # JSON.parse rejects them, so SOBA would skip such a line; Python's json accepts them.
    raw = f'{{"type":"debug","timestamp":"t","data":{{"v":{constant}}}}}'.encode()
    path = write_raw(tmp_path / "nan.jsonl", [*good_lines(), raw])
    message = str(strict_error(path))
    assert message == (
        f"{path}:3: not valid JSON ({constant} is not a JSON value); "
        "expected one JSON object per line"
    )


def test_unknown_item_type_is_kept_and_flagged(tmp_path: Path) -> None:
    odd = item_line("b", "a", {"type": "web_search_call", "id": "ws_1", "status": "completed"})
    path = write_lines(tmp_path / "odd.jsonl", [header(), item_line("a", None, user("hi")), odd])
    session = read_session(path)
    assert [e.id for e in session.active_branch] == ["a", "b"]
    assert session.lines[2].data == odd
    assert session.skipped == ()
    (warning,) = session.warnings
    assert warning.line == 3
    assert warning.skipped is False
    assert warning.message.startswith(f"{path}:3: item line: unknown item type")
    assert "(field 'item.type', value \"web_search_call\")" in warning.message
    assert "function_call" in warning.message  # lists what is accepted


def test_invalid_utf8(tmp_path: Path) -> None:
    raw = b'{"type":"debug","timestamp":"t","data":{"v":"caf\xe9"}}'
    path = write_raw(tmp_path / "latin1.jsonl", [*good_lines(), raw])
    err = strict_error(path)
    assert str(err) == f"{path}:3: invalid UTF-8 at byte 48; expected UTF-8 text"


def test_no_header(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "headless.jsonl", [item_line("a", None, user("hi"))])
    err = strict_error(path)
    assert str(err).startswith(f"{path}: not a SOBA session: no 'session' header line")
    assert '{"type":"session"' in str(err)


def test_line_that_is_not_an_object(tmp_path: Path) -> None:
    path = write_raw(tmp_path / "list.jsonl", [*good_lines(), b"[1, 2]"])
    err = strict_error(path)
    assert str(err) == (
        f"{path}:3: line is not a JSON object (value [1, 2]); "
        "expected a JSON object with a 'type' field"
    )
    assert err.value == [1, 2]


def test_line_without_type(tmp_path: Path) -> None:
    path = write_raw(tmp_path / "notype.jsonl", [*good_lines(), b'{"type": 7}'])
    message = str(strict_error(path))
    assert message.startswith(f"{path}:3: line has no string 'type' (field 'type', value 7)")


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("missing.jsonl", None, "file not found"),
        ("gzbad.jsonl.gz", b"\x1f\x8bnot really gzip", "corrupt gzip data"),
    ],
)
def test_unreadable_files(tmp_path: Path, name: str, content: bytes | None, reason: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    message = str(strict_error(path))
    assert message.startswith(f"{path}: {reason}")


def test_directory_is_rejected(tmp_path: Path) -> None:
    assert "is a directory" in str(strict_error(tmp_path))


def test_lenient_mode_skips_counts_and_reports(tmp_path: Path) -> None:
    bad_args = item_line("c", "b", function_call("c1", "read", "x"))
    bad_args["item"]["arguments"] = {"path": "a"}
    raw = [
        json.dumps(header()).encode(),
        json.dumps(item_line("a", None, user("one"))).encode(),
        b'{"type":"item","id":"tr',  # truncated
        json.dumps(item_line("b", "a", user("two"))).encode(),
        json.dumps(bad_args).encode(),
        b'{"type":"debug","data":"\xff"}',
        json.dumps(item_line("d", "b", {"type": "mystery"})).encode(),
    ]
    path = write_raw(tmp_path / "mixed.jsonl", raw)

    with pytest.raises(InputError):
        read_session(path)
    session = read_session(path, strict=False)

    assert [e.id for e in session.lines if e.is_tree] == ["a", "b", "d"]
    assert [i.line for i in session.skipped] == [3, 5, 6]
    assert all(i.skipped for i in session.skipped)
    assert str(path) + ":3: not valid JSON" in session.skipped[0].message
    assert "field 'item.arguments'" in session.skipped[1].message
    assert "invalid UTF-8" in session.skipped[2].message
    assert [i.line for i in session.warnings] == [7]
    assert len(session.issues) == 4


def test_lenient_without_header_warns_instead_of_failing(tmp_path: Path) -> None:
    path = write_lines(tmp_path / "headless.jsonl", [item_line("a", None, user("hi"))])
    session = read_session(path, strict=False)
    assert [e.id for e in session.lines] == ["a"]
    (warning,) = session.warnings
    assert "no 'session' header line" in warning.message
    assert session.session_id is None


def test_lenient_with_nothing_readable_still_fails(tmp_path: Path) -> None:
    path = write_raw(tmp_path / "garbage.jsonl", [b"not json", b"{"])
    with pytest.raises(InputError, match="no 'session' header line"):
        read_session(path, strict=False)
