"""Draft validation: every error and warning code of SOBA's CapsuleValidator (engine.md j.3).

Errors make a draft invalid; warnings never block.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.engine.failures import tool_failure_output
from soba_bench.jscompat import js_number, js_slice, js_string, js_to_fixed, js_trim, js_truthy
from soba_bench.session import entries as E

if TYPE_CHECKING:
    from soba_bench.engine.span import SpanDigest
    from soba_bench.engine.strategies.base import Draft

MISSING_GOAL = "missing_goal"
FIRST_KEPT_NOT_IN_BRANCH = "first_kept_not_in_branch"
COMPACTED_AFTER_KEPT = "compacted_after_kept"
LOST_BLOCKER = "lost_blocker"
LOST_FAILED_VERIFICATION = "lost_failed_verification"
NATIVE_NO_IDENTITY = "native_no_identity"
NATIVE_NO_COMPATIBILITY_KEY = "native_no_compatibility_key"
LOST_ACTIVATED_SKILL = "lost_activated_skill"
EXCEEDS_HARD_LIMIT = "exceeds_hard_limit"
TOOL_CALL_BOUNDARY = "tool_call_boundary"
ERROR_CODES = (
    MISSING_GOAL,
    FIRST_KEPT_NOT_IN_BRANCH,
    COMPACTED_AFTER_KEPT,
    LOST_BLOCKER,
    LOST_FAILED_VERIFICATION,
    NATIVE_NO_IDENTITY,
    NATIVE_NO_COMPATIBILITY_KEY,
    LOST_ACTIVATED_SKILL,
    EXCEEDS_HARD_LIMIT,
    TOOL_CALL_BOUNDARY,
)
EMPTY_PENDING_NEXTSTEPS = "empty_pending_nextsteps"
UNKNOWN_VERIFICATION = "unknown_verification"
LOW_SAVINGS = "low_savings"
NO_ACTIVATED_SKILLS = "no_activated_skills"
WARNING_CODES = (EMPTY_PENDING_NEXTSTEPS, UNKNOWN_VERIFICATION, LOW_SAVINGS, NO_ACTIVATED_SKILLS)


@dataclass(frozen=True)
class Finding:
    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class ValidationResult:
    errors: tuple[Finding, ...] = ()
    warnings: tuple[Finding, ...] = field(default=())

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "errors": [f.to_dict() for f in self.errors],
            "warnings": [f.to_dict() for f in self.warnings],
        }


def source_blockers(items: Sequence[dict[str, Any]], limit: int = 3) -> list[str]:
    """First 100 characters of the newest failing tool outputs (not deduplicated)."""
    found: list[str] = []
    for item in reversed(items):
        if len(found) >= limit:
            break
        failure = tool_failure_output(item)
        if failure:  # str | None, so JS and Python truthiness agree
            found.append(js_slice(failure, 0, 100))
    return found


def has_failed_verification(items: Sequence[dict[str, Any]]) -> bool:
    # Any failing shell output, not the last one (so fail-then-pass cannot be compacted).
    for item in items:
        if item.get("type") == E.LOCAL_SHELL_CALL_OUTPUT and "exit_code" in item:
            code = item["exit_code"]
            if not (code == 0 and code is not False):
                return True
    return False


def _skill_key(skill: dict[str, Any]) -> str:
    return ":".join(
        "" if skill.get(k) is None else js_string(skill.get(k))
        for k in ("name", "scope", "revision", "contentHash")
    )


def compacted_call_kept_output(call_id: Any) -> str:
    return f'Tool call "{js_string(call_id)}" is in compacted items but its output is in kept items'


def kept_call_compacted_output(call_id: Any) -> str:
    return f'Tool call "{js_string(call_id)}" is in kept items but its output is in compacted items'


def call_ids(items: Sequence[dict[str, Any]], kinds: frozenset[str]) -> dict[Any, None]:
    """The call ids of ``items`` of the given kinds, in first-seen order (a JS Set)."""
    return {item.get("call_id"): None for item in items if item.get("type") in kinds}


def tool_call_boundary(source: Sequence[dict[str, Any]], kept: list[dict[str, Any]]) -> str | None:
    source_calls, source_outputs = call_ids(source, E.CALL_TYPES), call_ids(source, E.OUTPUT_TYPES)
    kept_calls, kept_outputs = call_ids(kept, E.CALL_TYPES), call_ids(kept, E.OUTPUT_TYPES)
    for call_id in source_calls:
        if call_id in kept_outputs:
            return compacted_call_kept_output(call_id)
    for call_id in kept_calls:
        if call_id in source_outputs:
            return kept_call_compacted_output(call_id)
    return None


class EntryIndex(Protocol):
    """What the validator asks of the active branch (a LiveBranch answers it)."""

    def index_of(self, entry_id: str | None) -> int:
        """First index of an id on the branch (JS ``findIndex``), or -1."""
        ...


def validate_draft(
    draft: Draft,
    branch: EntryIndex,
    source_items: Sequence[dict[str, Any]],
    kept_items: list[dict[str, Any]],
    hard_limit: float,
    is_blocking: bool,
    required_skills: list[dict[str, Any]],
    span: SpanDigest | None = None,
) -> ValidationResult:
    """SOBA's ``CapsuleValidator.validate``. ``branch`` answers ``index_of(id)`` for the
    whole active branch (SOBA passes every branch entry id). ``span``, when given, is the
    engine's :class:`~soba_bench.engine.span.SpanDigest` of ``source_items``: its blockers,
    verification flag and call ids were collected as the span grew, so nothing re-reads it."""
    errors: list[Finding] = []
    warnings: list[Finding] = []
    state, artifacts, provenance = draft.portableState, draft.artifacts, draft.provenance
    goal = state.get("goal")
    if not js_truthy(goal) or not js_trim(js_string(goal)):
        errors.append(Finding(MISSING_GOAL, "Capsule must have a non-empty goal"))
    first_kept = provenance.get("firstKeptEntryId")
    if first_kept != "root" and branch.index_of(first_kept) < 0:
        errors.append(
            Finding(
                FIRST_KEPT_NOT_IN_BRANCH,
                f'firstKeptEntryId "{js_string(first_kept)}" not found in current branch',
            )
        )
    first_compacted = provenance.get("firstCompactedEntryId")
    if first_compacted != "root":
        compacted_index, kept_index = branch.index_of(first_compacted), branch.index_of(first_kept)
        if compacted_index >= 0 and kept_index >= 0 and compacted_index > kept_index:
            errors.append(
                Finding(
                    COMPACTED_AFTER_KEPT, "firstCompactedEntryId must not be after firstKeptEntryId"
                )
            )
    blockers = state.get("blockers", [])
    newest_blockers = span.source_blockers() if span else source_blockers(source_items)
    for blocker in newest_blockers:
        if not any(blocker in b for b in blockers if isinstance(b, str)):
            errors.append(
                Finding(
                    LOST_BLOCKER, f'Active blocker lost in capsule: "{js_slice(blocker, 0, 100)}"'
                )
            )
    failed = span.failed_verification if span else has_failed_verification(source_items)
    if failed and artifacts.get("verificationStatus") != "failed":
        errors.append(
            Finding(LOST_FAILED_VERIFICATION, "Failed verification status lost in capsule")
        )
    native = draft.nativeContinuation
    if native:
        if not js_truthy(native.get("provider")):
            errors.append(
                Finding(NATIVE_NO_IDENTITY, "Native continuation must have provider identity")
            )
        if not js_truthy(native.get("compatibilityKey")):
            errors.append(
                Finding(
                    NATIVE_NO_COMPATIBILITY_KEY,
                    "Native continuation must have a non-empty compatibility key",
                )
            )
    draft_keys = {_skill_key(s) for s in draft.activatedSkills}
    for skill in required_skills:
        if _skill_key(skill) not in draft_keys:
            errors.append(
                Finding(
                    LOST_ACTIVATED_SKILL,
                    f'Active skill lost in capsule: "{js_string(skill.get("name"))}" '
                    f"({js_string(skill.get('revision'))})",
                )
            )
    after = draft.metrics["estimatedTokensAfter"]
    if is_blocking and after > hard_limit:
        errors.append(
            Finding(
                EXCEEDS_HARD_LIMIT,
                f"Post-compaction estimate ({js_number(after)}) exceeds hard limit "
                f"({js_number(hard_limit)})",
            )
        )
    if span:
        boundary = span.tool_call_boundary(kept_items)
    else:
        boundary = tool_call_boundary(source_items, kept_items)
    if boundary:
        errors.append(Finding(TOOL_CALL_BOUNDARY, boundary))

    if not state.get("pending") and not state.get("nextSteps"):
        warnings.append(
            Finding(EMPTY_PENDING_NEXTSTEPS, "No pending items or next steps in capsule")
        )
    if artifacts.get("verificationStatus") == "unknown":
        warnings.append(Finding(UNKNOWN_VERIFICATION, "Verification status is unknown"))
    ratio = draft.metrics["savingsRatio"]
    if not is_blocking and ratio < 0.1:
        warnings.append(
            Finding(
                LOW_SAVINGS,
                f"Low savings ratio ({js_to_fixed(ratio * 100, 1)}%) for manual compaction",
            )
        )
    if not draft.activatedSkills:
        warnings.append(Finding(NO_ACTIVATED_SKILLS, "No activated skills in capsule"))
    return ValidationResult(tuple(errors), tuple(warnings))
