"""``openhands``: OpenHands' default condenser, ``LLMSummarizingCondenser``, replayed on
SOBA's walk.

Source read: ``OpenHands/software-agent-sdk``,
``openhands-sdk/openhands/sdk/context/condenser/llm_summarizing_condenser.py``
(``max_size = 120``, ``keep_first = 4``, ``should_condense``: more than ``max_size`` events
in the view; ``get_condensation``: keep the first ``keep_first`` events and the newest
``max_size // 2 - keep_first - 1`` events, summarize the events between them together with
the previous summary) and the SDK's condenser guide (docs.openhands.dev, "Context
Condenser"). The event count is the trigger; tokens play no part (``max_tokens`` is off by
default).

* Trigger: events in the view > ``max_size``. The SDK's view starts with its system-prompt
  event, which the replayed transcript does not hold (the system prompt is the job's
  ``systemPromptTokens``), so the view counts 1 + pinned head items + the summary + the
  items since the last summary.
* Cut: the head is the system prompt and the first ``keep_first - 1`` transcript items
  (pinned, verbatim, for the rest of the session); the tail is the newest
  ``max_size // 2 - keep_first - 1`` items; everything between is summarized. Where a
  boundary would part a tool call from its output it moves so the pair stays together (the
  head shrinks, the tail shortens); the SDK's view drops such unmatched halves instead.
* Summary: the job's summarizer slot, rolling over the previous capsule as the condenser
  re-summarizes its previous summary with the forgotten events.
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
from soba_bench.errors import ConfigError
from soba_bench.session.model import Session

NAME = "openhands"
DEFAULTS: dict[str, Any] = {"max_size": 120, "keep_first": 4}
SYSTEM_EVENTS = 1  # the SDK view's system-prompt event, not in the transcript


class OpenHands(PeerCompactor):
    name = NAME

    def __init__(self, max_size: int, keep_first: int) -> None:
        self.max_size = max_size
        self.keep_first = keep_first
        self.from_tail = max_size // 2 - keep_first - 1

    def describe(self) -> str:
        return f"at most {self.max_size} events in the view"

    def view_size(self, branch: PeerBranch) -> int:
        return SYSTEM_EVENTS + branch.items_in_view()

    def triggered(self, snapshot: ContextSnapshot, branch: PeerBranch) -> str | None:
        size = self.view_size(branch)
        if size <= self.max_size:
            return None
        return f"{size} events in the view exceed max_size ({self.max_size})"

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        end = len(branch)
        start = branch.effective_window_start()
        window = branch.item_indexes(start)
        if branch.last_capsule_index >= 0:
            head = list(branch.pinned)
        else:
            head = window[: max(0, self.keep_first - SYSTEM_EVENTS)]
            while head and crosses(branch, 0, head[-1] + 1, end):
                head.pop()
        rest = [i for i in window if i not in set(head)]
        tail = rest[-self.from_tail :] if self.from_tail > 0 else []
        while tail and crosses(branch, start, tail[0], end):
            tail.pop(0)
        kept_from = tail[0] if tail else end
        forgotten = [i for i in rest if i < kept_from]
        if not forgotten:
            return "openhands: no events between the head and the kept tail"
        return PeerCut(kept_from=kept_from, pinned=head, summarized=forgotten)


@COMPACTORS.register(NAME)
def openhands(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    max_size = int_param(NAME, params, "max_size", minimum=1)
    keep_first = int_param(NAME, params, "keep_first")
    if max_size // 2 - keep_first - 1 <= 0:
        raise ConfigError(
            f"strategy {NAME!r}: strategy.params.keep_first must be less than "
            f"max_size // 2 - 1 to leave room for condensation, got keep_first={keep_first!r} "
            f"with max_size={max_size!r}"
        )
    return replay_peer(session, ctx, OpenHands(max_size, keep_first), NAME, params)
