"""Tests that keep the scores honest, on generated sessions with fixed seeds: a scorer that
cannot tell these situations apart is wrong (scoring issue, "Validity")."""

from __future__ import annotations

import copy
from functools import cache
from statistics import fmean

import pytest

from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.retention import score_view, summarize
from soba_bench.scoring.session import ScoreConfig, score_replay
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import capsule_view
from soba_bench.session import entries as E
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

# scored() caches its replays in this process: under xdist the module stays on one worker, so
# each replay is computed once, as in a serial run.
pytestmark = pytest.mark.xdist_group("scoring-validity")

SEEDS = (1, 2, 3)
FIXED = "soba-0.6.14+newest-blockers"
# Each test reads one scorer's output, so only that scorer runs (the others' cost, mostly
# availability at every request and the observation-masking view, bought nothing here).
RETENTION = ScoreConfig(scorers=("retention",), baselines=("none", "truncation"))
DETECTORS = ScoreConfig(scorers=("failure_modes",))


@cache
def scored(seed: int, variant: str = FIXED):
    session, truth = generated(1200, seed=seed, exit_code_share=0.0)
    trace = replay_session(
        session, build_engine_config(SMALL_WINDOW), ReplayOptions(variant=variant)
    )
    return (
        trace,
        truth,
        score_replay(f"s{seed}", trace.entries, truth, RETENTION, barriers=trace.check_lines()),
    )


def summaries(scores, strategy, view="input"):
    return [s for s in scores.summaries if s["strategy"] == strategy and s["view"] == view]


@pytest.mark.parametrize("seed", SEEDS)
def test_no_compaction_retains_everything_and_compaction_does_not(seed):
    trace, _, scores = scored(seed)
    assert trace.capsules, "the small window must force compactions"
    uncompacted = summaries(scores, "none")
    assert uncompacted and all(s["recall"] == 1.0 for s in uncompacted)
    for strategy, view in (("soba", "capsule"), ("truncation", "input")):
        assert fmean(s["recall"] for s in summaries(scores, strategy, view)) < 1.0


@pytest.mark.parametrize("matcher", ["verdict-nli", "verdict-embedding-nli"])
def test_no_compaction_retains_everything_with_the_nli_matchers_too(matcher):
    """verdict-nli once read a later edit of a constraint's file as the constraint dropped,
    so the uncompacted history lost it (seed 1's "Keep the public exports of src/index.ts
    unchanged"); the hybrid it checks must not inherit that."""
    trace, truth, _ = scored(1)
    nli = ScoreConfig(
        scorers=("retention",),
        baselines=("none",),
        match=MatchConfig(prose_matcher=matcher),
    )
    scores = score_replay("s1", trace.entries, truth, nli, barriers=trace.check_lines())
    uncompacted = summaries(scores, "none")
    assert uncompacted and all(s["recall"] == 1.0 for s in uncompacted)


@pytest.mark.parametrize("seed", SEEDS)
def test_soba_capsules_keep_more_goals_files_and_blockers_than_truncation(seed):
    _, _, scores = scored(seed)
    kinds = ("goal", "file_read", "file_modified", "blocker")

    def found(strategy):
        return sum(
            r["found"]
            for r in scores.rows
            if r["strategy"] == strategy
            and r["view"] == "input"
            and r["kind"] in kinds
            and r["generation"] != "final"
        )

    assert found("soba") > found("truncation")


def test_a_planted_stale_decision_scores_worse_on_staleness():
    trace, truth, _ = scored(1)
    originals = [e for e in trace.entries if e.kind != E.CONTEXT_CAPSULE]
    timeline = Timeline.of(originals)
    lifecycle = Lifecycle(truth, timeline)
    point = timeline.length
    capsule = copy.deepcopy(trace.capsules[-1])
    clean_scores = score_view(truth.facts, lifecycle, capsule_view(capsule), point)
    clean = summarize(clean_scores)
    superseded = next(
        f
        for f in truth.facts
        if f.kind == "decision"
        and f.status == "superseded"
        and f.text not in clean_scores["decision"].stale
    )
    capsule["portableState"]["decisions"].append({"decision": superseded.text})
    planted = summarize(score_view(truth.facts, lifecycle, capsule_view(capsule), point))
    assert planted["staleItems"] == clean["staleItems"] + 1
    assert planted["staleness"] > clean["staleness"]


def test_failure_detectors_fire_on_the_blocker_deadlock_and_stay_silent_when_fixed():
    session, truth = generated(1000, seed=1, blockers_per_1k=10.0, exit_code_share=0.0)
    config = build_engine_config(SMALL_WINDOW)
    shipped = replay_session(session, config)
    fixed = replay_session(session, config, ReplayOptions(variant=FIXED))
    shipped_scores = score_replay(
        "shipped", shipped.entries, truth, DETECTORS, barriers=shipped.check_lines()
    )
    fixed_scores = score_replay(
        "fixed", fixed.entries, truth, DETECTORS, barriers=fixed.check_lines()
    )

    def refused(trace):
        return trace.summary()["blockedRequests"]

    # SOBA's blocker cap deadlocks: refused at barrier after barrier; the fix variant recovers.
    assert refused(shipped) > 3 * max(1, refused(fixed))
    shipped_blocked = [f for f in shipped_scores.findings if f["detector"] == "blocked_forever"]
    fixed_blocked = [f for f in fixed_scores.findings if f["detector"] == "blocked_forever"]
    assert shipped_blocked and len(shipped_blocked) >= len(fixed_blocked)
    assert fixed_scores.checked["blocked_forever"] is True


WINDOW_64K = {
    "contextWindow": 64000,
    "maxOutputTokens": 8192,
    "compaction": {
        "keepRecentTokens": 8000,
        "minTokensForAutoCompact": 16000,
        "minReclaimableTokens": 4000,
    },
}


def test_failure_detectors_stay_silent_on_a_clean_replay():
    session, truth = generated(1200, seed=3, exit_code_share=0.0)
    trace = replay_session(session, build_engine_config(WINDOW_64K), ReplayOptions(variant=FIXED))
    assert trace.capsules and trace.summary()["blockedRequests"] == 0
    scores = score_replay("clean", trace.entries, truth, DETECTORS, barriers=trace.check_lines())
    barrier_detectors = {
        "blocked_forever",
        "compaction_loop",
        "context_growth",
        "tool_boundary_violation",
    }
    assert all(scores.checked[name] for name in barrier_detectors)
    assert [f for f in scores.findings if f["detector"] in barrier_detectors] == []


def test_scores_are_deterministic():
    trace, truth, first = scored(2)
    again = score_replay("s2", trace.entries, truth, RETENTION, barriers=trace.check_lines())
    assert again.summaries == first.summaries and again.rows == first.rows
