"""Scoring a rival replay: its own moments and model inputs, under its own name, with the
failure-mode detectors reading its barrier log and inputs."""

from __future__ import annotations

from pathlib import Path

from soba_bench.compactors.inputs import ReplayedInputs
from soba_bench.scoring.aggregate import session_table
from soba_bench.scoring.runner import truth_for
from soba_bench.scoring.session import ScoreConfig, score_replay
from soba_bench.session import read_session
from tests.builders import REPO
from tests.unit.compactors.helpers import run, small_engine, tool_session

# The retention tests read retention's rows only (availability at every request, outcomes and
# the detectors are other tests' business).
RETENTION = ScoreConfig(scorers=("retention",))
SESSION = REPO / "corpora" / "synthetic-small" / "sessions" / "synthetic-s7-002.jsonl.gz"


def test_a_soba_log_keeps_the_capsule_moments():
    session = read_session(SESSION)
    trace = run("soba", session, small_engine(keepRecentTokens=3000))
    assert ReplayedInputs.of(trace.check_lines()) is None
    scores = score_replay(
        "s", trace.entries, truth_for(Path(SESSION)), RETENTION, trace.check_lines()
    )
    capsules = [r for r in scores.summaries if r["view"] == "capsule"]
    assert len(capsules) == len(trace.capsules) > 0
    assert {r["strategy"] for r in scores.summaries} == {
        "soba",
        "none",
        "truncation",
        "observation_masking",
    }


def test_rival_rows_name_the_strategy_at_its_own_moments():
    session = read_session(SESSION)
    truth = truth_for(Path(SESSION))
    trace = run("truncation", session, small_engine(keepRecentTokens=3000))
    completed = [a for a in trace.attempts if a["outcome"] == "completed"]
    scores = score_replay("s", trace.entries, truth, RETENTION, trace.check_lines())
    mine = [r for r in scores.summaries if r["strategy"] == "truncation"]
    assert [r["generation"] for r in mine] == [*range(1, len(completed) + 1), "final"]
    assert all(r["view"] == "input" for r in mine)
    # The comparison view of the same name gives way to the replayed strategy.
    others = {r["strategy"] for r in scores.summaries} - {"truncation"}
    assert others == {"none", "observation_masking"}
    # Input tokens at each moment are what the engine measured after the attempt.
    for row, line in zip(mine, completed, strict=False):
        assert row["inputTokens"] == line["measuredTokensAfter"] - 1000


def test_failure_detectors_run_on_rival_traces():
    session = tool_session(80, 2000)
    none = run("none", session, small_engine())
    scores = score_replay("s", none.entries, None, None, none.check_lines())
    assert scores.checked["blocked_forever"] and scores.checked["tool_boundary_violation"]
    assert [f["detector"] for f in scores.findings] == ["blocked_forever"]
    assert "until the end of the session" in scores.findings[0]["detail"]
    truncation = run("truncation", session, small_engine())
    scores = score_replay("s", truncation.entries, None, None, truncation.check_lines())
    assert scores.checked["tool_boundary_violation"] and not scores.findings


def test_hybrid_capsules_are_scored_by_soba_quality_under_the_hybrid_name():
    session = read_session(SESSION)
    # A tail of 1 observation leaves masking short of the soft limit: SOBA's capsule follows.
    trace = run("hybrid", session, small_engine(keepRecentTokens=3000), keep_observations=1)
    assert trace.capsules, "the hybrid was meant to write SOBA capsules here"
    quality = ScoreConfig(scorers=("soba_quality",))
    scores = score_replay(
        "s", trace.entries, truth_for(Path(SESSION)), quality, trace.check_lines()
    )
    assert scores.quality and {q["strategy"] for q in scores.quality} == {"hybrid"}
    rows = [r for r in session_table(scores) if r["view"] == "soba_quality"]
    assert [r["strategy"] for r in rows] == ["hybrid"]
