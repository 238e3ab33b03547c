"""The verdict rules (soba_bench.scoring.verdict, the default matcher's first stage), pinned:
their accuracy on the labelled calibration set, the hard cases the bag-of-words matcher got
wrong, and how retention counts a contradiction."""

from __future__ import annotations

from pathlib import Path

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.errors import InputError, UnknownNameError
from soba_bench.scoring import calibration
from soba_bench.scoring.context import Context
from soba_bench.scoring.match import PROSE_MATCHERS, MatchConfig
from soba_bench.scoring.matchers import DEFAULT_MATCHER, MATCHERS, get_matcher
from soba_bench.scoring.retention import score_view, summarize
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.verdict import Claim, judge
from soba_bench.scoring.views import capsule_view, input_view
from soba_bench.session.capsule_text import capsule_text
from tests.builders import assistant
from tests.data.calibration import BLIND_SPLITS
from tests.unit.scoring.test_retention import capsule, entries

DATA = Path(__file__).resolve().parents[2] / "data" / "calibration"


def text(**state) -> str:
    return capsule_text(capsule(**state))


def decided(decision: str) -> str:
    """A capsule whose Decisions section holds this one decision."""
    return text(decisions=[{"decision": decision, "rationale": None}])


def verdict(kind: str, fact: str, *texts: str, **claim) -> str:
    return judge(Claim(kind, fact, **claim), Context.from_texts(texts)).label


@pytest.fixture(scope="module")
def dev() -> list[calibration.Outcome]:
    return calibration.run(get_matcher("verdict"), calibration.load_cases(DATA / "dev.jsonl"))


@pytest.fixture(scope="module")
def heldout() -> list[calibration.Outcome]:
    return calibration.run(get_matcher("verdict"), calibration.load_cases(DATA / "heldout.jsonl"))


def test_the_calibration_set_has_every_category_and_enough_cases():
    dev = calibration.load_cases(DATA / "dev.jsonl")
    held = calibration.load_cases(DATA / "heldout.jsonl")
    fresh = calibration.load_cases(DATA / "fresh.jsonl")
    fresh2 = calibration.load_cases(DATA / "fresh2.jsonl")
    assert len(dev) >= 300 and len(held) >= 100 and len(fresh) >= 60 and len(fresh2) >= 120
    for cases in (dev, held, fresh, fresh2):
        assert {c.category for c in cases} == set(calibration.CATEGORIES)
        assert {c.label for c in cases} == {"entailed", "contradicted", "absent"}
    # No fact/context pair is in two splits.
    key = lambda c: (c.claim, c.context)  # noqa: E731
    assert not {key(c) for c in dev} & {key(c) for c in held}
    assert not {key(c) for c in fresh} & ({key(c) for c in dev} | {key(c) for c in held})
    earlier = {key(c) for c in (*dev, *held, *fresh)}
    assert not {key(c) for c in fresh2} & earlier
    # fresh2 has at least 12 cases in each hard category.
    per = {cat: sum(c.category == cat for c in fresh2) for cat in calibration.HARD}
    assert min(per.values()) >= 12, per
    # fresh3 (round 3): at least 160 cases, every category, at least 20 negations and 20
    # paraphrases, no pair from an earlier split.
    fresh3 = calibration.load_cases(DATA / "fresh3.jsonl")
    assert len(fresh3) >= 160
    assert {c.category for c in fresh3} == set(calibration.CATEGORIES)
    assert not {key(c) for c in fresh3} & (earlier | {key(c) for c in fresh2})
    per = {cat: sum(c.category == cat for c in fresh3) for cat in calibration.HARD}
    assert per["negation"] >= 20 and per["paraphrase"] >= 20 and min(per.values()) >= 12, per
    # fresh4 to fresh15, the blind splits, each written by a helper session that never read the
    # matcher (fresh4 for round 4, fresh5 for round 5, fresh6 for the retrained verdict-nli,
    # fresh7 to fresh9 for the matchers of 2026-12-06, fresh10 for the matcher changes of stop
    # 42, fresh11 for the clause matching of stop 42, fresh12 for the clause checks of stop 42,
    # fresh13 for the clause checks of stop 43, fresh14 for the cross-encoder of stop 43, fresh15
    # for the clause veto of stop 43): at least 400 cases, every category, at least 24 negations
    # and 24 paraphrases, 12 of each hard category, no pair from any earlier split.
    seen = earlier | {key(c) for c in (*fresh2, *fresh3)}
    for split in BLIND_SPLITS:
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        assert len(cases) >= 400, split
        assert {c.category for c in cases} == set(calibration.CATEGORIES), split
        assert not {key(c) for c in cases} & seen, split
        per = {cat: sum(c.category == cat for c in cases) for cat in calibration.HARD}
        assert per["negation"] >= 24 and per["paraphrase"] >= 24, (split, per)
        assert min(per.values()) >= 12, (split, per)
        seen |= {key(c) for c in cases}


