"""``codex``: OpenAI Codex CLI's auto-compaction (codex-rs), replayed on SOBA's walk.

Source read: ``openai/codex``, ``codex-rs/core/src/compact.rs`` (``build_compacted_history``,
``collect_user_messages``, ``COMPACT_USER_MESSAGE_MAX_TOKENS = 20_000``, the retry that drops
the oldest history item on ``ContextWindowExceeded``) and the auto-compact limit of the model
catalog (``context_window * 9 / 10`` unless ``model_auto_compact_token_limit`` is set).

* Trigger: effective tokens >= ``auto_compact_token_limit`` (default ``null`` = floor of
  ``auto_compact_ratio`` (0.9) x ``contextWindow``).
* Cut: the whole history is summarized (the handoff summary replaces it); nothing of the tail
  is kept. Kept verbatim: the newest user messages, newest first, while their tokens fit
  ``user_message_max_tokens`` (20,000); the message that does not fit ends the selection
  (Codex keeps a truncated copy of it; a replay cannot truncate an entry, so it is left out).
  Previously kept user messages compete again at the next compaction, as in Codex, whose
  compacted history holds them.
* Summary: the job's summarizer slot, rolling over the previous capsule (Codex re-summarizes
  a history that holds its previous summary). Codex's fixed handoff preamble and its
  drop-oldest retry when the summarization request itself overflows are properties of a
  model summarizer's request and are not replayed. The initial context (instructions,
  AGENTS.md) is the job's ``systemPromptTokens``, always sent.
"""

from __future__ import annotations

import math
from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.peer import (
    PeerCompactor,
    PeerCut,
    is_user_message,
    peer_branch,
    ratio_param,
    replay_peer,
)
from soba_bench.compactors.rival import compactor_params, int_param
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionPlan
from soba_bench.session.model import Session

NAME = "codex"
DEFAULTS: dict[str, Any] = {
    "auto_compact_ratio": 0.9,
    "auto_compact_token_limit": None,
    "user_message_max_tokens": 20_000,
}


class Codex(PeerCompactor):
    name = NAME

    def __init__(self, limit: float, user_budget: int) -> None:
        self.limit = limit
        self.user_budget = user_budget

    def threshold_tokens(self, hard: float) -> float:
        return self.limit

    def describe(self) -> str:
        return f"auto-compact limit {self.limit:g}"

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        window = branch.item_indexes(branch.effective_window_start())
        previous = branch.pinned if branch.last_capsule_index >= 0 else []
        history = sorted(set(previous) | set(window))
        if not window:
            return "codex: no history since the last summary"
        candidates = [i for i in history if is_user_message(branch.entries[i].item)]
        pinned: list[int] = []
        remaining = self.user_budget
        for index in reversed(candidates):
            tokens = branch.item_tokens(index)
            if tokens > remaining:
                break
            pinned.append(index)
            remaining -= tokens
        pinned.reverse()
        return PeerCut(kept_from=len(branch), pinned=pinned, summarized=history)


@COMPACTORS.register(NAME)
def codex(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    if params["auto_compact_token_limit"] is None:
        ratio = ratio_param(NAME, params, "auto_compact_ratio")
        limit = math.floor(ctx.engine.contextWindow * ratio)
    else:
        limit = int_param(NAME, params, "auto_compact_token_limit", minimum=1)
    budget = int_param(NAME, params, "user_message_max_tokens")
    return replay_peer(session, ctx, Codex(limit, budget), NAME, params)
