"""The acceptance test of the replay: every case SOBA v0.6.14's own engine recorded
(corpora/soba-conformance, copied from the project's shared conformance kit) must match
exactly - every attempt, every capsule and every barrier, reason texts included."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from soba_bench.engine.config import load_engine_config
from soba_bench.jsonio import read_jsonl
from soba_bench.replay.compare import compare_attempts, compare_barriers, compare_capsules
from soba_bench.replay.simulator import replay_session
from soba_bench.session import read_session

ROOT = Path(__file__).resolve().parents[2] / "corpora" / "soba-conformance"
MANIFEST = json.loads((ROOT / "conformance.json").read_text())
CASES = MANIFEST["cases"]


@cache
def session(rel: str):
    return read_session(ROOT / rel)


def test_manifest_is_complete():
    assert len(CASES) == MANIFEST["totals"]["cases"] == 49
    assert sum(c["attempts"] for c in CASES) == MANIFEST["totals"]["attempts"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_exactly(case):
    trace = replay_session(session(case["session"]), load_engine_config(ROOT / case["config"]))
    expected = case["expected"]
    attempts = compare_attempts(read_jsonl(ROOT / expected["decisions"]), trace.decision_lines())
    capsules = compare_capsules(read_jsonl(ROOT / expected["capsules"]), trace.capsules)
    barriers = compare_barriers(read_jsonl(ROOT / expected["checks"]), trace.check_lines())
    assert attempts.mismatches == [] and attempts.reason_mismatches == []
    assert capsules.mismatches == []
    assert barriers.mismatches == []
    assert attempts.compared == case["attempts"]
    assert capsules.compared == case["capsuleCount"]
    assert barriers.compared == case["barriers"]
    summary = trace.summary()
    assert summary["byOutcome"] == case["outcomes"]
    assert summary["blockedRequests"] == case["blockedBarriers"]


def test_comparison_detects_a_changed_decision():
    # The comparison itself must not be vacuous: a single altered field is reported.
    case = CASES[0]
    trace = replay_session(session(case["session"]), load_engine_config(ROOT / case["config"]))
    lines = trace.decision_lines()
    lines[1] = {**lines[1], "tokensAfter": lines[1]["tokensAfter"] + 1}
    result = compare_attempts(read_jsonl(ROOT / case["expected"]["decisions"]), lines)
    assert len(result.mismatches) == 1 and "tokensAfter" in result.mismatches[0]


SESSION_CASES = {c["session"]: c for c in CASES if c["configName"] == "C1"}


@pytest.mark.parametrize("case", list(SESSION_CASES.values()), ids=lambda c: c["id"])
def test_cli_writes_conformance_files(case, tmp_path):
    """The CLI contract end to end: the files it writes match SOBA's."""
    out = {k: tmp_path / f"{k}.jsonl" for k in ("decisions", "capsules", "checks")}
    cmd = [
        sys.executable,
        "-m",
        "soba_bench",
        "replay",
        str(ROOT / case["session"]),
        "--config",
        str(ROOT / case["config"]),
    ]
    for name, path in out.items():
        cmd += [f"--{name}", str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    expected = case["expected"]
    assert compare_attempts(
        read_jsonl(ROOT / expected["decisions"]), read_jsonl(out["decisions"])
    ).ok
    assert compare_capsules(read_jsonl(ROOT / expected["capsules"]), read_jsonl(out["capsules"])).ok
    barriers = compare_barriers(read_jsonl(ROOT / expected["checks"]), read_jsonl(out["checks"]))
    assert barriers.mismatches == [] and barriers.compared == case["barriers"]
