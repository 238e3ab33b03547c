"""The ``probes`` scorer: at every compaction moment, questions from the ground truth are put
to an answerer that sees only the post-compaction input, and graded. One row per probe (with
the answer, and the missed and wrong items) and one per moment and strategy (score per probe
type); ``tables.py`` averages them per session and across sessions."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from statistics import fmean
from typing import Any

from soba_bench.compactors.views import ViewContext, view_items
from soba_bench.corpora.truth import Fact
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.probes.answerers import ANSWERERS, Answer
from soba_bench.scoring.probes.config import ProbeConfig
from soba_bench.scoring.probes.judges import JUDGES, Grade, grade_exact
from soba_bench.scoring.probes.questions import (
    EXACT,
    PROBE_TYPES,
    Probe,
    generate_probes,
    sample_probes,
)
from soba_bench.scoring.probes.render import Rendered, render_input
from soba_bench.scoring.timeline import Lifecycle
from soba_bench.session.entries import Entry

PROBE_VIEW = "probes"
SOBA = "soba"
TYPE_METRICS = {t: "probe" + t.capitalize() for t in PROBE_TYPES}  # recall -> probeRecall
PROBE_METRICS = ("probeScore", *TYPE_METRICS.values())
ANSWER_CHARS = 600  # of an answer kept in the probe table


def _mean(values: Sequence[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return fmean(kept) if kept else None


class Prober:
    """An answerer and a judge for one probe config."""

    def __init__(self, config: ProbeConfig, match: MatchConfig) -> None:
        self.config = config
        self.match = match
        self.answerer = ANSWERERS.get(config.answerer)(config)
        self.judge = JUDGES.get(config.judge)(config, match)

    def grade(self, probe: Probe, answer: Answer) -> Grade:
        if answer.error is not None:
            return Grade(error=f"answer failed: {answer.error}")
        if probe.mode == EXACT:
            return grade_exact(probe, answer.text, self.match)
        return self.judge(probe, answer.text)

    def ask(self, probes: Sequence[Probe], rendered: Rendered) -> list[tuple[Probe, Answer, Grade]]:
        out = []
        for probe in probes:
            answer = self.answerer(probe, rendered)
            out.append((probe, answer, self.grade(probe, answer)))
        return out

    def describe(self) -> dict[str, Any]:
        return {
            **self.config.describe(),
            "answererInfo": self.answerer.describe(),
            "judgeInfo": self.judge.describe(),
        }


@functools.cache
def get_prober(config: ProbeConfig, match: MatchConfig) -> Prober:
    """One prober per (config, match) in a process, so model backends and counters are shared
    by every session a run scores."""
    return Prober(config, match)


def strategy_inputs(
    strategies: Sequence[str],
    model_input: list[dict[str, Any]],
    originals: Sequence[Entry],
    point: int,
    count_item: Any,
    keep_observations: int,
    replayed_name: str = SOBA,
) -> dict[str, list[dict[str, Any]]]:
    """The model input each scored strategy sends at ``point``: the replayed one's own
    (``soba``, listed under ``replayed_name`` when a rival strategy was replayed), or what a
    comparison strategy would send with the same token budget."""
    out: dict[str, list[dict[str, Any]]] = {}
    tokens = None
    for name in strategies:
        if name in (SOBA, replayed_name):
            out[replayed_name] = model_input
            continue
        if tokens is None:
            tokens = sum(count_item(i) for i in model_input)
        history = [e.item for e in originals[:point] if e.item is not None]
        out[name] = view_items(name, history, ViewContext(tokens, count_item, keep_observations))
    return out


def score_moment(
    prober: Prober,
    *,
    session: str,
    generation: int | str,
    point: int,
    final: bool,
    inputs: dict[str, list[dict[str, Any]]],
    facts: Sequence[Fact],
    lifecycle: Lifecycle,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(probe rows, moment rows) for one moment, every strategy asked the same probes."""
    config = prober.config
    probes = generate_probes(facts, lifecycle, point, final=final)
    probes = sample_probes(probes, config.max_probes, f"{config.seed}|{session}|{generation}")
    probe_rows: list[dict[str, Any]] = []
    moment_rows: list[dict[str, Any]] = []
    if not probes:
        return probe_rows, moment_rows
    for strategy, items in inputs.items():
        rendered = render_input(items, config.input_budget())
        base = {"session": session, "generation": generation, "point": point, "strategy": strategy}
        graded = prober.ask(probes, rendered)
        for probe, answer, grade in graded:
            probe_rows.append(
                {
                    **base,
                    **probe.to_dict(),
                    "answer": answer.text[:ANSWER_CHARS],
                    "answerer": prober.answerer.name,
                    "judge": prober.judge.name if probe.mode != EXACT else EXACT,
                    "answerSource": answer.source,
                    "answerKey": answer.key,
                    "score": grade.score,
                    "precision": grade.precision if probe.mode == EXACT else None,
                    "found": list(grade.found),
                    "missed": list(grade.missed),
                    "wrong": list(grade.wrong),
                    "error": grade.error,
                    **grade.details,
                }
            )
        moment_rows.append(_moment_row(base, graded, rendered))
    return probe_rows, moment_rows


def _moment_row(
    base: dict[str, Any], graded: list[tuple[Probe, Answer, Grade]], rendered: Rendered
) -> dict[str, Any]:
    row = {
        **base,
        "view": PROBE_VIEW,
        "probes": len(graded),
        "probeScore": _mean([g.score for _, _, g in graded]),
    }
    for kind, metric in TYPE_METRICS.items():
        row[metric] = _mean([g.score for p, _, g in graded if p.type == kind])
    row["missed"] = [f"{p.id}: {m}" for p, _, g in graded for m in g.missed]
    row["wrong"] = [f"{p.id}: {w}" for p, _, g in graded for w in g.wrong]
    row["errors"] = [f"{p.id}: {g.error}" for p, _, g in graded if g.error]
    row["inputTokens"] = rendered.full_tokens
    row["shownTokens"] = rendered.tokens
    row["truncated"] = rendered.truncated
    return row
