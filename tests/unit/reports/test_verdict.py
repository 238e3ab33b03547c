"""The report's verdict: per comparable group (corpus and window), a leaderboard on state
availability with intervals; a job that refuses requests or loops is infeasible, ranked last
and never named best, whatever it keeps; groups never mix corpora or windows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from soba_bench.reports import verdict as V
from soba_bench.reports.frames import RunSet

EMPTY = pd.DataFrame()


def runset(jobs: list[dict], metrics: list[dict], monkeypatch) -> RunSet:
    frame = pd.DataFrame(jobs)
    rs = RunSet(Path("/tmp/r"), frame, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    monkeypatch.setattr(V, "session_metrics", lambda _: pd.DataFrame(metrics))
    monkeypatch.setattr(V, "job_labels", lambda _: frame.set_index("job_id")["strategy"])
    return rs


def job(job_id, strategy, corpus="c", window=128000):
    return {
        "job_id": job_id,
        "strategy": strategy,
        "corpus": corpus,
        "contextWindow": window,
        "maxOutputTokens": 32768,
    }


def sessions(job_id, availability, refused=0, loop=0, billed=1000.0, n=4):
    return [
        {
            "job_id": job_id,
            "session": f"s{i}",
            "availability": a,
            "refused_requests": refused,
            "fm.compaction_loop": loop,
            "fm.blocked_forever": 0,
            "input_tokens_billed": billed,
            "degraded_rate": 0.0,
        }
        for i, a in enumerate([availability] * n)
    ]


def test_a_job_that_keeps_more_but_refuses_is_never_named_best(monkeypatch):
    rs = runset(
        [job("a", "masking"), job("b", "soba"), job("c", "truncation")],
        sessions("a", 0.99, refused=300) + sessions("b", 0.90) + sessions("c", 0.70),
        monkeypatch,
    )
    (group,) = V.leaderboards(rs)
    assert list(group.board["job"]) == ["soba", "truncation", "masking"]
    assert list(group.board["feasible"]) == [True, True, False]
    assert group.sentence.startswith("Best feasible: soba, state availability 0.900")
    assert "1 of 3 job(s) are infeasible" in group.sentence
    assert list(group.board["n"]) == [4, 4, 4]
    assert group.board.loc[0, "95% interval"] == "[0.900, 0.900]"


def test_a_loop_is_infeasible_and_no_feasible_job_is_said_so(monkeypatch):
    rs = runset(
        [job("a", "masking"), job("b", "none")],
        sessions("a", 0.99, loop=1) + sessions("b", 0.5, refused=10),
        monkeypatch,
    )
    (group,) = V.leaderboards(rs)
    assert not group.board["feasible"].any()
    assert group.sentence.startswith("No feasible choice")
    assert "fewest refusals: masking (0)" in group.sentence


def test_groups_never_mix_corpora_or_windows(monkeypatch):
    rs = runset(
        [job("a", "soba"), job("b", "soba", corpus="other"), job("c", "soba", window=6000)],
        sessions("a", 0.9) + sessions("b", 0.8) + sessions("c", 0.7),
        monkeypatch,
    )
    groups = V.leaderboards(rs)
    assert len(groups) == 3 and all(len(g.board) == 1 for g in groups)
    assert {g.title for g in groups} == {
        "corpus c, window 128,000 (output reserve 32,768)",
        "corpus other, window 128,000 (output reserve 32,768)",
        "corpus c, window 6,000 (output reserve 32,768)",
    }
    assert V.comparable_groups(rs).nunique() == 3


def test_overlapping_intervals_are_not_called_a_clear_win(monkeypatch):
    rows = sessions("a", 0.9) + sessions("b", 0.9)
    for n, row in enumerate(rows):  # spread both around 0.9 so the intervals overlap
        row["availability"] += 0.05 if n % 2 else -0.05
    rows[0]["availability"] += 0.01
    rs = runset([job("a", "soba"), job("b", "hybrid")], rows, monkeypatch)
    (group,) = V.leaderboards(rs)
    assert "the intervals overlap: not a clear win" in group.sentence


def test_without_ground_truth_availability_cannot_rank(monkeypatch):
    rs = runset([job("a", "soba")], sessions("a", None), monkeypatch)
    (group,) = V.leaderboards(rs)
    assert group.sentence.startswith("No ground truth")
    assert group.board.loc[0, "n"] == 0


@pytest.mark.parametrize("refused", [0, 5])
def test_feasible_jobs_follow_refusals(monkeypatch, refused):
    rs = runset([job("a", "soba")], sessions("a", 0.9, refused=refused), monkeypatch)
    assert V.feasible_jobs(rs).to_dict() == {"a": refused == 0}


@pytest.mark.parametrize("n", [1, 4, 5, 12])
def test_too_few_sessions_to_rank_is_said_and_fallback_capsules_are_named(monkeypatch, n):
    rows = sessions("a", 0.95, n=n) + sessions("b", 0.90, n=n)
    for row in rows[:n]:
        row["degraded_rate"] = 1.0  # the best job's capsules are all timeout fallbacks
    rs = runset([job("a", "soba"), job("b", "hybrid")], rows, monkeypatch)
    (group,) = V.leaderboards(rs)
    assert group.sentence.startswith("Best feasible: soba")
    assert "100% of its capsules written by a fallback" in group.sentence
    assert ("too few to rank" in group.sentence) == (n < V.MIN_RANK_SESSIONS)