def test_the_rules_reach_90_percent_overall_and_on_every_hard_category_of_dev(dev):
    rows = {r.category: r for r in calibration.table(dev)}
    assert rows["overall"].accuracy >= 0.90
    for category in calibration.HARD:
        assert rows[category].accuracy >= 0.90, (category, rows[category])
    # Pinned figures (benchmarks/matcher_calibration.py prints them): a rule change that moves
    # them must update this line and the README's table.
    assert sum(o.correct for o in dev) == 741


def test_the_held_out_split_is_reported_as_measured(heldout):
    # Written after the rules were frozen: overall above 90 %, paraphrases far below (the
    # known weakness of word rules, stated in tests/data/calibration/README.md).
    rows = {r.category: r for r in calibration.table(heldout)}
    assert rows["overall"].accuracy >= 0.90
    assert sum(o.correct for o in heldout) == 200
    assert rows["paraphrase"].accuracy == 0.625


# The rules alone on each later split: (split, cases right, accuracy of named categories).
# fresh: the third bank, written before the hybrid matcher (test_hybrid.py) was built.
# fresh2: the fourth, committed before the round-2 rule fixes were measured on it.
# fresh3: the fifth, committed before the round-3 fixes were measured on it (which left it at
#   219); its errors drove round 4, so it is no longer blind.
# fresh4: the sixth, blind for round 4 (written by a session that never read the matcher),
#   read for round 5. fresh5: the seventh, blind (committed before any matcher ran on it).
# fresh6: the eighth, blind likewise; written after round 5, no rule changed since.
# fresh7, fresh8 and fresh9: the ninth to eleventh, blind likewise (2026-12-06).
# fresh10 to fresh12: the twelfth to fourteenth (stop 42), facts of clauses among them;
#   fresh10 was read to build the clause rules (411 before them), fresh11 and fresh12 measured
#   once. fresh13 to fresh15: the fifteenth to seventeenth (stop 43), written likewise,
#   measured once.
# The rules alone read most freely written negations and rewordings wrong on the last three
# (tests/data/calibration/README.md).
LATER_SPLITS = (
    ("fresh", 170, {"paraphrase": 9 / 16, "shuffled": 1.0}),
    ("fresh2", 264, {"paraphrase": 23 / 24, "negation": 1.0}),
    ("fresh3", 248, {"paraphrase": 14 / 28, "negation": 23 / 28}),
    ("fresh4", 386, {"paraphrase": 41 / 62, "negation": 28 / 62}),
    ("fresh5", 371, {"paraphrase": 23 / 68, "negation": 21 / 68}),
    ("fresh6", 396, {"paraphrase": 21 / 70, "negation": 32 / 70}),
    ("fresh7", 423, {"paraphrase": 49 / 70, "negation": 28 / 70}),
    ("fresh8", 426, {"paraphrase": 57 / 70, "negation": 23 / 70}),
    ("fresh9", 419, {"paraphrase": 50 / 70, "negation": 20 / 70}),
    ("fresh10", 413, {"paraphrase": 50 / 70, "negation": 20 / 70}),
    ("fresh11", 410, {"paraphrase": 52 / 70, "negation": 10 / 70}),
    ("fresh12", 411, {"paraphrase": 50 / 70, "negation": 14 / 70}),
    ("fresh13", 421, {"paraphrase": 63 / 70, "negation": 10 / 70}),
    ("fresh14", 420, {"paraphrase": 59 / 70, "negation": 12 / 70}),
    ("fresh15", 410, {"paraphrase": 50 / 70, "negation": 8 / 70}),
)


@pytest.mark.parametrize(("split", "right", "accuracy"), LATER_SPLITS)
def test_each_later_split_is_reported_as_measured(split, right, accuracy):
    cases = calibration.load_cases(DATA / f"{split}.jsonl")
    outcomes = calibration.run(get_matcher("verdict"), cases)
    rows = {r.category: r for r in calibration.table(outcomes)}
    assert sum(o.correct for o in outcomes) == right
    assert {c: rows[c].accuracy for c in accuracy} == accuracy


