"""SOBA's own lexical portable-capsule quality check (engine.md m.5), ported so a replay can
report the score SOBA itself would give a capsule, next to the ground-truth retention scores.

As in SOBA: map a ``context_capsule`` entry to a portable capsule (``portable``), then score it
lexically against an expectation. ``expectation_from_truth`` builds that expectation from
ground-truth facts instead of hand-written fixtures, which is this harness's addition.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.corpora.truth import Fact
from soba_bench.jscompat import (
    js_collapse_whitespace,
    js_round,
    js_string,
    js_trim,
)
from soba_bench.scoring.match import content_words
from soba_bench.scoring.timeline import Lifecycle

DEFAULT_THRESHOLD = 0.9
WEIGHTS = {"goal": 0.2, "decisions": 0.2, "blockers": 0.15, "artifacts": 0.3, "integration": 0.15}


# ── m.5 evaluator ────────────────────────────────────────────────────────────────────────


@dataclass(frozen=True)
class QualityExpectation:
    """What a receiver should find (SOBA's PortableCapsuleQualityExpectation)."""

    goal_keywords: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    blockers: tuple[str, ...] = ()
    read_files: tuple[str, ...] = ()
    modified_files: tuple[str, ...] = ()
    verification_commands: tuple[str, ...] = ()
    verification_status: str | None = None
    integration_actions: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> QualityExpectation:
        """From SOBA's camelCase shape (``artifacts`` as a partial ledger)."""
        artifacts = data.get("artifacts") or {}
        return cls(
            goal_keywords=tuple(data.get("goalKeywords") or ()),
            decisions=tuple(data.get("decisions") or ()),
            blockers=tuple(data.get("blockers") or ()),
            read_files=tuple(artifacts.get("readFiles") or ()),
            modified_files=tuple(artifacts.get("modifiedFiles") or ()),
            verification_commands=tuple(artifacts.get("verificationCommands") or ()),
            verification_status=artifacts.get("verificationStatus") or None,
            integration_actions=tuple(data.get("integrationActions") or ()),
        )


@dataclass(frozen=True)
class QualityDimension:
    name: str
    score: float
    weight: float
    matched: int
    expected: int
    missing: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "score": self.score,
            "weight": self.weight,
            "matched": self.matched,
            "expected": self.expected,
            "missing": list(self.missing),
        }


@dataclass(frozen=True)
class QualityResult:
    score: float
    passed: bool
    threshold: float
    dimensions: tuple[QualityDimension, ...]

    def dimension(self, name: str) -> QualityDimension:
        for d in self.dimensions:
            if d.name == name:
                return d
        raise KeyError(f"no dimension {name!r}; valid: {', '.join(WEIGHTS)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "passed": self.passed,
            "threshold": self.threshold,
            "dimensions": [d.to_dict() for d in self.dimensions],
        }


def _normalize(text: str) -> str:
    return js_trim(js_collapse_whitespace(text.lower()))


def _holds(normalized: str, needle: str) -> bool:
    """SOBA's containment, the haystack normalised once by the caller (a capsule's text is
    long, and it is asked about every expected item)."""
    wanted = _normalize(needle)
    return not wanted or wanted in normalized


def _round3(value: float) -> float:
    return js_round(value * 1000) / 1000


def _ratio(matched: int, expected: int) -> float:
    return 1.0 if expected == 0 else _round3(matched / expected)


def _strings(values: Any) -> list[str]:
    return [js_string(v) for v in values or []]


def _sections(portable: dict[str, Any], *names: str) -> str:
    parts: list[str] = []
    for name in names:
        if name == "objective":
            parts.append(js_string(portable.get("objective")))
        elif name == "dispatch":
            parts.append(js_string(portable.get("dispatchSummary")))
        elif name == "core":
            parts.extend(_strings(portable.get("coreContent")))
        elif name == "patterns":
            parts.extend(
                f"{js_string(p.get('name'))} {js_string(p.get('description'))}"
                for p in portable.get("patterns") or []
            )
        elif name == "signals":
            parts.extend(_strings(portable.get("signals")))
        elif name == "integration":
            for step in portable.get("integrationPlan") or []:
                parts.append(js_string(step.get("title")))
                for key in ("prerequisites", "actions", "verification", "rollback"):
                    parts.extend(_strings(step.get(key)))
    return "\n".join(parts)


def _text_dimension(name: str, expected: Sequence[str], haystack: str) -> QualityDimension:
    normalized = _normalize(haystack)
    missing = tuple(item for item in expected if not _holds(normalized, item))
    matched = len(expected) - len(missing)
    return QualityDimension(
        name, _ratio(matched, len(expected)), WEIGHTS[name], matched, len(expected), missing
    )


