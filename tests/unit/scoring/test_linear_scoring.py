"""Scoring reads no whole history (issue 18).

A model input the scorers build knows which of the session's entries it shows; a fact is found
there by its own entries or in the capsule, so the matcher reads capsules only, and a
comparison strategy's view at a moment is found from positions and token prefix sums.
Availability asks each capsule only about the facts live at a request it is sent at. Each is
held to what it replaced: the straightforward path where there is one (every fact asked, the
rules applied to copies of the history), and a record of every context the matcher is
handed."""

from __future__ import annotations

import dataclasses

import pytest

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.compactors.views import ViewContext, view_items
from soba_bench.corpora.truth import Fact
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring import retention
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.retention import label_of, present
from soba_bench.scoring.scorer import DEFAULT_SCORERS, ScoreConfig, ScoreContext
from soba_bench.scoring.scorers import availability
from soba_bench.scoring.session import score_replay
from soba_bench.scoring.verdict import ABSENT, CONTRADICTED, ENTAILED
from soba_bench.scoring.views import capsule_view, shown_view
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
def test_the_matcher_reads_capsules_only(strategy, variant, seed, monkeypatch):
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
    kinds = {kind for kind, _ in handed}
    assert {"goal", "decision", "file_read", "verification"} <= kinds  # every scorer asked
    assert not any(history for _, history in handed)  # ...of capsules only


DECISION = Fact(
    "d2", "decision", "key the shard lock by tenant id instead of by request id", entry_ids=("e2",)
)
READ = Fact(
    "f1", "file_read", "src/db/pool.ts", entry_ids=("e3",), attributes={"path": "src/db/pool.ts"}
)
CAPSULE = {
    "type": "context_capsule",
    "id": "cap1",
    "checkpointId": "cp1",
    "portableState": {
        "goal": "make the job queue safe under load",
        "decisions": [{"decision": "never key the shard lock by tenant id", "rationale": ""}],
    },
    "artifacts": {"readFiles": ["src/db/pool.ts"], "modifiedFiles": []},
    "provenance": {"firstKeptEntryId": "e1"},
}


def test_a_fact_is_in_an_input_by_its_own_entry_or_the_capsule():
    capsule = capsule_view(CAPSULE, RULES.match)
    for shown, base, decision, read in (
        # its own entry shown: found, whatever the texts say
        ({"e1", "e2", "e3"}, None, ENTAILED, ENTAILED),
        # another entry shown, its own cut: not found
        ({"e1"}, None, ABSENT, ABSENT),
        # cut, and the capsule states it (the read) or negates it (the decision)
        ({"e1"}, capsule, CONTRADICTED, ENTAILED),
        # shown, and the capsule negates it: the entry, after the capsule, is the newer word
        ({"e1", "e2"}, capsule, ENTAILED, ENTAILED),
    ):
        view = shown_view(frozenset(shown), base, None, (), RULES.match)
        for fact, expected in ((DECISION, decision), (READ, read)):
            assert label_of(fact, view) == expected, (fact.kind, shown, bool(base))
            assert present(fact, view) == (expected == ENTAILED)
    assert label_of(DECISION, capsule) == CONTRADICTED


# A check that passed (run 1, output "o1"), then failed (run 2, "o2"); its calls "c1" and "c2";
# a turn summary "s1" that reported it passing.
CHECK = Fact(
    "verification-1",
    "verification",
    "bun test",
    status="open",
    entry_ids=("c1", "s1", "c2"),
    attributes={
        "command": "bun test",
        "runs": [{"entryId": "o1", "result": "passed"}, {"entryId": "o2", "result": "failed"}],
        "reports": [{"entryId": "s1", "result": "passed"}],
        "finalResult": "failed",
    },
)


def test_a_check_is_in_an_input_by_an_entry_that_shows_its_result_then():
    """A check's state is its last result. An input shows it through an entry that states
    that result (a run's output, a summary reporting it), not through its call (the command
    without a result, all a strategy that masks outputs keeps) nor through an older run that
    ended otherwise."""
    for shown, result, expected in (
        ({"c1", "o1", "s1"}, "passed", ENTAILED),  # before the failing run: all say passed
        ({"c1", "o1", "s1"}, "failed", ABSENT),  # after it: they say what is no longer so
        ({"c1", "c2"}, "failed", ABSENT),  # the calls alone (outputs masked)
        ({"c2", "o2"}, "failed", ENTAILED),
        ({"s1"}, "passed", ENTAILED),  # the summary alone
        ({"o2"}, None, ABSENT),  # no run before the point: no result to show
    ):
        view = shown_view(frozenset(shown), None, None, (), RULES.match)
        assert label_of(CHECK, view, result=result) == expected, (shown, result)
    # a truth without runs: its entries show it, as before runs were read
    bare = dataclasses.replace(CHECK, attributes={"command": "bun test"})
    view = shown_view(frozenset({"c1"}), None, None, (), RULES.match)
    assert label_of(bare, view, result="failed") == ENTAILED


@pytest.mark.parametrize(("strategy", "variant", "seed"), JOBS)
def test_a_comparison_view_is_its_rule_applied_to_the_items(strategy, variant, seed):
    """Retention's comparison strategies at each moment, found from positions and token
    prefix sums, against their rules applied to copies of the history (the straightforward
    path): the same entries shown, the same tokens."""
    trace, truth = _replay(strategy, variant, seed)
    ctx = ScoreContext(strategy, trace.entries, truth, RULES, trace.check_lines())
    ids = {id(e.item): e.id for e in ctx.originals if e.item is not None}
    every = [e.id for e in ctx.originals if e.id]
    masked = 0
    for moment in ctx.moments:
        history = [e.item for e in ctx.originals[: moment.point] if e.item is not None]
        budget = ViewContext(moment.tokens, ctx.meter.count_item, RULES.keep_observations)
        for name in ("none", "truncation", "observation_masking"):
            items = view_items(name, history, budget)
            expected = {ids[id(i)] for i in items if id(i) in ids}  # a masked copy: not shown
            shown, cost = ctx.baseline(name, moment)
            assert {i for i in every if i in shown} == expected, (name, moment.generation)
            assert cost == sum(ctx.meter.count_item(i) for i in items), (name, moment.generation)
            masked += name == "observation_masking" and len(expected) < len(history)
    assert masked  # masking hid outputs at some moment: the masked path was exercised