def test_the_old_matchers_fail_the_hard_categories_the_default_passes(dev):
    fuzzy = {
        r.category: r
        for r in calibration.table(calibration.run(get_matcher("fuzzy"), [o.case for o in dev]))
    }
    for category in ("negation", "swapped_lists", "shuffled"):
        assert fuzzy[category].accuracy == 0.0


def test_a_negated_decision_is_contradicted_not_kept():
    fact = "store session rows in SQLite behind a SessionRepository class"
    negated = text(
        decisions=[
            {
                "decision": "do not store session rows in SQLite behind a SessionRepository class",
                "rationale": None,
            }
        ]
    )
    assert verdict("decision", fact, negated) == "contradicted"
    assert verdict("decision", fact, text(decisions=[{"decision": fact}])) == "entailed"


def test_fixed_open_blocker_is_contradicted_and_a_resolved_one_shown_open_too():
    blocker = "Error: oldText not found in src/config/env.ts (edit 41)"
    fixed = text(completed=[f"Fixed: {blocker}"])
    assert verdict("blocker", blocker, fixed, state="current") == "contradicted"
    assert verdict("blocker", blocker, fixed, state="stale") == "entailed"
    assert verdict("blocker", blocker, text(blockers=[blocker]), state="stale") == "contradicted"
    near = text(blockers=["Error: oldText not found in src/config/env.ts (edit 42)"])
    assert verdict("blocker", blocker, near) == "absent"


def test_a_failing_check_reported_as_passing_is_contradicted():
    capsule_says_passed = text(commands=["npm test"], status="passed")
    assert verdict("verification", "npm test", capsule_says_passed, result="failed") == (
        "contradicted"
    )
    assert verdict("verification", "npm test", capsule_says_passed, result="passed") == "entailed"
    tail = ["$ npm test", "FAIL  1 test failed\nexit status 1"]
    assert verdict("verification", "npm test", *tail, result="failed") == "entailed"
    assert verdict("verification", "npm test", "$ npm test -- --watch", result="failed") == (
        "absent"
    )


def test_goal_with_another_subject_is_absent():
    fact = "Add retries with exponential backoff to the billing webhooks"
    other = text(goal="Add retries with exponential backoff to the search indexer")
    assert verdict("goal", fact, other) == "absent"


def test_read_and_modified_lists_swapped_are_contradicted():
    swapped = text(read=["src/auth/claims.ts"], modified=["src/index.ts"])
    assert verdict("file_modified", "src/auth/claims.ts", swapped) == "contradicted"
    assert verdict("file_read", "src/auth/claims.ts", swapped) == "entailed"
    assert verdict("file_read", "src/index.ts", swapped) == "contradicted"
    assert verdict("file_modified", "src/auth/claim.ts", swapped) == "absent"  # a near miss


def test_shuffled_words_are_absent_and_swapped_roles_contradicted():
    fact = "key the tenant lock by tenant id instead of by request id"
    salad = text(nextSteps=["of tenant id the by request lock by instead id tenant key"])
    swap = text(nextSteps=["key the tenant lock by request id instead of by tenant id"])
    assert verdict("decision", fact, salad) == "absent"
    assert verdict("decision", fact, swap) == "contradicted"


def test_paraphrases_of_decisions_constraints_and_next_steps_are_entailed():
    pairs = (
        (
            "decision",
            "use a monotonic clock for lease timeouts",
            "lease timeouts are measured with a monotonic clock",
        ),
        (
            "constraint",
            "Never touch anything under src/legacy/",
            "Do not edit or create files under src/legacy/",
        ),
        (
            "next_step",
            "document the job queue changes in docs/architecture.md",
            "describe the job queue changes in docs/architecture.md",
        ),
    )
    for kind, fact, para in pairs:
        assert verdict(kind, fact, text(nextSteps=[para])) == "entailed", para


def test_the_matcher_registry_lists_valid_names():
    assert DEFAULT_MATCHER == "verdict-embedding-nli" == MatchConfig().prose_matcher
    assert set(MATCHERS.names()) == set(PROSE_MATCHERS)
    with pytest.raises(
        UnknownNameError, match="valid names: embedding, fuzzy, verdict, verdict-embedding"
    ):
        get_matcher("nli")


def test_a_bad_calibration_line_names_file_line_field_and_value(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"schemaVersion": 1, "id": "x", "category": "verbatim", "fact": '
        '{"kind": "goal", "text": "t"}, "context": ["t"], "label": "kept"}\n'
    )
    with pytest.raises(InputError, match=r"bad.jsonl:1: .*label.*kept.*expected entailed"):
        calibration.load_cases(bad)


# --- retention -------------------------------------------------------------------------------

