"""``outcomes``: what the session cost and where it failed, from the job's own barrier log
and its own model inputs (no ground truth needed). One row per session:

* ``requests``: model requests of the walk; ``refusedRequests``: those the engine (or the
  provider rule of ``none``) refused, nothing sent; ``blockedTurns``: turns with at least
  one refused request;
* ``overflows``: requests whose input plus the output reserve exceeds the context window
  (the provider would reject them if sent);
* ``attempts`` / ``completed``: compaction attempts and completed ones;
  ``degradedCapsules`` / ``degradedRate``: completed capsules written by a fallback
  (SOBA's timeout fallback, or the deterministic strategy standing in for a model that
  failed or whose draft SOBA's validator rejected) over completed attempts;
* ``inputTokensBilled``: the input tokens of every sent request (its items, counted with
  the scorer's meter, plus the system prompt and tool schemas): this strategy's own cost;
* ``peakContextTokens``: the largest input sent.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores

COMPLETED = "completed"
TIMEOUT_FALLBACK = re.compile(r"^Compaction model timed out after .*deterministic fallback")
DETERMINISTIC = "deterministic"


def is_degraded(attempt: dict[str, Any], model_first: bool) -> bool:
    """A completed capsule written by a fallback (see the module docstring)."""
    if attempt.get("outcome") != COMPLETED:
        return False
    if TIMEOUT_FALLBACK.search(str(attempt.get("reason") or "")):
        return True
    return model_first and attempt.get("strategy") == DETERMINISTIC


@SCORERS.register("outcomes")
class Outcomes:
    name: ClassVar[str] = "outcomes"
    description: ClassVar[str] = (
        "refused requests, blocked turns, overflows, attempts, degraded rate, tokens billed"
    )
    needs_truth: ClassVar[bool] = False

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        config = ctx.config_line
        overhead = int(config.get("systemPromptTokens") or 0) + int(
            config.get("toolSchemaTokens") or 0
        )
        window = config.get("contextWindow")
        reserve = int(config.get("maxOutputTokens") or 0)
        chain = str(config.get("strategy") or DETERMINISTIC)
        model_first = chain.split("+")[0] not in (DETERMINISTIC, "deterministic-only")
        attempts = [line for line in ctx.lines if line.get("kind") == "attempt"]
        completed = sum(1 for a in attempts if a.get("outcome") == COMPLETED)
        degraded = sum(1 for a in attempts if is_degraded(a, model_first))
        billed = peak = overflows = 0
        for point in ctx.point_inputs:
            size = point.tokens + overhead
            if window is not None and size + reserve > window:
                overflows += 1
            if point.request is not None and not point.request.refused:
                billed += size
                peak = max(peak, size)
        refused = [r for r in ctx.requests if r.refused]
        out.outcomes.append(
            {
                "session": ctx.session,
                "strategy": ctx.label,
                "requests": len(ctx.requests),
                "refusedRequests": len(refused),
                "blockedTurns": len({r.turn for r in refused}),
                "overflows": overflows if window is not None else None,
                "attempts": len(attempts),
                "completed": completed,
                "degradedCapsules": degraded,
                "degradedRate": degraded / completed if completed else None,
                "inputTokensBilled": billed,
                "peakContextTokens": peak,
            }
        )
