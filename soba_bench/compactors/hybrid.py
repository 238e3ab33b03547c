"""``hybrid``: observation masking first, a SOBA capsule only when masking is not enough (the
hybrid of "The Complexity Trap"). At every compaction SOBA's policy would run:

1. plan the masking edit (every tool output but the newest ``keep_observations``);
2. if the input after masking is below the soft limit and the masking passes SOBA's actual
   ROI rules (as the masking strategy's does), apply it and stop (an attempt with strategy
   ``observation_masking``);
3. otherwise apply the masking and run SOBA's own capsule attempt on the masked branch
   (the job's summarizer writes the capsule, so it summarizes what the model sees, masked
   outputs included; its metrics count from the unmasked input, so ``reclaimed`` is the
   whole attempt's). If the capsule does not complete, the attempt reports the masking
   (completed) with the capsule's outcome in its reason.

Parameters (``configs/strategy/hybrid.yaml``): ``keep_observations`` (default 10).
"""

from __future__ import annotations

from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.observation_masking import ObservationMasking
from soba_bench.compactors.rival import compactor_params, conclude_edit, int_param, replay_rival
from soba_bench.compactors.soba import summarizer_kwargs
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt
from soba_bench.engine.outcome import CompactionOutcome
from soba_bench.session.model import Session
from soba_bench.summarizers import build_summarizer

NAME = "hybrid"
DEFAULTS: dict[str, Any] = {"keep_observations": 10}


class Hybrid:
    def __init__(self, keep: int) -> None:
        self.masking = ObservationMasking(keep)

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        edit = self.masking.plan(attempt.manager, attempt.plan)
        soft = attempt.manager.policy.soft_limit(attempt.plan.snapshot)
        if not isinstance(edit, str) and edit.tokens_after < soft:
            masked = conclude_edit(attempt, edit)
            if masked.status == O.COMPLETED:
                return masked
            # Under the soft limit but not worth it alone (SOBA's ROI): the capsule decides.
        if isinstance(edit, str):
            return attempt.capsule()
        masked = conclude_edit(attempt, edit, roi=False)
        capsule = attempt.capsule()
        if capsule.status == O.COMPLETED:
            return capsule
        return attempt.outcome(
            O.COMPLETED,
            f"{edit.reason}; capsule {capsule.status}: {capsule.reason}",
            strategy=masked.strategy,
            metrics=masked.metrics,
            capsule=edit,
        )


@COMPACTORS.register(NAME)
def hybrid(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    keep = int_param(NAME, params, "keep_observations")
    kwargs = summarizer_kwargs(ctx.summarizer, dict(ctx.summarizer_params))
    spec = build_summarizer(ctx.summarizer, **kwargs)
    trace = replay_rival(
        session, ctx, Hybrid(keep), NAME, params, chain=spec.chain, clock=spec.clock
    )
    return SessionRun(trace, spec.record())
