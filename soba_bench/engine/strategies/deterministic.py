"""The deterministic strategy: a capsule without a model (engine.md h.2). Quality ``degraded``.

Facts come from the compacted span (checkpoint calls, assistant text markers, failing tool
outputs, the last user message) and are rolled together with the previous capsule's state.
String lengths and slices are JavaScript's (UTF-16 units), as in SOBA.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from soba_bench.engine.artifacts import extract_artifacts, parse_arguments, parse_checkpoint_facts
from soba_bench.engine.attempt import whole_ms_between
from soba_bench.engine.failures import tool_failure_output
from soba_bench.engine.reducer import reconcile_structured_state
from soba_bench.engine.strategies.base import (
    DETERMINISTIC,
    Draft,
    GenerationInput,
    base_metrics,
    base_provenance,
)
from soba_bench.jscompat import (
    js_collapse_whitespace,
    js_join,
    js_slice,
    js_string,
    js_trim,
    js_trim_end,
    js_truthy,
    utf16_len,
)

if TYPE_CHECKING:
    from soba_bench.engine.attempt import AttemptContext
    from soba_bench.engine.span import SpanDigest
    from soba_bench.engine.variants import EngineVariant

DEFAULT_GOAL = "Continue working on the current task"
LIST_CAP = 10


def _unique(values: list[str]) -> list[str]:
    seen: dict[str, None] = {}
    for value in values:
        if js_trim(value) and value not in seen:
            seen[value] = None
    return list(seen)[:LIST_CAP]


def _unique_decisions(values: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[Any] = set()  # raw decision values, as SOBA's Set holds them
    out = []
    for value in values:
        decision = value.get("decision")
        if not js_trim(js_string(decision)) or decision in seen:
            continue
        seen.add(decision)
        out.append(value)
    return out[:LIST_CAP]


def _summarize(text: str, max_length: int) -> str:
    normalized = js_trim(js_collapse_whitespace(text))
    if utf16_len(normalized) <= max_length:
        return normalized
    return js_trim_end(js_slice(normalized, 0, max_length - 3)) + "..."


def _text_blocks(item: dict[str, Any]) -> Iterator[str]:
    """Non-empty text blocks of a message with list content (SOBA's ``"text" in block &&
    block.text``)."""
    content = item.get("content")
    if not isinstance(content, list):
        return
    for block in content:
        if isinstance(block, dict) and "text" in block and js_truthy(block["text"]):
            yield js_string(block["text"])


def _assistant(item: dict[str, Any]) -> bool:
    return item.get("type") == "message" and item.get("role") == "assistant"


def _contains_any(text: str, words: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return any(word in lowered for word in words)


def extract_checkpoints(items: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        if item.get("type") != "function_call" or item.get("name") != "checkpoint":
            continue
        try:
            facts = parse_checkpoint_facts(parse_arguments(item.get("arguments")))
        except (ValueError, RecursionError):
            continue
        if facts is not None:
            out.append(facts)
    return out


def _push_new(target: list[Any], value: Any) -> None:
    if value not in target:
        target.append(value)


def _completed(items: Sequence[dict[str, Any]], checkpoints: list[dict[str, Any]]) -> list[str]:
    completed: list[str] = []
    for checkpoint in checkpoints:
        for value in checkpoint["completed"]:
            _push_new(completed, value)
    for item in items:
        if not _assistant(item):
            continue
        for text in _text_blocks(item):
            if item.get("phase") == "final_answer":
                summary = _summarize(text, 400)
                if summary:
                    _push_new(completed, summary)
            elif _contains_any(text, ("completed", "done", "finished")):
                _push_new(completed, js_slice(text, 0, 200))
    return completed[:LIST_CAP]


def _pending(checkpoints: list[dict[str, Any]]) -> list[str]:
    pending: list[str] = []
    for checkpoint in checkpoints:
        for value in checkpoint["pending"]:
            _push_new(pending, value)
    return pending[:LIST_CAP]


def _next_steps(items: Sequence[dict[str, Any]], checkpoints: list[dict[str, Any]]) -> list[str]:
    steps: list[str] = []
    for checkpoint in checkpoints:
        if checkpoint["nextDirection"]:
            _push_new(steps, checkpoint["nextDirection"])
        for value in checkpoint["pending"]:
            _push_new(steps, value)
    # Newest assistant messages first; the "fewer than 5" test is per message, not per block.
    for item in reversed(items):
        if len(steps) >= 5:
            break
        if _assistant(item):
            for text in _text_blocks(item):
                if _contains_any(text, ("next", "todo", "pending")):
                    _push_new(steps, js_slice(text, 0, 200))
    return steps


def _blockers(items: Sequence[dict[str, Any]]) -> list[str]:
    blockers: list[str] = []
    for item in reversed(items):
        if len(blockers) >= 5:
            break
        failure = tool_failure_output(item)
        if failure:  # str | None, so JS and Python truthiness agree
            _push_new(blockers, js_slice(failure, 0, 200))
    return blockers


def _decisions(
    items: Sequence[dict[str, Any]], checkpoints: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    decisions: list[dict[str, Any]] = []
    for checkpoint in checkpoints:
        if checkpoint["kind"] != "plan_pivot":
            continue
        text = f"Plan pivot: {checkpoint['nextDirection'] or checkpoint['reason']}"
        if not any(d["decision"] == text for d in decisions):
            decisions.append({"decision": text, "rationale": checkpoint["reason"]})
    for item in items:
        if not _assistant(item):
            continue
        for text in _text_blocks(item):
            if _contains_any(text, ("decided", "decision", "chose")):
                summary = js_slice(text, 0, 200)
                if not any(d["decision"] == summary for d in decisions):
                    decisions.append({"decision": summary})
    return decisions[:LIST_CAP]


def _goal(items: Sequence[dict[str, Any]]) -> str | None:
    for item in reversed(items):
        if item.get("type") == "message" and item.get("role") == "user":
            content = item.get("content")
            if isinstance(content, list):
                text = js_join(
                    (b["text"] for b in content if isinstance(b, dict) and "text" in b), "\n"
                )
                if js_trim(text):
                    return js_slice(text, 0, 500)
    return None


def rolled_goal(
    custom_instructions: str | None, span_goal: str | None, prev: dict[str, Any]
) -> Any:
    """The rolled state's goal: the custom instructions, else the span's last user message,
    else the previous capsule's goal, else the default. No other field reads these."""
    goal = custom_instructions
    if goal is None:
        goal = span_goal
    if goal is None:
        goal = prev.get("goal")
    if goal is None:
        goal = DEFAULT_GOAL
    return goal


