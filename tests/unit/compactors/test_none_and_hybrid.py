"""none: every barrier recorded, nothing compacted, overflows counted. hybrid: masking first,
a capsule only when the masked input is still at or above the soft limit. And every rival
walks the session exactly as soba does."""

from __future__ import annotations

import pytest

from soba_bench.engine.config import build_engine_config
from soba_bench.session import read_session
from tests.builders import REPO, assistant, chain, function_call, function_output, session_of, user
from tests.unit.compactors.helpers import METER, moment_inputs, run, small_engine, tool_session

RIVALS = ("observation_masking", "truncation", "none", "hybrid")


def test_none_never_compacts_and_counts_the_requests_that_overflow():
    engine = small_engine()
    session = tool_session(80, 2000)
    trace = run("none", session, engine)
    assert not trace.attempts and not trace.capsules
    assert trace.entries == list(session.active_branch)
    # Expected from the transcript alone: every item before the barrier's entry is sent.
    branch = list(session.active_branch)
    position = {e.id: n for n, e in enumerate(branch)}
    sys_tools = engine.systemPromptTokens + engine.toolSchemaTokens
    expected_overflow = expected_over_hard = 0
    for barrier in trace.barriers:
        end = position[barrier.beforeEntryId] if barrier.beforeEntryId else len(branch)
        sent = sys_tools + sum(METER.count_item(e.item) for e in branch[:end] if e.item)
        assert barrier.effectiveTokens == sent
        overflow = sent + engine.maxOutputTokens > engine.contextWindow
        assert barrier.canProceed is not overflow and barrier.attempt is None
        expected_overflow += overflow
        expected_over_hard += sent > engine.hardLimit
    summary = trace.summary()
    assert 0 < expected_overflow < len(trace.barriers)
    assert expected_over_hard > expected_overflow  # the hard limit sits below the window
    assert summary["overflowRequests"] == expected_overflow
    assert summary["overHardLimitRequests"] == expected_over_hard
    assert summary["blockedRequests"] == expected_overflow and summary["attempts"] == 0


def test_hybrid_masks_only_when_masking_gets_under_the_soft_limit():
    trace = run("hybrid", tool_session(80, 2000), small_engine(), keep_observations=3)
    attempts = [line for line, _ in moment_inputs(trace)]
    assert attempts and not trace.capsules
    for line in attempts:
        assert line["strategy"] == "observation_masking"
        assert line["tokensAfter"] < line["softLimit"] <= line["tokensBefore"]
    masking = run(
        "observation_masking", tool_session(80, 2000), small_engine(), keep_observations=3
    )
    assert [a["reclaimed"] for a in trace.attempts] == [a["reclaimed"] for a in masking.attempts]


def test_hybrid_writes_a_capsule_of_the_masked_history_when_still_over_the_soft_limit():
    # Long user messages, short outputs: masking alone cannot reach the soft limit.
    session = tool_session(60, 120, user_chars=1400)
    trace = run("hybrid", session, small_engine(), keep_observations=1)
    capsule_attempts = [a for a in trace.attempts if a["outcome"] == "completed"]
    assert capsule_attempts and trace.capsules
    for line in capsule_attempts:
        assert line["strategy"] == "deterministic" and line["maskedThroughEntryId"] is not None
        assert line["tokensAfter"] < line["tokensBefore"]
    # Masking happened first: at the barrier where soba writes its first capsule, hybrid's
    # capsule keeps a longer verbatim tail (masked outputs are cheap) and compacts less.
    soba = run("soba", session, small_engine())
    first = soba.attempts[0]
    mine = next(a for a in trace.attempts if a["entryIndex"] == first["entryIndex"])
    assert mine["outcome"] == "completed" and mine["strategy"] == "deterministic"
    position = {e.id: n for n, e in enumerate(session.active_branch)}
    assert position[mine["firstKeptEntryId"]] < position[first["firstKeptEntryId"]]
    assert mine["compactedItemCount"] < first["compactedItemCount"]
    # The model input at a capsule moment: capsule prefix plus the masked retained tail.
    for line, items in moment_inputs(trace):
        assert line["measuredTokensAfter"] == 1000 + sum(METER.count_item(i) for i in items)


@pytest.mark.parametrize("rival", RIVALS)
def test_every_rival_walks_the_session_like_soba(rival):
    session = read_session(
        REPO / "corpora" / "synthetic-small" / "sessions" / "synthetic-s7-000.jsonl.gz"
    )
    engine = build_engine_config(
        {"contextWindow": 48000, "maxOutputTokens": 8000, "compaction": {"keepRecentTokens": 8000}}
    )
    soba = run("soba", session, engine)
    other = run(rival, session, engine)
    walk = [(b.entryIndex, b.beforeEntryId, b.flush, b.turn) for b in soba.barriers]
    assert [(b.entryIndex, b.beforeEntryId, b.flush, b.turn) for b in other.barriers] == walk
    assert other.stats["turns"] == soba.stats["turns"] and other.stats["turns"] > 1
    # Up to the first compaction both saw the same input and took the same decisions.
    first = next(n for n, b in enumerate(soba.barriers) if b.attempt is not None)
    same = [(b.effectiveTokens, b.softLimit, b.hardLimit, b.pendingTrigger) for b in soba.barriers]
    mine = [(b.effectiveTokens, b.softLimit, b.hardLimit, b.pendingTrigger) for b in other.barriers]
    assert mine[: first + 1] == same[: first + 1]
    if rival != "none":
        assert other.barriers[first].attempt["trigger"] == soba.barriers[first].attempt["trigger"]
        assert other.config_line["replayStrategy"] == rival


def _big_request_session():
    """Ten turns with 2,000-character tool outputs, then a ~17k-token user message: the
    barrier before it is over the hard limit, and masking the old outputs is worth SOBA's ROI
    but leaves the input above the soft limit."""
    items = []
    for t in range(10):
        items += [
            user(f"task {t}"),
            function_call(f"c{t}", "read_file", "{}"),
            function_output(f"c{t}", f"OUT-{t} " + "x" * 2000),
            assistant(f"done {t}"),
        ]
    items += [user("spec " + "w" * 60000), assistant("ok")]
    return session_of(chain(items))


def test_hybrid_capsules_where_masking_pays_but_stays_over_the_soft_limit():
    session = _big_request_session()
    (masked,) = run("observation_masking", session, small_engine(), keep_observations=1).attempts
    assert masked["outcome"] == "completed" and masked["tokensAfter"] >= masked["softLimit"]
    (mine,) = run("hybrid", session, small_engine(), keep_observations=1).attempts
    assert mine["entryIndex"] == masked["entryIndex"]
    assert mine["outcome"] == "completed" and mine["strategy"] == "deterministic"
    assert mine["tokensAfter"] < masked["tokensAfter"]


def test_hybrid_with_nothing_to_mask_is_sobas_attempt():
    session = _big_request_session()
    (mine,) = run("hybrid", session, small_engine(), keep_observations=50).attempts
    (soba,) = run("soba", session, small_engine()).attempts
    for key in ("entryIndex", "outcome", "strategy", "tokensAfter", "firstKeptEntryId"):
        assert mine[key] == soba[key], key
