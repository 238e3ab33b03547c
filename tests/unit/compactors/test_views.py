"""The compactors' scoring-time views: no compaction, truncation to a budget, observation
masking, each the replayed compactor's own rule applied to the whole history."""

from __future__ import annotations

import pytest

from soba_bench.compactors import compactor_names
from soba_bench.compactors.rival_branch import MASK_TEXT
from soba_bench.compactors.truncation import truncation_start
from soba_bench.compactors.views import VIEWS, ViewContext, view_items
from soba_bench.errors import UnknownNameError
from soba_bench.meter import get_meter
from tests.builders import assistant, function_call, function_output, user

METER = get_meter()
ITEMS = [
    user("x" * 350),  # 100 tokens
    function_call("c1", "read", '{"path":"a.ts"}'),
    function_output("c1", "y" * 700),  # 200 tokens
    assistant("z" * 35),  # 10 tokens
    function_call("c2", "read", '{"path":"b.ts"}'),
    function_output("c2", "w" * 70),  # 20 tokens
]


def ctx(budget=None, keep=10):
    return ViewContext(budget, METER.count_item, keep)


def test_no_compaction_keeps_everything():
    assert view_items("none", ITEMS, ctx(50)) == ITEMS


def test_truncation_keeps_the_newest_items_within_budget_and_no_orphan_outputs():
    kept = view_items("truncation", ITEMS, ctx(45))
    assert kept == ITEMS[3:]
    assert sum(METER.count_item(i) for i in kept) <= 45
    # A budget that cuts between a call and its output moves the cut past the orphaned
    # output, as the replayed compactor does (nothing older than it is kept either).
    orphan = view_items("truncation", ITEMS, ctx(235))
    assert orphan == ITEMS[3:]


def test_truncation_view_is_the_replayed_compactors_rule():
    costs = [METER.count_item(i) for i in ITEMS]
    for budget in (0, 20, 45, 235, 330, 10_000):
        cut = truncation_start(len(ITEMS), ITEMS.__getitem__, costs.__getitem__, budget)
        assert view_items("truncation", ITEMS, ctx(budget)) == ITEMS[cut:]
    assert view_items("truncation", ITEMS, ctx(None)) == ITEMS


def test_every_view_is_named_after_a_compactor():
    assert set(VIEWS.names()) <= set(compactor_names())


def test_observation_masking_masks_all_but_the_newest_outputs():
    masked = view_items("observation_masking", ITEMS, ctx(keep=1))
    assert masked[2]["output"] == MASK_TEXT and masked[5] == ITEMS[5]
    assert masked[:2] == ITEMS[:2] and ITEMS[2]["output"] == "y" * 700  # input untouched


def test_unknown_strategy_lists_the_valid_names():
    with pytest.raises(UnknownNameError, match="none, observation_masking, truncation"):
        VIEWS.get("summarize")
