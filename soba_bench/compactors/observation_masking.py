"""``observation_masking``: the baseline of JetBrains' "The Complexity Trap" (2025). At every
compaction SOBA's policy would run, every tool output except the newest ``keep_observations``
is replaced by a short placeholder (``[Old tool output omitted]``, the scoring-time view's
transform); messages, reasoning and tool calls stay verbatim, nothing is summarized.

Parameters (``configs/strategy/observation_masking.yaml``):

* ``keep_observations`` (default 10, as in the paper's setting): tool outputs kept verbatim.

A masked output stays masked; outputs that arrive later are masked by a later compaction.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
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
from soba_bench.compactors.rival_branch import entry_ids, rival_branch
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.session.model import Session

NAME = "observation_masking"
DEFAULTS: dict[str, Any] = {"keep_observations": 10}


def outputs_to_mask(outputs: Sequence[int], keep: int) -> Sequence[int]:
    """Masking's rule: every tool output but the newest ``keep`` (positions ascending).
    Shared by the replayed compactor and its scoring-time view."""
    return outputs[: max(0, len(outputs) - keep)]


class ObservationMasking:
    """Masks every tool output but the newest ``keep``."""

    def __init__(self, keep: int, name: str = NAME) -> None:
        self.keep = keep
        self.name = name

    def plan(self, manager: ContextManager, plan: CompactionPlan) -> Edit | str:
        """The masking edit for the branch as it is now, or why there is nothing to mask."""
        branch = rival_branch(manager)
        outputs = branch.output_indexes
        count = len(outputs_to_mask(outputs, self.keep))
        if count <= 0:
            return f"At most {self.keep} tool outputs: nothing to mask"
        through = outputs[count - 1]
        # Outputs before the window (dropped, or behind a capsule) are not in the input.
        start = max(branch.masked_through + 1, branch.effective_window_start())
        new = outputs[bisect_left(outputs, start) : count]
        if not new:
            return f"Every tool output but the newest {self.keep} is already masked"
        saving = branch.masked_saving(new)
        items = branch.effective_item_tokens(manager.meter.compatibility_key) - saving
        return Edit(
            strategy=self.name,
            tokens_after=items_tokens_after(plan, items),
            source_ids=entry_ids([branch.entries[i] for i in new]),
            mask=new,
            mask_through=through,
            first_kept_id=branch.id_at(branch.effective_window_start()),
            reason=f"Masked {len(new)} tool outputs, kept the newest {self.keep} verbatim",
        )

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        edit = self.plan(attempt.manager, attempt.plan)
        if isinstance(edit, str):
            return attempt.outcome(O.SKIPPED, edit, strategy=self.name)
        return conclude_edit(attempt, edit)


@COMPACTORS.register(NAME)
def observation_masking(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    keep = int_param(NAME, params, "keep_observations")
    trace = replay_rival(session, ctx, ObservationMasking(keep), NAME, params)
    return SessionRun(trace, {"name": None})  # no capsules, nothing summarizes
