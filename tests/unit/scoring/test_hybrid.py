"""The hybrid matcher (``verdict-embedding``: the verdict rules, MiniLM for "same meaning",
the rules' vetoes on what the embeddings find), pinned on the five calibration splits, and
its vetoes one by one. Runs the real local embedding model (the ``embeddings`` extra)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")

from soba_bench.scoring import calibration
from soba_bench.scoring.context import Context
from soba_bench.scoring.hybrid import strip_lead
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.verdict import Claim, judge
from soba_bench.session.capsule_text import capsule_text
from tests.data.calibration import BLIND_SPLITS
from tests.unit.scoring.test_retention import capsule

DATA = Path(__file__).resolve().parents[2] / "data" / "calibration"


def hybrid(kind: str, fact: str, *texts: str, **claim) -> str:
    matcher = get_matcher("verdict-embedding")
    return matcher.judge(Claim(kind, fact, **claim), Context.from_texts(texts)).label


def rules(kind: str, fact: str, *texts: str, **claim) -> str:
    return judge(Claim(kind, fact, **claim), Context.from_texts(texts)).label


def text(**state) -> str:
    return capsule_text(capsule(**state))


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, calibration.Row]]:
    matcher = get_matcher("verdict-embedding")
    out = {}
    for split in ("dev", "heldout", "fresh", "fresh2", "fresh3", *BLIND_SPLITS):
        outcomes = calibration.run(matcher, calibration.load_cases(DATA / f"{split}.jsonl"))
        out[split] = {r.category: r for r in calibration.table(outcomes)}
    return out


def correct(row: calibration.Row) -> int:
    return round(row.accuracy * row.n)


# Cases right per category (in CATEGORY_ORDER) for each split after dev, pinned: a change that
# moves them must update these lines and the tables in README.md and
# tests/data/calibration/README.md (benchmarks/matcher_calibration.py prints them).
# heldout, fresh: written before the hybrid; fresh2: committed before the round-2 fixes were
# measured on it. fresh3: committed before the round-3 fixes were measured on it (which did
# not move it: 233 of 267); its errors drove round 4, so it is no longer blind. fresh4:
# written by a helper session that never read the matcher, committed before any matcher ran
# on it, measured blind before and after round 4 (negation 24 -> 30, paraphrase 44 -> 46,
# stale 31 -> 35, overall 381 -> 393); its errors drove round 5. fresh5: written by another
# such session, measured once with the round-4 matcher (negation 23, paraphrase 41, stale 30,
# overall 393) and once after round 5: blind, below 90 % on negation, paraphrase and stale.
# fresh6: written by a third such session after round 5, measured once: blind, below 90 % on
# negation (38 of 70), paraphrase (52 of 70) and stale (32 of 39). fresh7: a fourth such
# session, measured once (2026-12-06, no rule changed since fresh6): blind, below 90 % on
# negation (32 of 70, 21 read as kept) and stale (33 of 39); paraphrase 63 of 70. fresh8: a
# fifth such session, measured once likewise: negation 27 of 70 (18 read as kept). fresh9: a
# sixth, measured once likewise: negation 28 of 70 (26 read as kept), paraphrase 67 of 70.
# fresh10 and fresh11 (stop 42, facts of clauses among them): fresh10 421 with no clause rule,
# 423 with them (it was read to build them); fresh11 416 and fresh12 422, measured once with
# them (blind; neither moved from stop 41's hybrid); fresh13 to fresh15 (stop 43) measured once
# (blind).
CATEGORY_ORDER = (*calibration.CATEGORIES, "overall")
PINNED = {
    "heldout": (60, 33, 16, 16, 8, 10, 36, 9, 18, 206),
    "fresh": (50, 29, 16, 16, 8, 8, 27, 10, 14, 178),
    "fresh2": (76, 43, 23, 24, 12, 14, 36, 14, 22, 264),
    "fresh3": (72, 45, 26, 26, 14, 12, 33, 16, 19, 263),
    "fresh4": (106, 80, 49, 32, 31, 12, 35, 34, 19, 398),
    "fresh5": (112, 86, 44, 23, 31, 12, 30, 39, 19, 396),
    "fresh6": (116, 88, 52, 38, 34, 12, 32, 41, 20, 433),
    "fresh7": (116, 88, 63, 32, 34, 12, 33, 41, 20, 439),
    "fresh8": (116, 89, 65, 27, 33, 12, 35, 41, 20, 438),
    "fresh9": (116, 89, 67, 28, 34, 12, 37, 41, 20, 444),
    "fresh10": (116, 88, 61, 20, 30, 12, 35, 41, 20, 423),
    "fresh11": (116, 88, 57, 12, 32, 12, 38, 41, 20, 416),
    "fresh12": (116, 88, 61, 14, 34, 12, 36, 41, 20, 422),
    "fresh13": (116, 89, 67, 10, 33, 12, 37, 41, 20, 425),
    "fresh14": (116, 89, 65, 12, 34, 12, 37, 41, 20, 426),
    "fresh15": (116, 89, 54, 8, 35, 12, 39, 41, 20, 414),
}


def test_the_hybrid_is_pinned_on_every_split(tables):
    assert correct(tables["dev"]["overall"]) == 753
    for split, right in PINNED.items():
        assert {c: correct(r) for c, r in tables[split].items()} == dict(
            zip(CATEGORY_ORDER, right, strict=True)
        ), split


def test_the_hybrid_recovers_paraphrases_the_rules_miss_on_both_held_out_splits(tables):
    rules_matcher = get_matcher("verdict")
    for split in ("heldout", "fresh"):
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        words = {r.category: r for r in calibration.table(calibration.run(rules_matcher, cases))}
        assert words["paraphrase"].accuracy <= 0.625
        assert tables[split]["paraphrase"].accuracy == 1.0
        assert tables[split]["overall"].accuracy > words["overall"].accuracy


def test_a_rewording_with_few_shared_words_is_entailed():
    fact = "Send a confirmation email after a user changes their password"
    para = text(goal="Users who reset their credentials get a message confirming it by mail")
    assert rules("goal", fact, para) == "absent"
    assert hybrid("goal", fact, text(goal="Email users to confirm each change of password")) == (
        "entailed"
    )


def test_a_negated_rewording_is_contradicted_not_entailed():
    fact = "Make the search indexer configurable per tenant"
    negated = text(goal="Tenants will never be able to configure the search indexer")
    assert hybrid("goal", fact, negated) == "contradicted"


def test_a_rewording_with_other_paths_is_another_subject():
    fact = "document the retry policy in docs/payments.md"
    other = text(nextSteps=["describe how retries work in docs/billing.md"])
    assert hybrid("next_step", fact, other) == "absent"


def test_a_superseded_fact_is_entailed_when_reported_over_and_its_successor_does_not_count():
    old = "put the upload handler behind a feature flag"
    report = text(completed=["Dropped the upload handler's feature flag; it ships to everyone"])
    assert hybrid("decision", old, report, state="stale") == "entailed"
    assert hybrid("decision", old, report) == "contradicted"  # a current fact reported over
    successor = text(
        decisions=[{"decision": "ship the upload handler to every user at once", "rationale": None}]
    )
    assert hybrid("decision", old, successor, state="stale") == "absent"


def test_a_superseded_fact_negated_by_its_successor_is_not_contradicted():
    old = "put the upload handler behind a feature flag"
    successor = text(
        decisions=[{"decision": "no feature flag will guard the upload handler anymore"}]
    )
    assert hybrid("decision", old, successor, state="stale") == "absent"
    assert hybrid("decision", old, successor) == "contradicted"


def test_a_current_decision_is_not_stated_by_the_decision_it_replaced():
    # The viewer's case: the capsule still carries the old decision; the new one reads much
    # like it (same subject, one changed choice), so without its predecessor the embeddings
    # would take the old statement for the new decision.
    old = "Store retry counters in the shared memcached cluster"
    new = "Store retry counters in a local sqlite ledger instead of memcached"
    stale = text(decisions=[{"decision": old, "rationale": None}])
    assert hybrid("decision", new, stale, replaces=old) == "absent"
    stated = text(decisions=[{"decision": "Keep the retry counters in a local SQLite ledger"}])
    assert hybrid("decision", new, stated, replaces=old) == "entailed"


def test_state_facts_keep_the_rules_verdict():
    path = "src/upload/handler.ts"
    listed = text(read=[path])
    assert hybrid("file_read", path, listed, path=path) == "entailed"
    assert hybrid("file_modified", path, listed, path=path) == "contradicted"
    assert rules("file_modified", path, listed, path=path) == "contradicted"


def test_a_speaker_lead_in_is_not_part_of_the_statement():
    assert strip_lead("User: the task for this session: add a cache") == "add a cache"
    assert strip_lead("Assistant: next I will add a cache") == "next I will add a cache"
    assert strip_lead("add a cache: LRU, 500 entries") == "add a cache: LRU, 500 entries"


def test_the_hybrid_reaches_90_percent_on_dev(tables):
    for category in (*calibration.HARD, "overall"):
        assert tables["dev"][category].accuracy >= 0.90, category
