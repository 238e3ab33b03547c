"""The incremental compaction path against the straightforward one (issue 18).

The reference path (``ContextManager.incremental_spans = False``) re-reads the whole span at
every attempt, as SOBA does; the incremental path digests each entry once as it joins the
span (``engine/span.py``) and finds the cut point by bisection. On generated failure-heavy
sessions both must give byte-identical decisions, capsules and barrier lines, and the span
digest must answer every per-span extraction exactly as the reference functions do, for
every span it grows through.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from soba_bench.corpora.synthetic import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_session
from soba_bench.engine.artifacts import extract_artifacts
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import build_engine_config
from soba_bench.engine.cutpoint import ListSlice, SplitIndex, _Window, find_cut_point
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.reducer import answered_clarifications
from soba_bench.engine.span import SpanDigest
from soba_bench.engine.strategies import deterministic as D
from soba_bench.engine.validator import has_failed_verification, source_blockers, tool_call_boundary
from soba_bench.replay.simulator import replay_session
from soba_bench.session import entries as E

# wall-clock fields, random capsule ids and timestamps are not decisions
_VOLATILE = {"wallMs", "replayMs", "preflightMs", "entriesPerSec"}
_CAPSULE_VOLATILE = {"id", "timestamp", "parentId"}

failure_heavy = st.builds(
    lambda entries, blockers, exit_share, legacy, clar, steps, milestones: SyntheticConfig(
        entries=entries,
        blockers_per_1k=blockers,
        exit_code_share=exit_share,
        legacy_output_share=legacy,
        clarifications_per_1k=clar,
        next_steps_per_1k=steps,
        milestones_per_1k=milestones,
    ),
    st.integers(150, 700),
    st.sampled_from([4.0, 20.0, 60.0]),
    st.sampled_from([0.0, 0.05, 0.3]),
    st.sampled_from([0.1, 0.5]),
    st.sampled_from([1.5, 20.0]),
    st.sampled_from([5.0, 30.0]),
    st.sampled_from([4.0, 30.0]),
)
engine_overrides = st.fixed_dictionaries(
    {
        "contextWindow": st.sampled_from([16_000, 24_000, 40_000]),
        "maxOutputTokens": st.just(2_048),
        "compaction": st.fixed_dictionaries(
            {
                "minTokensForAutoCompact": st.sampled_from([2_000, 6_000]),
                "minReclaimableTokens": st.sampled_from([500, 2_000]),
                "keepRecentTokens": st.sampled_from([1_000, 3_000, 6_000]),
            }
        ),
    }
)


def _strip(line: dict[str, Any], volatile: set[str]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k not in volatile}


def _replay(session, overrides: dict[str, Any], incremental: bool) -> tuple[str, str, str]:
    saved = ContextManager.incremental_spans
    ContextManager.incremental_spans = incremental
    try:
        trace = replay_session(session, build_engine_config(overrides))
    finally:
        ContextManager.incremental_spans = saved
    decisions = json.dumps([_strip(x, _VOLATILE) for x in trace.decision_lines()])
    capsules = json.dumps([_strip(c, _CAPSULE_VOLATILE) for c in trace.capsules])
    checks = json.dumps([_strip(x, _VOLATILE) for x in trace.check_lines()])
    return decisions, capsules, checks


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],  # a replay mismatch is reported unshrunk
)
@given(failure_heavy, engine_overrides, st.integers(0, 10_000))
def test_incremental_replay_matches_reference(config, overrides, seed):
    session, _ = generate_session(config, seed, 0)
    incremental = _replay(session, overrides, True)
    reference = _replay(session, overrides, False)
    assert incremental[0] == reference[0]  # decisions (attempt lines and summary)
    assert incremental[1] == reference[1]  # capsules
    assert incremental[2] == reference[2]  # barrier lines


def test_failure_heavy_sessions_keep_failing_and_still_match():
    # The shape issue 18 is about: most attempts fail, so spans grow across many attempts.
    session, _ = generate_session(SyntheticConfig(entries=2_000), 1, 0)
    overrides: dict[str, Any] = {}  # SOBA's defaults
    incremental = _replay(session, overrides, True)
    attempts = [x for x in json.loads(incremental[0]) if x["kind"] == "attempt"]
    failed = [a for a in attempts if a["outcome"] == "failed"]
    assert len(failed) > 50 and len(failed) > len(attempts) // 2
    assert incremental == _replay(session, overrides, False)


def _reference_answers(items: list[dict[str, Any]], kept: list[dict[str, Any]]) -> dict:
    checkpoints = D.extract_checkpoints(items)
    return {
        "completed": D._completed(items, checkpoints),
        "pending": D._pending(checkpoints),
        "next_steps": D._next_steps(items, checkpoints),
        "blockers": D._blockers(items),
        "decisions": D._decisions(items, checkpoints),
        "goal": D._goal(items),
        "artifacts": extract_artifacts(items),
        "clarifications": answered_clarifications(items),
        "source_blockers": source_blockers(items),
        "failed_verification": has_failed_verification(items),
        "boundary": tool_call_boundary(items, kept),
    }


def _digest_answers(span: SpanDigest, kept: list[dict[str, Any]]) -> dict:
    return {
        "completed": span.completed(),
        "pending": span.pending(),
        "next_steps": span.next_steps(),
        "blockers": span.blockers(),
        "decisions": span.decisions(),
        "goal": span.goal,
        "artifacts": span.artifacts.ledger(),
        "clarifications": span.clarifications.facts,
        "source_blockers": span.source_blockers(),
        "failed_verification": span.failed_verification,
        "boundary": span.tool_call_boundary(kept),
    }


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(failure_heavy, st.integers(0, 10_000), st.data())
def test_span_digest_answers_like_the_per_span_functions(config, seed, data):
    session, _ = generate_session(config, seed, 0)
    branch = LiveBranch(entries=list(session.active_branch))
    n = len(branch)
    start = data.draw(st.integers(0, max(0, n - 2)), label="start")
    stops = sorted(data.draw(st.lists(st.integers(start, n), min_size=1, max_size=6)))
    span = SpanDigest(branch, start, branch.last_capsule_index)
    for stop in stops:
        span.extend_to(stop)
        assert not span.broken
        items = [e.item for e in branch.entries[start:stop] if e.item is not None]
        kept = [e.item for e in branch.entries[stop : stop + 40] if e.item is not None]
        assert span.items == items
        assert _digest_answers(span, kept) == _reference_answers(items, kept)
        # with the window's split index (the engine's fast path), kept = the rest of the window
        span.split_index = SplitIndex(branch.entries, start)
        span.split_index.extend_to(n)
        rest = [e.item for e in branch.entries[stop:] if e.item is not None]
        assert span.tool_call_boundary(rest) == tool_call_boundary(items, rest)
        span.split_index = None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(failure_heavy, st.integers(0, 10_000), st.data())
def test_bisected_cut_point_matches_the_walk(config, seed, data):
    session, _ = generate_session(config, seed, 0)
    branch = LiveBranch(entries=list(session.active_branch))
    n = len(branch)
    for _ in range(5):
        start = data.draw(st.integers(0, max(0, n - 1)), label="start")
        keep = data.draw(st.sampled_from([0, 1, 500, 2_000, 8_000, 20_000, 10**7]), label="keep")
        window = branch.entries[start:]

        def tokens(i: int, start: int = start) -> int:
            return branch.item_tokens(start + i)

        walked = find_cut_point(window, keep, tokens, branch.tool_positions, start)
        bisected = find_cut_point(
            window, keep, tokens, branch.tool_positions, start, branch.token_sums
        )
        assert bisected == walked
        splits = SplitIndex(branch.entries, start)
        splits.extend_to(n)
        viewed = find_cut_point(
            ListSlice(branch.entries, start),
            keep,
            tokens,
            branch.tool_positions,
            start,
            branch.token_sums,
            splits,
        )
        assert viewed == walked


# call ids that collide or not by JS Set rules: 1 and 1.0 are one key, True is not 1
_CALL_IDS = st.sampled_from(["a", "b", "c", 1, 1.0, True, None, 2])
_TOOL_ITEM = st.one_of(
    st.builds(lambda c: {"type": "function_call", "call_id": c, "name": "read"}, _CALL_IDS),
    st.builds(lambda c: {"type": "local_shell_call", "call_id": c}, _CALL_IDS),
    st.builds(lambda c: {"type": "function_call_output", "call_id": c, "output": ""}, _CALL_IDS),
    st.builds(lambda c: {"type": "local_shell_call_output", "call_id": c}, _CALL_IDS),
    st.just({"type": "message", "role": "user", "content": []}),
    st.none(),  # an entry without an item (a capsule, a skill activation)
)


def _entries(items: list[dict[str, Any] | None]) -> list[E.Entry]:
    out = []
    for n, item in enumerate(items):
        if item is None:
            out.append(E.Entry(E.SKILL_ACTIVATION, {"type": E.SKILL_ACTIVATION, "id": f"s{n}"}))
        else:
            out.append(E.make_item_entry(f"e{n}", None, "t", item))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOOL_ITEM, max_size=40), st.data())
def test_split_index_answers_like_the_window_scan(items, data):
    entries = _entries(items)
    low = data.draw(st.integers(0, len(entries)), label="low")
    index = SplitIndex(entries, low)
    stops = sorted(data.draw(st.lists(st.integers(low, len(entries)), max_size=4)))
    for stop in [*stops, len(entries)]:
        index.extend_to(stop)
        window = _Window(entries[low:stop], lambda i: 0)
        for cut in range(stop - low + 1):
            assert index.splits(low + cut) == window.splits(cut), (low, stop, cut)
    ids = [i.get("call_id") for i in items[low:] if i and "call_id" in i]
    assert index.plain_ids == all(c is None or type(c) in (str, int, float) for c in ids)


@given(st.lists(st.integers(), max_size=12), st.data())
def test_list_slice_reads_like_a_list_slice(values, data):
    start = data.draw(st.integers(0, len(values)), label="start")
    stop = data.draw(st.integers(start, len(values)), label="stop")
    view, copy = ListSlice(values, start, stop), values[start:stop]
    assert len(view) == len(copy) and list(view) == copy and view == copy
    for i in range(-len(copy), len(copy)):
        assert view[i] == copy[i]
    lo, hi = data.draw(st.integers(-14, 14)), data.draw(st.integers(-14, 14))
    step = data.draw(st.sampled_from([None, 1, 2, -1]))
    assert view[lo:hi:step] == copy[lo:hi:step]
    assert bool(view) == bool(copy)
