"""What the rival strategies share: the same agent-loop walk as ``soba``, with the compaction
itself swapped out.

The replay is SOBA's :class:`~soba_bench.replay.simulator.Replayer` unchanged (barriers,
turns, milestones, ``/compact`` lines) and SOBA's controller unchanged (hard and soft limits,
the ROI pre-check, one soft attempt per turn, pending intents, events). Only the step where
the manager would build a capsule runs the rival's
:class:`~soba_bench.engine.compactor.Compactor` instead (the manager's public seam), on a
:class:`~soba_bench.compactors.rival_branch.RivalBranch` whose model input the compactor
edits. An edit is held to SOBA's own rules: a soft attempt whose
actual reclaim fails ``minReclaimableTokens``/``minSavingsRatio`` is skipped and changes
nothing; a barrier still over the hard limit afterwards refuses the request.

Every rival attempt line carries the branch's model-input state after the attempt,
``maskedThroughEntryId``, ``droppedThroughEntryId`` and ``inputThroughEntryId`` (see
:mod:`soba_bench.compactors.inputs`), and the config line names the strategy and its
parameters (``replayStrategy``, ``strategyParams``), so scoring can rebuild the rival's model
input from a run folder alone.

Rivals replay with SOBA's estimate only (``usage=none``, no simulated overflow): recorded
provider usage measures SOBA's requests, not the rival's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from soba_bench.compactors import CompactorContext
from soba_bench.compactors.inputs import DROPPED_THROUGH, INPUT_THROUGH, MASKED_THROUGH
from soba_bench.compactors.rival_branch import RivalBranch
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt, Compactor
from soba_bench.engine.controller import ContextController
from soba_bench.engine.events import EventLog
from soba_bench.engine.facade import Engine
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.errors import ConfigError
from soba_bench.meter import get_meter
from soba_bench.replay.provider import USAGE_NONE
from soba_bench.replay.simulator import Replayer, config_line
from soba_bench.replay.trace import ReplayTrace
from soba_bench.session.model import Session


@dataclass(frozen=True)
class Edit:
    """A planned change of the model input (not yet applied)."""

    strategy: str
    tokens_after: float
    source_ids: list[str]
    mask: list[int] = field(default_factory=list)  # tool outputs to mask
    mask_through: int = -1
    drop_through: int = -1
    first_kept_id: str | None = None
    reason: str = ""

    @property
    def data(self) -> dict[str, Any]:
        # Read by the attempt line where a capsule would be: what the attempt compacted.
        return {
            "provenance": {
                "firstCompactedEntryId": self.source_ids[0] if self.source_ids else None,
                "firstKeptEntryId": self.first_kept_id,
                "sourceEntryIds": self.source_ids,
            }
        }

    def apply(self, branch: RivalBranch) -> None:
        """Make the change on the live branch (the engine measures it from now on)."""
        if self.mask or self.mask_through >= 0:
            branch.mask(self.mask, self.mask_through)
        if self.drop_through >= 0:
            branch.drop_through(self.drop_through)


def items_tokens_after(plan: CompactionPlan, items: float) -> float:
    """SOBA's after-estimate: system prompt and tool schemas plus the items sent."""
    snap = plan.snapshot
    return snap.systemPromptTokens + snap.toolSchemaTokens + items


def conclude_edit(attempt: Attempt, edit: Edit, *, roi: bool = True) -> CompactionOutcome:
    """Apply ``edit`` unless a soft attempt's actual reclaim fails SOBA's ROI rules."""
    before = attempt.plan.snapshot.effectiveTokens
    reclaimed = max(0, before - edit.tokens_after)
    metrics = {
        "effectiveTokensBefore": before,
        "estimatedTokensAfter": edit.tokens_after,
        "reclaimedTokens": reclaimed,
        "savingsRatio": reclaimed / before if before > 0 else 0,
        "generationDurationMs": 0,
    }
    failure = attempt.roi_failure(metrics) if roi else None
    if failure:
        return attempt.outcome(O.SKIPPED, failure, strategy=edit.strategy, metrics=metrics)
    edit.apply(attempt.branch)
    attempt.manager.meter.invalidate_watermark()  # the recorded usage measured the unedited input
    return attempt.outcome(
        O.COMPLETED,
        edit.reason or f"Compaction completed using {edit.strategy} strategy",
        strategy=edit.strategy,
        metrics=metrics,
        capsule=edit,
    )


