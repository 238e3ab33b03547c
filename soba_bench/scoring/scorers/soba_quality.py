"""``soba_quality``: SOBA's own lexical portable-capsule evaluator on every capsule the job
wrote (pass at >= 0.9), against the expectation the ground truth gives at that moment."""

from __future__ import annotations

from typing import ClassVar

from soba_bench.scoring.portable import portable_capsule_from_checkpoint
from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores
from soba_bench.scoring.soba_quality import evaluate_quality, expectation_from_truth


@SCORERS.register("soba_quality")
class SobaQuality:
    name: ClassVar[str] = "soba_quality"
    description: ClassVar[str] = "SOBA's lexical portable-capsule evaluator (pass at >= 0.9)"
    needs_truth: ClassVar[bool] = True

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        assert ctx.truth is not None
        for moment in ctx.moments:
            capsule = moment.capsule
            if capsule is None:
                continue
            portable = portable_capsule_from_checkpoint(
                capsule, created_at=capsule.get("timestamp")
            )
            lifecycle = ctx.lifecycle
            assert lifecycle is not None  # there is truth, so there is its lifecycle
            expected = expectation_from_truth(ctx.truth.facts, lifecycle, moment.point)
            out.quality.append(
                {
                    "session": ctx.session,
                    "strategy": ctx.label,  # "hybrid" writes SOBA capsules too
                    "generation": moment.generation,
                    "checkpointId": capsule.get("checkpointId"),
                    "point": moment.point,
                    **evaluate_quality(portable, expected).to_dict(),
                }
            )
