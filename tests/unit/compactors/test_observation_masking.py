"""observation_masking: the same walk as soba, and at each compaction exactly the newest
``keep_observations`` tool outputs stay verbatim in the model input."""

from __future__ import annotations

import pytest

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.compactors.rival_branch import MASK_TEXT
from soba_bench.errors import ConfigError
from soba_bench.replay.rules import ReplayOptions
from tests.unit.compactors.helpers import (
    moment_inputs,
    outputs,
    run,
    small_engine,
    tokens,
    tool_session,
)


@pytest.mark.parametrize("keep", [0, 1, 3, 7])
def test_masking_keeps_exactly_the_newest_outputs_verbatim(keep):
    session = tool_session(80, 2000)
    engine = small_engine()
    trace = run("observation_masking", session, engine, keep_observations=keep)
    moments = moment_inputs(trace)
    assert len(moments) >= 2
    for line, items in moments:
        sent = outputs(items)
        # Every output the moment has seen, in order (masking never drops an output).
        turns = sum(1 for i in items if i.get("type") == "function_call_output")
        assert len(sent) == turns
        verbatim = [o for o in sent if o != MASK_TEXT]
        assert verbatim == [f"OUT-{t} " + "x" * 2000 for t in range(turns - keep, turns)]
        assert all(o == MASK_TEXT for o in sent[: turns - keep])
        # The engine measured exactly this input after the attempt.
        sys_tools = engine.systemPromptTokens + engine.toolSchemaTokens
        assert line["measuredTokensAfter"] == sys_tools + tokens(items)
        assert (line["strategy"], line["outcome"]) == ("observation_masking", "completed")


def test_masking_state_is_cumulative_and_the_transcript_is_kept():
    session = tool_session(80, 2000)
    trace = run("observation_masking", session, small_engine(), keep_observations=3)
    assert not trace.capsules
    # The replay writes the transcript as recorded: no output is masked on disk.
    assert outputs([e.item for e in trace.entries if e.item is not None]) == [
        f"OUT-{t} " + "x" * 2000 for t in range(80)
    ]
    masked = [line["maskedThroughEntryId"] for line, _ in moment_inputs(trace)]
    positions = {e.id: n for n, e in enumerate(trace.entries)}
    assert [positions[m] for m in masked] == sorted(positions[m] for m in masked)
    # Masked: every output up to the last boundary; after it: the 3 kept, then new ones.
    after = [e for e in trace.entries[positions[masked[-1]] + 1 :] if e.item and "output" in e.item]
    assert len(after) > 3
    assert trace.final_state["maskedOutputs"] == 80 - len(after)


def test_soft_attempts_follow_sobas_roi_rules_and_the_hard_limit_still_refuses():
    # Tiny outputs and long user messages: masking reclaims nothing worth having.
    session = tool_session(60, 10, user_chars=1400)
    trace = run("observation_masking", session, small_engine(), keep_observations=1)
    soft = [a for a in trace.attempts if not a["required"]]
    hard = [a for a in trace.attempts if a["required"]]
    assert soft and hard
    for line in soft:  # skipped by the actual-ROI check, and nothing was masked
        assert line["outcome"] == "skipped" and "minReclaimableTokens" in line["reason"]
        assert line["maskedThroughEntryId"] is None and line["canProceed"]
    # Over the hard limit masking runs regardless, but cannot get under it: refused.
    assert any(a["outcome"] == "completed" for a in hard)
    assert all(not a["canProceed"] for a in hard)
    assert trace.summary()["blockedRequests"] == len(hard)


def test_parameters_are_checked():
    session = tool_session(2, 10)
    for params, message in (
        ({"keep": 3}, "unknown parameter.*keep.*valid: keep_observations"),
        ({"keep_observations": -1}, "keep_observations must be an integer >= 0"),
        ({"keep_observations": True}, "must be an integer"),
    ):
        ctx = CompactorContext(engine=small_engine(), options=ReplayOptions(), params=params)
        with pytest.raises(ConfigError, match=message):
            get_compactor("observation_masking")(session, ctx)


def test_rivals_refuse_provider_usage_modes():
    ctx = CompactorContext(engine=small_engine(), options=ReplayOptions(usage="recorded"))
    with pytest.raises(ConfigError, match=r"replay\.usage must be 'none'"):
        get_compactor("observation_masking")(tool_session(2, 10), ctx)
