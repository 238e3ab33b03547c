"""The Project Memory mirror of a capsule (engine.md a.8): only explicit ``/compact``
capsules that are not degraded are mirrored; storage errors never fail the compaction."""

from __future__ import annotations

from typing import Any

from soba_bench.jscompat import (
    js_collapse_whitespace,
    js_slice,
    js_string,
    js_trim,
    js_trim_end,
    js_truthy,
    utf16_len,
)

SUMMARY_MAX = 160


def _normalize(value: Any) -> str:
    return js_trim(js_collapse_whitespace(js_string(value)))


def _truncate(value: str, max_length: int) -> str:
    text = _normalize(value)
    if utf16_len(text) <= max_length:
        return text
    return js_trim_end(js_slice(text, 0, max(0, max_length - 3))) + "..."


def _first(values: list[Any]) -> Any:
    return values[0] if values and js_truthy(values[0]) else None


def capsule_to_memory(capsule: dict[str, Any], session_id: str = "") -> dict[str, Any]:
    """The memory record SOBA would write for a capsule entry."""
    state = capsule["portableState"]
    ck = js_string(capsule["checkpointId"])
    goal = _normalize(state.get("goal")) or f"Context capsule {ck}"
    completed = state.get("completed", [])
    if _first(completed) is not None:
        extra = f" (+{len(completed) - 1})" if len(completed) > 1 else ""
        progress = f"Completed: {completed[0]}{extra}"
    elif _first(state.get("inProgress", [])) is not None:
        progress = f"In progress: {state['inProgress'][0]}"
    elif _first(state.get("pending", [])) is not None:
        progress = f"Pending: {state['pending'][0]}"
    else:
        progress = f"Goal: {goal}"
    metrics = capsule["metrics"]
    decisions = [
        f"Decision: {d.get('decision')} ({d['rationale']})"
        if js_truthy(d.get("rationale"))
        else f"Decision: {d.get('decision')}"
        for d in state.get("decisions", [])
    ]
    lines = [
        f"Context capsule: {ck}",
        f"Trigger: {capsule['trigger']}",
        f"Strategy: {capsule['strategy']}",
        f"Quality: {capsule['quality']}",
        f"Goal: {js_string(state.get('goal'))}",
        *(f"Completed: {v}" for v in completed),
        *(f"In progress: {v}" for v in state.get("inProgress", [])),
        *(f"Pending: {v}" for v in state.get("pending", [])),
        *decisions,
        *(f"Blocker: {v}" for v in state.get("blockers", [])),
        *(f"Next: {v}" for v in state.get("nextSteps", [])),
        f"Metrics: {js_string(metrics['effectiveTokensBefore'])} -> "
        f"{js_string(metrics['estimatedTokensAfter'])} tokens, "
        f"reclaimed {js_string(metrics['reclaimedTokens'])}.",
    ]
    trigger = capsule["trigger"]
    if trigger in ("context_overflow", "hard_limit"):
        priority = "high"
    elif capsule["quality"] == "degraded":
        priority = "low"
    else:
        priority = "medium"
    return {
        "id": f"mem_{ck}",
        "type": "discovery",
        "summary": _truncate(f"Context capsule {ck}: {progress}", SUMMARY_MAX),
        "detail": "\n".join(line for line in map(_normalize, lines) if line),
        "context": {"task": goal, "sessionId": session_id, "timestamp": capsule.get("timestamp")},
        "priority": priority,
        "tags": ["context-capsule", "checkpoint", trigger, capsule["strategy"], capsule["quality"]],
        "related": [],
    }


def should_mirror(capsule: dict[str, Any]) -> bool:
    return bool(capsule["trigger"] == "user_request" and capsule["quality"] != "degraded")
