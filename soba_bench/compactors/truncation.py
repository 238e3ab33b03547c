"""``truncation``: at every compaction SOBA's policy would run, drop the oldest entries of the
model input so the rest fits a token budget, never keeping a tool output without its call
(the cut moves forward to the next boundary where no call is separated from its output).
Nothing is summarized and no placeholder is sent.

Parameters (``configs/strategy/truncation.yaml``):

* ``budget_tokens`` (default ``null``): item tokens kept. ``null`` means the engine's
  ``keepRecentTokens``, the verbatim tail SOBA's own compaction keeps, so truncation keeps
  SOBA's tail without SOBA's capsule: the comparison isolates what the capsule adds. (The
  engine validates ``keepRecentTokens < hardLimit``, so the kept tail always fits.)

If a single newest item is larger than the budget, the tail is empty: the budget wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.rival import (
    Edit,
    compactor_params,
    conclude_edit,
    int_param,
    items_tokens_after,
    replay_rival,
)
from soba_bench.compactors.rival_branch import RivalBranch
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt
from soba_bench.engine.cutpoint import call_key
from soba_bench.engine.outcome import CompactionOutcome
from soba_bench.session import entries as E
from soba_bench.session.model import Session

NAME = "truncation"
DEFAULTS: dict[str, Any] = {"budget_tokens": None}


def truncation_start(
    count: int,
    item_at: Callable[[int], dict[str, Any] | None],
    tokens_at: Callable[[int], float],
    budget: float,
    start: int = 0,
) -> int:
    """Truncation's rule on any sequence of ``count`` positions: the smallest ``cut >=
    start`` such that positions ``cut..count-1`` fit ``budget`` and no tool output among them
    lacks its call (``count`` when nothing fits). Shared by the replayed compactor and its
    scoring-time view (:mod:`soba_bench.compactors.views`)."""
    best = count
    tokens: float = 0
    open_calls: set[object] = set()  # outputs in the tail whose call is not (yet) in it
    for index in range(count - 1, start - 1, -1):
        tokens += tokens_at(index)
        if tokens > budget:
            break
        item = item_at(index)
        kind = item.get("type") if item is not None else None
        if item is None:  # kind is None too: neither a call nor an output
            pass
        elif kind in E.OUTPUT_TYPES:
            open_calls.add(call_key(item.get("call_id")))
        elif kind in E.CALL_TYPES:
            open_calls.discard(call_key(item.get("call_id")))
        if not open_calls:
            best = index
    return best


def truncation_cut(branch: RivalBranch, start: int, budget: float) -> int:
    """:func:`truncation_start` on the branch's entries from ``start``."""
    entries = branch.entries
    return truncation_start(
        len(entries), lambda i: entries[i].item, branch.item_tokens, budget, start
    )


class Truncation:
    def __init__(self, budget: int | None) -> None:
        self.budget = budget

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        manager, plan = attempt.manager, attempt.plan
        branch = attempt.branch
        budget = self.budget if self.budget is not None else manager.compaction.keepRecentTokens
        start = branch.effective_window_start()
        cut = truncation_cut(branch, start, budget)
        dropped = [e.id for e in branch.entries[start:cut] if e.item is not None]
        if not dropped:
            return attempt.outcome(
                O.SKIPPED,
                f"No history to drop: the input already fits the {budget}-token budget",
                strategy=NAME,
            )
        edit = Edit(
            strategy=NAME,
            tokens_after=items_tokens_after(plan, branch.tokens_from(cut)),
            source_ids=dropped,
            drop_through=cut - 1,
            first_kept_id=branch.id_at(cut) if cut < len(branch) else None,
            reason=f"Dropped {len(dropped)} oldest items to fit {budget} tokens",
        )
        return conclude_edit(attempt, edit)


@COMPACTORS.register(NAME)
def truncation(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    budget = None
    if params["budget_tokens"] is not None:
        budget = int_param(NAME, params, "budget_tokens", minimum=1)
    trace = replay_rival(session, ctx, Truncation(budget), NAME, params)
    return SessionRun(trace, {"name": None})
