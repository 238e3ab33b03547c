"""``soba-bench import`` end to end: imported sessions replay, errors name the input, bad
input writes nothing, --lenient counts what it skips."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from soba_bench.cli.main import main
from soba_bench.corpora.manifest import load_corpus
from soba_bench.corpora.truth import read_truth
from tests.unit.corpora.helpers import DATA, SWE_REAL, tree_hash


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "soba_bench", *args], capture_output=True, text=True, timeout=120
    )


def test_import_swe_agent_then_replay_through_the_console(tmp_path):
    before = tree_hash(SWE_REAL)
    done = cli("import", "swe-agent", str(SWE_REAL), "--out", str(tmp_path / "corpus"))
    assert done.returncode == 0, done.stderr
    assert tree_hash(SWE_REAL) == before
    assert "3 sessions" in done.stdout and "pydicom-1458.gpt4" in done.stdout
    corpus = load_corpus(tmp_path / "corpus", verify=True)
    assert corpus.format == "soba-jsonl" and len(corpus.sessions) == 3
    replay = cli(
        "replay",
        str(tmp_path / "corpus" / "pydicom-1458.gpt4.jsonl"),
        "--json",
        "contextWindow=16000",
        "maxOutputTokens=2000",
        "keepRecentTokens=2000",
        "minTokensForAutoCompact=4000",
        "minReclaimableTokens=1000",
        "safetyReserveTokens=1000",
    )
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["capsules"] > 0


def test_claude_code_import_replays_with_recorded_usage(tmp_path, capsys):
    out = tmp_path / "cc"
    assert main(["import", "claude-code", str(DATA / "claude-code"), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "8 usage" in printed and "1 compactions" in printed
    main_session, sidechain = sorted(out.glob("*.jsonl"))  # the subagent: its own session
    assert sidechain.name.endswith(".sidechain-sidechain.jsonl")
    session = main_session
    # The loss report: every record kind, what became entries, what was skipped and why.
    assert "user: " in printed and "abandoned branch (not in the final conversation) x1" in printed
    truth = read_truth(out / (session.name.removesuffix(".jsonl") + ".truth.json"))
    assert truth.recorded_compactions[0].pre_tokens == 21311
    assert main(["replay", str(session), "--usage", "recorded", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["usageRecords"] == 8


def test_unknown_format_lists_the_valid_ones(tmp_path, capsys):
    assert main(["import", "cursor", str(DATA), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "unknown import format 'cursor'; valid names: aider, claude-code, codex, hf" in err
    assert not (tmp_path / "o").exists()


def test_malformed_input_fails_with_file_line_field_and_writes_nothing(tmp_path, capsys):
    src = tmp_path / "rollout.jsonl"
    lines = next((DATA / "codex").glob("*.jsonl")).read_text().splitlines()
    assert '"call_id": "call_Qh1"' in lines[7]  # the function_call line
    lines[7] = lines[7].replace('"call_id": "call_Qh1"', '"call_id": 17')
    src.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    assert main(["import", "codex", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:8: wrong type (field 'payload.call_id', value 17); expected string" in err
    assert not out.exists()
    assert main(["import", "codex", str(src), "--out", str(out), "--lenient"]) == 0
    assert "bad records skipped" in capsys.readouterr().out
    (truth_file,) = out.glob("*.truth.json")
    issues = read_truth(truth_file).origin["issues"]
    assert issues["skipped"] == 2  # the call line, then its output has no call


def test_truncation_option_and_folder_of_mixed_files(tmp_path, capsys):
    src = tmp_path / "src"
    shutil.copytree(DATA / "openai-messages", src)
    (src / "notes.txt").write_text("not a session")  # not matched by the format's globs
    out = tmp_path / "out"
    args = ["import", "openai-messages", str(src), "--out", str(out), "--max-output-chars", "10"]
    assert main(args) == 0
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "finetune-001.jsonl",
        "finetune-001.truth.json",
        "finetune-002.jsonl",
        "finetune-002.truth.json",
        "manifest.json",
        "slugify-accents.jsonl",
        "slugify-accents.truth.json",
    ]
    truth = read_truth(out / "slugify-accents.truth.json")
    assert truth.origin["truncated"]["outputs"] == 3
    assert (
        main(["import", "openai-messages", str(src), "--out", str(Path(out) / "manifest.json")])
        == 2
    )
    assert "output is not a folder" in capsys.readouterr().err


def test_hf_local_files_through_the_cli(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(
        json.dumps(
            {
                "uid": "r1",
                "conv": [
                    {"role": "user", "content": "hi"},
                    {"role": "assistant", "content": "hello"},
                ],
            }
        )
        + "\n"
    )
    out = tmp_path / "out"
    args = [
        "import",
        "hf",
        str(rows),
        "--out",
        str(out),
        "--column",
        "messages=conv",
        "--column",
        "id=uid",
        "--limit",
        "1",
    ]
    assert main(args) == 0, capsys.readouterr().err
    assert (out / "r1.jsonl").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["source"].startswith("imported from hf: ")


def test_empty_imports_fail_even_lenient_and_write_nothing(tmp_path, capsys):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    for fmt in ("claude-code", "codex"):
        assert main(["import", fmt, str(empty), "--out", str(tmp_path / fmt)]) == 2
        err = capsys.readouterr().err
        assert "empty.jsonl: nothing to import: the session would be empty" in err
        assert not (tmp_path / fmt).exists()
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json\n{{{\n")
    out = tmp_path / "g"
    assert main(["import", "codex", str(garbage), "--out", str(out), "--lenient"]) == 2
    assert "nothing to import" in capsys.readouterr().err and not out.exists()


REAL = DATA / "real"


def test_every_real_log_imports_strictly_and_replays(tmp_path, capsys):
    """The real logs of every format (tests/data/importers/real) import in strict mode with
    nothing skipped that held a user message or a tool call, and every session replays."""
    cases = [
        ("aider", REAL / "aider", []),
        ("claude-code", REAL / "claude-code", []),
        ("codex", REAL / "codex", []),
        ("openhands", REAL / "openhands", []),
        ("text-tools", REAL / "text-tools", []),
        (
            "hf",
            REAL / "hf" / "swe-smith-trajectories.jsonl",
            ["--mapping", "SWE-bench/SWE-smith-trajectories"],
        ),
    ]
    for fmt, src, extra in cases:
        out = tmp_path / fmt
        assert main(["import", fmt, str(src), "--out", str(out), *extra]) == 0, fmt
        capsys.readouterr()
        sessions = sorted(p for p in out.glob("*.jsonl"))
        assert sessions, fmt
        for session in sessions:
            assert main(["replay", str(session), "--json"]) == 0, session.name
            summary = json.loads(capsys.readouterr().out)
            # The whole branch is walked and the engine is asked at least once.
            assert summary["replayedEntries"] == summary["branchEntries"] > 0, session.name
            assert summary["preflights"] >= 1, session.name


def test_tool_names_are_sobas_unless_the_source_is_asked_for(tmp_path, capsys):
    src = DATA / "claude-code"
    assert main(["import", "claude-code", str(src), "--out", str(tmp_path / "soba")]) == 0
    assert "as SOBA's tools: Read -> read x" in capsys.readouterr().out
    assert main(
        ["import", "claude-code", str(src), "--out", str(tmp_path / "kept"),
         "--tool-names", "source"]
    ) == 0  # fmt: skip
    assert "as SOBA's tools" not in capsys.readouterr().out

    def names(folder):
        return [
            json.loads(line)["item"]["name"]
            for session in sorted(folder.glob("*.jsonl"))
            for line in session.read_text().splitlines()
            if '"function_call"' in line
        ]

    soba, kept = names(tmp_path / "soba"), names(tmp_path / "kept")
    assert len(soba) == len(kept) and "read" in soba and "Read" in kept and "read" not in kept
    # the ground truth is the same either way
    for truth in (tmp_path / "kept").glob("*.truth.json"):
        mine = json.loads(truth.read_text())["facts"]
        assert json.loads((tmp_path / "soba" / truth.name).read_text())["facts"] == mine
    done = cli("import", "claude-code", str(src), "--out", str(tmp_path / "x"), "--tool-names", "x")
    assert done.returncode == 2 and "--tool-names" in done.stderr
    assert not (tmp_path / "x").exists()
