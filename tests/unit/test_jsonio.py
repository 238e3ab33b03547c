"""soba_bench.jsonio: one error discipline for every JSON/JSONL file read (an InputError naming
the file and the line, exit status 2 from the CLI) and one atomic writer."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from soba_bench import jsonio
from soba_bench.cli.main import main
from soba_bench.errors import InputError, OutputError
from soba_bench.runs.record import load_sessions


def _error(call) -> InputError:
    with pytest.raises(InputError) as info:
        call()
    assert info.value.exit_code == 2
    return info.value


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (None, "JSONL file not found"),
        (b"\x1f\x8bnot gzip", "corrupt gzip data"),
        (b'{"a": 1}\n\xff\xfe\n', "not UTF-8 text (byte 9"),
    ],
    ids=["missing", "corrupt-gzip", "not-utf8"],
)
def test_file_level_failures_name_the_file(tmp_path: Path, content, reason: str) -> None:
    path = tmp_path / "t.jsonl"
    if content is not None:
        path.write_bytes(content)
    err = _error(lambda: jsonio.read_jsonl(path))
    assert str(err).startswith(f"{path}: {reason}")


def test_a_folder_is_named_as_such(tmp_path: Path) -> None:
    err = _error(lambda: jsonio.read_json(tmp_path, "run record"))
    assert str(err) == f"{tmp_path}: is a directory, expected a run record"


def test_line_errors_name_the_files_own_line_blank_lines_counted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl.gz"  # gzip by content, here also by name
    path.write_bytes(gzip.compress(b'{"a": 1}\n\n{"a": 2}\n{"a": \n'))
    err = _error(lambda: jsonio.read_jsonl(path))
    assert (err.path, err.line) == (str(path), 4)
    assert str(err).startswith(f"{path}:4: not valid JSON (Expecting value at column 7)")
    path.write_bytes(b'{"a": 1}\n\n[1, 2]\n')
    err = _error(lambda: jsonio.read_jsonl(path))
    assert str(err) == (
        f'{path}:3: line is not a JSON object (value "list"); expected one object {{...}} per line'
    )
    path.write_bytes(b'{"a": 1}\n\n{"a": 2}\n')
    assert list(jsonio.iter_jsonl(path)) == [(1, {"a": 1}), (3, {"a": 2})]


def test_a_whole_document_error_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "case.json"
    path.write_text('{\n  "contextWindow": 48000,\n  "maxOutputTokens": ,\n}\n')
    err = _error(lambda: jsonio.read_json(path))
    assert err.line == 3 and "not valid JSON" in str(err)
    path.write_text("[1]")
    err = _error(lambda: jsonio.read_json_object(path, "config file"))
    assert str(err).startswith(f'{path}: config file is not a JSON object (value "list")')
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert "nested too deeply" in str(_error(lambda: jsonio.read_json(path)))


def test_a_field_error_of_a_run_folder_table_names_the_right_line(tmp_path: Path) -> None:
    # sessions.jsonl rows are typed (SessionRow); the line is the file's, blank lines counted.
    path = tmp_path / "sessions.jsonl"
    path.write_text('\n{"session": "a"}\n{"session": "a"}\n')
    err = _error(lambda: load_sessions(path))
    assert (err.line, err.field, err.value) == (3, "session", "a")


def test_the_cli_prints_one_line_and_exits_2(tmp_path: Path, capsys) -> None:
    case = tmp_path / "case.json"
    case.write_text('{"contextWindow": 48000,}')
    session = Path(__file__).resolve().parents[2] / "corpora/soba-conformance/sessions"
    code = main(["replay", str(session / "cc4-failures.jsonl.gz"), "--config", str(case)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{case}:1: not valid JSON" in err


def test_atomic_write_replaces_whole_files_and_never_leaves_a_half(tmp_path: Path, monkeypatch):
    target = tmp_path / "out" / "rows.jsonl"
    jsonio.write_jsonl(target, [{"a": 1}, {"b": "\ud800"}])  # a lone surrogate is escaped
    assert [json.loads(x) for x in target.read_text().splitlines()] == [{"a": 1}, {"b": "\ud800"}]
    monkeypatch.setattr(jsonio.os, "replace", lambda *_: (_ for _ in ()).throw(OSError(28, "full")))
    with pytest.raises(OutputError, match="cannot write: full"):
        jsonio.write_jsonl(target, [{"c": 3}])
    assert target.read_text().startswith('{"a":1}') and sorted(target.parent.iterdir()) == [target]