TRUTH = GroundTruth(
    session="s",
    session_id="s",
    origin={},
    facts=(
        Fact(
            "d1",
            "decision",
            "store session rows in SQLite behind a SessionRepository class",
            introduced_at="e1",
        ),
        Fact(
            "b1", "blocker", "npm ERR! missing script: typecheck", status="open", introduced_at="e2"
        ),
        Fact(
            "f1",
            "file_modified",
            "src/auth/claims.ts",
            introduced_at="e3",
            attributes={"path": "src/auth/claims.ts"},
        ),
        Fact(
            "v1",
            "verification",
            "npm test",
            introduced_at="e4",
            attributes={
                "command": "npm test",
                "finalResult": "failed",
                "runs": [{"entryId": "e4", "result": "failed"}],
            },
        ),
    ),
)


def scores(view):
    lifecycle = Lifecycle(TRUTH, Timeline.of(entries(10)))
    return score_view(TRUTH.facts, lifecycle, view, point=9, expect_before=9)


def test_retention_counts_contradictions_against_the_capsule_not_as_kept():
    wrong = capsule(
        decisions=[
            {
                "decision": "session rows will not be stored in SQLite behind a "
                "SessionRepository class",
                "rationale": None,
            }
        ],
        completed=["Fixed: npm ERR! missing script: typecheck"],
        read=["src/auth/claims.ts"],
        commands=["npm test"],
        status="passed",
    )
    result = scores(capsule_view(wrong))
    for kind in ("decision", "blocker", "file_modified", "verification"):
        assert result[kind].found == 0, kind
        assert len(result[kind].contradicted) == 1, kind
        assert result[kind].contradiction == 1.0
        assert result[kind].missed == []
    summary = summarize(result)
    assert summary["contradictedItems"] == 4 and summary["found"] == 0
    # The earlier matcher counted all four as kept.
    fuzzy = scores(capsule_view(wrong, MatchConfig(prose_matcher="fuzzy")))
    assert (
        sum(fuzzy[k].found for k in ("decision", "blocker", "file_modified", "verification")) == 4
    )
    assert summarize(fuzzy)["contradictedItems"] == 0


def test_retention_finds_facts_stated_right_in_a_capsule_and_in_a_tail():
    right = capsule(
        decisions=[{"decision": "store session rows in SQLite behind a SessionRepository class"}],
        blockers=["npm ERR! missing script: typecheck"],
        modified=["src/auth/claims.ts"],
        commands=["npm test"],
        status="failed",
    )
    result = scores(capsule_view(right))
    assert summarize(result)["found"] == 4 and summarize(result)["contradictedItems"] == 0
    tail = input_view([assistant("Edit applied successfully to ./src/auth/claims.ts")])
    assert scores(tail)["file_modified"].found == 1


def test_verdict_embedding_recovers_a_paraphrase_the_rules_miss_and_keeps_their_verdicts():
    fact = "Make the search indexer configurable per tenant"
    para = text(goal="Let each tenant configure the search indexer separately")
    assert verdict("goal", fact, para) == "absent"  # too few shared words for the rules
    matcher = get_matcher("verdict-embedding")
    assert matcher.judge(Claim("goal", fact), Context.from_texts([para])).label == "entailed"
    negated = text(goal="The search indexer will not be made configurable per tenant")
    assert matcher.judge(Claim("goal", fact), Context.from_texts([negated])).label == (
        "contradicted"
    )
    salad = text(goal="tenant the per configurable indexer Make search")
    assert matcher.judge(Claim("goal", fact), Context.from_texts([salad])).label == "absent"


def test_a_stale_cue_in_another_clause_does_not_report_the_fact_as_over():
    fact = "Milestone 1: all billing webhooks tests green after the refactor"
    error = "error TS2322: Type 'string' is not assignable to type 'number'"
    line = f"milestone: {fact}; completed: Fixed: {error}"
    assert verdict("checkpoint", fact, "Checkpoint line follows.", line) == "entailed"
    assert verdict("blocker", error, line) == "contradicted"  # open, but shown as fixed
    # A negation spread over the clauses that speak of the fact still counts.
    fact = "benchmark the HTTP router with 200 concurrent requests"
    negated = "skip benchmarking the HTTP router; 200 concurrent requests will not be tested"
    assert verdict("next_step", fact, negated) == "contradicted"


