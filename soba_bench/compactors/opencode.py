"""``opencode``: opencode's session compaction (sst/opencode), replayed on SOBA's walk.

Source read: ``sst/opencode``, ``packages/opencode/src/session/compaction.ts``
(``PRUNE_MINIMUM = 20_000``, ``PRUNE_PROTECT = 40_000``, ``prune``: walking back past the
two newest user turns, tool outputs beyond the newest 40,000 tokens of outputs are cleared,
stopping at a summary or an already-cleared output, applied only when more than 20,000
tokens would go; ``select``: the verbatim tail is whole turns, newest first, within
``preserve_recent_tokens`` = min(15,000, max(2,000, 25 % of the usable window)), splitting
the turn that does not fit) and ``packages/opencode/src/session/overflow.ts`` (usable =
context - max output (capped at 32,000) - min(20,000, max output); overflow when the token
count reaches it).

* Trigger: effective tokens >= usable (76,000 at SOBA's 128k/32k defaults). Prune runs at
  the end of every completed turn (opencode prunes when a prompt loop ends), as a masking
  edit (``[Old tool output omitted]`` in place of opencode's ``[Old tool result content
  cleared]``); if the input is still at or above usable afterwards, the summary runs too.
  Token counts are the job's meter (opencode estimates characters / 4).
* Cut: the verbatim tail per ``select`` above; when no turn fits, or the tail would be the
  whole history, everything is summarized. A split inside a turn never parts a tool call
  from its output. The newest source only prunes when its config sets
  ``compaction.prune``; earlier releases pruned unless it was turned off. ``prune``
  (default true) chooses.
* Summary: the job's summarizer slot, rolling over the previous capsule (opencode hands the
  previous summary to the compaction agent). The synthetic "continue" message after an
  automatic compaction is not replayed.
"""

from __future__ import annotations

import math
from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.peer import (
    PeerBranch,
    PeerCompactor,
    PeerCut,
    crosses,
    is_user_message,
    peer_branch,
    replay_peer,
)
from soba_bench.compactors.rival import Edit, compactor_params, int_param, items_tokens_after
from soba_bench.compactors.rival_branch import entry_ids, is_output
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionPlan
from soba_bench.engine.policy import TURN_COMPLETE, TriggerDecision
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.errors import ConfigError
from soba_bench.session.model import Session

NAME = "opencode"
DEFAULTS: dict[str, Any] = {
    "prune": True,
    "prune_minimum": 20_000,
    "prune_protect": 40_000,
    "protect_turns": 2,
    "output_token_max": 32_000,
    "compaction_buffer": 20_000,
    "preserve_recent_tokens": None,
}


def usable_tokens(window: float, max_output: float, output_cap: int, buffer: int) -> float:
    output = min(max_output, output_cap)
    return max(0, window - output - min(buffer, output))


class OpenCode(PeerCompactor):
    name = NAME

    def __init__(self, usable: float, preserve: int, prune: dict[str, int] | None) -> None:
        self.usable = usable
        self.preserve = preserve
        self.prune_rule = prune

    def threshold_tokens(self, hard: float) -> float:
        return self.usable

    def describe(self) -> str:
        return f"usable window {self.usable:g}"

    # ── prune ───────────────────────────────────────────────────────────────────
    def prunable(self, branch: PeerBranch) -> tuple[list[int], int]:
        """The tool outputs opencode's prune would clear now, oldest first, and their
        tokens (the prune applies only above the minimum)."""
        rule = self.prune_rule
        if rule is None:
            return [], 0
        start = max(branch.effective_window_start(), branch.masked_through + 1)
        turns = total = pruned = 0
        chosen: list[int] = []
        for index in range(len(branch) - 1, start - 1, -1):
            item = branch.entries[index].item
            if is_user_message(item):
                turns += 1
            if turns < rule["protect_turns"] or not is_output(item):
                continue
            tokens = branch.item_tokens(index)
            total += tokens
            if total <= rule["prune_protect"]:
                continue
            pruned += tokens
            chosen.append(index)
        chosen.reverse()
        return chosen, pruned

    def on_turn_complete(self, snapshot: ContextSnapshot, branch: PeerBranch) -> TriggerDecision:
        indexes, tokens = self.prunable(branch)
        if not indexes or self.prune_rule is None or tokens <= self.prune_rule["prune_minimum"]:
            return TriggerDecision(False, None, f"opencode: {tokens} prunable tokens")
        return TriggerDecision(
            True, TURN_COMPLETE, f"opencode: prune {len(indexes)} tool outputs", tokens, 0
        )

    def prune(self, manager: ContextManager, plan: CompactionPlan) -> Edit | None:
        if plan.trigger != TURN_COMPLETE or self.prune_rule is None:
            return None
        branch = peer_branch(manager)
        indexes, _ = self.prunable(branch)
        if not indexes:
            return None
        saving = branch.masked_saving(indexes)
        items = branch.effective_item_tokens(manager.meter.compatibility_key) - saving
        return Edit(
            strategy=NAME,
            tokens_after=items_tokens_after(plan, items),
            source_ids=entry_ids([branch.entries[i] for i in indexes]),
            mask=indexes,
            mask_through=indexes[-1],
            first_kept_id=branch.id_at(branch.effective_window_start()),
            reason=f"opencode: pruned {len(indexes)} old tool outputs",
        )

    def wants_summary(self, manager: ContextManager, plan: CompactionPlan, after: float) -> bool:
        return plan.required or after >= self.usable

    # ── summary ─────────────────────────────────────────────────────────────────
    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        end = len(branch)
        start = branch.effective_window_start()
        window = branch.item_indexes(start)
        if not window:
            return "opencode: no history since the last summary"
        starts = [i for i in window if is_user_message(branch.entries[i].item)]
        bounds = list(zip(starts, [*starts[1:], end], strict=True))
        total = 0
        keep: int | None = None
        for first, stop in reversed(bounds):
            size = branch.tokens_from(first, stop)
            if total + size <= self.preserve:
                total += size
                keep = first
                continue
            remaining = self.preserve - total
            for split in branch.item_indexes(first + 1, stop):
                if branch.tokens_from(split, stop) <= remaining and not crosses(
                    branch, start, split, end
                ):
                    keep = split
                    break
            break
        if keep is None or keep == window[0]:
            return PeerCut(kept_from=end, summarized=window)
        return PeerCut(kept_from=keep, summarized=[i for i in window if i < keep])


@COMPACTORS.register(NAME)
def opencode(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    engine = ctx.engine
    cap = int_param(NAME, params, "output_token_max", minimum=1)
    buffer = int_param(NAME, params, "compaction_buffer")
    usable = usable_tokens(engine.contextWindow, engine.maxOutputTokens, cap, buffer)
    if params["preserve_recent_tokens"] is None:
        preserve = min(15_000, max(2_000, math.floor(usable * 0.25)))
    else:
        preserve = int_param(NAME, params, "preserve_recent_tokens")
    if not isinstance(params["prune"], bool):
        raise ConfigError(
            f"strategy {NAME!r}: strategy.params.prune must be true or false, "
            f"got {params['prune']!r}"
        )
    rule = None
    if params["prune"]:
        rule = {
            key: int_param(NAME, params, key)
            for key in ("prune_minimum", "prune_protect", "protect_turns")
        }
    return replay_peer(session, ctx, OpenCode(usable, preserve, rule), NAME, params)
