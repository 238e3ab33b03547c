"""Comparison strategies without capsules. Each turns the transcript so far into the model
input it would send, given a token budget, so retention can be compared with SOBA's
capsule-plus-tail input at the same moment and (for truncation) the same size.

* ``none``: everything (no compaction).
* ``truncation``: the newest items that fit the budget; a tool output is never kept without
  its call.
* ``observation_masking``: every tool output except the newest ``keep`` is replaced by a short
  placeholder (the approach of "observation masking" baselines), messages and calls intact.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from soba_bench.registry import Registry
from soba_bench.session import entries as E

MASK_TEXT = "[Old tool output omitted]"

Items = list[dict[str, Any]]


@dataclass(frozen=True)
class BaselineContext:
    budget_tokens: int | None
    count: Callable[[dict[str, Any]], int]
    keep_observations: int = 10


def no_compaction(items: Items, ctx: BaselineContext) -> Items:
    return list(items)


def truncation(items: Items, ctx: BaselineContext) -> Items:
    if ctx.budget_tokens is None:
        return list(items)
    kept: Items = []
    total = 0
    for item in reversed(items):
        cost = ctx.count(item)
        if total + cost > ctx.budget_tokens:
            break
        kept.append(item)
        total += cost
    kept.reverse()
    calls = {i.get("call_id") for i in kept if i.get("type") in E.CALL_TYPES}
    return [i for i in kept if i.get("type") not in E.OUTPUT_TYPES or i.get("call_id") in calls]


def mask_output(item: dict[str, Any]) -> dict[str, Any]:
    """A tool output as masking sends it: the placeholder, no exit code."""
    item = {**item, "output": MASK_TEXT}
    item.pop("exit_code", None)
    return item


def observation_masking(items: Items, ctx: BaselineContext) -> Items:
    outputs = [n for n, i in enumerate(items) if i.get("type") in E.OUTPUT_TYPES]
    masked = set(outputs[: max(0, len(outputs) - ctx.keep_observations)])
    return [mask_output(item) if n in masked else item for n, item in enumerate(items)]


BASELINES: Registry[Callable[[Items, BaselineContext], Items]] = Registry("comparison strategy")
BASELINES.add("none", no_compaction)
BASELINES.add("truncation", truncation)
BASELINES.add("observation_masking", observation_masking)