class RivalReplayer(Replayer):
    """The simulator's walk on a :class:`RivalBranch`, its manager running the rival's
    compactor in place of SOBA's capsule step."""

    live: RivalBranch
    branch_type: type[RivalBranch] = RivalBranch  # a subclass may hold more model-input state

    def __init__(
        self,
        session: Session,
        config,
        options,
        compactor: Compactor,
        *,
        strategy: str,
        params: Mapping[str, Any],
        chain: Sequence[Any] | None = None,
        clock: Any = None,
    ) -> None:
        super().__init__(session, config, options, chain=chain, clock=clock)
        # Rebuilt with the rival's branch and manager; everything else is the simulator's.
        self.live = self.branch_type(
            self.live.session_id,
            meter=get_meter(options.meter),
            reserved_ids={e.id for e in session.tree_entries if e.id},
        )
        manager = ContextManager(
            self.live,
            config,
            compactor=compactor,
            chain=chain,
            variant=options.variant,
            clock=clock,
            seed=options.seed,
        )
        events = EventLog()
        controller = ContextController(manager, emit=events)
        self.engine = Engine(self.live, manager, controller, events)
        self.strategy = strategy
        self.params = dict(params)

    def _state(self) -> dict[str, Any]:
        live = self.live
        return {
            MASKED_THROUGH: live.id_at(live.masked_through),
            DROPPED_THROUGH: live.id_at(live.dropped_through),
            INPUT_THROUGH: live.leaf_id,
        }

    def _record(self, index, before_id, flush, pending, result, *args, **kwargs) -> None:
        super()._record(index, before_id, flush, pending, result, *args, **kwargs)
        attempt = self.trace.barriers[-1].attempt
        if attempt is not None:
            attempt.update(self._state())

    def compact_command(self, index, entry, instructions) -> None:
        super().compact_command(index, entry, instructions)
        attempt = self.trace.barriers[-1].attempt
        if attempt is not None:
            attempt.update(self._state())

    def _finish(self, replay_ms: float) -> ReplayTrace:
        trace = super()._finish(replay_ms)
        trace.entries = self.live.original_entries()
        trace.final_state.update(
            {
                "maskedOutputs": len(self.live.originals),
                "droppedEntries": self.live.dropped_through + 1,
            }
        )
        return trace


def replay_rival(
    session: Session,
    ctx: CompactorContext,
    compactor: Compactor,
    strategy: str,
    params: Mapping[str, Any],
    *,
    chain: Sequence[Any] | None = None,
    clock: Any = None,
    replayer: type[RivalReplayer] = RivalReplayer,
) -> ReplayTrace:
    """Replay ``session`` with ``compactor`` in place of SOBA's capsule step."""
    options = ctx.options
    if options.usage != USAGE_NONE or options.simulate_overflow:
        raise ConfigError(
            f"strategy {strategy!r} replays with SOBA's estimate only: replay.usage must be "
            f"'none' (got {options.usage!r}) and replay.simulate_overflow false "
            f"(got {options.simulate_overflow!r})"
        )
    rival = replayer(
        session,
        ctx.engine,
        options,
        compactor,
        strategy=strategy,
        params=params,
        chain=chain,
        clock=clock,
    )
    line = config_line(session, ctx.engine, rival, options, chain)
    line.update({"replayStrategy": strategy, "strategyParams": dict(params)})
    if chain is None:
        line["strategy"] = strategy
    rival.trace.config_line = line
    return rival.run()


def compactor_params(
    strategy: str, given: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """``given`` over ``defaults``; an unknown key is a config error naming the valid ones."""
    unknown = sorted(set(given) - set(defaults))
    if unknown:
        raise ConfigError(
            f"strategy {strategy!r}: unknown parameter(s) {', '.join(unknown)}; "
            f"valid: {', '.join(sorted(defaults)) or '(none)'} "
            f"(field strategy.params.{unknown[0]}, value {given[unknown[0]]!r})"
        )
    return {**defaults, **given}


def int_param(strategy: str, params: Mapping[str, Any], key: str, *, minimum: int = 0) -> int:
    """An integer parameter >= minimum (booleans are not integers here)."""
    value = params[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ConfigError(
            f"strategy {strategy!r}: strategy.params.{key} must be an integer >= {minimum}, "
            f"got {value!r}"
        )
    return value
