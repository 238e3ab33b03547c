"""``failure_modes``: compaction loops, growth, blocked-forever, lost constraints, boundary
problems (:mod:`soba_bench.scoring.failure_modes`); runs on any replay, with the ground
truth's detectors only where there is one."""

from __future__ import annotations

from typing import ClassVar

from soba_bench.scoring.failure_modes import Evidence, detect_all
from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores


@SCORERS.register("failure_modes")
class FailureModes:
    name: ClassVar[str] = "failure_modes"
    description: ClassVar[str] = (
        "compaction loops, growth, blocked-forever, lost constraints, boundaries"
    )
    needs_truth: ClassVar[bool] = False

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        truth = ctx.truth
        views = ctx.input_views if truth is not None else None
        evidence = Evidence(
            session=ctx.session,
            barriers=ctx.lines,
            views=views,
            facts=truth.facts if truth is not None else (),
            lifecycle=ctx.lifecycle,
            after=min((p for p, _ in views or ()), default=0),
            input_boundaries=[
                (f"generation {m.generation}", ctx.walk.boundary_problems(m.located))
                for m in ctx.moments
            ],
        )
        for name, findings in detect_all(evidence, ctx.config.detectors).items():
            out.checked[name] = findings is not None
            out.findings.extend(f.to_dict() for f in findings or ())
