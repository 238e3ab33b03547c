"""Compare a replay with SOBA's recorded conformance outputs (our own comparison, independent
of the reference tool in SOBA's conformance kit). Used by tests and ``soba-bench verify``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

ATTEMPT_FIELDS = (
    "beforeEntryId",
    "turn",
    "trigger",
    "required",
    "outcome",
    "tokensBefore",
    "tokensAfter",
    "reclaimed",
    "firstKeptEntryId",
    "firstCompactedEntryId",
    "compactedItemCount",
    "strategy",
    "quality",
    "validationErrors",
    "canProceed",
)
CAPSULE_FIELDS = ("portableState", "artifacts", "provenance", "activatedSkills", "metrics")
BARRIER_FIELDS = (
    "kind",
    "beforeEntryId",
    "flush",
    "turn",
    "pendingTrigger",
    "source",
    "softLimit",
    "hardLimit",
    "canProceed",
)


def _same(a: Any, b: Any) -> bool:
    """Numbers by value, booleans only to booleans, containers recursively."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _field(record: dict[str, Any], name: str) -> Any:
    value = record.get(name, _MISSING)
    if name == "validationErrors" and isinstance(value, list):
        return sorted(v["code"] if isinstance(v, dict) else v for v in value)
    return value


_MISSING = object()


@dataclass
class Comparison:
    compared: int = 0
    matched: int = 0
    mismatches: list[str] = field(default_factory=list)
    reason_mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.compared == self.matched and not self.reason_mismatches


def compare_attempts(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> Comparison:
    exp = [r for r in expected if r.get("kind") == "attempt"]
    act = [r for r in actual if r.get("kind") == "attempt"]
    result = Comparison(compared=max(len(exp), len(act)))
    for i in range(result.compared):
        if i >= len(exp) or i >= len(act):
            side = "extra actual" if i >= len(exp) else "missing"
            record = (act if i >= len(exp) else exp)[i]
            result.mismatches.append(
                f"attempt {i + 1}: {side} (before {record.get('beforeEntryId')})"
            )
            continue
        diffs = [
            f"{n}: expected {_field(exp[i], n)!r}, got {_field(act[i], n)!r}"
            for n in ATTEMPT_FIELDS
            if not _same(_field(exp[i], n), _field(act[i], n))
        ]
        if diffs:
            result.mismatches.append(f"attempt {i + 1}: " + "; ".join(diffs))
        else:
            result.matched += 1
        if exp[i].get("reason") != act[i].get("reason"):
            result.reason_mismatches.append(
                f"attempt {i + 1}: reason expected {exp[i].get('reason')!r}, got "
                f"{act[i].get('reason')!r}"
            )
    return result


def compare_capsules(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> Comparison:
    exp = [r for r in expected if r.get("type") == "context_capsule"]
    act = [r for r in actual if r.get("type") == "context_capsule"]
    result = Comparison(compared=max(len(exp), len(act)))
    for i in range(result.compared):
        if i >= len(exp) or i >= len(act):
            result.mismatches.append(f"capsule {i + 1}: {'extra' if i >= len(exp) else 'missing'}")
            continue
        diffs = []
        for name in CAPSULE_FIELDS:
            a, b = exp[i].get(name, _MISSING), act[i].get(name, _MISSING)
            if name == "metrics" and isinstance(a, dict) and isinstance(b, dict):
                a = {k: v for k, v in a.items() if k != "generationDurationMs"}
                b = {k: v for k, v in b.items() if k != "generationDurationMs"}
            if not _same(a, b):
                diffs.append(f"{name}: expected {json.dumps(a)[:300]}, got {json.dumps(b)[:300]}")
        if diffs:
            result.mismatches.append(f"capsule {i + 1}: " + "; ".join(diffs))
        else:
            result.matched += 1
    return result


def compare_barriers(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> Comparison:
    exp = [r for r in expected if r.get("kind") in ("attempt", "check")]
    act = [r for r in actual if r.get("kind") in ("attempt", "check")]
    result = Comparison(compared=max(len(exp), len(act)))
    for i in range(result.compared):
        if i >= len(exp) or i >= len(act):
            result.mismatches.append(f"barrier {i + 1}: {'extra' if i >= len(exp) else 'missing'}")
            continue
        e, a = exp[i], act[i]
        names = [
            *BARRIER_FIELDS,
            "tokensBefore" if e.get("kind") == "attempt" else "effectiveTokens",
        ]
        diffs = [
            f"{n}: expected {e.get(n, _MISSING)!r}, got {a.get(n, _MISSING)!r}"
            for n in names
            if not _same(e.get(n, _MISSING), a.get(n, _MISSING))
        ]
        if diffs:
            result.mismatches.append(
                f"barrier {i + 1} ({e.get('beforeEntryId')}): " + "; ".join(diffs)
            )
        else:
            result.matched += 1
    return result