def test_a_file_read_and_modified_listed_under_modified_is_kept():
    facts = (
        Fact("r", "file_read", "src/a.ts", introduced_at="e1", attributes={"path": "src/a.ts"}),
        Fact("m", "file_modified", "src/a.ts", introduced_at="e2", attributes={"path": "src/a.ts"}),
        Fact("o", "file_read", "src/b.ts", introduced_at="e3", attributes={"path": "src/b.ts"}),
    )
    truth = GroundTruth(session="s", session_id="s", origin={}, facts=facts)
    lifecycle = Lifecycle(truth, Timeline.of(entries(10)))
    view = capsule_view(capsule(modified=["src/a.ts", "src/b.ts"]))
    result = score_view(facts, lifecycle, view, point=9, expect_before=9)
    assert result["file_read"].found == 1  # src/a.ts: it was modified too
    assert result["file_read"].contradicted == ["src/b.ts"]  # only read, listed as modified


def test_a_failed_status_over_several_commands_does_not_contradict_a_passing_one():
    several = text(commands=["npm test", "npm run build"], status="failed")
    assert verdict("verification", "npm run build", several, result="passed") == "absent"
    assert verdict("verification", "npm test", several, result="failed") == "entailed"
    alone = text(commands=["npm run build"], status="failed")
    assert verdict("verification", "npm run build", alone, result="passed") == "contradicted"


def test_a_capsule_whose_prose_reports_a_file_wrongly_contradicts_it_despite_its_lists():
    # SOBA's artifact lists come from the engine, the prose from the model: a model that
    # reports a modified file as read misinforms the agent even though the list is right.
    lists = {"read": ["src/db/pool.ts"], "modified": ["src/auth/claims.ts"]}
    swapped = text(
        completed=["Read file: src/auth/claims.ts", "Modified file: src/db/pool.ts"], **lists
    )
    assert verdict("file_modified", "src/auth/claims.ts", swapped) == "contradicted"
    assert verdict("file_read", "src/db/pool.ts", swapped) == "contradicted"
    right = text(
        completed=["Edited the file src/auth/claims.ts", "Looked through the file src/db/pool.ts"],
        **lists,
    )
    assert verdict("file_modified", "src/auth/claims.ts", right) == "entailed"
    assert verdict("file_read", "src/db/pool.ts", right) == "entailed"
    # A plan that names a file says nothing about what was done to it.
    plan = text(nextSteps=["Read file: src/auth/claims.ts again"], **lists)
    assert verdict("file_modified", "src/auth/claims.ts", plan) == "entailed"


def test_a_file_is_judged_under_each_spelling_its_claim_lists():
    # A Claude Code tool reads "/home/me/repo/src/a.ts"; a summary names it from the
    # repository's root. The truth lists the other spelling (an alias) and any of them
    # names the file: listed, mentioned, listed as the other kind, or reported by the prose.
    fact, alias = "/home/me/repo/src/a.ts", ("src/a.ts",)
    listed = text(read=["src/db/pool.ts"], modified=["src/a.ts"])
    assert verdict("file_modified", fact, listed, path=fact) == "absent"  # no alias: not it
    assert verdict("file_modified", fact, listed, path=fact, aliases=alias) == "entailed"
    assert verdict("file_read", fact, listed, path=fact, aliases=alias) == "contradicted"
    prose = text(completed=["Read file: src/a.ts"], modified=["/home/me/repo/src/a.ts"])
    assert verdict("file_modified", fact, prose, path=fact) == "entailed"
    assert verdict("file_modified", fact, prose, path=fact, aliases=alias) == "contradicted"
    said = "I looked at src/a.ts before the retry change"
    assert verdict("file_read", fact, said, path=fact) == "absent"
    assert verdict("file_read", fact, said, path=fact, aliases=alias) == "entailed"
    # the reverse: a relative path in the truth, the capsule's list absolute
    absolute = text(modified=["/home/me/repo/src/a.ts"])
    assert verdict("file_modified", "src/a.ts", absolute, path="src/a.ts") == "absent"
    assert (
        verdict("file_modified", "src/a.ts", absolute, path="src/a.ts", aliases=(fact,))
        == "entailed"
    )
    # the earlier matchers read the aliases too
    claim = Claim("file_modified", fact, path=fact, aliases=alias)
    for name in ("fuzzy", "verdict", DEFAULT_MATCHER):
        assert get_matcher(name).entails(claim, Context.from_texts([listed])), name


