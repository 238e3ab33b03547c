"""``fact_outcomes`` reads the retention scorer's own lists back fact by fact, so the viewer's
marks always agree with the scores; a matcher that reports contradictions (a ``contradicted``
list on the kind score) shows up as such."""

from __future__ import annotations

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.scoring import retention
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.retention import (
    CONTRADICTED,
    KEPT,
    MISSED,
    fact_outcomes,
    score_view,
    summarize,
)
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import capsule_view
from tests.builders import capsule_line, chain, header, session_of, user

GOAL = "Migrate the invoice exporter to the streaming CSV writer"
STEP = "Run the exporter benchmark against the March invoices"
OTHER = "Keep the legacy XML exporter working for two more releases"


def _setup(goal: str):
    lines = [header(), *chain([user(GOAL), user(STEP), user(OTHER)])]
    branch = list(session_of(lines).active_branch)
    truth = GroundTruth(
        session="s",
        session_id=None,
        origin={},
        facts=(
            Fact("g", "goal", GOAL, entry_ids=("e0",)),
            Fact("n", "next_step", STEP, entry_ids=("e1",)),
            Fact("c", "constraint", OTHER, entry_ids=("e2",)),
        ),
    )
    capsule = capsule_line("c1", "e2", first_kept="e2", goal=goal, nextSteps=[STEP])[
        "portableState"
    ]
    view = capsule_view({"portableState": capsule, "artifacts": {}}, DEFAULT_MATCH)
    return truth, Lifecycle(truth, Timeline.of(branch)), view


def test_outcomes_agree_with_the_scores():
    truth, lifecycle, view = _setup(GOAL)
    outcomes = {o.fact.id: o.outcome for o in fact_outcomes(truth.facts, lifecycle, view, 3, 3)}
    assert outcomes == {"g": KEPT, "n": KEPT, "c": MISSED}
    summary = summarize(score_view(truth.facts, lifecycle, view, 3, 3))
    assert summary["found"] == sum(o == KEPT for o in outcomes.values())
    assert summary["expected"] == len(outcomes)


def test_a_contradiction_the_scorer_reports_is_marked(monkeypatch):
    truth, lifecycle, view = _setup(GOAL)
    real = score_view

    def with_contradiction(*args, **kwargs):
        scores = real(*args, **kwargs)
        scores["next_step"].found -= 1
        scores["next_step"].contradicted = [STEP[:160]]  # as a verdict matcher records it
        return scores

    monkeypatch.setattr(retention, "score_view", with_contradiction)
    outcomes = {o.fact.id: o.outcome for o in fact_outcomes(truth.facts, lifecycle, view, 3, 3)}
    assert outcomes["n"] == CONTRADICTED and outcomes["g"] == KEPT
