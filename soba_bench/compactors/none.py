"""``none``: no compaction at all. Every barrier of the ``soba`` walk still runs and is
recorded (a ``check`` line with the same effective tokens, hard and soft limits and pending
trigger SOBA's barrier would have seen), but nothing is ever compacted and nothing is
refused by the engine: the request goes to the provider as it is.

A request *overflows* when its input plus the output reserve exceeds the context window (the
rule a provider applies, and the simulated provider's); its check line says
``canProceed: false`` (the request fails, the turn records an error), so refused counts and
the blocked-forever detector compare with ``soba``'s. The summary adds ``overflowRequests``
and ``overHardLimitRequests`` (above SOBA's hard limit, where SOBA would have had to
compact). A ``/compact`` line is recorded as a skipped attempt. No parameters.
"""

from __future__ import annotations

from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.rival import RivalReplayer, compactor_params, replay_rival
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt
from soba_bench.engine.controller import BarrierResult
from soba_bench.engine.outcome import CompactionOutcome
from soba_bench.replay.trace import ReplayTrace
from soba_bench.session.model import Session

NAME = "none"
DEFAULTS: dict[str, Any] = {}


class NoCompaction:
    def compact(self, attempt: Attempt) -> CompactionOutcome:
        return attempt.outcome(O.SKIPPED, "Strategy none never compacts", strategy=NAME)


class NoneReplayer(RivalReplayer):
    """The walk with a barrier that measures and records, but never compacts."""

    overflow_requests = 0
    over_hard_limit = 0

    def barrier(self, index: int, before_id: str | None, flush: bool) -> BarrierResult:
        controller = self.engine.controller
        if self.queued_events:  # recorded as the pending intent SOBA would have, then dropped
            controller.schedule_latest_milestone(self.queued_events)
            self.queued_events = []
        pending, controller.pending = controller.pending_trigger, None
        snap = self.engine.manager.get_snapshot(
            self.config.systemPromptTokens, self.config.toolSchemaTokens, f"turn_{self.turn}"
        )
        overflow = snap.effectiveTokens + self.config.maxOutputTokens > self.config.contextWindow
        self.overflow_requests += overflow
        self.over_hard_limit += snap.effectiveTokens > snap.hardLimit
        self.inputs_pending = False
        if overflow:
            self.turn_errors += 1
        result = BarrierResult(not overflow, False, snapshot=snap)
        self._record(index, before_id, flush, pending, result, 0, 0.0)
        self._budget_update()
        return result

    def _finish(self, replay_ms: float) -> ReplayTrace:
        trace = super()._finish(replay_ms)
        trace.final_state["overflowRequests"] = self.overflow_requests
        trace.final_state["overHardLimitRequests"] = self.over_hard_limit
        return trace


@COMPACTORS.register(NAME)
def no_compaction(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    trace = replay_rival(session, ctx, NoCompaction(), NAME, params, replayer=NoneReplayer)
    return SessionRun(trace, {"name": None})
