"""A matcher's calibration: its verdicts on a labelled set of (fact, context, label) cases,
as accuracy and F1 per category. The cases live in tests/data/calibration (see its README);
``benchmarks/matcher_calibration.py`` prints the tables and the tests pin the default's."""

from __future__ import annotations

import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.corpora.synthetic import generate_corpus
from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.corpora.truth import FACT_KINDS, read_truth, truth_path
from soba_bench.errors import InputError
from soba_bench.jsonio import iter_jsonl
from soba_bench.meter.soba import item_text
from soba_bench.scoring.context import Context
from soba_bench.scoring.retention import PROSE_KINDS
from soba_bench.scoring.verdict import ABSENT, ENTAILED, LABELS, STATE_JUDGES, Claim, Verdict, parse
from soba_bench.session import read_session

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
# Known-answer categories drawn from generated sessions (no writer involved, see
# ``generated_cases``): a fact against the message that introduced it, and against another
# prose fact's message that shares words with it.
GENERATED = ("own_statement", "unrelated")


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
    for category in [c for c in (*CATEGORIES, *GENERATED) if c in by_category] + ["overall"]:
        group = outcomes if category == "overall" else by_category[category]
        pairs = [(o.case.label, o.verdict.label) for o in group]
        accuracy = sum(o.correct for o in group) / len(group)
        rows.append(Row(category, len(group), accuracy, macro_f1(pairs)))
    return rows


def counts(cases: Iterable[Case]) -> Counter[tuple[str, str]]:
    """(category, label) -> number of cases."""
    return Counter((c.category, c.label) for c in cases)


def generated_cases(seed: int = 0, sessions: int = 4, entries: int = 1500) -> list[Case]:
    """Cases whose answer the synthetic generator knows, in the register of its messages.

    For each current prose fact of ``sessions`` generated sessions: the message that
    introduced it must entail it (``own_statement``), and the message that introduced another
    prose fact of the session must not (``unrelated``, absent) when the message is not the
    fact's own evidence and shares a content word with it (without one, no matcher even looks
    at it). Both facts are current, so neither revises the other. Written sessions carry
    phrasings ("I decided to X because Y.") the hand-written splits have few of, and no
    matcher was tuned on them: a matcher that reads a lead-in or a shared topic as
    entailment fails here."""
    cases: list[Case] = []
    with tempfile.TemporaryDirectory(prefix="soba-bench-generated-") as tmp:
        generate_corpus(
            tmp, SyntheticConfig(entries=entries), seed=seed, sessions=sessions, name="known"
        )
        for path in sorted(Path(tmp, "sessions").glob("*.jsonl*")):
            if path.name.endswith(".truth.json"):
                continue
            truth = read_truth(truth_path(path))
            text_of = {
                e.id: item_text(e.item)
                for e in read_session(path).tree_entries
                if e.item is not None
            }
            facts = [
                f
                for f in truth.facts
                if f.kind in PROSE_KINDS and f.kind not in STATE_JUDGES and f.status == "active"
            ]
            own = {f.id: next((i for i in f.entry_ids if text_of.get(i)), None) for f in facts}
            for fact in facts:
                claim = Claim(kind=fact.kind, text=fact.text)
                words = set(parse(fact.text).content)
                entry = own[fact.id]
                if entry is not None:
                    cases.append(
                        Case(
                            f"{path.name}:{fact.id}",
                            "generated",
                            "own_statement",
                            claim,
                            (text_of[entry],),
                            ENTAILED,
                        )
                    )
                for other in facts:
                    entry = own[other.id]
                    if (
                        other.id == fact.id
                        or entry is None
                        or entry in fact.entry_ids
                        or not words & set(parse(text_of[entry]).content)
                    ):
                        continue
                    cases.append(
                        Case(
                            f"{path.name}:{fact.id}:{other.id}",
                            "generated",
                            "unrelated",
                            claim,
                            (text_of[entry],),
                            ABSENT,
                        )
                    )
    return cases
