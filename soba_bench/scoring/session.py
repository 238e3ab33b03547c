"""Scoring one replayed session: every capsule (as a capsule and as the whole model input it
leads), the final state, the comparison strategies at the same moments, how facts survive from
one capsule generation to the next (drift), SOBA's own quality score per capsule, and the
failure-mode detectors. Nothing here replays or calls a model: stored capsules are re-scored
as they are."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.truth import GroundTruth
from soba_bench.meter import get_meter
from soba_bench.registry import Registry
from soba_bench.scoring.failure_modes import DEFAULT_CONFIG, DetectorConfig, Evidence, detect_all
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig
from soba_bench.scoring.portable import portable_capsule_from_checkpoint
from soba_bench.scoring.probes import (
    DEFAULT_PROBES,
    ProbeConfig,
    get_prober,
    score_moment,
    strategy_inputs,
)
from soba_bench.scoring.retention import RETENTION_KINDS, KindScore, present, score_view, summarize
from soba_bench.scoring.soba_quality import evaluate_quality, expectation_from_truth
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import View, capsule_view, input_view
from soba_bench.session import entries as E
from soba_bench.session.build_input import active_skill_refs, build_input
from soba_bench.session.entries import Entry
from soba_bench.strategies.inputs import ReplayedInputs
from soba_bench.summarizers.baselines import BASELINES, BaselineContext

SOBA = "soba"
FINAL = "final"

# The scorer registry: names that configs, records and report columns use. Retention and
# soba_quality need a ground truth; failure_modes runs on any replay.
SCORERS: Registry[str] = Registry("scorer")
for _name, _doc in (
    ("retention", "recall / precision / staleness / leaks against the ground truth"),
    ("soba_quality", "SOBA's lexical portable-capsule evaluator (pass at >= 0.9)"),
    ("failure_modes", "compaction loops, growth, blocked-forever, lost constraints, boundaries"),
    ("probes", "questions from the ground truth answered from the post-compaction input"),
):
    SCORERS.add(_name, _doc)


@dataclass(frozen=True)
class ScoreConfig:
    scorers: tuple[str, ...] = ("retention", "soba_quality", "failure_modes")
    match: MatchConfig = DEFAULT_MATCH
    baselines: tuple[str, ...] = ("none", "truncation", "observation_masking")
    keep_observations: int = 10
    meter: str = "soba"
    detectors: DetectorConfig = DEFAULT_CONFIG
    # The probes scorer's answerer, judge and budget (only read when "probes" is scored).
    probes: ProbeConfig = DEFAULT_PROBES

    def __post_init__(self) -> None:
        for name in self.scorers:
            SCORERS.get(name)
        for name in self.baselines:
            BASELINES.get(name)


@dataclass
class SessionScores:
    session: str
    rows: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy, view, kind)
    summaries: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy, view)
    drift: list[dict[str, Any]] = field(default_factory=list)  # survival by generation age
    quality: list[dict[str, Any]] = field(default_factory=list)  # SOBA's score per capsule
    findings: list[dict[str, Any]] = field(default_factory=list)  # failure modes
    checked: dict[str, bool] = field(default_factory=dict)  # detector -> could it run
    probes: list[dict[str, Any]] = field(default_factory=list)  # one row per probe asked
    probe_moments: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy)


def _emit(out: SessionScores, base: dict[str, Any], scores: dict[str, KindScore]) -> None:
    for kind_score in scores.values():
        if kind_score.expected or kind_score.wrong or kind_score.stale or kind_score.stale_checked:
            out.rows.append({**base, **kind_score.to_row()})
    out.summaries.append({**base, **summarize(scores)})


def score_replay(
    session_name: str,
    replayed: Sequence[Entry],
    truth: GroundTruth | None,
    config: ScoreConfig | None = None,
    barriers: Sequence[dict[str, Any]] = (),
) -> SessionScores:
    """Scores for one replay. ``replayed`` is the replayed branch (original entries with their
    ids plus the engine's capsules: ``trace.entries`` or a written replay session);
    ``barriers`` its barrier log (check/attempt lines) for the failure detectors.

    A rival strategy's replay (its log's config line names ``replayStrategy``) is scored at
    its own compaction moments, on its own model input, under its own name; the comparison
    view of the same name is left out (the replayed strategy stands in for it)."""
    config = config or ScoreConfig()
    rival = ReplayedInputs.of(barriers)
    label = SOBA if rival is None else rival.strategy
    meter = get_meter(config.meter)
    originals = [e for e in replayed if e.kind != E.CONTEXT_CAPSULE]
    timeline = Timeline.of(originals)
    lifecycle = Lifecycle(truth, timeline) if truth is not None else None
    points = timeline.replay_points(replayed)
    out = SessionScores(session_name)
    capsule_indexes = [i for i, e in enumerate(replayed) if e.kind == E.CONTEXT_CAPSULE]
    moments = [*enumerate(capsule_indexes, start=1), (FINAL, len(replayed) - 1)]
    rival_moments = rival.moments(replayed, FINAL) if rival is not None and replayed else []
    if rival is not None:
        moments = [(m.generation, m.index) for m in rival_moments]
    survival: dict[str, list[bool]] = defaultdict(list)
    soba_inputs: list[tuple[int, View]] = []
    model_inputs: list[tuple[str, list[dict[str, Any]]]] = []
    retention = truth is not None and "retention" in config.scorers
    quality = truth is not None and "soba_quality" in config.scorers
    probing = truth is not None and "probes" in config.scorers
    prober = get_prober(config.probes, config.match) if probing else None
    for number, (generation, index) in enumerate(moments if replayed else ()):
        entry = replayed[index]
        capsule = entry.data if entry.kind == E.CONTEXT_CAPSULE else None
        if capsule:
            point = points.get(entry.id, timeline.length)
        elif generation == FINAL:
            point = timeline.length
        else:  # a rival's compaction: the original entries up to and including this one
            point = timeline.at(entry.id, timeline.length - 1) + 1
        if rival is None:
            model_input = list(build_input(replayed[: index + 1]).items)
        else:
            model_input = rival.model_input(replayed, rival_moments[number])
        model_inputs.append((f"generation {generation}", model_input))
        if capsule is not None and quality:
            portable = portable_capsule_from_checkpoint(
                capsule, created_at=capsule.get("timestamp")
            )
            result = evaluate_quality(
                portable, expectation_from_truth(truth.facts, lifecycle, point)
            )
            out.quality.append(
                {
                    "session": session_name,
                    "strategy": label,  # "hybrid" writes SOBA capsules too
                    "generation": generation,
                    "checkpointId": capsule.get("checkpointId"),
                    "point": point,
                    **result.to_dict(),
                }
            )
        if prober is not None:
            inputs = strategy_inputs(
                config.probes.strategies,
                model_input,
                originals,
                point,
                meter.count_item,
                config.keep_observations,
                replayed_name=label,
            )
            asked, moments_scored = score_moment(
                prober,
                session=session_name,
                generation=generation,
                point=point,
                final=generation == FINAL,
                inputs=inputs,
                facts=truth.facts,
                lifecycle=lifecycle,
            )
            out.probes += asked
            out.probe_moments += moments_scored
        if not retention:
            continue
        tokens = sum(meter.count_item(i) for i in model_input)
        last_capsule = next(
            (e.data for e in reversed(replayed[: index + 1]) if e.kind == E.CONTEXT_CAPSULE), None
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
        skills = {s.get("name") for s in active_skill_refs(replayed[: index + 1])}
        soba_input = input_view(model_input, last_capsule, tokens, config.match, skills)
        soba_inputs.append((point, soba_input))
        _emit(
            out,
            {**base, "strategy": label, "view": "input"},
            score_view(truth.facts, lifecycle, soba_input, point),
        )
        history = [e.item for e in originals[:point] if e.item is not None]
        ctx = BaselineContext(tokens, meter.count_item, config.keep_observations)
        for name in config.baselines:
            if name == label:
                continue
            items = BASELINES.get(name)(history, ctx)
            cost = sum(meter.count_item(i) for i in items)
            view = input_view(items, None, cost, config.match, skills)
            _emit(
                out,
                {**base, "strategy": name, "view": "input"},
                score_view(truth.facts, lifecycle, view, point),
            )
    out.drift = _drift(survival)
    if "failure_modes" in config.scorers:
        evidence = Evidence(
            session=session_name,
            barriers=barriers,
            views=soba_inputs if truth is not None else None,
            facts=truth.facts if truth is not None else (),
            lifecycle=lifecycle,
            after=min((p for p, _ in soba_inputs), default=0),
            model_inputs=model_inputs,
        )
        for name, findings in detect_all(evidence, config.detectors).items():
            out.checked[name] = findings is not None
            out.findings.extend(f.to_dict() for f in findings or ())
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