def test_a_check_is_judged_under_each_spelling_its_claim_lists():
    # Claude Code ran "mix test --seed 0 2>&1 | head -100"; a summary reports "mix test
    # --seed 0". The truth's alias drops only the output's plumbing.
    run, alias = "mix test --seed 0 2>&1 | head -100", ("mix test --seed 0",)
    said = text(completed=["Ran `mix test --seed 0`: it passes"])
    claim = {"command": run, "result": "passed"}
    assert verdict("verification", run, said, **claim) == "absent"
    assert verdict("verification", run, said, **claim, aliases=alias) == "entailed"
    failed = text(completed=["`mix test --seed 0` fails with 2 errors"])
    assert verdict("verification", run, failed, **claim, aliases=alias) == "contradicted"
    listed = text(commands=["mix test --seed 0"], status="passed")
    assert verdict("verification", run, listed, **claim, aliases=alias) == "entailed"
    # in a history, the newest run's result counts, whichever spelling it was run under
    history = ["mix test --seed 0 2>&1 | head -100", "3 failures", "mix test --seed 0", "ok"]
    assert (
        judge(Claim("verification", run, aliases=alias, **claim), Context.from_texts(history)).label
        == "entailed"
    )
    assert get_matcher("fuzzy").entails(
        Claim("verification", run, aliases=alias, **claim), Context.from_texts([listed])
    )


def test_a_check_whose_command_holds_a_semicolon_is_judged():
    # Looking for the one clause naming "cd /x; npm test" found none (the command holds the
    # ";" the clauses are cut at) and raised StopIteration out of the scoring.
    run = "cd /x; npm test"
    assert verdict("verification", run, "ran cd /x; npm test and it passed", command=run,
                   result="passed") == "entailed"  # fmt: skip
    assert verdict("verification", run, "ran cd /x; npm test", "FAIL 3 tests failed",
                   command=run, result="passed") == "contradicted"  # fmt: skip


def test_a_capsule_whose_prose_reports_a_check_wrongly_contradicts_it_despite_its_status():
    flipped = text(
        completed=["Verification run: npm test passed"], commands=["npm test"], status="failed"
    )
    assert verdict("verification", "npm test", flipped, result="failed") == "contradicted"
    said = text(completed=["The check npm test did not pass"], commands=["npm test"])
    assert verdict("verification", "npm test", said, result="failed") == "entailed"
    assert verdict("verification", "npm test", said, result="passed") == "contradicted"


def test_a_cap_said_with_a_negated_comparative_is_the_cap_and_its_opposite_contradicts_it():
    fact = "Keep each HTTP handler under 80 lines"
    cap = lambda s: text(constraints=[s])  # noqa: E731
    assert verdict("constraint", fact, cap("No HTTP handler may be longer than 80 lines")) == (
        "entailed"
    )
    assert verdict("constraint", fact, cap("An HTTP handler must not exceed 80 lines")) == (
        "entailed"
    )
    assert verdict("constraint", fact, cap("HTTP handlers may be longer than 80 lines")) == (
        "contradicted"
    )


def test_and_nothing_else_restricts_rather_than_negates():
    fact = "Read secrets only from the vault client"
    said = text(constraints=["Read secrets from the vault client and nothing else"])
    assert verdict("constraint", fact, said) == "entailed"


def test_a_role_swap_exchanges_two_phrases_and_word_salad_does_not():
    # Two long phrases exchanged keep few words in order; the frame ("store build artifacts")
    # stays in place.
    fact = "store build artifacts in the shared object store instead of on each runner's disk"
    swap = "store build artifacts on each runner's disk instead of in the shared object store"
    salad = "disk store of the object each in build on runner's instead artifacts store shared"
    decide = lambda s: text(decisions=[{"decision": s}])  # noqa: E731
    assert verdict("decision", fact, decide(swap)) == "contradicted"
    assert verdict("decision", fact, decide(salad)) == "absent"


def test_is_resolved_by_names_a_mechanism_not_a_fix():
    fact = "look up tenant hosts through the internal DNS resolver"
    said = text(
        decisions=[{"decision": "tenant hosts are resolved by the internal DNS resolver"}],
        completed=["the build is green again"],
    )
    assert verdict("decision", fact, said) != "contradicted"
    fixed = text(completed=["Resolved: the flaky login test"])
    assert verdict("blocker", "the flaky login test", fixed, state="current") == "contradicted"


def test_an_error_message_matches_with_its_case():
    message = "error TS2339: Property 'orderId' does not exist on type 'Cart'"
    assert verdict("blocker", message, text(blockers=[message])) == "entailed"
    other = message.replace("orderId", "orderID")
    assert verdict("blocker", message, text(blockers=[other])) == "absent"


def test_stopping_or_avoiding_an_action_negates_it():
    fact = "archive closed tickets every Sunday"
    step = lambda s: text(nextSteps=[s])  # noqa: E731
    assert verdict("next_step", fact, step("stop archiving closed tickets every Sunday")) == (
        "contradicted"
    )
    assert verdict("next_step", fact, step("avoid archiving closed tickets on Sundays")) == (
        "contradicted"
    )
    assert verdict("next_step", fact, step("archive closed tickets every Sunday")) == "entailed"


