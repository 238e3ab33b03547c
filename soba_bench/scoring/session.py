"""Scoring one replayed session against its ground truth: every capsule (as a capsule and as
the whole model input it leads), the final state, the comparison strategies at the same
moments, and how facts survive from one capsule generation to the next (drift)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.truth import GroundTruth
from soba_bench.meter import get_meter
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig
from soba_bench.scoring.retention import RETENTION_KINDS, KindScore, present, score_view, summarize
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import capsule_view, input_view
from soba_bench.session import entries as E
from soba_bench.session.build_input import active_skill_refs, build_input
from soba_bench.session.entries import Entry
from soba_bench.summarizers.baselines import BASELINES, BaselineContext

SOBA = "soba"
FINAL = "final"


@dataclass(frozen=True)
class ScoreConfig:
    match: MatchConfig = DEFAULT_MATCH
    baselines: tuple[str, ...] = ("none", "truncation", "observation_masking")
    keep_observations: int = 10
    meter: str = "soba"


@dataclass
class SessionScores:
    session: str
    rows: list[dict[str, Any]] = field(
        default_factory=list
    )  # one per (point, strategy, view, kind)
    summaries: list[dict[str, Any]] = field(default_factory=list)  # one per (point, strategy, view)
    drift: list[dict[str, Any]] = field(default_factory=list)  # survival by generation age


def _emit(out: SessionScores, base: dict[str, Any], scores: dict[str, KindScore]) -> None:
    for kind_score in scores.values():
        if kind_score.expected or kind_score.wrong or kind_score.stale or kind_score.stale_checked:
            out.rows.append({**base, **kind_score.to_row()})
    out.summaries.append({**base, **summarize(scores)})


def score_replay(
    session_name: str,
    replayed: Sequence[Entry],
    truth: GroundTruth,
    config: ScoreConfig | None = None,
) -> SessionScores:
    """Scores for one replay. ``replayed`` is the replayed branch (original entries with their
    ids, plus the engine's capsules), e.g. ``trace.entries`` or a written replay session."""
    config = config or ScoreConfig()
    meter = get_meter(config.meter)
    originals = [e for e in replayed if e.kind != E.CONTEXT_CAPSULE]
    timeline = Timeline.of(originals)
    lifecycle = Lifecycle(truth, timeline)
    points = timeline.replay_points(replayed)
    out = SessionScores(session_name)
    capsule_indexes = [i for i, e in enumerate(replayed) if e.kind == E.CONTEXT_CAPSULE]
    moments = [(gen, i) for gen, i in enumerate(capsule_indexes, start=1)]
    moments.append((FINAL, len(replayed) - 1))
    survival: dict[str, list[bool]] = defaultdict(list)
    for generation, index in moments:
        entry = replayed[index] if replayed else None
        capsule = entry.data if entry is not None and entry.kind == E.CONTEXT_CAPSULE else None
        point = points.get(entry.id, timeline.length) if capsule else timeline.length
        model_input = build_input(replayed[: index + 1]).items
        tokens = sum(meter.count_item(i) for i in model_input)
        last_capsule = next(
            (e.data for e in reversed(replayed[: index + 1]) if e.kind == E.CONTEXT_CAPSULE),
            None,
        )
        base = {
            "session": session_name,
            "generation": generation,
            "point": point,
            "inputTokens": tokens,
        }
        if capsule is not None:
            kept = capsule["provenance"].get("firstKeptEntryId")
            cut = timeline.at(kept, point) if kept != "root" else point
            view = capsule_view(capsule, config.match)
            scores = score_view(truth.facts, lifecycle, view, point, expect_before=cut)
            _emit(
                out,
                {
                    **base,
                    "strategy": SOBA,
                    "view": "capsule",
                    "checkpointId": capsule.get("checkpointId"),
                },
                scores,
            )
            for fact in truth.facts:
                if (
                    fact.kind in RETENTION_KINDS
                    and lifecycle.live_at(fact, point)
                    and lifecycle.introduced_before(fact, cut)
                ):
                    survival[fact.id].append(present(fact, view))
        skills = {s.get("name") for s in active_skill_refs(replayed[: index + 1])}
        soba_input = input_view(model_input, last_capsule, tokens, config.match, skills)
        _emit(
            out,
            {**base, "strategy": SOBA, "view": "input"},
            score_view(truth.facts, lifecycle, soba_input, point),
        )
        history = [e.item for e in originals[:point] if e.item is not None]
        ctx = BaselineContext(tokens, meter.count_item, config.keep_observations)
        for name in config.baselines:
            items = BASELINES.get(name)(history, ctx)
            cost = sum(meter.count_item(i) for i in items)
            view = input_view(items, None, cost, config.match, skills)
            _emit(
                out,
                {**base, "strategy": name, "view": "input"},
                score_view(truth.facts, lifecycle, view, point),
            )
    out.drift = _drift(survival)
    return out


def _drift(survival: dict[str, list[bool]]) -> list[dict[str, Any]]:
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
