"""What SOBA sends to the model for a branch (engine.md a.6), and the active skills (a.7)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_input_items
from soba_bench.session.entries import Entry


@dataclass(frozen=True)
class ModelInput:
    items: tuple[dict[str, Any], ...]
    previous_response_id: str | None = None


def _items_from(branch: Sequence[Entry], first_kept_id: str) -> list[dict[str, Any]]:
    # Quirk kept on purpose: a first-kept id that is not on the branch ("root" included)
    # yields no tail at all, not even entries appended after the capsule.
    for index, entry in enumerate(branch):
        if entry.id == first_kept_id:
            return [e.item for e in branch[index:] if e.item is not None]
    return []


def build_input(branch: Sequence[Entry], compatibility_key: str | None = None) -> ModelInput:
    """SessionManager.buildInput: last capsule prefix + retained tail, else the last legacy
    compaction item + its tail, else every item on the branch."""
    if not branch:
        return ModelInput(())
    capsule = next((e for e in reversed(branch) if e.kind == E.CONTEXT_CAPSULE), None)
    if capsule is not None:
        prefix = capsule_input_items(capsule.data, compatibility_key)
        kept = _items_from(branch, capsule.data["provenance"]["firstKeptEntryId"])
        return ModelInput(tuple(prefix + kept))
    legacy = next((e for e in reversed(branch) if e.kind == E.COMPACTION), None)
    if legacy is not None:
        items = [
            legacy.data["compactionItem"],
            *_items_from(branch, legacy.data["firstKeptEntryId"]),
        ]
        return ModelInput(tuple(items), previous_response_id=legacy.data.get("responseId"))
    return ModelInput(tuple(e.item for e in branch if e.item is not None))


def active_skill_refs(branch: Sequence[Entry]) -> list[dict[str, Any]]:
    """Skills of the last capsule, then skill_activation entries after it, by name."""
    start = 0
    # Keyed by the raw name, as SOBA's Map is: a missing name is a key too.
    skills: dict[Any, dict[str, Any]] = {}
    for index in range(len(branch) - 1, -1, -1):
        if branch[index].kind == E.CONTEXT_CAPSULE:
            for ref in branch[index].data.get("activatedSkills") or []:
                skills[ref.get("name")] = ref
            start = index + 1
            break
    for entry in branch[start:]:
        if entry.kind != E.SKILL_ACTIVATION:
            continue
        skill = entry.data.get("skill") or {}
        if entry.data.get("action") == "activate":
            skills[skill.get("name")] = skill
        else:  # SOBA treats any other action as a deactivation
            skills.pop(skill.get("name"), None)
    return list(skills.values())
