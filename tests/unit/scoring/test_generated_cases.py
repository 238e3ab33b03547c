"""The generated known-answer cases (``calibration.generated_cases``): every prose fact of
generated sessions against its own message (entailed) and against other facts' messages that
share a word with it (absent), and each matcher's errors on them, pinned. This check found the
first ``verdict-nli`` model reading "I decided to X because Y." as entailing any decision."""

from __future__ import annotations

from collections import Counter

import pytest

pytest.importorskip("onnxruntime")

from soba_bench.scoring import calibration
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.verdict import ABSENT, ENTAILED, parse


@pytest.fixture(scope="module")
def cases() -> list[calibration.Case]:
    return calibration.generated_cases()


def test_the_cases_are_deterministic_and_know_their_answers(cases):
    assert [c.id for c in cases] == [c.id for c in calibration.generated_cases()]
    kinds = Counter((c.category, c.label) for c in cases)
    assert kinds == {("own_statement", ENTAILED): 88, ("unrelated", ABSENT): 724}
    for case in cases:
        if case.category == "unrelated":
            # never the fact's own message; always a word in common (else no matcher looks)
            own = next(c for c in cases if c.id == case.id.rsplit(":", 1)[0])
            assert case.context != own.context
            shared = set(parse(case.claim.text).content) & set(parse(case.context[0]).content)
            assert shared, case.id
        assert case.claim.kind not in ("blocker", "verification", "file_read", "skill")


# (own statements judged entailed, unrelated messages judged absent), of (88, 724).
PINNED = {
    "verdict": (88, 721),
    "verdict-embedding": (88, 721),
    # model 3 (stop 43); model 2 got (88, 719), model 1 (before the augmented pairs) (88, 648)
    "verdict-nli": (87, 715),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_each_matcher_is_pinned_on_the_generated_cases(cases, name):
    outcomes = calibration.run(get_matcher(name), cases)
    right = Counter(o.case.category for o in outcomes if o.correct)
    assert (right["own_statement"], right["unrelated"]) == PINNED[name]
