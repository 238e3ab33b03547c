"""The capsule memo against rebuilding every attempt (issue 18, engine/capsule_memo.py).

A deadlocked compaction runs an attempt at every barrier; the memo keeps the deterministic
capsule's state, ledger, section texts and token count while their inputs are unchanged.
Replays of generated failure-heavy sessions with the memo on and off must give byte-identical
decisions, capsules and barrier lines, and the memo must answer exactly what the plain
functions (no span digest, no memo) answer for every span it grows through, whatever the
previous capsule's state holds and whatever a caller does to the copies it was handed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from soba_bench.corpora.synthetic import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_session
from soba_bench.engine import capsule_memo
from soba_bench.engine.artifacts import extract_artifacts
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import build_engine_config
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.reducer import reconcile_structured_state
from soba_bench.engine.span import SpanDigest
from soba_bench.engine.strategies.base import Draft
from soba_bench.engine.strategies.deterministic import deterministic_state
from soba_bench.engine.variants import VARIANTS
from soba_bench.meter import get_meter
from soba_bench.meter.soba import item_text
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.session.capsule_text import capsule_input_items
from tests.property.test_incremental_replay import (
    _CAPSULE_VOLATILE,
    _VOLATILE,
    _strip,
    engine_overrides,
    failure_heavy,
)


def _replay(session, overrides: dict[str, Any], memoize: bool, variant: str) -> tuple:
    saved = ContextManager.memoize_capsules
    ContextManager.memoize_capsules = memoize
    try:
        trace = replay_session(
            session, build_engine_config(overrides), ReplayOptions(variant=variant)
        )
    finally:
        ContextManager.memoize_capsules = saved
    return (
        json.dumps([_strip(x, _VOLATILE) for x in trace.decision_lines()]),
        json.dumps([_strip(c, _CAPSULE_VOLATILE) for c in trace.capsules]),
        json.dumps([_strip(x, _VOLATILE) for x in trace.check_lines()]),
    )


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],  # a replay mismatch is reported unshrunk
)
@given(failure_heavy, engine_overrides, st.integers(0, 10_000), st.sampled_from(sorted(VARIANTS)))
def test_memoized_replay_matches_rebuilding_every_attempt(config, overrides, seed, variant):
    session, _ = generate_session(config, seed, 0)
    with_memo = _replay(session, overrides, True, variant)
    without = _replay(session, overrides, False, variant)
    assert with_memo[0] == without[0]  # decisions (attempt lines and summary)
    assert with_memo[1] == without[1]  # capsules
    assert with_memo[2] == without[2]  # barrier lines


def test_failure_heavy_session_reuses_the_memo_and_still_matches(monkeypatch):
    # SOBA's defaults on the generator's default (failure-heavy) session: the shape the memo
    # is for. Most attempts must reuse the state, or the memo is not doing its job.
    memos: list[capsule_memo.CapsuleMemo] = []
    real_init = capsule_memo.CapsuleMemo.__init__

    def recording_init(self, span):
        real_init(self, span)
        memos.append(self)

    monkeypatch.setattr(capsule_memo.CapsuleMemo, "__init__", recording_init)
    session, _ = generate_session(SyntheticConfig(entries=2_000), 1, 0)
    with_memo = _replay(session, {}, True, "soba-0.6.14")
    attempts = [x for x in json.loads(with_memo[0]) if x["kind"] == "attempt"]
    hits = sum(m.hits for m in memos)
    misses = sum(m.misses for m in memos)
    assert hits + misses == sum(1 for a in attempts if a["strategy"] == "deterministic")
    assert hits > 2 * misses > 0
    assert with_memo == _replay(session, {}, False, "soba-0.6.14")


class _ChecksumMeter:
    """A meter that every character of the capsule text changes (unlike a length count)."""

    name = "checksum"

    def count_item(self, item: dict[str, Any]) -> int:
        return sum((i % 7 + 1) * ord(c) for i, c in enumerate(item_text(item)))


_ODD_PREVIOUS = {  # a model-written previous state: numbers and booleans where text goes
    "goal": 1,
    "constraints": ["keep the API"],
    "completed": ["wired the CLI"],
    "inProgress": ["waiting for the user to choose a region"],
    "pending": ["ship it"],
    "decisions": [{"decision": 1, "rationale": True}, {"decision": "Use Postgres"}],
    "blockers": ["npm test: exit 1"],
    "nextSteps": ["ask the user which region"],
}
_SKILLS = st.lists(
    st.fixed_dictionaries(
        {
            "name": st.sampled_from(["deploy", "review"]),
            "scope": st.just("project"),
            "revision": st.sampled_from([1, 1.0, True, "2"]),
            "contentHash": st.just("abc"),
        }
    ),
    max_size=2,
)


def _reference_state(items, custom, previous, newest_first):
    return reconcile_structured_state(
        deterministic_state(items, custom, previous, newest_blockers_first=newest_first), items
    )


def _reference_tokens(draft: Draft, meter: Any) -> int:
    capsule = {
        "portableState": draft.portableState,
        "artifacts": draft.artifacts,
        "activatedSkills": draft.activatedSkills,
        "nativeContinuation": None,
    }
    return sum(meter.count_item(i) for i in capsule_input_items(capsule))


def _deface(state: dict[str, Any], ledger: dict[str, Any]) -> None:
    """What a careless consumer of a draft might do to it."""
    for value in [*state.values(), *ledger.values()]:
        if isinstance(value, list):
            value.append("junk")
            for element in value:
                if isinstance(element, dict):
                    element["decision"] = "changed"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(failure_heavy, st.integers(0, 10_000), st.data())
def test_memo_answers_like_the_plain_functions(config, seed, data):
    session, _ = generate_session(config, seed, 0)
    branch = LiveBranch(entries=list(session.active_branch))
    n = len(branch)
    start = data.draw(st.integers(0, max(0, n - 2)), label="start")
    stops = sorted(data.draw(st.lists(st.integers(start, n), min_size=1, max_size=8)))
    span = SpanDigest(branch, start, branch.last_capsule_index, memoize=True)
    memo = span.memo
    assert memo is not None
    previous = data.draw(st.sampled_from(["none", "odd", "rolled"]), label="previous")
    prev_state: dict[str, Any] | None = {"none": None, "odd": _ODD_PREVIOUS}.get(previous)
    meters = [get_meter(), _ChecksumMeter()]
    for stop in stops:
        span.extend_to(stop)
        items = [e.item for e in branch.entries[start:stop] if e.item is not None]
        if previous == "rolled" and prev_state is None and items:
            # a previous capsule rolled from the first items (a real state shape)
            prev_state = _reference_state(items[: len(items) // 2], None, None, False)
        # the same inputs twice in a row (a hit), then a changed goal or variant
        for _ in range(data.draw(st.integers(1, 3), label="repeats")):
            custom = data.draw(st.sampled_from([None, None, "Fix the login bug"]), label="custom")
            newest = data.draw(st.booleans(), label="newest_first")
            state = memo.portable_state(prev_state, custom, newest)
            ledger = memo.ledger()
            assert state == _reference_state(items, custom, prev_state, newest)
            assert ledger == extract_artifacts(items)
            skills = data.draw(_SKILLS, label="skills")
            draft = Draft("deterministic", "degraded", state, ledger, skills, {}, {})
            meter = meters[data.draw(st.integers(0, 1), label="meter")]
            assert memo.capsule_tokens(draft, meter) == _reference_tokens(draft, meter)
            # a draft whose state was replaced (e.g. redacted) is not the memo's to measure
            replaced = Draft("deterministic", "degraded", dict(state), ledger, skills, {}, {})
            assert memo.capsule_tokens(replaced, meter) is None
            if data.draw(st.booleans(), label="deface"):
                _deface(state, ledger)


def test_memo_refuses_native_continuations_and_other_strategies_drafts():
    session, _ = generate_session(SyntheticConfig(entries=300), 3, 0)
    branch = LiveBranch(entries=list(session.active_branch))
    span = SpanDigest(branch, 0, branch.last_capsule_index, memoize=True)
    span.extend_to(len(branch))
    assert span.memo is not None
    state, ledger = span.memo.portable_state(None, None, False), span.memo.ledger()
    native = Draft("deterministic", "degraded", state, ledger, [], {}, {}, {"items": []})
    assert span.memo.capsule_tokens(native, get_meter()) is None
    foreign = Draft("model", "full", dict(state), dict(ledger), [], {}, {})
    assert span.memo.capsule_tokens(foreign, get_meter()) is None


@pytest.mark.parametrize("memoize", [False, True])
def test_the_engine_switch_decides_whether_digests_remember(memoize, monkeypatch):
    monkeypatch.setattr(ContextManager, "memoize_capsules", memoize)
    session, _ = generate_session(SyntheticConfig(entries=400), 2, 0)
    branch = LiveBranch(entries=list(session.active_branch))
    manager = ContextManager(branch, build_engine_config({}))
    span = manager._span_digest(0, len(branch))
    assert span is not None and (span.memo is not None) == memoize
