"""Scoring-time views of the compactors: what a compactor's rule would send at one scoring
moment of another replay, given the history so far and the same token budget as that
replay's input, so retention compares strategies at the same moment and size.

A view is the compactor's own rule applied once to the whole history (no replay of its
triggers): ``truncation`` keeps :func:`~soba_bench.compactors.truncation.truncation_start`'s
tail, ``observation_masking`` masks
:func:`~soba_bench.compactors.observation_masking.outputs_to_mask` with the replayed
compactor's placeholder, ``none`` sends everything. Keyed by compactor name (the scorer's
``baselines`` setting); the replayed compactors themselves live in :data:`COMPACTORS`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from soba_bench.compactors.observation_masking import outputs_to_mask
from soba_bench.compactors.rival_branch import is_output, mask_output
from soba_bench.compactors.truncation import truncation_start
from soba_bench.registry import Registry

Items = list[dict[str, Any]]


@dataclass(frozen=True)
class ViewContext:
    """The moment's budget (the replayed input's tokens; None: unlimited), the token
    counter, and masking's ``keep_observations``."""

    budget_tokens: int | None
    count: Callable[[dict[str, Any]], int]
    keep_observations: int = 10


View = Callable[[Items, ViewContext], Items]


def no_compaction(items: Items, ctx: ViewContext) -> Items:
    """``none``: the whole history."""
    return list(items)


def truncation(items: Items, ctx: ViewContext) -> Items:
    """``truncation``: the newest items that fit the budget, the cut moved forward until no
    tool output is kept without its call (the replayed compactor's rule)."""
    if ctx.budget_tokens is None:
        return list(items)
    cut = truncation_start(
        len(items), items.__getitem__, lambda i: ctx.count(items[i]), ctx.budget_tokens
    )
    return items[cut:]


def observation_masking(items: Items, ctx: ViewContext) -> Items:
    """``observation_masking``: every tool output but the newest ``keep_observations``
    replaced by the placeholder; messages and calls intact."""
    outputs = [n for n, item in enumerate(items) if is_output(item)]
    masked = set(outputs_to_mask(outputs, ctx.keep_observations))
    return [mask_output(item) if n in masked else item for n, item in enumerate(items)]


VIEWS: Registry[View] = Registry("compactor view")
VIEWS.add("none", no_compaction)
VIEWS.add("truncation", truncation)
VIEWS.add("observation_masking", observation_masking)

__all__ = ["VIEWS", "View", "ViewContext"]
