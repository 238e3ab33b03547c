"""Lossless JSONL read/write: conformance sessions and every line kind / item type."""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path

import pytest

from soba_bench import jsonio
from soba_bench.errors import OutputError
from soba_bench.session import read_session, write_session
from tests.builders import (
    CONFORMANCE_SESSIONS,
    TS,
    capsule_line,
    header,
    item_line,
    legacy_compaction_line,
    session_of,
    skill,
    skill_line,
    write_lines,
)


def json_lines(path: Path) -> list:
    """Parse a (maybe gzipped) JSONL file independently of the package under test."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    # Split on "\n" only: str.splitlines() would also split inside strings at U+2028.
    return [json.loads(line) for line in raw.decode("utf-8").split("\n") if line.strip()]


def every_kind_lines() -> list[dict]:
    """One session holding every line kind and every model item type SOBA writes."""
    items = [
        {"type": "message", "role": "system", "content": [{"type": "input_text", "text": "sys"}]},
        {
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_text", "text": "Look at this 😀 screenshot"},
                {
                    "type": "input_image",
                    "image_url": "data:image/png;base64,iVBORw0K",
                    "detail": "low",
                },
            ],
        },
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA==", "summary": [], "x": 1},
        {
            "type": "message",
            "role": "assistant",
            "phase": "commentary",
            "content": [{"type": "output_text", "text": "Reading the file."}],
            "reasoning_content": "think first",
            "reasoning_details": [{"type": "reasoning.text", "text": "t"}],
        },
        {
            "type": "function_call",
            "call_id": "call_1",
            "name": "read",
            "arguments": '{"path":"src/a.ts"}',
            "status": "completed",
            "reasoning_content": "need the file",
        },
        {
            "type": "function_call_output",
            "call_id": "call_1",
            "output": "line1\nline2",
            "status": "completed",
        },
        {"type": "function_call", "call_id": "call_2", "name": "view", "arguments": "{}"},
        {
            "type": "function_call_output",
            "call_id": "call_2",
            "output": [
                {"type": "input_text", "text": "see image"},
                {"type": "input_image", "image_url": "https://example.invalid/a.png"},
            ],
        },
        {
            "type": "local_shell_call",
            "call_id": "call_3",
            "command": "bun test",
            "status": "completed",
        },
        {
            "type": "local_shell_call_output",
            "call_id": "call_3",
            "output": "1 failed",
            "exit_code": 1,
            "truncated": False,
            "status": "failed",
        },
        {"type": "local_shell_call_output", "call_id": "call_4", "output": "ok", "exit_code": None},
        {"type": "compaction", "encrypted_content": "enc-item", "id": "cmp_9"},
        {
            "type": "message",
            "role": "assistant",
            "phase": "final_answer",
            "content": [{"type": "output_text", "text": "Done. \u0000\u001f\u2028 tab\t"}],
        },
    ]
    lines: list[dict] = [header()]
    parent = None
    for n, item in enumerate(items):
        lines.append(item_line(f"i{n:02d}", parent, item))
        parent = f"i{n:02d}"
    lines.append({"type": "session_migration", "timestamp": TS, "fromVersion": 1, "toVersion": 2})
    lines.append(legacy_compaction_line("lc1", parent, first_kept="i05"))
    lines.append(
        capsule_line(
            "cap1",
            "lc1",
            first_kept="i10",
            first_compacted="i00",
            skills=[skill("review")],
            native={
                "provider": {"adapterId": "openai", "endpointOrigin": "https://x", "model": "m"},
                "compatibilityKey": "openai::https://x::m",
                "responseId": "resp_1",
                "items": [{"type": "compaction", "encrypted_content": "opaque"}],
            },
            constraints=["Keep the API"],
            completed=["Read a.ts"],
            inProgress=["Fix b.ts"],
            pending=["Run tests"],
            decisions=[{"decision": "Use zod", "rationale": "type safety"}, {"decision": "No ORM"}],
            blockers=["bun test fails"],
            nextSteps=["Fix the failing test"],
            readFiles=["src/a.ts"],
            modifiedFiles=["src/b.ts"],
            verificationCommands=["bun test"],
            verificationStatus="failed",
            checkpointSummaries=["first pass"],
        )
    )
    lines.append({"type": "session_cursor", "timestamp": TS, "leafId": "cap1", "reason": "append"})
    lines.append(skill_line("sk1", "cap1", "activate", skill("deploy", scope="user")))
    lines.append(skill_line("sk2", "sk1", "deactivate", skill("review")))
    lines.append({"type": "session_cursor", "timestamp": TS, "leafId": "sk2", "reason": "append"})
    lines.append({"type": "debug", "timestamp": TS, "data": {"decision": "continue", "n": 1.5}})
    lines.append(
        {
            "type": "flight_record",
            "timestamp": TS,
            "data": {
                "version": 1,
                "kind": "tool_result",
                "turn": 1,
                "iteration": 2,
                "payload": {"toolCallId": "call_1", "result": {"isError": False}},
            },
        }
    )
    lines.append({"type": "session_config", "timestamp": TS, "key": "model", "value": {"id": "m"}})
    lines.append({"type": "session_cursor", "timestamp": TS, "leafId": "sk1", "reason": "rewind"})
    lines.append({"type": "future_kind", "weird": [1, 2.5, None, True, {"nested": "é"}]})
    return lines


@pytest.mark.parametrize("path", CONFORMANCE_SESSIONS, ids=lambda p: p.name.split(".")[0])
def test_conformance_session_round_trips_plain_and_gz(path: Path, tmp_path: Path) -> None:
    session = read_session(path)
    original = json_lines(path)
    assert len(session.lines) == len(original)

    plain = tmp_path / "out.jsonl"
    gz = tmp_path / "out.jsonl.gz"
    write_session(session, plain)
    write_session(session, gz)

    assert json_lines(plain) == original
    assert json_lines(gz) == original
    assert gz.read_bytes()[:2] == b"\x1f\x8b"
    # SOBA's JSON.stringify layout is reproduced byte for byte on these files.
    assert plain.read_bytes() == gzip.decompress(path.read_bytes())


def test_conformance_sessions_are_present() -> None:
    assert len(CONFORMANCE_SESSIONS) == 7


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_every_line_kind_and_item_type_round_trips(tmp_path: Path, suffix: str) -> None:
    lines = every_kind_lines()
    source = write_lines(tmp_path / f"in{suffix}", lines)

    session = read_session(source)
    assert [e.kind for e in session.lines] == [line["type"] for line in lines]
    assert [e.line for e in session.lines] == list(range(1, len(lines) + 1))
    assert session.warnings == ()
    assert session.skipped == ()

    for out_suffix in (".jsonl", ".jsonl.gz"):
        out = tmp_path / f"out{out_suffix}"
        write_session(session, out)
        assert json_lines(out) == lines
        again = read_session(out)
        assert [e.data for e in again.lines] == lines


def test_unknown_line_type_is_kept_verbatim(tmp_path: Path) -> None:
    odd = {"type": "future_kind", "z": 1, "a": {"b": [None, 1.25e-7, "ü"]}}
    source = write_lines(tmp_path / "s.jsonl", [header(), odd])
    session = read_session(source)
    assert session.lines[1].kind == "future_kind"
    assert session.lines[1].data == odd
    assert not session.lines[1].is_tree
    out = tmp_path / "out.jsonl"
    write_session(session, out)
    written = json_lines(out)[1]
    assert written == odd
    assert list(written) == ["type", "z", "a"]  # key order kept too


def test_write_session_accepts_entries_iterable(tmp_path: Path) -> None:
    session = read_session(write_lines(tmp_path / "s.jsonl", every_kind_lines()))
    out = tmp_path / "subset.jsonl"
    write_session((e for e in session.lines if e.is_tree), out)
    assert json_lines(out) == [line for line in every_kind_lines() if "parentId" in line]


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_reading_never_modifies_the_input(tmp_path: Path, suffix: str) -> None:
    source = write_lines(tmp_path / f"s{suffix}", every_kind_lines())
    old = os.stat(source).st_mtime_ns - 10_000_000_000
    os.utime(source, ns=(old, old))
    before = source.read_bytes()

    read_session(source)
    read_session(source, strict=False)

    assert source.read_bytes() == before
    assert os.stat(source).st_mtime_ns == old
    assert sorted(p.name for p in tmp_path.iterdir()) == [source.name]


def test_write_replaces_target_atomically_and_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old content\n")
    old_inode = os.stat(target).st_ino
    session = read_session(write_lines(tmp_path / "in.jsonl", every_kind_lines()))

    write_session(session, target)

    assert json_lines(target) == every_kind_lines()
    assert os.stat(target).st_ino != old_inode  # a new file renamed over the old one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


def test_failed_write_keeps_old_target_and_removes_temp(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old content\n")
    session = read_session(write_lines(tmp_path / "in.jsonl", every_kind_lines()))

    def boom(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(jsonio.os, "replace", boom)
    with pytest.raises(OutputError, match="disk full"):
        write_session(session, target)

    assert target.read_text() == "old content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "out.jsonl"]


def test_write_creates_missing_parent_folders(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "s.jsonl.gz"
    session = read_session(write_lines(tmp_path / "in.jsonl", every_kind_lines()))
    write_session(session, target)
    assert json_lines(target) == every_kind_lines()


def test_gzip_is_detected_by_content_not_name(tmp_path: Path) -> None:
    lines = every_kind_lines()
    disguised = tmp_path / "looks-plain.jsonl"
    disguised.write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    assert [e.data for e in read_session(disguised).lines] == lines


def test_blank_lines_and_crlf_are_tolerated(tmp_path: Path) -> None:
    lines = every_kind_lines()[:3]
    body = "\r\n\r\n".join(json.dumps(x) for x in lines) + "\r\n\n  \n"
    path = tmp_path / "s.jsonl"
    path.write_bytes(body.encode())
    session = read_session(path)
    assert [e.data for e in session.lines] == lines
    assert [e.line for e in session.lines] == [1, 3, 5]


def test_lone_surrogates_are_written_as_escapes(tmp_path: Path) -> None:
    lines = [
        header(),
        item_line(
            "a",
            None,
            {"type": "function_call_output", "call_id": "c", "output": "half \ud83d pair"},
        ),
    ]
    path = tmp_path / "s.jsonl"
    write_session(session_of(lines, with_header=False), path)
    assert b"\\ud83d" in path.read_bytes()
    assert [e.data for e in read_session(path).lines] == lines


def test_write_keeps_the_replaced_files_permissions(tmp_path: Path) -> None:
    target = tmp_path / "out.jsonl"
    target.write_text("old\n")
    target.chmod(0o640)
    session = read_session(write_lines(tmp_path / "in.jsonl", every_kind_lines()))
    write_session(session, target)
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640


def test_new_file_gets_umask_permissions_not_temp_file_0600(tmp_path: Path) -> None:
    session = read_session(write_lines(tmp_path / "in.jsonl", every_kind_lines()))
    old_umask = os.umask(0o022)
    try:
        write_session(session, tmp_path / "new.jsonl")
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.jsonl").st_mode) == 0o644
