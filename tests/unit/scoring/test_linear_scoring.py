"""Scoring reads no whole history with the matcher (issue 18).

A model input the scorers build knows which of the session's entries it shows; a prose fact is
found there by its own entry or by the capsule's words, so the matcher reads capsules only.
Availability asks each capsule only about the facts live at a request it is sent at. Each is
held to what it replaced: the straightforward path where there is one (every fact asked), and
a record of every context the matcher is handed."""

from __future__ import annotations

import dataclasses

import pytest

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.corpora.truth import Fact
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring import retention
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.retention import PROSE_KINDS, label_of, present
from soba_bench.scoring.scorer import DEFAULT_SCORERS, ScoreConfig
from soba_bench.scoring.scorers import availability
from soba_bench.scoring.session import score_replay
from soba_bench.scoring.verdict import ABSENT, CONTRADICTED, ENTAILED
from soba_bench.scoring.views import capsule_view, input_view
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

# The rules alone: no model, so these tests are quick and the same on every CPU; the paths
# under test are the same for every verdict matcher.
RULES = ScoreConfig(
    match=dataclasses.replace(DEFAULT_MATCH, prose_matcher="verdict"), max_points=None
)
# Failure-heavy generated sessions (default generator settings), a small window so SOBA
# compacts often: SOBA as shipped, its blocker fix, and Codex (which pins user messages).
JOBS = [("soba", "soba-0.6.14", 1), ("soba", "soba-0.6.14+newest-blockers", 2), ("codex", None, 3)]


def _replay(strategy: str, variant: str | None, seed: int):
    session, truth = generated(1200, seed=seed)
    options = ReplayOptions(variant=variant) if variant else ReplayOptions()
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), options)
    trace = get_compactor(strategy)(session, ctx).trace
    return trace, truth


@pytest.mark.parametrize(("strategy", "variant", "seed"), JOBS)
def test_a_capsule_is_asked_only_about_facts_live_where_it_is_sent(
    strategy, variant, seed, monkeypatch
):
    trace, truth = _replay(strategy, variant, seed)
    lines = trace.check_lines()
    config = dataclasses.replace(RULES, scorers=("availability",))
    asked = {True: 0, False: 0}
    real = availability.label_of

    def counted(*args, **kwargs):
        asked[availability.Availability.every_fact] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(availability, "label_of", counted)
    scored = {}
    for every in (True, False):
        monkeypatch.setattr(availability.Availability, "every_fact", every)
        scored[every] = score_replay(strategy, trace.entries, truth, config, lines)
    assert scored[False].points and len(trace.capsules) >= 2  # capsules were sent
    assert scored[False].availability == scored[True].availability
    assert scored[False].points == scored[True].points
    assert 0 < asked[False] < asked[True]  # the choice asks fewer, and changes nothing


@pytest.mark.parametrize(("strategy", "variant", "seed"), JOBS)
def test_the_matcher_reads_no_history_for_a_prose_fact(strategy, variant, seed, monkeypatch):
    trace, truth = _replay(strategy, variant, seed)
    handed: list[tuple[str, bool]] = []
    real = retention.get_matcher

    class Recording:
        def __init__(self, inner) -> None:
            self.inner = inner

        def label(self, claim, context):
            handed.append((claim.kind, bool(context.history)))
            return self.inner.label(claim, context)

        def entails(self, claim, context):
            handed.append((claim.kind, bool(context.history)))
            return self.inner.entails(claim, context)

    monkeypatch.setattr(retention, "get_matcher", lambda name: Recording(real(name)))
    config = dataclasses.replace(RULES, scorers=DEFAULT_SCORERS)
    score_replay(strategy, trace.entries, truth, config, trace.check_lines())
    prose = [history for kind, history in handed if kind in PROSE_KINDS]
    assert prose and not any(prose)  # prose facts were judged, in capsules only
    # paths and commands are still searched in the whole input (a later message naming a file
    # tells the model about it): the recording sees history, so it would see it for prose
    assert any(history for kind, history in handed if kind not in PROSE_KINDS)


def _message(eid: str, text: str) -> dict:
    return {
        "type": "message",
        "role": "assistant",
        "id": eid,
        "content": [{"type": "output_text", "text": text}],
    }


DECISION = Fact(
    "d2", "decision", "key the shard lock by tenant id instead of by request id", entry_ids=("e2",)
)
# another lock's decision, in mostly the same words: the rules' recall reads it as stating
# the shard lock's when it is read as a whole history
OTHER = _message("e1", "I decided to key the writer lock by tenant id instead of by request id.")
CAPSULE = {
    "type": "context_capsule",
    "id": "cap1",
    "checkpointId": "cp1",
    "portableState": {
        "goal": "make the job queue safe under load",
        "decisions": [{"decision": "never key the shard lock by tenant id", "rationale": ""}],
    },
    "artifacts": {"readFiles": [], "modifiedFiles": []},
    "provenance": {"firstKeptEntryId": "e1"},
}


def test_a_prose_fact_is_in_an_input_by_its_own_entry_or_the_capsule():
    for shown, capsule, expected in (
        # its own entry shown: found, whatever the texts say
        (frozenset({"e1", "e2"}), None, ENTAILED),
        # another subject's statement shown, its own entry cut: not found
        (frozenset({"e1"}), None, ABSENT),
        # cut, and the capsule negates it: the capsule's verdict
        (frozenset({"e1"}), CAPSULE, CONTRADICTED),
        # shown, and the capsule negates it: the entry, after the capsule, is the newer word
        (frozenset({"e1", "e2"}), CAPSULE, ENTAILED),
    ):
        base = capsule_view(CAPSULE, RULES.match) if capsule else None
        view = input_view([OTHER], capsule, None, RULES.match, shown=shown, base=base)
        assert label_of(DECISION, view) == expected, (shown, bool(capsule))
        assert present(DECISION, view) == (expected == ENTAILED)
    assert label_of(DECISION, capsule_view(CAPSULE, RULES.match)) == CONTRADICTED
