"""Facts made of clauses ("A, and B, and C": a goal refined during a session) and the default
matcher's second look when its check overturns a statement about another subject
(soba_bench.scoring.matchers: ``by_clause``, ``_another_subject``; nli ``_pairs``).

The statements marked "real" are from the paraphrase control's capsules on planted-corpus
seeds 1015 and 1018 (benchmarks/planted_power.py), where stop 41's default read them as the
fact contradicted; the others are written here."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("onnxruntime")

from soba_bench.corpora.synthetic import banks
from soba_bench.scoring.context import Context
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.nli import replaced_clause
from soba_bench.scoring.verdict import (
    ABSENT,
    CONTRADICTED,
    ENTAILED,
    Claim,
    and_clauses,
    clauses,
    judge,
    replaced_after_lead,
    substituted_after_lead,
)
from soba_bench.summarizers.defects import paraphrase_text

GOAL = (
    "Migrate the search indexer from callbacks to async/await, and keep backwards "
    "compatibility for v1 clients of the search indexer"
)


def verdict(fact: str, *texts: str, matcher: str = "verdict-embedding-nli", kind: str = "goal"):
    claim = Claim(kind, fact)
    return get_matcher(matcher).judge(claim, Context.from_texts(texts))


def section(name: str, *lines: str) -> str:
    """A SOBA capsule holding these lines under one section (the goal: one line)."""
    if name == "Goal":
        return f"SOBA Context Capsule\n\n## Goal\n{lines[0]}\n"
    body = "\n".join(f"- {line}" for line in lines)
    return f"SOBA Context Capsule\n\n## Goal\nShip it\n\n## {name}\n{body}\n"


def test_a_refined_goal_is_split_at_each_and_clause_and_nothing_else_is():
    parts = clauses(Claim("goal", GOAL, replaces="Migrate the search indexer"))
    assert [p.text for p in parts] == [
        "Migrate the search indexer from callbacks to async/await",
        "keep backwards compatibility for v1 clients of the search indexer",
    ]
    assert all(p.replaces is None and p.kind == "goal" for p in parts)
    # One clause, a short tail, a superseded fact, a state fact: judged whole.
    for claim in (
        Claim("goal", "Migrate the search indexer from callbacks to async/await"),
        Claim("constraint", "Use pnpm for scripts, and nothing else"),
        Claim("goal", GOAL, state="stale"),
        Claim("blocker", "TypeError: x is undefined, and y is null at src/a.ts:3"),
    ):
        assert clauses(claim) == [claim]


def test_one_reworded_word_in_a_refined_goal_is_not_a_contradiction():
    # Real: the paraphrase control's goal line (seed 1015). Read whole, the cross-encoder gave
    # "contradicted" 0.999; clause against clause it reads the "retain" clause as stated.
    restated = GOAL.replace("keep", "retain") + "."
    assert verdict(GOAL, section("Goal", restated)).label == ENTAILED
    longer = (
        GOAL.replace("keep", "retain")
        + ", and introduce a migration walkthrough for the auth middleware in "
        "docs/architecture.md."
    )
    assert verdict(GOAL, longer).label == ENTAILED


def test_a_fact_of_clauses_restated_clause_by_clause_is_found_when_the_whole_is_not():
    fact = (
        "Add retries with exponential backoff to the job queue, and measure the latency "
        "of the job queue before and after, and keep backwards compatibility for v1 clients "
        "of the job queue"
    )
    restated = paraphrase_text(fact)  # "Introduce ...", "retain ...": synonyms the rules know
    for matcher in ("verdict", "verdict-embedding", "verdict-embedding-nli"):
        assert verdict(fact, restated, matcher=matcher).label == ENTAILED, matcher
    # Clauses in another order, one of them reworded.
    reordered = (
        "measure the latency of the job queue before and after, and retain backwards "
        "compatibility for v1 clients of the job queue, and add retries with exponential "
        "backoff to the job queue"
    )
    assert verdict(fact, reordered).label == ENTAILED


def test_one_clause_negated_or_missing_or_about_another_subject():
    fact = (
        "Send every invoice by e-mail within one hour of the order, and archive a PDF copy "
        "in the finance bucket"
    )
    negated = (
        "Invoices go out by e-mail within one hour of the order, and no PDF copy is "
        "archived in the finance bucket"
    )
    assert verdict(fact, negated).label == CONTRADICTED
    part = "Send every invoice by e-mail within one hour of the order"
    assert verdict(fact, part).label == ABSENT
    other = fact.replace("invoice", "receipt")
    assert verdict(fact, other).label == ABSENT


# Written here in the shape of fresh11's and fresh12's kept negations: the fact restated with
# every clause but one word for word and, in place of that one, another act.
RELEASE = (
    "Track every returned laptop by its asset tag, and wipe its disk before it goes back "
    "on the shelf"
)
OTHER_ACT = (
    "Track every returned laptop by its asset tag, and hand it to the next starter with the "
    "old profile still on it"
)


def test_one_clause_replaced_by_another_act_is_a_contradiction():
    found = verdict(RELEASE, OTHER_ACT)
    assert (found.label, found.reason) == (CONTRADICTED, "clause 2 replaced")
    assert replaced_clause(OTHER_ACT, Claim("goal", RELEASE)) == 2
    # Under a lead-in, in a capsule's section, and through the scorers' label and presence.
    lead = "User: the one thing this work must deliver: " + OTHER_ACT
    assert verdict(RELEASE, lead).label == CONTRADICTED
    assert verdict(RELEASE, section("Goal", OTHER_ACT)).label == CONTRADICTED
    context = Context.from_texts([OTHER_ACT])
    assert get_matcher().label(Claim("goal", RELEASE), context) == CONTRADICTED
    assert not get_matcher().entails(Claim("goal", RELEASE), context)


def test_a_clause_reworded_kept_or_dropped_is_not_read_as_replaced():
    claim = Claim("goal", RELEASE)
    # One word for one in the clause: a rewording or another subject, left to the verdict.
    # The rules read "erase" for "wipe" as another subject; since stop 46 the default's model
    # reads the clause as stating the fact's (by_clause's reworded clause).
    reworded = RELEASE.replace("wipe", "erase")
    assert replaced_clause(reworded, claim) is None
    assert verdict(RELEASE, reworded, matcher="verdict").label == ABSENT
    assert verdict(RELEASE, reworded).label == ENTAILED
    assert verdict(RELEASE, RELEASE.replace("wipe its disk", "wipe the disk")).label == ENTAILED
    # Every clause word for word, a clause more, a clause fewer, two clauses changed.
    assert replaced_clause(RELEASE, claim) is None
    assert replaced_clause(OTHER_ACT + ", and log it in the register", claim) is None
    assert replaced_clause("Track every returned laptop by its asset tag", claim) is None
    both = "Scan every returned laptop, and hand it to the next starter as it is"
    assert replaced_clause(both, claim) is None
    # A fact of one clause is never read this way.
    single = Claim("goal", "Wipe the disk of every returned laptop")
    assert replaced_clause("Hand every returned laptop on with its disk as it is", single) is None


def test_one_clause_contradicted_in_a_statement_the_whole_fact_is_not_found_in():
    # The shape of fresh10's cases 164-165 (written here): read whole, the statement shares too
    # little with the fact to be about it; clause against clause, its first clause lifts the
    # fact's restriction ("only on the keeper's signal" -> "any boater may").
    fact = (
        "Release the lock gates only on the lock keeper's signal, and sound the horn two "
        "minutes before each release"
    )
    statement = (
        "Any boater may release the lock gates at the lock keeper's side, and moored boats find "
        "out when the water level drops"
    )
    for matcher in ("verdict", "verdict-embedding", "verdict-embedding-nli"):
        found = verdict(fact, statement, matcher=matcher)
        assert (found.label, found.reason) == (CONTRADICTED, "clause 1 of 2: restriction lifted")
    # Read whole, the rules find nothing said of the fact: the clause reading decides.
    assert judge(Claim("goal", fact), Context.from_texts([statement])).label == ABSENT


def test_a_word_salad_of_a_fact_of_clauses_is_not_read_clause_by_clause():
    fact = (
        "Freeze every incoming seed sample for a week, and log its weight in the seed "
        "register, and label the jar with the collector's name"
    )
    # The fact's own words reordered, its ", and " kept (calibration's shuffled cases are such
    # permutations; fresh11 case 7 kept one): read clause by clause, its last two clauses are
    # whole in it and the first one's words are all there.
    words = fact.split()
    salad = " ".join(words[5:] + words[:5])
    assert sorted(salad.split()) == sorted(words) and len(and_clauses(salad)) == 3
    for matcher in ("verdict", "verdict-embedding", "verdict-embedding-nli"):
        assert verdict(fact, salad, matcher=matcher).label == ABSENT, matcher


def test_label_and_presence_agree_with_the_verdict_for_facts_of_clauses():
    matcher = get_matcher()
    fact = (
        "Add retries with exponential backoff to the job queue, and keep backwards "
        "compatibility for v1 clients of the job queue"
    )
    for text in (
        paraphrase_text(fact),
        fact.replace("keep", "drop"),
        "Add retries with exponential backoff to the job queue",
        "Compress the nightly logs with zstd",
    ):
        context = Context.from_texts([text])
        claim = Claim("goal", fact)
        label = matcher.judge(claim, context).label
        assert matcher.label(claim, context) == label, text
        assert matcher.entails(claim, context) == (label == ENTAILED), text


# Real, seed 1018: the paraphrase control writes a revised decision as "Since <reason cut
# short>, changing approach: the chosen approach is to X". The rules read one about another
# lock as stating this one (the lead-in hides the one replaced word), and the check then read
# it as a contradiction (0.936): a decision the capsule kept was counted as negated.
DECISION = "key the counter lock by tenant id instead of by request id"
OTHER_LOCK = (
    "Since profiling s, changing approach: the chosen approach is to key the store lock by "
    "tenant id instead of by request id"
)


def test_a_statement_about_another_subject_behind_a_lead_in_is_set_aside():
    assert substituted_after_lead(DECISION, OTHER_LOCK)
    own = (
        "Since it ke, the chosen approach is to key the counter lock by tenant id instead of "
        "by request id"
    )
    matcher, claim = get_matcher(), Claim("decision", DECISION)
    context = Context.from_texts([section("Decisions", own, OTHER_LOCK)])
    found = matcher.judge(claim, context)
    assert (found.label, found.evidence) == (ENTAILED, own)
    assert matcher.label(claim, context) == ENTAILED and matcher.entails(claim, context)
    alone = Context.from_texts([section("Decisions", OTHER_LOCK)])
    assert matcher.judge(claim, alone).label == ABSENT  # not contradicted: nothing said of it
    assert matcher.label(claim, alone) == ABSENT and not matcher.entails(claim, alone)


# The tails split's case 3 (a dev item): the goal's sentence about another component, said
# behind the user's lead-in. The rules read recall through the lead-in (without it they read
# another subject); two words replaced by two, so the one-word rule did not look, and the
# check does not overturn it. The model reads it as saying neither, so it is set aside.
RACE = "Fix the race in the session store when two requests write the same key at once"
OTHER_RACE = (
    "User: the task for this session: fix the race in the cache layer when two requests "
    "write the same key at once"
)


def test_a_run_of_words_replaced_behind_a_lead_in_is_another_subject():
    assert replaced_after_lead(RACE, OTHER_RACE) and not substituted_after_lead(RACE, OTHER_RACE)
    assert not replaced_after_lead(RACE, "User: the task for this session: " + RACE.lower())
    assert not replaced_after_lead(RACE, "User: the task for this session: add a cache layer")
    matcher, claim = get_matcher(), Claim("goal", RACE)
    tail = ["Please also look at src/jobs/worker.ts while you are there.", OTHER_RACE]
    context = Context.from_texts(tail)
    assert matcher.judge(claim, context).label == ABSENT
    assert matcher.label(claim, context) == ABSENT and not matcher.entails(claim, context)
    # the hybrid alone, which the check runs on, reads it as stated
    assert get_matcher("verdict-embedding").judge(claim, context).label == ENTAILED
    # and the fact said behind the same lead-in is still found
    own = Context.from_texts([*tail, "User: the task for this session: " + RACE.lower()])
    assert matcher.judge(claim, own).label == ENTAILED


def test_a_word_of_order_replaced_behind_a_lead_in_is_still_the_fact_negated():
    # dev case 720: "before" for "only after" is the rule broken, not another subject.
    fact = "Send the welcome e-mail only after the address is verified"
    statement = (
        "User: one rule for this repository: send the welcome e-mail before the address is verified"
    )
    assert not substituted_after_lead(fact, statement)
    assert verdict(fact, statement, kind="constraint").label == CONTRADICTED


def test_the_paraphrase_controls_goals_are_found_and_another_components_are_not():
    """Every goal the generator can write, with up to three refinements, reworded by the
    paraphrase control and shown as a capsule's goal, is found. Until stop 46 the default
    missed the 7 that hold "walkthrough" (for "guide") or "gated by" (for "behind"): the
    rules' one-run substitution check reads those as another subject, as it must read "the job
    queue" for "the cache layer", and the gate flagged the control on 14 of 20 corpus seeds of
    twenty sessions. Now a clause restated with one run replaced is stated when the model
    reads it as stating the clause (``by_clause``'s reworded clause). The same goals with the
    last refinement about another component are not found (another subject)."""
    components = [area[1] for area in banks.AREAS]
    found = others = 0
    for n, goal in enumerate(banks.GOALS):
        base = goal.replace("{component}", components[n % len(components)]).replace(
            "{dir}", "src/x"
        )
        for k in range(4):
            templates = banks.GOAL_EXTENSIONS[k : k + k]
            extensions = [
                e.replace("{component}", components[(n + i) % len(components)])
                for i, e in enumerate(templates)
            ]
            fact = ", and ".join([base, *extensions])
            restated = paraphrase_text(fact)
            found += verdict(fact, section("Goal", restated)).label == ENTAILED
            if not templates:
                continue
            # the last refinement about the component after the one it names
            other = components[(n + len(templates)) % len(components)]
            wrong = ", and ".join(
                [base, *extensions[:-1], templates[-1].replace("{component}", other)]
            )
            assert wrong != fact
            others += 1
            assert verdict(fact, section("Goal", wrong)).label == ABSENT, wrong
    assert (found, others) == (28, 21)


def test_a_clause_never_carries_the_fact_it_replaced():
    claim = Claim("goal", GOAL, replaces="Migrate the search indexer from callbacks to async/await")
    assert all(part == replace(part, replaces=None) for part in clauses(claim))
