"""The ``verdict-nli`` matcher: its cross-encoder (the vendored int8 ONNX model, run for real),
the rules it keeps, and its figures on the calibration splits it was not trained on (fresh4
held out; fresh5 model 1's blind split; fresh6 model 2's; fresh14 model 3's)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

pytest.importorskip("onnxruntime")

from soba_bench.errors import HarnessFault
from soba_bench.scoring import calibration, nli
from soba_bench.scoring.context import Context
from soba_bench.scoring.matchers import MATCHERS, get_matcher
from soba_bench.scoring.verdict import ABSENT, CONTRADICTED, ENTAILED, Claim
from soba_bench.session.capsule_text import capsule_text
from tests.data.calibration import BLIND_SPLITS
from tests.unit.scoring.test_retention import capsule

DATA = Path(__file__).resolve().parents[2] / "data" / "calibration"


def verdict(kind: str, fact: str, *texts: str, **claim):  # type: ignore[no-untyped-def]
    return get_matcher("verdict-nli").judge(Claim(kind, fact, **claim), Context.from_texts(texts))


def test_the_vendored_model_is_the_pinned_one():
    assert hashlib.sha256(nli.MODEL.read_bytes()).hexdigest() == nli.MODEL_SHA256
    assert "verdict-nli" in MATCHERS.names()


def test_a_changed_model_file_is_refused(tmp_path, monkeypatch):
    copy = tmp_path / "model.onnx"
    copy.write_bytes(nli.MODEL.read_bytes()[:-1] + b"\0")
    monkeypatch.setattr(nli, "MODEL", copy)
    with pytest.raises(HarnessFault, match="pinned sha256"):
        nli.NliModel()


def test_probabilities_sum_to_one_and_do_not_depend_on_the_batch():
    model = nli.get_model()
    fact = "Retry failed webhook deliveries at most five times"
    alone = nli.NliModel().probabilities(["Webhook deliveries are retried up to five times"], fact)
    together = model.probabilities(
        [
            "Webhook deliveries are retried up to five times",
            "A failed webhook delivery is retried forever",
            "The webhook payloads are signed with HMAC",
        ],
        fact,
    )
    assert len(together) == 3
    for row in together:
        assert sum(row) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in row)
    assert together[0] == pytest.approx(alone[0], abs=1e-9)


def test_a_full_cache_is_emptied_without_losing_what_the_call_asks(monkeypatch):
    """At its bound the pair cache is emptied; a statement asked again in that same call must
    be judged again, not looked up in the emptied cache (it was a KeyError)."""
    monkeypatch.setattr(nli, "CACHE_LIMIT", 2)
    model = nli.NliModel()
    fact = "Retry failed webhook deliveries at most five times"
    first = model.probabilities(["Webhook deliveries are retried up to five times"], fact)
    both = model.probabilities(
        [
            "Webhook deliveries are retried up to five times",
            "A failed webhook delivery is retried forever",
            "The webhook payloads are signed with HMAC",
        ],
        fact,
    )
    assert both[0] == first[0]
    assert len(model._cache) == 3


def test_a_verbatim_copy_is_entailed_without_the_model(monkeypatch):
    def no_model():  # type: ignore[no-untyped-def]
        raise AssertionError("the model was asked")

    monkeypatch.setattr(nli, "get_model", no_model)
    found = verdict(
        "decision",
        "call the inventory service over gRPC instead of REST",
        "Assistant: what we agreed on: Call the inventory service over gRPC instead of REST.",
    )
    assert (found.label, found.reason) == (ENTAILED, "verbatim")


def test_the_rules_keep_paths_numbers_and_word_order(monkeypatch):
    def no_model():  # type: ignore[no-untyped-def]
        raise AssertionError("the model was asked")

    monkeypatch.setattr(nli, "get_model", no_model)
    # another path on both sides: another subject, whatever the wording
    assert (
        verdict(
            "constraint",
            "Keep the public exports of src/index.ts unchanged",
            "Keep the public exports of src/cli.ts unchanged",
        ).label
        == ABSENT
    )
    # the fact's words shuffled: word salad, not the fact
    shuffled = verdict(
        "goal",
        "Add retries with exponential backoff to the billing webhooks",
        "billing retries the with backoff webhooks to exponential Add",
    )
    assert shuffled.label == ABSENT


def test_state_facts_are_judged_by_the_rules():
    text = capsule_text(capsule(blockers=["TS2304: Cannot find name 'Foo'"]))
    blocker = verdict("blocker", "TS2304: Cannot find name 'Foo'", text)
    assert blocker.label == ENTAILED and not blocker.reason.startswith("nli")
    fixed = verdict(
        "blocker", "TS2304: Cannot find name 'Foo'", "Fixed: TS2304: Cannot find name 'Foo'"
    )
    assert fixed.label == CONTRADICTED


def test_a_later_statement_not_about_the_fact_does_not_overturn_it():
    """The model reads an edit of the fact's file as contradicting "keep its exports
    unchanged"; after a statement of the fact that edit counts for nothing, while a later
    statement about the fact still decides."""
    fact = "Keep the public exports of src/index.ts unchanged"
    history = (
        "Constraint: Keep the public exports of src/index.ts unchanged.",
        "Edit applied successfully to src/index.ts",
        "Summary of this turn: edited src/index.ts.",
    )
    assert verdict("constraint", fact, *history).label == ENTAILED
    dropped = "User: change of plan: the public exports of src/index.ts may change now."
    assert verdict("constraint", fact, *history, dropped).label == CONTRADICTED


def test_a_statement_sharing_no_word_is_not_judged():
    found = verdict(
        "goal", "Add retries to the billing webhooks", "Compress the nightly logs with zstd"
    )
    assert found.label == ABSENT


@pytest.fixture(scope="module")
def tables() -> dict[str, dict[str, calibration.Row]]:
    matcher = get_matcher("verdict-nli")
    out = {}
    for split in BLIND_SPLITS:
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        out[split] = {r.category: r for r in calibration.table(calibration.run(matcher, cases))}
    return out


# Cases right per category, in calibration.CATEGORIES order (verbatim, absent, paraphrase,
# negation, wrong_subject, swapped_lists, stale, shuffled, near_miss), then overall.
# Model 3 (stop 43: model 2's recipe with four more written parts, training/nli/README.md).
# fresh4 (442 cases) is held out; fresh5 to fresh13 are not trained on (fresh10 to fresh13
# were read for rules, and a few of their negations were examples in model 3's writers'
# instructions; pairs sharing six words with them were removed); fresh14, written after model
# 3 was trained, was measured once with model 2 (418) and once with model 3 (blind), which a
# rule fixed before chose (README, "Matching"). Model 2 read, fresh4 to fresh13: 404, 426,
# 443, 450, 465, 457, 451, 439, 429, 422. This matcher judges a fact of clauses whole
# (matchers.py).
PINNED: dict[str, tuple[int, ...]] = {
    "fresh4": (106, 80, 53, 49, 31, 12, 35, 34, 19, 419),
    "fresh5": (112, 86, 55, 45, 33, 12, 32, 39, 19, 433),
    "fresh6": (116, 87, 57, 58, 34, 12, 32, 41, 20, 457),
    "fresh7": (116, 87, 66, 56, 34, 12, 35, 40, 20, 466),
    "fresh8": (116, 89, 65, 55, 34, 12, 35, 41, 20, 467),
    "fresh9": (116, 88, 62, 52, 35, 12, 37, 41, 20, 463),
    "fresh10": (116, 87, 64, 52, 30, 12, 37, 40, 20, 458),
    "fresh11": (116, 88, 55, 56, 33, 12, 37, 41, 20, 458),
    "fresh12": (116, 87, 59, 54, 34, 12, 36, 41, 20, 459),
    "fresh13": (116, 89, 51, 42, 35, 12, 38, 41, 20, 444),
    "fresh14": (116, 88, 55, 41, 33, 12, 38, 40, 20, 443),
    "fresh15": (116, 88, 44, 50, 34, 12, 39, 40, 20, 443),
}


def test_the_nli_matcher_is_pinned_on_the_splits_it_was_not_trained_on(tables):
    assert set(PINNED) == set(tables)
    for split, right in PINNED.items():
        rows = tables[split]
        got = tuple(
            round(rows[c].accuracy * rows[c].n) for c in (*calibration.CATEGORIES, "overall")
        )
        assert got == right, split


def test_the_nli_matcher_reads_blind_negations_and_paraphrases_better_than_the_default(tables):
    """What it is for: on the blind splits, more negations read as contradicted and at least
    as many rewordings as stated as the default (fresh6: 38 and 52 of 70; fresh7: 32 and 63)."""
    rows = tables["fresh6"]
    assert round(rows["negation"].accuracy * 70) > 38
    assert round(rows["paraphrase"].accuracy * 70) > 52
    rows = tables["fresh7"]
    assert round(rows["negation"].accuracy * 70) > 32
    assert round(rows["paraphrase"].accuracy * 70) >= 63
