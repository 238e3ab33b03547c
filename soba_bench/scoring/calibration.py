"""A matcher's calibration: its verdicts on a labelled set of (fact, context, label) cases,
as accuracy and F1 per category. The cases live in tests/data/calibration (see its README);
``benchmarks/matcher_calibration.py`` prints the tables and the tests pin the default's."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.corpora.truth import FACT_KINDS
from soba_bench.errors import InputError
from soba_bench.jsonio import iter_jsonl
from soba_bench.scoring.context import Context
from soba_bench.scoring.verdict import LABELS, Claim, Verdict

SCHEMA_VERSION = 1
# Categories where words alone mislead; the default matcher must reach 90 % on each.
HARD = (
    "paraphrase",
    "negation",
    "wrong_subject",
    "swapped_lists",
    "stale",
    "shuffled",
    "near_miss",
)
EASY = ("verbatim", "absent")
CATEGORIES = (*EASY, *HARD)
STALE_STATUSES = ("resolved", "superseded")


@dataclass(frozen=True)
class Case:
    id: str
    split: str
    category: str
    claim: Claim
    context: tuple[str, ...]
    label: str


def _field(path: Path, line: int, record: dict[str, Any], name: str, allowed=None) -> Any:
    value = record.get(name)
    if value is None or (allowed is not None and value not in allowed):
        raise InputError(
            "bad calibration case",
            path=str(path),
            line=line,
            field=name,
            value=value,
            has_value=True,
            expected=", ".join(allowed) if allowed else "a value",
        )
    return value


def load_cases(path: Path) -> list[Case]:
    """Read one JSONL file of cases (schemaVersion 1); a bad line fails naming file, line,
    field and value."""
    cases = []
    for number, record in iter_jsonl(path, "calibration cases"):
        _field(path, number, record, "schemaVersion", (SCHEMA_VERSION,))
        fact = _field(path, number, record, "fact")
        kind = _field(path, number, fact, "kind", FACT_KINDS)
        attrs = fact.get("attributes") or {}
        claim = Claim(
            kind=kind,
            text=_field(path, number, fact, "text"),
            state="stale" if fact.get("status") in STALE_STATUSES else "current",
            result=attrs.get("finalResult"),
            path=attrs.get("path"),
            command=attrs.get("command"),
        )
        cases.append(
            Case(
                id=_field(path, number, record, "id"),
                split=str(record.get("split") or path.stem),
                category=_field(path, number, record, "category", CATEGORIES),
                claim=claim,
                context=tuple(_field(path, number, record, "context")),
                label=_field(path, number, record, "label", LABELS),
            )
        )
    return cases


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: Verdict

    @property
    def correct(self) -> bool:
        return self.verdict.label == self.case.label


def run(matcher: Any, cases: Iterable[Case]) -> list[Outcome]:
    """Each case's verdict by ``matcher`` (anything with ``judge(claim, context)``)."""
    return [Outcome(c, matcher.judge(c.claim, Context.from_texts(c.context))) for c in cases]


def macro_f1(pairs: Sequence[tuple[str, str]]) -> float:
    """Macro-averaged F1 over the gold labels of ``pairs`` (in a category whose cases all
    carry one label, that label's F1)."""
    labels = sorted({g for g, _ in pairs})
    scores = []
    for label in labels:
        tp = sum(1 for g, p in pairs if g == label and p == label)
        fp = sum(1 for g, p in pairs if g != label and p == label)
        fn = sum(1 for g, p in pairs if g == label and p != label)
        scores.append(2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 1.0)
    return sum(scores) / len(scores) if scores else 0.0


@dataclass(frozen=True)
class Row:
    category: str
    n: int
    accuracy: float
    f1: float


def table(outcomes: Sequence[Outcome]) -> list[Row]:
    """One row per category present, then "overall"."""
    by_category: dict[str, list[Outcome]] = defaultdict(list)
    for outcome in outcomes:
        by_category[outcome.case.category].append(outcome)
    rows = []
    for category in [c for c in CATEGORIES if c in by_category] + ["overall"]:
        group = outcomes if category == "overall" else by_category[category]
        pairs = [(o.case.label, o.verdict.label) for o in group]
        accuracy = sum(o.correct for o in group) / len(group)
        rows.append(Row(category, len(group), accuracy, macro_f1(pairs)))
    return rows


def counts(cases: Iterable[Case]) -> Counter[tuple[str, str]]:
    """(category, label) -> number of cases."""
    return Counter((c.category, c.label) for c in cases)
