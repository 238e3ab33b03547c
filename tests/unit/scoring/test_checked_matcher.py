"""``verdict-embedding-nli``, the default matcher: the hybrid checked by the trained judge. It
only ever turns the hybrid's "entailed" into "contradicted" (never anything else), its
label-only and presence paths agree with its full verdict, it reaches 90 % on dev overall and
in every hard category, and its cases right per category on every split, its figures on the
blind splits and on the generated known answers are pinned (what README "Matching" reports)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from soba_bench.scoring import calibration
from soba_bench.scoring.context import Context
from soba_bench.scoring.hybrid import strip_lead
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.verdict import ABSENT, CONTRADICTED, ENTAILED, replaced_after_lead
from tests.data.calibration import BLIND_SPLITS

DATA = Path(__file__).resolve().parents[2] / "data" / "calibration"
EARLIER = ("dev", "heldout", "fresh", "fresh2", "fresh3")  # the rules were written on these


@pytest.fixture(scope="module")
def outcomes():
    """Blind split -> (this matcher's outcomes, the hybrid's)."""
    checked, hybrid = get_matcher("verdict-embedding-nli"), get_matcher("verdict-embedding")
    out = {}
    for split in BLIND_SPLITS:
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        out[split] = (calibration.run(checked, cases), calibration.run(hybrid, cases))
    return out


@pytest.fixture(scope="module")
def tables(outcomes):
    """Split -> category -> this matcher's row, on every split."""
    out = {split: calibration.table(checked) for split, (checked, _) in outcomes.items()}
    matcher = get_matcher("verdict-embedding-nli")
    for split in EARLIER:
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        out[split] = calibration.table(calibration.run(matcher, cases))
    return {split: {row.category: row for row in rows} for split, rows in out.items()}


def test_it_is_the_default_and_reaches_90_percent_on_dev(tables):
    assert get_matcher().name == "verdict-embedding-nli"
    for category in (*calibration.HARD, "overall"):
        assert tables["dev"][category].accuracy >= 0.90, category


# Cases right per category (in CATEGORY_ORDER) on every split, pinned: a change that moves them
# must update these lines and the tables in README.md and tests/data/calibration/README.md
# (benchmarks/matcher_calibration.py prints them). The matcher was built after fresh7 was
# measured; fresh8 was written after it and measured once (blind); its overturn threshold
# was chosen on dev to fresh8, and fresh9, written after that, measured once (blind). fresh10
# (written for facts of clauses) was measured once with its first clause rule (blind), then
# read to build the second; fresh11 was measured once with it (426 -> 428, blind), then its one
# shuffled case read as stated led to the word-rule guard (429); fresh12 was written after
# that and measured once with the shipped rules (blind: 425, stop 41's form 426). Stop 43's
# rule for a clause replaced by another act (nli.replaced_clause) was built on fresh11 and
# fresh12 (429 -> 437, 425 -> 439; fresh10 unchanged); fresh13 was written before it and
# measured once with stop 42's matcher and once with it (blind: 425 -> 433). Below 90 %
# on blind text:
# negation on fresh4-11 (28 to 46 of 62-70), paraphrase (39 to 64).
CATEGORY_ORDER = (*calibration.CATEGORIES, "overall")
PINNED_CATEGORIES = {
    "dev": (180, 136, 98, 99, 50, 20, 78, 57, 34, 752),
    "heldout": (60, 33, 16, 16, 8, 10, 36, 9, 18, 206),
    "fresh": (50, 29, 16, 16, 8, 8, 27, 10, 14, 178),
    "fresh2": (76, 43, 23, 24, 12, 14, 36, 14, 22, 264),
    "fresh3": (72, 45, 26, 28, 14, 12, 33, 16, 19, 265),
    "fresh4": (106, 80, 43, 39, 31, 12, 35, 34, 19, 399),
    "fresh5": (112, 86, 39, 35, 31, 12, 32, 39, 19, 405),
    "fresh6": (116, 88, 48, 44, 34, 12, 32, 41, 20, 435),
    "fresh7": (116, 88, 62, 47, 34, 12, 35, 41, 20, 455),
    "fresh8": (116, 89, 63, 41, 33, 12, 36, 41, 20, 451),
    "fresh9": (116, 89, 62, 50, 34, 12, 38, 41, 20, 462),
    "fresh10": (116, 88, 58, 34, 27, 12, 37, 41, 20, 433),
    "fresh11": (116, 88, 47, 42, 31, 12, 38, 41, 20, 435),
    "fresh12": (116, 88, 53, 50, 33, 12, 37, 41, 20, 450),
    "fresh13": (116, 89, 57, 38, 33, 12, 38, 41, 20, 444),
    "fresh14": (116, 89, 56, 37, 33, 12, 37, 41, 20, 441),
    "fresh15": (116, 89, 46, 39, 34, 12, 39, 41, 20, 436),
}


