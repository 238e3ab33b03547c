"""``availability``: the headline. At every evaluation point (a model request of the walk,
see :mod:`soba_bench.scoring.points`), which live facts of the ground truth can the model
see in the input this job sends there?

A live fact (introduced before the request, not yet resolved or superseded) is *available*
when the request is sent and

* the capsule the input starts with presents it (the retention matcher on the capsule,
  computed once per capsule), or
* one of the entries the ground truth saw it in is in the retained tail and not masked, or
* it is a skill: the agent keeps active skills whatever the context strategy does.

A refused request sent nothing, so none of its live facts is available. Per kind, the
availability pools the (point, fact) pairs of the session; the headline is the mean over the
kinds the session has (each kind weighs the same, and the three file kinds are one kind
``file``), so a session with 60 file facts and one goal does not read as a file score. Kinds
the ground truth lists in ``unknownKinds`` are not scored.
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

from soba_bench.corpora.truth import Fact
from soba_bench.scoring.retention import FILE_KINDS, RETENTION_KINDS, present
from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores
from soba_bench.scoring.timeline import NEVER
from soba_bench.scoring.views import capsule_view

FILE = "file"
AVAILABILITY_KINDS = (
    "goal",
    "constraint",
    "decision",
    "blocker",
    "next_step",
    "clarification",
    "checkpoint",
    FILE,
    "verification",
    "skill",
)


def kind_of(fact: Fact) -> str:
    """The availability kind of a fact (the file kinds are one kind)."""
    return FILE if fact.kind in FILE_KINDS else fact.kind


def macro(kinds: dict[str, float | None]) -> float | None:
    """The mean over the kinds that have a value (each kind weighs the same)."""
    values = [v for v in kinds.values() if v is not None]
    return sum(values) / len(values) if values else None


@SCORERS.register("availability")
class Availability:
    name: ClassVar[str] = "availability"
    description: ClassVar[str] = (
        "share of live facts the model can see at every request, macro over fact kinds"
    )
    needs_truth: ClassVar[bool] = True

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        truth, lifecycle, walk = ctx.truth, ctx.lifecycle, ctx.walk
        assert truth is not None and lifecycle is not None
        unknown = set(truth.unknown_kinds)
        facts = [
            f
            for f in truth.facts
            if f.kind in RETENTION_KINDS and f.kind not in unknown and lifecycle.start[f.id] < NEVER
        ]
        facts.sort(key=lambda f: lifecycle.start[f.id])
        evidence: dict[str, list[int]] = {}
        for fact in facts:
            ids = (*fact.entry_ids, *((fact.introduced_at,) if fact.introduced_at else ()))
            evidence[fact.id] = sorted({walk.position[i] for i in ids if i in walk.position})
        in_capsule: dict[int, set[str]] = {}

        def capsule_has(index: int) -> set[str]:
            if index not in in_capsule:
                view = capsule_view(ctx.replayed[index].data, ctx.config.match)
                in_capsule[index] = {f.id for f in facts if present(f, view)}
            return in_capsule[index]

        live_total = dict.fromkeys(AVAILABILITY_KINDS, 0)
        seen_total = dict.fromkeys(AVAILABILITY_KINDS, 0)
        live: list[Fact] = []
        joined = 0  # facts[:joined] have been introduced
        scored = refused = 0
        keys: list[str] = []
        for point in ctx.point_inputs:
            request = point.request
            if request is None or request.key not in ctx.sampled:
                continue
            at = point.at
            while joined < len(facts) and lifecycle.start[facts[joined].id] < at:
                live.append(facts[joined])
                joined += 1
            live = [f for f in live if lifecycle.end[f.id] >= at]
            counts: dict[str, int] = {}
            visible: dict[str, int] = {}
            shown = capsule_has(point.prefix) if point.prefix is not None else set()
            for fact in live:
                kind = kind_of(fact)
                counts[kind] = counts.get(kind, 0) + 1
                if request.refused:
                    continue
                if (
                    fact.kind == "skill"
                    or fact.id in shown
                    or walk.tail_shows(point, evidence[fact.id])
                ):
                    visible[kind] = visible.get(kind, 0) + 1
            for kind, n in counts.items():
                live_total[kind] += n
                seen_total[kind] += visible.get(kind, 0)
            scored += 1
            refused += request.refused
            keys.append(request.key)
            out.points.append(
                {
                    "session": ctx.session,
                    "strategy": ctx.label,
                    "key": request.key,
                    "at": at,
                    "turn": request.turn,
                    "refused": request.refused,
                    "tokens": point.tokens,
                    "live": counts,
                    "visible": visible,
                }
            )
        kinds = {
            k: (seen_total[k] / live_total[k] if live_total[k] else None)
            for k in AVAILABILITY_KINDS
        }
        row: dict[str, Any] = {
            "session": ctx.session,
            "strategy": ctx.label,
            "availability": macro(kinds),
            **{f"availability.{k}": v for k, v in kinds.items()},
            "points": scored,
            "requests": len(ctx.requests),
            "sampled": scored < len(ctx.requests),
            "refusedPoints": refused,
            "live": {k: v for k, v in live_total.items() if v},
            "visible": {k: v for k, v in seen_total.items() if live_total[k]},
            # The same digest on two jobs means they were scored at the same requests.
            "pointsDigest": hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()[:16],
        }
        out.availability.append(row)
