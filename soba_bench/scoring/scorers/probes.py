"""``probes``: questions from the ground truth answered from the model input at every capsule
moment, by every strategy of the probe config (see :mod:`soba_bench.scoring.probes`)."""

from __future__ import annotations

from typing import ClassVar

from soba_bench.scoring.probes import get_prober, score_moment, strategy_inputs
from soba_bench.scoring.scorer import FINAL, SCORERS, ScoreContext, SessionScores


@SCORERS.register("probes")
class Probes:
    name: ClassVar[str] = "probes"
    description: ClassVar[str] = (
        "questions from the ground truth answered from the post-compaction input"
    )
    needs_truth: ClassVar[bool] = True

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        assert ctx.truth is not None
        lifecycle = ctx.lifecycle
        assert lifecycle is not None  # there is truth, so there is its lifecycle
        config = ctx.config
        prober = get_prober(config.probes, config.match)
        for moment in ctx.moments:
            inputs = strategy_inputs(
                config.probes.strategies,
                moment.model_input,
                ctx.originals,
                moment.point,
                ctx.meter.count_item,
                config.keep_observations,
                replayed_name=ctx.label,
            )
            asked, scored = score_moment(
                prober,
                session=ctx.session,
                generation=moment.generation,
                point=moment.point,
                final=moment.generation == FINAL,
                inputs=inputs,
                facts=ctx.truth.facts,
                lifecycle=lifecycle,
            )
            out.probes += asked
            out.probe_moments += scored