def test_it_is_pinned_per_category_on_every_split(tables):
    for split, right in PINNED_CATEGORIES.items():
        got = {c: round(r.accuracy * r.n) for c, r in tables[split].items()}
        assert got == dict(zip(CATEGORY_ORDER, right, strict=True)), split


def test_it_only_overturns_sets_aside_or_reads_a_reworded_clause(outcomes):
    # It turns the hybrid's "entailed" into "contradicted" (for a fact of clauses, a clause's:
    # a fact the hybrid finds absent can then be contradicted, fresh10's cases 310-311), or
    # sets the statement it rests on aside as the fact's sentence about another subject behind
    # a lead-in and finds the fact elsewhere or nowhere (test_clauses.py; with model 3,
    # fresh4's cases 176-177 and fresh13's 196-197, negations read as absent, and fresh9's 124,
    # "the workshop" for "the studio", a rewording read as absent; since stop 46, a run of
    # words replaced: fresh14's 183 and 185, negations, and fresh10's 125, a rewording), or
    # (since stop 46) finds a fact of clauses the hybrid finds absent stated with one clause
    # reworded in one run (by_clause's reworded clause: 8 of fresh15's rewordings, and 7 wrong
    # subjects, fresh10's 3 and one each of fresh11, fresh12, fresh14 and fresh15). Any other
    # difference is a regression.
    turned = aside = reworded = 0
    for checked, hybrid in outcomes.values():
        for mine, theirs in zip(checked, hybrid, strict=True):
            if mine.verdict.label == theirs.verdict.label:
                continue
            if mine.verdict.label == CONTRADICTED:
                clause = mine.verdict.reason.startswith("clause ")
                assert theirs.verdict.label == ENTAILED or clause, mine.case.id
                turned += 1
            elif mine.verdict.label == ENTAILED:
                assert theirs.verdict.label == ABSENT, mine.case.id
                assert mine.verdict.reason.endswith(" clauses stated"), mine.case.id
                reworded += 1
            else:
                assert theirs.verdict.label == ENTAILED, mine.case.id
                statement = strip_lead(theirs.verdict.evidence)
                assert replaced_after_lead(mine.case.claim.text, statement), mine.case.id
                aside += 1
    # it does something; setting aside and rewording are rare
    assert turned > 40 and aside == 8 and reworded == 15


def test_its_label_and_presence_paths_agree_with_its_verdict(outcomes):
    matcher = get_matcher("verdict-embedding-nli")
    checked, _ = outcomes["fresh7"]
    for outcome in checked[:200]:
        context = Context.from_texts(outcome.case.context)
        label = matcher.label(outcome.case.claim, context)
        assert label == outcome.verdict.label
        assert matcher.entails(outcome.case.claim, Context.from_texts(outcome.case.context)) == (
            label == ENTAILED
        )