def test_off_and_on_as_a_state_are_opposites_but_on_as_a_preposition_is_not():
    fact = "Keep the profiler off in production"
    rule = lambda s: text(constraints=[s])  # noqa: E731
    assert verdict("constraint", fact, rule("The profiler may be switched on in production")) == (
        "contradicted"
    )
    assert verdict("constraint", fact, rule("Production runs with the profiler disabled")) == (
        "entailed"
    )
    decide = lambda s: text(decisions=[{"decision": s}])  # noqa: E731
    fact = "render thumbnails on the server for every upload"
    assert verdict("decision", fact, decide(fact)) == "entailed"


def test_talking_to_a_service_is_calling_it():
    fact = "Talk to the mail relay only through src/mail/relay.ts"
    said = text(constraints=["Handlers may call the mail relay without src/mail/relay.ts"])
    assert verdict("constraint", fact, said) == "contradicted"


def test_an_acronym_in_the_plural_names_the_same_thing():
    fact = "store audit exports as ZIPs instead of tarballs"
    said = text(decisions=[{"decision": "audit exports are stored as a ZIP, not a tarball"}])
    assert verdict("decision", fact, said) == "entailed"


def test_a_superseded_fact_negated_or_changed_in_one_role_by_its_successor_is_not_contradicted():
    # The successor of a superseded decision negates it or changes one of its roles; shown as
    # current that is the right state, not the old decision shown as current.
    fact = "inline the SVG icons in the HTML"
    negated = text(decisions=[{"decision": "do not inline the SVG icons in the HTML"}])
    assert verdict("decision", fact, negated, state="stale") == "absent"
    assert verdict("decision", fact, negated) == "contradicted"
    fact = "keep cache entries sharded by user name"
    moved = text(decisions=[{"decision": "shard the cache entries by team name"}])
    assert verdict("decision", fact, moved, state="stale") == "absent"
    reported = text(
        decisions=[{"decision": "shard the cache entries by team name"}],
        completed=["Sharding cache entries by user name was reverted"],
    )
    assert verdict("decision", fact, reported, state="stale") == "entailed"
    assert verdict("decision", fact, text(decisions=[{"decision": fact}]), state="stale") == (
        "contradicted"
    )


def test_moved_off_a_place_reports_the_old_state_as_over():
    fact = "host the API docs on the build server"
    said = text(completed=["The API docs moved off the build server onto a static host"])
    assert verdict("decision", fact, said) == "contradicted"
    assert verdict("decision", fact, said, state="stale") == "entailed"


# Round 4 (tests/data/calibration/README.md): one test per rule, in words no split uses.


def test_leaving_an_act_out_or_a_verdict_against_it_negates_it():
    fact = "add a dark theme to the settings page"
    step = lambda s: text(nextSteps=[s])  # noqa: E731
    for said in (
        "skip the dark theme for the settings page",
        "a dark theme on the settings page was ruled out",
        "we decided against adding a dark theme to the settings page",
    ):
        assert verdict("next_step", fact, step(said)) == "contradicted", said
    # Two clauses that each negate the fact negate it once, not twice.
    both = step("skip the dark theme on the settings page; the settings page gets no theme")
    assert verdict("next_step", fact, both) == "contradicted"


def test_staying_out_of_a_place_negates_putting_something_there():
    fact = "Post deploy notices into the release Slack channel"
    said = text(goal="Deploy notices must stay out of the release Slack channel")
    assert verdict("goal", fact, said) == "contradicted"
    rule = "Do not query the production database from benchmarks"
    away = text(constraints=["Keep benchmarks away from the production database"])
    assert verdict("constraint", rule, away) == "entailed"


def test_a_lifted_restriction_contradicts_and_no_other_than_restates_it():
    fact = "Only the scheduler may write to the jobs table"
    rule = lambda s: text(constraints=[s])  # noqa: E731
    assert verdict("constraint", fact, rule("Any process is free to write to the jobs table")) == (
        "contradicted"
    )
    said = rule("No process other than the scheduler is allowed to write to the jobs table")
    assert verdict("constraint", fact, said) == "entailed"


def test_a_limit_said_with_a_negative_is_the_limit():
    fact = "Session tokens expire after 15 minutes"
    rule = lambda s: text(constraints=[s])  # noqa: E731
    for said in (
        "A session token is good for 15 minutes and no longer",
        "A session token stops being valid once 15 minutes have passed",
    ):
        assert verdict("constraint", fact, rule(said)) == "entailed", said
    answer = "Reply to abuse reports within 12 hours"
    said = rule("Every abuse report gets a reply no later than 12 hours after it arrives")
    assert verdict("constraint", answer, said) == "entailed"


