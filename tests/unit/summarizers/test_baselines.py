"""The comparison strategies: no compaction, truncation to a budget, observation masking."""

from __future__ import annotations

import pytest

from soba_bench.errors import UnknownNameError
from soba_bench.meter import get_meter
from soba_bench.summarizers.baselines import BASELINES, MASK_TEXT, BaselineContext
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
    return BaselineContext(budget, METER.count_item, keep)


def test_no_compaction_keeps_everything():
    assert BASELINES.get("none")(ITEMS, ctx(50)) == ITEMS


def test_truncation_keeps_the_newest_items_within_budget_and_no_orphan_outputs():
    kept = BASELINES.get("truncation")(ITEMS, ctx(45))
    assert kept == ITEMS[3:]
    assert sum(METER.count_item(i) for i in kept) <= 45
    # A budget that cuts between a call and its output drops the orphaned output.
    orphan = BASELINES.get("truncation")(ITEMS, ctx(235))
    assert ITEMS[1] not in orphan and ITEMS[2] not in orphan


def test_observation_masking_masks_all_but_the_newest_outputs():
    masked = BASELINES.get("observation_masking")(ITEMS, ctx(keep=1))
    assert masked[2]["output"] == MASK_TEXT and masked[5] == ITEMS[5]
    assert masked[:2] == ITEMS[:2] and ITEMS[2]["output"] == "y" * 700  # input untouched


def test_unknown_strategy_lists_the_valid_names():
    with pytest.raises(UnknownNameError, match="none, observation_masking, truncation"):
        BASELINES.get("summarize")