# (cases right, negations read as kept, paraphrases right) per blind split, and the hybrid's.
PINNED = {
    # model 3 (stop 43); with model 2 the default read, in order: (400, 2, 44), (403, 12, 39),
    # (433, 4, 48), (449, 9, 59), (455, 2, 64), (459, 8, 63), (433, 10, 58), (437, 12, 54),
    # (439, 12, 53), (433, 26, 60) and, on fresh14 (blind: measured once with each model,
    # model 3 chosen by a rule fixed before), (438, 19, 61)
    "fresh4": ((399, 0, 43), (398, 9, 49)),
    "fresh5": ((405, 10, 39), (396, 22, 44)),
    "fresh6": ((435, 2, 48), (433, 8, 52)),
    "fresh7": ((455, 6, 62), (439, 21, 63)),
    "fresh8": ((451, 4, 63), (438, 18, 65)),
    "fresh9": ((462, 4, 62), (444, 26, 67)),
    # stop 46's rules, a run of words replaced behind a lead-in (the tails split, below) and a
    # reworded clause (by_clause): fresh10 (437, 10, 59), fresh11 (436, 6, 47), fresh12
    # (451, 0, 53), fresh14 (444, 8, 56) and fresh15 (428, 6, 38) before them
    "fresh10": ((433, 10, 58), (423, 22, 61)),
    "fresh11": ((435, 6, 47), (416, 36, 57)),
    "fresh12": ((450, 0, 53), (422, 36, 61)),
    "fresh13": ((444, 10, 57), (425, 40, 67)),
    "fresh14": ((441, 8, 56), (426, 35, 65)),
    # fresh15: written after model 3 was chosen, measured once with the shipped matchers
    # (blind; stop 42's default: 411, 32, 47)
    "fresh15": ((436, 6, 46), (414, 36, 54)),
}


def _figures(outs) -> tuple[int, int, int]:
    right = sum(o.correct for o in outs)
    kept = sum(o.case.category == "negation" and o.verdict.label == ENTAILED for o in outs)
    para = sum(o.case.category == "paraphrase" and o.correct for o in outs)
    return right, kept, para


def test_figures_on_the_blind_splits_are_pinned(outcomes):
    for split, (checked, hybrid) in outcomes.items():
        assert (_figures(checked), _figures(hybrid)) == PINNED[split], split


def test_the_generated_known_answers():
    outs = calibration.run(get_matcher("verdict-embedding-nli"), calibration.generated_cases())
    own = [o for o in outs if o.case.category == "own_statement"]
    unrelated = [o for o in outs if o.case.category == "unrelated"]
    assert sum(o.correct for o in own) == len(own) == 88
    assert sum(o.correct for o in unrelated) == 721


# Statements of real replays (the planted verbatim and paraphrase capsules of corpus seed
# 1016) that hold the fact word for word inside more: a goal with more added, a goal after a
# lead-in. Model 2 read each one as contradicting the fact, likely enough to overturn it;
# model 3 the first two (asserted below, so the tests show what the rule is for).
HOLDS_VERBATIM = [
    (
        "goal",
        "Migrate the cache layer from callbacks to async/await",
        "Migrate the cache layer from callbacks to async/await, and also cover the cache layer"
        " with the same change, and keep backwards compatibility for v1 clients of the cache"
        " layer.",
    ),
    (
        "goal",
        "Migrate the session store from callbacks to async/await",
        "Migrate the session store from callbacks to async/await, and also cover the HTTP"
        " router with the same change.",
    ),
    (
        "goal",
        "Migrate the session store from callbacks to async/await, and also cover the HTTP"
        " router with the same change",
        "Change of plan: Migrate the session store from callbacks to async/await, and also"
        " cover the HTTP router with the same change.",
    ),
]


@pytest.mark.parametrize(("kind", "fact", "statement"), HOLDS_VERBATIM)
def test_a_statement_holding_the_fact_word_for_word_is_not_overturned(kind, fact, statement):
    from soba_bench.scoring.nli import check_stated
    from soba_bench.scoring.verdict import Claim, Verdict

    stated = Verdict(ENTAILED, "hybrid", statement)
    assert check_stated(Claim(kind, fact), stated) == stated
    matcher = get_matcher("verdict-embedding-nli")
    assert matcher.label(Claim(kind, fact), Context.from_texts([statement])) == ENTAILED