def deterministic_state(
    items: Sequence[dict[str, Any]],
    custom_instructions: str | None,
    previous: dict[str, Any] | None,
    *,
    newest_blockers_first: bool = False,
    span: SpanDigest | None = None,
) -> dict[str, Any]:
    """The rolled portable state before the ask_user reducer. ``span``, when given, is the
    engine's :class:`~soba_bench.engine.span.SpanDigest` of ``items``: it answers each
    per-span extraction below from what it collected as the span grew, with the same result."""
    prev = previous or {}
    if span is None:
        checkpoints = extract_checkpoints(items)
        span_completed, span_pending = _completed(items, checkpoints), _pending(checkpoints)
        span_next, new_blockers = _next_steps(items, checkpoints), _blockers(items)
        span_decisions, span_goal = _decisions(items, checkpoints), _goal(items)
    else:
        span_completed, span_pending = span.completed(), span.pending()
        span_next, new_blockers = span.next_steps(), span.blockers()
        span_decisions, span_goal = span.decisions(), span.goal
    completed = _unique([*prev.get("completed", []), *span_completed])
    pending = [p for p in _unique([*prev.get("pending", []), *span_pending]) if p not in completed]
    next_steps = _unique([*span_next, *prev.get("nextSteps", [])])
    if newest_blockers_first:
        blockers = _unique([*new_blockers, *prev.get("blockers", [])])
    else:
        # SOBA keeps the oldest 10: once 10 are held, new failures are dropped.
        blockers = _unique([*prev.get("blockers", []), *new_blockers])
    decisions = _unique_decisions([*prev.get("decisions", []), *span_decisions])
    return {
        "goal": rolled_goal(custom_instructions, span_goal, prev),
        "constraints": _unique(prev.get("constraints", [])),
        "completed": completed,
        "inProgress": [v for v in _unique(prev.get("inProgress", [])) if v not in completed],
        "pending": pending,
        "decisions": decisions,
        "blockers": blockers,
        "nextSteps": next_steps,
    }


class DeterministicStrategy:
    name = DETERMINISTIC

    def generate(self, gen: GenerationInput, ctx: AttemptContext, variant: EngineVariant) -> Draft:
        started = ctx.clock.now_ms()
        span = gen.span
        if span is not None and span.memo is not None:  # the same values, remembered
            state = span.memo.portable_state(
                gen.previous_state, gen.custom_instructions, variant.newest_blockers_first
            )
            artifacts = span.memo.ledger()
        else:
            state = reconcile_structured_state(
                deterministic_state(
                    gen.source_items,
                    gen.custom_instructions,
                    gen.previous_state,
                    newest_blockers_first=variant.newest_blockers_first,
                    span=span,
                ),
                gen.source_items,
                facts=span.clarifications.facts if span else None,
                superseded=span.superseded if span else None,
            )
            artifacts = span.artifacts.ledger() if span else extract_artifacts(gen.source_items)
        return Draft(
            strategy=DETERMINISTIC,
            quality="degraded",
            portableState=state,
            artifacts=artifacts,
            activatedSkills=gen.activated_skills,
            provenance=base_provenance(gen),
            metrics=base_metrics(gen, whole_ms_between(started, ctx.clock.now_ms())),
        )