def _artifact_dimension(expected: QualityExpectation, actual: dict[str, Any]) -> QualityDimension:
    checks: list[tuple[str, bool]] = []
    for label, wanted, key in (
        ("read", expected.read_files, "readFiles"),
        ("modified", expected.modified_files, "modifiedFiles"),
        ("command", expected.verification_commands, "verificationCommands"),
    ):
        listed = _normalize("\n".join(_normalize(v) for v in _strings(actual.get(key))))
        checks.extend((f"{label}:{item}", _holds(listed, item)) for item in wanted)
    if expected.verification_status:
        status = expected.verification_status
        checks.append((f"verificationStatus:{status}", actual.get("verificationStatus") == status))
    matched = sum(1 for _, ok in checks if ok)
    missing = tuple(label for label, ok in checks if not ok)
    score = _ratio(matched, len(checks))
    return QualityDimension("artifacts", score, WEIGHTS["artifacts"], matched, len(checks), missing)


def evaluate_quality(
    portable: dict[str, Any], expected: QualityExpectation, threshold: float = DEFAULT_THRESHOLD
) -> QualityResult:
    """SOBA's lexical evaluator: normalised substring checks per dimension, weighted sum."""
    dimensions = (
        _text_dimension(
            "goal", expected.goal_keywords, _sections(portable, "objective", "dispatch", "core")
        ),
        _text_dimension("decisions", expected.decisions, _sections(portable, "patterns", "core")),
        _text_dimension("blockers", expected.blockers, _sections(portable, "dispatch", "core")),
        _artifact_dimension(expected, portable.get("artifacts") or {}),
        _text_dimension(
            "integration",
            expected.integration_actions,
            _sections(portable, "integration", "signals", "core"),
        ),
    )
    total = 0.0
    for d in dimensions:  # summed in SOBA's order: float addition is not associative
        total += d.score * d.weight
    score = _round3(total)
    return QualityResult(score, score >= threshold, threshold, dimensions)


# ── expectations from ground truth ───────────────────────────────────────────────────────


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v for v in values if v))


def _keywords(fact: Fact) -> list[str]:
    if fact.keywords:
        return list(fact.keywords)
    lower = fact.text.lower()
    return sorted(content_words(fact.text), key=lambda w: (lower.find(w), w))


def _fact_path(fact: Fact) -> str:
    return str(fact.attributes.get("path") or fact.attributes.get("to") or fact.text)


def _runs(fact: Fact, lifecycle: Lifecycle) -> list[tuple[int, str]]:
    """(position, "passed" | "failed") of each recorded run of a verification fact. Synthetic
    truths list every run; importers write one fact per run with ``passed``/``exitCode``."""
    attrs = fact.attributes
    if isinstance(attrs.get("runs"), list):
        return [
            (lifecycle.timeline.at(run.get("entryId")), run["result"])
            for run in attrs["runs"]
            if isinstance(run, dict) and run.get("result") in ("passed", "failed")
        ]
    passed = attrs.get("passed")
    if passed is None and isinstance(attrs.get("exitCode"), int):
        passed = attrs["exitCode"] == 0
    if passed is None:
        return []
    return [(lifecycle.start[fact.id], "passed" if passed else "failed")]


def expectation_from_truth(
    facts: Iterable[Fact], lifecycle: Lifecycle, point: int
) -> QualityExpectation:
    """The expectation a capsule made at ``point`` should meet: the live goal's keywords, live
    decisions, blockers and next steps, live read/modified files, and the verification
    commands run so far with the latest known result.

    Verification commands count once run, not only while "live": a verification fact ends
    when its failure is fixed, but the command and its passing result stay part of the record
    a receiver needs (SOBA's ledger lists them too).
    """
    facts = list(facts)
    live = [f for f in facts if lifecycle.live_at(f, point)]

    def texts(kind: str) -> tuple[str, ...]:
        return _unique(f.text for f in live if f.kind == kind)

    runs: list[tuple[int, str]] = []
    commands: list[str] = []
    for fact in facts:
        if fact.kind == "verification" and lifecycle.introduced_before(fact, point):
            commands.append(str(fact.attributes.get("command") or fact.text))
            runs.extend(r for r in _runs(fact, lifecycle) if r[0] < point)
    # The last run at the latest position wins (a fact's runs are listed in order).
    latest = max(enumerate(runs), key=lambda r: (r[1][0], r[0]), default=None)
    return QualityExpectation(
        goal_keywords=_unique(w for f in live if f.kind == "goal" for w in _keywords(f)),
        decisions=texts("decision"),
        blockers=texts("blocker"),
        read_files=_unique(_fact_path(f) for f in live if f.kind == "file_read"),
        modified_files=_unique(_fact_path(f) for f in live if f.kind == "file_modified"),
        verification_commands=_unique(commands),
        verification_status=latest[1][1] if latest else None,
        integration_actions=texts("next_step"),
    )