def test_the_model_alone_would_overturn_statements_holding_the_fact():
    from soba_bench.scoring.hybrid import strip_lead
    from soba_bench.scoring.nli import NliConfig, get_model

    overturned = 0
    for _, fact, statement in HOLDS_VERBATIM:
        entail, contradict, _ = get_model().probabilities([strip_lead(statement)], fact)[0]
        overturned += contradict >= NliConfig().overturn > entail
    assert overturned == 2  # what the check would do without the rule


def test_a_reworded_statement_is_still_checked():
    from soba_bench.scoring.nli import check_stated
    from soba_bench.scoring.verdict import Claim, Verdict

    # one word apart from the fact ("load" for "loads"): not word for word, so the model reads it
    fact = "analytics scripts load only after the visitor accepts cookies"
    statement = "Analytics scripts loads as soon as the page opens, before any consent."
    verdict = check_stated(Claim("constraint", fact), Verdict(ENTAILED, "hybrid", statement))
    assert verdict.label == CONTRADICTED


def test_only_a_likely_contradiction_overturns():
    """A correct rewording from dev that the model reads as a contradiction 0.56 likely: below
    the overturn threshold the hybrid's "entailed" stands (at 0.5 it would not)."""
    from soba_bench.scoring.nli import NliConfig, check_stated, get_model
    from soba_bench.scoring.verdict import Claim, Verdict

    fact = "use a monotonic clock for lease timeouts"
    statement = "time lease timeouts with a monotonic clock rather than the wall clock"
    _, contradict, _ = get_model().probabilities([statement], fact)[0]
    assert 0.5 < contradict < NliConfig().overturn
    stated = Verdict(ENTAILED, "hybrid", statement)
    assert check_stated(Claim("decision", fact), stated) == stated
    lower = check_stated(Claim("decision", fact), stated, NliConfig(overturn=0.5))
    assert lower.label == CONTRADICTED


def test_the_hybrids_label_only_entailment_is_its_full_verdict():
    """What label() rests on: where the hybrid reads a fact as stated, its label-only path
    gives the same verdict (the same statement for the check to read) as its full one."""
    from soba_bench.scoring.hybrid import HybridConfig, judge_hybrid

    entailed = 0
    for split in ("fresh7", "fresh9"):
        for case in calibration.load_cases(DATA / f"{split}.jsonl"):
            full = judge_hybrid(case.claim, Context.from_texts(case.context), HybridConfig())
            fast = judge_hybrid(
                case.claim, Context.from_texts(case.context), HybridConfig(), explain=False
            )
            assert fast.label == full.label
            if full.label == ENTAILED:
                assert fast == full, case.id
                entailed += 1
    assert entailed > 300


# The tails split: each bank's wrong-subject item said in a retained tail behind its split's
# lead-in (tests/data/calibration/README.md). Right (read as absent) in stop 45: 202 of 507,
# 125 of the 415 from blind banks; the rules alone 68, the hybrid 57. Stop 46's rule for a run
# of words replaced behind a lead-in, which the model reads as saying neither: 332 and 244.
TAILS_RIGHT = {"all": 332, "blind": 244}


def test_a_wrong_subject_behind_a_lead_in_is_pinned_on_the_tails_split():
    path = DATA / "tails.jsonl"
    sources = [json.loads(line)["source"] for line in path.read_text().splitlines()]
    outs = calibration.run(get_matcher(), calibration.load_cases(path))
    assert {o.case.category for o in outs} == {"wrong_subject"}
    assert {o.verdict.label for o in outs if not o.correct} <= {ENTAILED, CONTRADICTED}
    assert all(o.case.label == ABSENT for o in outs)
    blind = sum(o.correct for s, o in zip(sources, outs, strict=True) if s in BLIND_SPLITS)
    assert {"all": sum(o.correct for o in outs), "blind": blind} == TAILS_RIGHT
