"""Meter invariants: totals are additive over items; the cache never changes a count."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from soba_bench.jscompat import utf16_len
from soba_bench.meter import CachedMeter, count_items, get_meter
from soba_bench.meter.soba import estimate_item, item_text
from soba_bench.meter.tiktoken_meter import TiktokenMeter
from tests.property.strategies import model_item, text

TIKTOKEN = TiktokenMeter("cl100k_base")
items_lists = st.lists(model_item, max_size=10)


def reorder(value):
    """The same JSON value with every object's keys in reverse order."""
    if isinstance(value, dict):
        return {k: reorder(v) for k, v in reversed(list(value.items()))}
    if isinstance(value, list):
        return [reorder(v) for v in value]
    return value


@given(items_lists)
def test_soba_total_is_sum_of_item_counts(items: list[dict]) -> None:
    meter = get_meter("soba")
    per_item = [meter.count_item(item) for item in items]
    assert count_items(meter, items) == sum(per_item)
    assert all(n >= 0 for n in per_item)
    # Additive over any split of the list.
    half = len(items) // 2
    assert count_items(meter, items[:half]) + count_items(meter, items[half:]) == sum(per_item)


@settings(max_examples=60)
@given(items_lists, st.randoms(use_true_random=False))
def test_tiktoken_total_is_sum_and_cache_is_transparent(items: list[dict], rnd) -> None:
    meter = CachedMeter(TIKTOKEN)
    expected = [TIKTOKEN.count_item(item) for item in items]
    assert count_items(meter, items) == sum(expected)
    # Counting again, shuffled and with reordered keys, hits or misses the cache but
    # always gives the uncached number for each item.
    shuffled = [reorder(item) for item in items]
    rnd.shuffle(shuffled)
    assert [meter.count_item(i) for i in shuffled] == [TIKTOKEN.count_item(i) for i in shuffled]
    assert meter.hits + meter.misses == 2 * len(items)


@given(st.lists(text, max_size=4), st.one_of(st.none(), text))
def test_message_estimate_is_ceil_utf16_over_3_5(texts: list[str], reasoning: str | None) -> None:
    item = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": t} for t in texts],
    }
    if reasoning is not None:
        item["reasoning_content"] = reasoning
    joined = "".join(texts) + (reasoning or "")
    assert item_text(item) == joined
    assert estimate_item(item) == math.ceil(utf16_len(joined) / 3.5)


@given(model_item)
def test_estimate_matches_float_formula_for_every_item_type(item: dict) -> None:
    measured = item_text(item)
    units = utf16_len(measured) if isinstance(measured, str) else 0
    assert estimate_item(item) == math.ceil(units / 3.5)
