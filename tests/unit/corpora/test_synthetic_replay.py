"""Generated sessions replay through the engine under a small window and make it compact;
long ones reach the blocker-cap quirk SOBA v0.6.14 ships with (engine.md h.2)."""

from __future__ import annotations

from collections import Counter

import pytest

from soba_bench.engine.config import build_engine_config
from soba_bench.replay.simulator import ReplayOptions, replay_session
from soba_bench.session import entries as E
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

CONFIG = build_engine_config(SMALL_WINDOW)
FIXED = "soba-0.6.14+newest-blockers"


def replay(session, variant: str = "soba-0.6.14"):
    return replay_session(session, CONFIG, ReplayOptions(variant=variant))


@pytest.mark.parametrize(
    "entries",
    # 5000 under the shipped engine is slow: past ten blockers every capsule fails
    # lost_blocker, the context keeps growing and each failed attempt costs more.
    [100, 1000, pytest.param(5000, marks=pytest.mark.slow)],
)
def test_default_sessions_replay_under_the_shipped_engine_and_compact(entries):
    session, _ = generated(entries, seed=1)
    trace = replay(session)
    summary = trace.summary()
    assert summary["replayedEntries"] == entries
    assert summary["turnSource"] == "flight_record turn_start"
    assert summary["byOutcome"].get("completed", 0) >= 1
    assert summary["capsules"] == summary["byOutcome"]["completed"]
    capsules = [e for e in trace.entries if e.kind == E.CONTEXT_CAPSULE]
    assert capsules and all(c.data["strategy"] == "deterministic" for c in capsules)


def assert_bounded(entries: int, seed: int) -> None:
    # Without exit codes and with the blocker-cap fix nothing deadlocks the validator, so
    # the context stays near the window however long the session is.
    session, _ = generated(entries, seed=seed, exit_code_share=0.0)
    summary = replay(session, FIXED).summary()
    assert summary["replayedEntries"] == entries
    assert summary["byOutcome"]["completed"] >= entries // 100
    assert summary["maxEffectiveTokens"] < 2 * CONFIG.contextWindow
    assert summary["reclaimedTokens"] > 20 * CONFIG.contextWindow


def test_5000_entries_keep_compacting_with_the_blocker_fix():
    assert_bounded(5000, seed=2)


@pytest.mark.slow
def test_20000_entries_keep_compacting_with_the_blocker_fix():
    assert_bounded(20_000, seed=3)


def test_many_blockers_reach_the_shipped_blocker_cap_quirk():
    session, truth = generated(1500, seed=1, blockers_per_1k=10.0, exit_code_share=0.0)
    assert len(truth.of_kind("blocker")) > 10
    shipped = replay(session)
    errors = Counter(
        (a.get("validationErrors") or ["-"])[0]
        for a in shipped.attempts
        if a["outcome"] == "failed"
    )
    assert errors.most_common(1)[0][0] == "lost_blocker"
    fixed = replay(session, FIXED).summary()
    assert fixed["byOutcome"]["completed"] > shipped.summary()["byOutcome"]["completed"]
    assert fixed["finalEffectiveTokens"] < shipped.summary()["finalEffectiveTokens"]
