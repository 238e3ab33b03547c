"""Scoring-time views of the compactors: what a compactor's rule would send at one scoring
moment of another replay, given the history so far and the same token budget as that
replay's input, so retention compares strategies at the same moment and size.

A view is the compactor's own rule applied once to the whole history (no replay of its
triggers), given as a :class:`Window` of the history's items: ``truncation`` keeps
:func:`~soba_bench.compactors.truncation.truncation_start`'s tail, ``observation_masking``
masks :func:`~soba_bench.compactors.observation_masking.outputs_to_mask` with the replayed
compactor's placeholder, ``none`` sends everything (:func:`view_items` applies a window to a
list of items). Keyed by compactor name (the scorer's
``baselines`` setting); the replayed compactors themselves live in :data:`COMPACTORS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


@dataclass(frozen=True)
class Window:
    """What a rule sends of the history's items: those from ``start`` on, the tool outputs
    at or before ``masked`` replaced by the placeholder (-1: none masked)."""

    start: int = 0
    masked: int = -1


# (the history's items, the indices of its tool outputs, the moment's budget) -> what it
# sends. A window, not a list of items: the scorers apply a rule at every capsule moment of a
# long session, and find what it sends from positions and token prefix sums (issue 18).
Rule = Callable[[Sequence[dict[str, Any]], Sequence[int], ViewContext], Window]


def no_compaction(
    items: Sequence[dict[str, Any]], outputs: Sequence[int], ctx: ViewContext
) -> Window:
    """``none``: the whole history."""
    return Window()


def truncation(items: Sequence[dict[str, Any]], outputs: Sequence[int], ctx: ViewContext) -> Window:
    """``truncation``: the newest items that fit the budget, the cut moved forward until no
    tool output is kept without its call (the replayed compactor's rule)."""
    if ctx.budget_tokens is None:
        return Window()
    cut = truncation_start(
        len(items), items.__getitem__, lambda i: ctx.count(items[i]), ctx.budget_tokens
    )
    return Window(cut)


def observation_masking(
    items: Sequence[dict[str, Any]], outputs: Sequence[int], ctx: ViewContext
) -> Window:
    """``observation_masking``: every tool output but the newest ``keep_observations``
    replaced by the placeholder; messages and calls intact."""
    masked = outputs_to_mask(outputs, ctx.keep_observations)
    return Window(0, masked[-1] if masked else -1)


VIEWS: Registry[Rule] = Registry("compactor view")
VIEWS.add("none", no_compaction)
VIEWS.add("truncation", truncation)
VIEWS.add("observation_masking", observation_masking)


def view_items(name: str, items: Items, ctx: ViewContext) -> Items:
    """The items comparison strategy ``name`` would send of ``items`` (masked outputs are
    new items; the input is not changed)."""
    window = VIEWS.get(name)(items, [n for n, item in enumerate(items) if is_output(item)], ctx)
    return [
        mask_output(item) if n <= window.masked and is_output(item) else item
        for n, item in enumerate(items)
        if n >= window.start
    ]


__all__ = ["VIEWS", "Rule", "ViewContext", "Window", "view_items"]
