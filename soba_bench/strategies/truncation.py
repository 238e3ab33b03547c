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

from typing import Any

from soba_bench.engine import outcome as O
from soba_bench.engine.attempt import AttemptContext
from soba_bench.engine.cutpoint import call_key
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.session import entries as E
from soba_bench.session.model import Session
from soba_bench.strategies import STRATEGIES, SessionRun, StrategyContext
from soba_bench.strategies.rival import Edit, RivalManager, int_param, replay_rival, strategy_params
from soba_bench.strategies.rival_branch import RivalBranch

NAME = "truncation"
DEFAULTS: dict[str, Any] = {"budget_tokens": None}


def truncation_cut(branch: RivalBranch, start: int, budget: float) -> int:
    """The smallest index ``cut >= start`` such that ``entries[cut:]`` fits ``budget`` and
    no tool output in it lacks its call (``len(entries)`` when nothing fits)."""
    entries = branch.entries
    best = len(entries)
    tokens = 0
    open_calls: set[object] = set()  # outputs in the tail whose call is not (yet) in it
    for index in range(len(entries) - 1, start - 1, -1):
        tokens += branch.item_tokens(index)
        if tokens > budget:
            break
        item = entries[index].item
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


class Truncation:
    def __init__(self, budget: int | None) -> None:
        self.budget = budget

    def attempt(
        self, manager: RivalManager, plan: CompactionPlan, ctx: AttemptContext
    ) -> CompactionOutcome:
        branch = manager.branch
        budget = self.budget if self.budget is not None else manager.compaction.keepRecentTokens
        start = branch.effective_window_start()
        cut = truncation_cut(branch, start, budget)
        dropped = [e.id for e in branch.entries[start:cut] if e.item is not None]
        if not dropped:
            return manager._outcome(
                plan,
                O.SKIPPED,
                ctx,
                f"No history to drop: the input already fits the {budget}-token budget",
                strategy=NAME,
            )
        edit = Edit(
            strategy=NAME,
            tokens_after=manager.items_tokens_after(plan, branch.tokens_from(cut)),
            source_ids=dropped,
            drop_through=cut - 1,
            first_kept_id=branch.id_at(cut) if cut < len(branch) else None,
            reason=f"Dropped {len(dropped)} oldest items to fit {budget} tokens",
        )
        return manager.conclude_edit(plan, ctx, edit)


@STRATEGIES.register(NAME)
def truncation(session: Session, ctx: StrategyContext) -> SessionRun:
    params = strategy_params(NAME, ctx.params, DEFAULTS)
    budget = None
    if params["budget_tokens"] is not None:
        budget = int_param(NAME, params, "budget_tokens", minimum=1)
    trace = replay_rival(session, ctx, Truncation(budget), NAME, params)
    return SessionRun(trace, {"name": None})
