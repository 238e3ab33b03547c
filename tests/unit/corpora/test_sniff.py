"""Other agents' logs are recognised, so a command given one names the import to run; SOBA
sessions and unknown files are never taken for one."""

from __future__ import annotations

import subprocess
import sys

import pytest

from soba_bench.corpora.sniff import folder_hint, import_hint, sniff_format
from tests.builders import CONFORMANCE, REPO

DATA = REPO / "tests" / "data" / "importers"
SWE = REPO / "corpora" / "swe-agent-real"


@pytest.mark.parametrize(
    ("path", "fmt"),
    [
        (SWE / "ctf-crypto-katy.traj", "swe-agent"),
        (SWE / "marshmallow-1867.function_calling.traj", "swe-agent"),
        (next((DATA / "claude-code").glob("*.jsonl")), "claude-code"),
        (next((DATA / "claude-code-stream").glob("*.jsonl")), "claude-code"),
        (next((DATA / "codex").glob("*.jsonl")), "codex"),
        (next((DATA / "openhands").glob("*.json")), "openhands"),
        (DATA / "openai-messages" / "finetune.jsonl", "openai-messages"),
    ],
    ids=lambda v: v if isinstance(v, str) else v.parent.name,
)
def test_each_format_is_recognised(path, fmt):
    assert sniff_format(path) == fmt
    hint = import_hint(path)
    assert f"soba-bench import {fmt} {path} --out DIR" in hint


def test_aider_history(tmp_path):
    path = tmp_path / ".aider.chat.history.md"
    path.write_text("\n# aider chat started at 2025-01-02 10:00:00\n\n#### fix the bug\n")
    assert sniff_format(path) == "aider"


def test_soba_sessions_and_other_files_are_not_flagged(tmp_path):
    for session in sorted((CONFORMANCE / "sessions").glob("*.jsonl.gz"))[:3]:
        assert sniff_format(session) is None
    junk = tmp_path / "notes.jsonl"
    junk.write_text('{"a": 1}\nnot json\n')
    assert sniff_format(junk) is None and import_hint(junk) is None
    assert sniff_format(tmp_path / "missing.jsonl") is None


def test_folder_hint_names_the_folder():
    hint = folder_hint(SWE)
    assert f"soba-bench import swe-agent {SWE} --out DIR" in hint
    assert folder_hint(CONFORMANCE / "sessions") is None


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "soba_bench", *args], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize("command", ["replay", "inspect"])
def test_replay_and_inspect_point_to_import(command):
    path = SWE / "pydicom-1458.gpt4.traj"
    done = _cli(command, str(path))
    assert done.returncode == 2
    assert f"soba-bench import swe-agent {path} --out DIR" in done.stderr
    assert "Traceback" not in done.stderr


def test_run_with_a_folder_of_trajectories_points_to_import(tmp_path):
    done = _cli("run", "--corpus", str(SWE), "--results", str(tmp_path))
    assert done.returncode == 2
    assert f"soba-bench import swe-agent {SWE.resolve()} --out DIR" in done.stderr
    assert not any(tmp_path.iterdir())
