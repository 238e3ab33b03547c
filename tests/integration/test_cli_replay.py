"""``soba-bench replay`` and ``soba-bench run`` end to end through the console entry point."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

from soba_bench.engine.config import DEFAULT_COMPACTION, load_engine_config
from soba_bench.session import read_session
from tests.builders import CONFORMANCE, REPO

SESSION = CONFORMANCE / "sessions" / "cc4-failures.jsonl.gz"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "soba_bench", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_human_summary_names_triggers_outcomes_and_reclaimed_tokens():
    done = cli("replay", str(SESSION), "contextWindow=48000", "maxOutputTokens=8000")
    assert done.returncode == 0, done.stderr
    assert "hard_limit" in done.stdout and "refused requests" in done.stdout
    assert "tokens reclaimed" in done.stdout


def test_json_summary_and_overrides_after_options():
    done = cli(
        "replay",
        str(SESSION),
        "--json",
        "keepRecentTokens=8000",
        "contextWindow=64000",
        "maxOutputTokens=8192",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["kind"] == "summary" and summary["branchEntries"] == 206
    assert summary["droppedCapsules"] == 4


def test_write_session_gives_a_soba_session_with_original_ids(tmp_path):
    done = cli(
        "replay",
        str(SESSION),
        "--write-session",
        str(tmp_path),
        "contextWindow=48000",
        "maxOutputTokens=8000",
        "--decisions",
        str(tmp_path / "d.jsonl"),
    )
    assert done.returncode == 0, done.stderr
    written = read_session(tmp_path / "cc4-failures.jsonl")
    original = read_session(SESSION)
    branch = written.active_branch
    capsules = [e for e in branch if e.kind == "context_capsule"]
    decisions = [json.loads(x) for x in (tmp_path / "d.jsonl").read_text().splitlines()]
    completed = [d for d in decisions if d.get("kind") == "attempt" and d["outcome"] == "completed"]
    assert len(capsules) == len(completed) > 0
    original_items = [e.id for e in original.active_branch if e.kind == "item"]
    assert [e.id for e in branch if e.kind == "item"] == original_items
    assert written.header.data["id"] == original.session_id


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["replay", "missing.jsonl"], "file not found"),
        (["replay", str(SESSION), "keepRecentTokens=abc"], "keepRecentTokens"),
        (["replay", str(SESSION), "noSuchKey=1"], "unknown override key"),
        (
            ["replay", str(SESSION), "contextWindow=1000"],
            "Invalid compaction config: maxOutputTokens + safetyReserveTokens must be < "
            "contextWindow",
        ),
        (["replay", str(SESSION), "--variant", "nope"], "valid names: soba-0.6.14"),
        (["replay", str(SESSION), "--meter", "bogus"], "unknown meter"),
    ],
)
def test_bad_input_exits_2_with_a_clear_message_and_writes_nothing(tmp_path, args, message):
    out = tmp_path / "decisions.jsonl"
    done = cli(*args, "--decisions", str(out))
    assert done.returncode == 2
    assert message in done.stderr
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_an_unreadable_line_in_strict_mode_writes_no_output(tmp_path):
    bad = tmp_path / "bad.jsonl"
    text = gzip.decompress(SESSION.read_bytes()).decode().splitlines()
    text[10] = text[10][: len(text[10]) // 2]  # a truncated line
    bad.write_text("\n".join(text) + "\n")
    out = tmp_path / "out"
    done = cli(
        "replay", str(bad), "--decisions", str(out / "d.jsonl"), "--capsules", str(out / "c.jsonl")
    )
    assert done.returncode == 2
    assert f"{bad}:11:" in done.stderr and "not valid JSON" in done.stderr
    assert not out.exists()
    lenient = cli("replay", str(bad), "--lenient", "--json")
    assert lenient.returncode == 0, lenient.stderr


def test_run_writes_a_self_describing_record(tmp_path):
    done = cli("run", "--results", str(tmp_path), "keepRecentTokens=8000")
    assert done.returncode == 0, done.stderr
    assert "cc4-failures" in done.stdout and "total" in done.stdout
    (run_dir,) = tmp_path.iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    assert record["status"] == "complete"
    assert record["config"]["compaction"]["keepRecentTokens"] == 8000
    assert [c["name"] for c in record["corpora"]] == ["soba-conformance", "synthetic-small"]
    assert all(len(c["manifestSha256"]) == 64 for c in record["corpora"])
    assert record["package"]["sobaVersion"] == "0.6.14"
    assert record["gitRevision"] is None or len(record["gitRevision"]) >= 40
    rows = [json.loads(x) for x in (run_dir / "sessions.jsonl").read_text().splitlines()]
    assert len(rows) == 10 and sum(r["attempts"] for r in rows) == record["totals"]["attempts"]
    assert (run_dir / "replays" / "soba-conformance" / "cc4-failures.jsonl.gz").is_file()
    assert record["scoring"]["withTruth"] == 3


def test_bundled_default_config_file_is_sobas_defaults():
    config = load_engine_config(REPO / "configs" / "engine" / "soba-defaults.json")
    assert config.compaction == DEFAULT_COMPACTION
    assert (config.contextWindow, config.maxOutputTokens) == (128_000, 32_768)
