"""The capsule text the model sees (engine.md h.1), and the capsule's model-input prefix (a.6).

The same text is what the meter measures, so it must match SOBA character for character.
"""

from __future__ import annotations

from typing import Any

from soba_bench.jscompat import js_string, js_truthy

CAPSULE_TITLE = "SOBA Context Capsule"


def _lines(prefix: str, values: list[Any]) -> str:
    """``prefix + String(v)`` per value, one a line. A failing compaction serializes a
    similar capsule at every barrier, so the all-strings case (the usual one) is one C join."""
    if isinstance(values, list) and values:
        try:
            return prefix + ("\n" + prefix).join(values)
        except TypeError:  # a value that is not a string: JS String() one by one, below
            pass
    return "\n".join(f"{prefix}{js_string(v)}" for v in values)


def _bullets(values: list[Any]) -> str:
    return _lines("- ", values)


def goal_section(state: dict[str, Any]) -> str:
    """The portable state's first section (always present)."""
    return f"## Goal\n{js_string(state.get('goal'))}"


def state_sections_after_goal(state: dict[str, Any]) -> list[str]:
    """The portable state's sections after the goal; none of them reads ``goal`` (the engine's
    capsule memo serializes them once per distinct state, engine/capsule_memo.py)."""
    sections = []
    for key, title in (
        ("constraints", "Constraints"),
        ("completed", "Completed"),
        ("inProgress", "In Progress"),
        ("pending", "Pending"),
    ):
        if state.get(key):
            sections.append(f"## {title}\n{_bullets(state[key])}")
    decisions = state.get("decisions") or []
    if decisions:
        lines = []
        for d in decisions:
            decision = js_string(d.get("decision"))
            rationale = d.get("rationale")
            if js_truthy(rationale):
                lines.append(f"- {decision} (rationale: {js_string(rationale)})")
            else:
                lines.append(f"- {decision}")
        sections.append("## Decisions\n" + "\n".join(lines))
    for key, title in (("blockers", "Blockers"), ("nextSteps", "Next Steps")):
        if state.get(key):
            sections.append(f"## {title}\n{_bullets(state[key])}")
    return sections


def serialize_portable_state(state: dict[str, Any]) -> str:
    return "\n\n".join([goal_section(state), *state_sections_after_goal(state)])


def artifacts_section(artifacts: dict[str, Any]) -> str:
    """The capsule's ``## Artifacts`` section."""
    lines = [f"- Verification status: {js_string(artifacts.get('verificationStatus'))}"]
    for prefix, values in (
        ("- Modified: ", artifacts.get("modifiedFiles", [])),
        ("- Read: ", artifacts.get("readFiles", [])),
        ("- Verification command: ", artifacts.get("verificationCommands", [])),
        ("- Checkpoint: ", artifacts.get("checkpointSummaries") or []),
    ):
        chunk = _lines(prefix, values)  # "" only for no values (each line has its prefix)
        if chunk:
            lines.append(chunk)
    return "## Artifacts\n" + "\n".join(lines)


def skills_section(skills: list[dict[str, Any]]) -> str:
    """The capsule's ``## Active Skills`` section (written only when there are skills)."""
    return "## Active Skills\n" + "\n".join(
        f"- {js_string(s.get('name'))} ({js_string(s.get('scope'))}, revision "
        f"{js_string(s.get('revision'))}, hash {js_string(s.get('contentHash'))})"
        for s in skills
    )


def serialize_capsule_context(
    state: dict[str, Any], artifacts: dict[str, Any], skills: list[dict[str, Any]]
) -> str:
    sections = [serialize_portable_state(state), artifacts_section(artifacts)]
    if skills:
        sections.append(skills_section(skills))
    return "\n\n".join(sections)


def capsule_text(capsule: dict[str, Any]) -> str:
    """The full system-message text of a capsule: title, blank line, sections."""
    return f"{CAPSULE_TITLE}\n\n" + serialize_capsule_context(
        capsule["portableState"], capsule["artifacts"], capsule.get("activatedSkills") or []
    )


def capsule_input_items(
    capsule: dict[str, Any], compatibility_key: str | None = None
) -> list[dict[str, Any]]:
    """The capsule's model-input prefix: native items when the provider key matches the
    capsule's native continuation, else one portable system message."""
    native = capsule.get("nativeContinuation")
    if (
        native is not None
        and compatibility_key
        and native.get("compatibilityKey") == compatibility_key
    ):
        return list(native.get("items") or [])
    return [capsule_message(capsule_text(capsule))]


def capsule_message(text: str) -> dict[str, Any]:
    """The portable capsule as one model-input item: a system message with ``text``."""
    return {"type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}
