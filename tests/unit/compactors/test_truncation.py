"""truncation: at each compaction the oldest entries leave the model input so the rest fits
the budget, a tool call is never separated from its output, and no more is dropped than
needed."""

from __future__ import annotations

import pytest

from soba_bench.compactors.rival_branch import RivalBranch
from soba_bench.compactors.truncation import truncation_cut
from soba_bench.engine.branch import LiveBranch
from soba_bench.session import entries as E
from tests.builders import assistant, chain, function_call, function_output, session_of, user
from tests.unit.compactors.helpers import METER, moment_inputs, run, small_engine, tokens


def parallel_session(turns: int):
    """Turns with two parallel calls whose outputs arrive after both calls."""
    items = []
    for t in range(turns):
        items += [
            user(f"task {t} " + "u" * 200),
            function_call(f"a{t}", "read_file", "{}"),
            function_call(f"b{t}", "grep", "{}"),
            function_output(f"a{t}", f"A-{t} " + "x" * (300 + 97 * (t % 5))),
            function_output(f"b{t}", f"B-{t} " + "y" * 900),
            assistant(f"done {t} " + "z" * (40 * (t % 3))),
        ]
    return session_of(chain(items))


def splits_a_pair(items) -> bool:
    calls = {i["call_id"] for i in items if i["type"] in E.CALL_TYPES}
    outs = {i["call_id"] for i in items if i["type"] in E.OUTPUT_TYPES}
    return bool(outs - calls)


@pytest.mark.parametrize("budget", [None, 2500, 5000])
def test_truncation_fits_the_budget_and_never_splits_a_tool_pair(budget):
    engine = small_engine()
    session = parallel_session(70)
    params = {"budget_tokens": budget}
    trace = run("truncation", session, engine, **params)
    limit = budget or engine.compaction.keepRecentTokens
    moments = moment_inputs(trace)
    assert len(moments) >= 2
    positions = {e.id: n for n, e in enumerate(trace.entries)}
    previous = 0
    for line, items in moments:
        assert tokens(items) <= limit
        assert not splits_a_pair(items)
        assert line["measuredTokensAfter"] == 1000 + tokens(items)
        # Nothing more was dropped than needed: every earlier start either splits a pair or
        # does not fit (checked by brute force over the entries the moment had).
        start = positions[line["droppedThroughEntryId"]] + 1
        end = positions[line["inputThroughEntryId"]] + 1
        for earlier in range(previous, start):
            tail = [e.item for e in trace.entries[earlier:end] if e.item is not None]
            assert splits_a_pair(tail) or tokens(tail) > limit
        previous = start
    assert not trace.capsules and trace.final_state["droppedEntries"] == previous


def test_the_cut_moves_forward_past_a_split_pair():
    items = [
        user("go"),
        function_call("a", "read_file", "{}"),
        function_call("b", "grep", "{}"),
        function_output("a", "A" * 400),
        function_output("b", "B" * 400),
        assistant("ok"),
    ]
    branch = RivalBranch("s", meter=METER)
    for line in chain(items):
        branch.append(E.Entry(line["type"], line))
    last_two = branch.item_tokens(4) + branch.item_tokens(5)
    whole = branch.tokens_from(1)
    # Room for output b and the answer, not for output a: keeping b alone would split its
    # pair, so nothing of the tool batch stays.
    assert truncation_cut(branch, 0, last_two + 5) == 5
    # Room for the whole batch: the cut lands right before both calls.
    assert truncation_cut(branch, 0, whole) == 1
    # No room at all: an empty tail.
    assert truncation_cut(branch, 0, 0) == 6


def test_the_rival_branch_measures_like_a_live_branch_until_edited():
    session = parallel_session(5)
    live, rival = LiveBranch("s", meter=METER), RivalBranch("s", meter=METER)
    for entry in session.active_branch:
        live.append(entry)
        rival.append(entry)
    assert rival.effective_item_tokens(None) == live.effective_item_tokens(None)
    rival.drop_through(5)
    assert rival.effective_item_tokens(None) == live.tokens_from(6)
    rival.mask([3], 3)
    masked = rival.entries[3].item
    assert masked["output"] == "[Old tool output omitted]"
    assert rival.tokens_from(0) == live.tokens_from(0) - live.item_tokens(3) + METER.count_item(
        masked
    )
    assert rival.original_entries()[3] is session.active_branch[3]
