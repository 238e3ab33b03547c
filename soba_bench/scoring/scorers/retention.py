"""``retention`` (a diagnostic since the fixed evaluation points exist): recall, precision,
staleness and leaks at every capsule moment, for the capsule alone and for the whole model
input, plus the comparison strategies' inputs at the same moments (each charged its own
input tokens) and how facts survive from one capsule generation to the next (drift).

Capsule moments differ from job to job (each job compacts when it does), so these scores do
not compare configs on the same questions; ``availability`` does."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, ClassVar

from soba_bench.scoring.retention import RETENTION_KINDS, KindScore, present, score_view, summarize
from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores
from soba_bench.scoring.views import shown_view


def _emit(out: SessionScores, base: dict[str, Any], scores: dict[str, KindScore]) -> None:
    for kind_score in scores.values():
        if kind_score.expected or kind_score.wrong or kind_score.stale or kind_score.stale_checked:
            out.rows.append({**base, **kind_score.to_row()})
    out.summaries.append({**base, **summarize(scores)})


def drift(survival: dict[str, list[bool]]) -> list[dict[str, Any]]:
    """Share of facts still present k capsule generations after the first capsule that
    should have carried them."""
    by_age: dict[int, list[bool]] = defaultdict(list)
    for history in survival.values():
        for age, kept in enumerate(history):
            by_age[age].append(kept)
    return [
        {"age": age, "facts": len(values), "survival": sum(values) / len(values)}
        for age, values in sorted(by_age.items())
    ]


@SCORERS.register("retention")
class Retention:
    name: ClassVar[str] = "retention"
    description: ClassVar[str] = "recall / precision / staleness / leaks at capsule moments"
    needs_truth: ClassVar[bool] = True

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        truth, lifecycle, timeline, config = ctx.truth, ctx.lifecycle, ctx.timeline, ctx.config
        assert truth is not None and lifecycle is not None
        label = ctx.label
        survival: dict[str, list[bool]] = defaultdict(list)
        for moment, (point, soba_input) in zip(ctx.moments, ctx.input_views, strict=True):
            capsule = moment.capsule
            base = {
                "session": ctx.session,
                "generation": moment.generation,
                "point": point,
                "inputTokens": moment.tokens,
            }
            if capsule is not None:
                kept = capsule["provenance"].get("firstKeptEntryId")
                cut = timeline.at(kept, point) if kept != "root" else point
                view = ctx.capsule_view(capsule)
                _emit(
                    out,
                    {
                        **base,
                        "strategy": label,
                        "view": "capsule",
                        "checkpointId": capsule.get("checkpointId"),
                    },
                    score_view(truth.facts, lifecycle, view, point, expect_before=cut),
                )
                for fact in truth.facts:
                    if (
                        fact.kind in RETENTION_KINDS
                        and lifecycle.live_at(fact, point)
                        and lifecycle.introduced_before(fact, cut)
                    ):
                        survival[fact.id].append(present(fact, view))
            _emit(
                out,
                {**base, "strategy": label, "view": "input"},
                score_view(truth.facts, lifecycle, soba_input, point),
            )
            for name in config.baselines:
                if name == label:
                    continue
                # Each comparison strategy is charged what it would send, not SOBA's input.
                shown, cost = ctx.baseline(name, moment)
                view = shown_view(shown, None, cost, moment.skills, config.match)
                _emit(
                    out,
                    {**base, "inputTokens": cost, "strategy": name, "view": "input"},
                    score_view(truth.facts, lifecycle, view, point),
                )
        # Drift counts generations, so it needs them all: a sampled session has none.
        out.drift = [] if ctx.moments_sampled else drift(survival)
