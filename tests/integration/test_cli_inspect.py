"""``soba-bench inspect`` end to end, against SOBA's recorded numbers for the conformance set."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from soba_bench.cli.main import main
from tests.builders import (
    CONFORMANCE,
    CONFORMANCE_SESSIONS,
    assistant,
    chain,
    function_call,
    function_output,
    header,
    user,
    write_lines,
)

BIN = Path(sys.executable).parent


def expected_lines(name: str) -> tuple[dict, dict]:
    """The config line and the summary line of SOBA's C0 decision log for a session."""
    path = CONFORMANCE / "expected" / f"{name}.C0.decisions.jsonl.gz"
    lines = [json.loads(x) for x in gzip.decompress(path.read_bytes()).splitlines() if x.strip()]
    assert lines[0]["kind"] == "config" and lines[-1]["kind"] == "summary"
    return lines[0], lines[-1]


def inspect_json(capsys, *args: str) -> dict:
    assert main(["inspect", *args, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return json.loads(out)


@pytest.mark.parametrize("path", CONFORMANCE_SESSIONS, ids=lambda p: p.name.split(".")[0])
def test_inspect_json_matches_soba_recorded_branch_numbers(path: Path, capsys) -> None:
    config, summary = expected_lines(path.name.removesuffix(".jsonl.gz"))
    got = inspect_json(capsys, str(path))
    assert got["branchItemTokens"] == config["branchItemTokens"]
    assert got["branchEntries"] == config["branchEntries"]
    assert got["entries"] == config["fileLines"]
    assert got["sessionId"] == config["sessionId"]
    assert got["turns"] == summary["turns"]
    assert got["turnSource"] == summary["turnSource"]
    assert got["meter"] == "soba"
    assert sum(got["tokensByKind"].values()) == got["branchItemTokens"]
    assert got["warnings"] == [] and got["skippedLines"] == 0


def small_session(tmp_path: Path) -> Path:
    lines = [
        header(),
        *chain(
            [
                user("Hello world"),
                assistant("Hi"),
                function_call("c1", "read", '{"path":"a.ts"}'),
                function_output("c1", "x" * 1200),
                user("x" * 4000),
            ]
        ),
    ]
    return write_lines(tmp_path / "small.jsonl", lines)


def test_inspect_json_small_session(tmp_path: Path, capsys) -> None:
    got = inspect_json(capsys, str(small_session(tmp_path)))
    assert got["turns"] == 2
    assert got["turnSource"] == "every user message"
    assert got["toolCalls"] == 1 and got["toolOutputs"] == 1
    assert got["tokensByKind"] == {
        "function_call": 6,  # 'read: {"path":"a.ts"}' = 21 chars
        "function_call_output": 343,
        "message:assistant": 1,
        "message:user": 4 + 1143,
    }
    assert got["branchItemTokens"] == 1497
    assert got["leafId"] == "e4"


def test_inspect_human_output_mentions_turns_and_tokens(tmp_path: Path, capsys) -> None:
    path = small_session(tmp_path)
    assert main(["inspect", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "turns     2 (every user message)" in out
    assert "tokens    1497 on the branch (soba)" in out
    assert "message:user" in out and "1147" in out
    assert str(path) in out


def test_inspect_with_tiktoken_meter(tmp_path: Path, capsys) -> None:
    got = inspect_json(capsys, str(small_session(tmp_path)), "--meter", "tiktoken:cl100k_base")
    assert got["meter"] == "tiktoken:cl100k_base"
    assert got["tokensByKind"]["message:assistant"] == 1  # "Hi"
    assert got["branchItemTokens"] == sum(got["tokensByKind"].values())


def test_inspect_bad_file_exits_2_with_a_clear_message(tmp_path: Path, capsys) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(header()) + "\n" + '{"type":"item","id":"a"\n')
    assert main(["inspect", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"soba-bench inspect: error: {path}:2: not valid JSON")
    assert err.count("\n") == 1  # one line, no traceback


def test_inspect_missing_file_exits_2(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nope.jsonl"
    assert main(["inspect", str(missing)]) == 2
    assert capsys.readouterr().err == f"soba-bench inspect: error: {missing}: file not found\n"


def test_inspect_unknown_meter_exits_2_and_lists_valid_names(tmp_path: Path, capsys) -> None:
    assert main(["inspect", str(small_session(tmp_path)), "--meter", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown meter 'bogus'; valid names: soba, tiktoken:<encoding>" in err


def test_inspect_lenient_reports_skipped_lines(tmp_path: Path, capsys) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        json.dumps(header())
        + "\n"
        + '{"type":"item","id":"tr\n'
        + json.dumps(chain([user("Hello")])[0])
        + "\n"
    )
    assert main(["inspect", str(path), "--lenient"]) == 0
    out = capsys.readouterr().out
    assert "skipped   1 unreadable lines (lenient mode)" in out
    got = inspect_json(capsys, str(path), "--lenient")
    assert got["skippedLines"] == 1
    assert got["branchItemTokens"] == 2


def test_inspect_reports_unknown_item_type_warning(tmp_path: Path, capsys) -> None:
    lines = [header(), *chain([user("Hi"), {"type": "mcp_call", "name": "x"}])]
    path = write_lines(tmp_path / "odd.jsonl", lines)
    got = inspect_json(capsys, str(path))
    assert len(got["warnings"]) == 1
    assert "unknown item type" in got["warnings"][0]
    assert got["tokensByKind"]["mcp_call"] == 0


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=60, check=False)


def test_console_script_help_lists_subcommands() -> None:
    result = run(str(BIN / "soba-bench"), "--help")
    assert result.returncode == 0
    assert "usage: soba-bench" in result.stdout
    assert "inspect" in result.stdout


def test_python_m_help_works() -> None:
    result = run(sys.executable, "-m", "soba_bench", "--help")
    assert result.returncode == 0
    assert "inspect" in result.stdout


def test_python_m_inspect_bad_file_exits_2(tmp_path: Path) -> None:
    result = run(sys.executable, "-m", "soba_bench", "inspect", str(tmp_path / "missing.jsonl"))
    assert result.returncode == 2
    assert "file not found" in result.stderr
    assert "Traceback" not in result.stderr


def test_python_m_inspect_conformance_session_json() -> None:
    path = next(p for p in CONFORMANCE_SESSIONS if p.name.startswith("cc4"))
    result = run(sys.executable, "-m", "soba_bench", "inspect", str(path), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["branchItemTokens"] == 86675


def test_version_and_missing_command(capsys) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("soba-bench 0.1.0")
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 2
    assert "COMMAND" in capsys.readouterr().err
