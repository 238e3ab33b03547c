"""``verdict-embedding-nli``: the default hybrid checked by the trained judge. It only ever
turns the hybrid's "entailed" into "contradicted" (never anything else), its label-only and
presence paths agree with its full verdict, and its figures on the blind splits and the
generated known answers are pinned (what README "Matching" reports)."""

from __future__ import annotations

from pathlib import Path

import pytest

from soba_bench.scoring import calibration
from soba_bench.scoring.context import Context
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.verdict import CONTRADICTED, ENTAILED

DATA = Path(__file__).resolve().parents[2] / "data" / "calibration"
SPLITS = ("fresh4", "fresh5", "fresh6", "fresh7", "fresh8")


@pytest.fixture(scope="module")
def outcomes():
    checked, hybrid = get_matcher("verdict-embedding-nli"), get_matcher("verdict-embedding")
    out = {}
    for split in SPLITS:
        cases = calibration.load_cases(DATA / f"{split}.jsonl")
        out[split] = (calibration.run(checked, cases), calibration.run(hybrid, cases))
    return out


def test_it_only_turns_the_hybrids_entailed_into_contradicted(outcomes):
    turned = 0
    for checked, hybrid in outcomes.values():
        for mine, theirs in zip(checked, hybrid, strict=True):
            if mine.verdict.label != theirs.verdict.label:
                assert (theirs.verdict.label, mine.verdict.label) == (ENTAILED, CONTRADICTED)
                turned += 1
    assert turned > 40  # it does something


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
    "fresh4": ((396, 2, 40), (398, 9, 49)),
    "fresh5": ((403, 12, 39), (396, 22, 44)),
    "fresh6": ((432, 4, 47), (433, 8, 52)),
    "fresh7": ((448, 9, 58), (439, 21, 63)),
    # fresh8: written after this matcher was built, measured once (blind)
    "fresh8": ((451, 2, 60), (438, 18, 65)),
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
