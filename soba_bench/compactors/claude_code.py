"""``claude_code``: Claude Code's auto-compact, replayed on SOBA's walk.

Claude Code is closed source, and Anthropic's documentation gives no numbers. Relied on: two
public reverse-engineering write-ups of the npm bundle's ``services/compact/autoCompact.ts``
("Harness engineering from CC to AI coding", ch. 9, zhanghandong.github.io; the shipai deep
dive "Context & Autocompact", manavgup.github.io) and a Reddit note quoting the v2.1.19
binary's constants: effective window = context window - min(max output tokens, 20,000)
(reserved for the summary's output), auto-compact threshold = effective window - 13,000
(``AUTOCOMPACT_BUFFER_TOKENS``), and one summarization call (a structured, nine-section
prompt per the write-ups) whose result replaces the whole conversation.

* Trigger: effective tokens >= ``contextWindow`` - min(``maxOutputTokens``,
  ``summary_output_reserve_tokens`` (20,000)) - ``autocompact_buffer_tokens`` (13,000).
* Cut: everything is summarized; no message is kept verbatim. (Claude Code re-attaches a few
  recently read files after compacting; those re-reads are not replayed.)
* Summary: the job's summarizer slot, rolling over the previous capsule (a later compaction
  summarizes a conversation that starts with the previous summary).
"""

from __future__ import annotations

from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.peer import PeerCompactor, PeerCut, peer_branch, replay_peer
from soba_bench.compactors.rival import compactor_params, int_param
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionPlan
from soba_bench.session.model import Session

NAME = "claude_code"
DEFAULTS: dict[str, Any] = {
    "autocompact_buffer_tokens": 13_000,
    "summary_output_reserve_tokens": 20_000,
}


class ClaudeCode(PeerCompactor):
    name = NAME

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold

    def threshold_tokens(self, hard: float) -> float:
        return self.threshold

    def describe(self) -> str:
        return f"auto-compact threshold {self.threshold:g}"

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        window = branch.item_indexes(branch.effective_window_start())
        if not window:
            return "claude_code: no history since the last summary"
        return PeerCut(kept_from=len(branch), summarized=window)


@COMPACTORS.register(NAME)
def claude_code(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    buffer = int_param(NAME, params, "autocompact_buffer_tokens")
    reserve = int_param(NAME, params, "summary_output_reserve_tokens")
    engine = ctx.engine
    threshold = engine.contextWindow - min(engine.maxOutputTokens, reserve) - buffer
    return replay_peer(session, ctx, ClaudeCode(threshold), NAME, params)
