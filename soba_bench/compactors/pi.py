"""``pi``: the pi coding agent's auto-compaction (badlogic/pi-mono), replayed on SOBA's walk.

Source read: ``badlogic/pi-mono``, ``packages/coding-agent/src/core/compaction/compaction.ts``
(``DEFAULT_COMPACTION_SETTINGS``: ``reserveTokens = 16384``, ``keepRecentTokens = 20000``;
``shouldCompact``: context tokens > context window - reserve; ``findCutPoint``; the
structured summary and its update prompt) and the package's ``docs/compaction.md``.

* Trigger: effective tokens > ``contextWindow`` - ``reserve_tokens`` (16,384), strictly.
* Cut: walking back from the newest item, adding item tokens until they reach
  ``keep_recent_tokens`` (20,000); the cut is the first valid cut point at or after that
  item (a user or assistant message: never a tool output, so a call's outputs stay with
  it); if the budget is never reached, or no valid cut point follows that item, the first
  message of the window (pi's default, which then has nothing to summarize). A cut point that
  would still part a tool call from its output (a call and its output separated by a
  message) moves to the next valid one. Everything before the cut is summarized (pi
  summarizes a split turn's prefix separately and joins the two; here one summary covers
  both).
* Summary: the job's summarizer slot, rolling over the previous capsule (pi's update prompt
  merges the previous summary).
"""

from __future__ import annotations

from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.peer import (
    PeerBranch,
    PeerCompactor,
    PeerCut,
    crosses,
    peer_branch,
    replay_peer,
)
from soba_bench.compactors.rival import compactor_params, int_param
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionPlan
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.jscompat import js_number
from soba_bench.session import entries as E
from soba_bench.session.model import Session

NAME = "pi"
DEFAULTS: dict[str, Any] = {"reserve_tokens": 16_384, "keep_recent_tokens": 20_000}


class Pi(PeerCompactor):
    name = NAME

    def __init__(self, window: float, reserve: int, keep: int) -> None:
        self.threshold = window - reserve
        self.keep = keep

    def threshold_tokens(self, hard: float) -> float:
        return self.threshold

    def describe(self) -> str:
        return f"context window - reserve = {self.threshold:g}"

    def triggered(self, snapshot: ContextSnapshot, branch: PeerBranch) -> str | None:
        if snapshot.effectiveTokens <= self.threshold:
            return None
        return (
            f"Effective tokens ({js_number(snapshot.effectiveTokens)}) exceed context window "
            f"- reserve ({js_number(self.threshold)})"
        )

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        end = len(branch)
        start = branch.effective_window_start()
        window = branch.item_indexes(start)
        points = [
            i
            for i in window
            if (item := branch.entries[i].item) is not None and E.is_user_or_assistant_message(item)
        ]
        if not points:
            return "pi: no user or assistant message to cut at"
        cut = points[0]
        accumulated = 0
        for index in reversed(window):
            accumulated += branch.item_tokens(index)
            if accumulated >= self.keep:
                cut = next((p for p in points if p >= index), points[0])
                break
        later = [p for p in points if p >= cut]
        cut = next((p for p in later if not crosses(branch, start, p, end)), end)
        summarized = [i for i in window if i < cut]
        if not summarized:
            return "pi: the kept tail already starts at the first message"
        return PeerCut(kept_from=cut, summarized=summarized)


@COMPACTORS.register(NAME)
def pi(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    reserve = int_param(NAME, params, "reserve_tokens")
    keep = int_param(NAME, params, "keep_recent_tokens")
    return replay_peer(session, ctx, Pi(ctx.engine.contextWindow, reserve, keep), NAME, params)
