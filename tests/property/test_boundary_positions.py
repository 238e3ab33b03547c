"""The boundary detector read from positions against the same detector on the items
(issue 18).

A comparison strategy such as observation masking sends most of the history at every moment,
so the tool-boundary detector reads a moment's input from the walk's index of calls and
outputs (:meth:`PointWalk.boundary_problems`) instead of from a copy of its items. It must
find exactly what :func:`boundary_problems` finds in :meth:`PointWalk.model_input`: on
arbitrary branches (calls and outputs in any order, repeated and missing call ids, entries
without an item, windows cut anywhere, pinned items, masking), and at every request and every
moment of replays by each strategy."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.engine.config import build_engine_config
from soba_bench.meter import get_meter
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.failure_modes import boundary_problems
from soba_bench.scoring.points import PointInput, PointWalk
from soba_bench.scoring.scorer import ScoreConfig, ScoreContext
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

TYPES = [
    "message",
    "reasoning",
    E.FUNCTION_CALL,
    E.FUNCTION_CALL_OUTPUT,
    E.LOCAL_SHELL_CALL,
    E.LOCAL_SHELL_CALL_OUTPUT,
    None,  # an entry without an item
]


def _entry(n: int, kind: str | None, call_id: str | None) -> Entry:
    if kind is None:
        return Entry(E.ITEM, {"id": f"e{n}", "item": None})
    item: dict = {"type": kind}
    if kind != "message" and kind != "reasoning":
        item["call_id"] = call_id
        if kind in E.OUTPUT_TYPES:
            item["output"] = "ok"
    else:
        item["content"] = [{"type": "input_text", "text": "x"}]
    return Entry(E.ITEM, {"id": f"e{n}", "item": item})


@st.composite
def inputs(draw):
    kinds = draw(st.lists(st.sampled_from(TYPES), min_size=0, max_size=30))
    ids = draw(
        st.lists(st.sampled_from(["a", "b", "c", None]), min_size=len(kinds), max_size=len(kinds))
    )
    replayed = [_entry(n, k, i) for n, (k, i) in enumerate(zip(kinds, ids, strict=True))]
    end = draw(st.integers(0, len(replayed)))
    start = draw(st.integers(0, end))
    masked = draw(st.integers(-1, max(len(replayed) - 1, -1)))
    pinned = tuple(sorted(draw(st.sets(st.integers(0, max(start - 1, 0)), max_size=4))))
    pinned = tuple(p for p in pinned if p < start)
    return replayed, PointInput(None, 0, end, None, start, masked, 0, pinned)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(inputs())
def test_positions_find_what_the_items_show(case):
    replayed, point = case
    walk = PointWalk(replayed, [], get_meter("soba"))
    assert walk.boundary_problems(point) == boundary_problems(walk.model_input(point))


def test_the_property_sees_each_kind_of_problem():
    # a call whose output was cut, an output whose call was cut, and a clean pair
    replayed = [
        _entry(0, E.FUNCTION_CALL, "a"),
        _entry(1, E.FUNCTION_CALL_OUTPUT, "a"),
        _entry(2, E.FUNCTION_CALL, "b"),
        _entry(3, "message", None),
        _entry(4, E.FUNCTION_CALL_OUTPUT, "b"),
        _entry(5, E.LOCAL_SHELL_CALL, "c"),
    ]
    walk = PointWalk(replayed, [], get_meter("soba"))
    whole = PointInput(None, 0, 6, None, 0, -1, 0)
    assert walk.boundary_problems(whole) == []  # the trailing call is still in flight
    cut = PointInput(None, 0, 4, None, 1, -1, 0)
    expected = [
        (0, E.FUNCTION_CALL_OUTPUT, "a", "has no call before it"),
        (1, E.FUNCTION_CALL, "b", "has no output but later items follow"),
    ]
    assert walk.boundary_problems(cut) == expected == boundary_problems(walk.model_input(cut))
    # a pinned output answers a call in the window (and has no call before it itself)
    replayed = [
        _entry(0, E.FUNCTION_CALL_OUTPUT, "x"),
        _entry(1, "message", None),
        _entry(2, E.FUNCTION_CALL, "x"),
        _entry(3, "message", None),
    ]
    walk = PointWalk(replayed, [], get_meter("soba"))
    pinned = PointInput(None, 0, 4, None, 1, -1, 0, (0,))
    expected = [(0, E.FUNCTION_CALL_OUTPUT, "x", "has no call before it")]
    assert walk.boundary_problems(pinned) == expected == boundary_problems(walk.model_input(pinned))


@pytest.mark.parametrize(
    "strategy", ["soba", "codex", "observation_masking", "truncation", "none", "hybrid"]
)
def test_every_request_and_moment_of_a_replay(strategy):
    session, truth = generated(900, seed=5)
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions())
    trace = get_compactor(strategy)(session, ctx).trace
    scoring = ScoreContext(
        "s", trace.entries, truth, ScoreConfig(max_moments=None), trace.check_lines()
    )
    walk = scoring.walk
    points = [*scoring.point_inputs, *(m.located for m in scoring.moments)]
    assert len(points) > 100
    for point in points:
        assert walk.boundary_problems(point) == boundary_problems(walk.model_input(point))