def test_a_count_written_as_a_word_is_a_key():
    fact = "retry the payment capture three times"
    assert verdict("decision", fact, decided("retry the payment capture 3 times")) == "entailed"
    assert verdict("decision", fact, decided("retry the payment capture 5 times")) == "absent"


def test_a_change_from_one_state_to_another_reports_only_the_old_one_as_over():
    old, new = "store thumbnails on local disk", "store thumbnails in object storage"
    said = text(completed=["Switched thumbnails from local disk to object storage"])
    assert verdict("decision", old, said) == "contradicted"
    assert verdict("decision", old, said, state="stale") == "entailed"
    assert verdict("decision", new, said) != "contradicted"
    raised = text(completed=["The upload limit was raised from ten to twenty megabytes"])
    assert verdict("decision", "cap uploads at ten megabytes", raised) == "contradicted"
    gone = text(completed=["Thumbnails are not on local disk anymore"])
    assert verdict("decision", old, gone, state="stale") == "entailed"


def test_a_cue_word_of_the_fact_itself_is_no_report():
    fact = "Resume video playback after a dropped stream"
    assert verdict("goal", fact, text(goal=fact)) == "entailed"


def test_the_act_named_only_as_the_option_turned_down_is_contradicted():
    fact = "shrink the avatar images below 50 KB"
    said = text(
        nextSteps=["leave the avatar images as they are instead of shrinking them below 50 KB"]
    )
    assert verdict("next_step", fact, said) == "contradicted"
    # Other words of the fact turned down in a correct rewording are no contradiction.
    goal = "Migrate the webhook sender from threads to asyncio"
    reworded = text(goal="The webhook sender should use asyncio instead of threads")
    assert verdict("goal", goal, reworded) != "contradicted"


def test_a_light_verb_in_place_of_the_fact_s_rewords_it():
    fact = "shrink the avatar images below 50 KB"
    said = text(nextSteps=["get the avatar images under 50 KB"])
    assert verdict("next_step", fact, said) == "entailed"
    assert verdict("next_step", fact, text(nextSteps=["shrink the banner images below 50 KB"])) == (
        "absent"
    )


# Round 5: one test per rule, in words no split uses.


def test_show_hide_include_exclude_and_lock_unlock_are_opposites():
    step = lambda s: text(nextSteps=[s])  # noqa: E731
    for fact, said in (
        ("show the queue length on the status page", "hide the queue length on the status page"),
        ("include draft posts in the sitemap", "exclude draft posts from the sitemap"),
        ("lock the export table during a backup", "unlock the export table during a backup"),
    ):
        assert verdict("next_step", fact, step(said)) == "contradicted", said


def test_not_until_is_only_after():
    fact = "Publish the release notes only after the tag is signed"
    said = text(constraints=["The release notes must not be published until the tag is signed"])
    assert verdict("constraint", fact, said) == "entailed"


def test_stopping_support_is_dropping_it_and_a_ban_is_a_do_not():
    fact = "Drop support for Python 3.8 in the command-line tool"
    said = text(goal="Stop supporting Python 3.8 in the command-line tool")
    assert verdict("goal", fact, said) == "entailed"
    keep = text(goal="Keep supporting Python 3.8 in the command-line tool")
    assert verdict("goal", fact, keep) == "contradicted"
    rule = "Do not store raw card numbers in the logs"
    banned = text(constraints=["Raw card numbers are banned from the logs"])
    assert verdict("constraint", rule, banned) == "entailed"


def test_a_clause_negating_only_the_option_turned_down_agrees_with_the_fact():
    fact = "serve fonts from the CDN rather than from the app server"
    said = decided("we serve fonts from the CDN; the app server is not used for them")
    assert verdict("decision", fact, said) == "entailed"


def test_at_no_point_and_at_no_time_say_never():
    # The paraphrase control's "never" -> "at no point": "Never touch X" is made "keep X", and
    # its rewording must be too, not read as the constraint negated.
    fact = "Never touch anything under src/legacy/"
    assert (
        verdict("constraint", fact, "At no point modify any file under src/legacy/") == "entailed"
    )
    assert (
        verdict("constraint", "Never call npx or yarn", "At no time call npx or yarn") == "entailed"
    )
    assert verdict("constraint", fact, "Edit anything under src/legacy/ at will") != "entailed"
