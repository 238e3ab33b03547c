"""Structured-state reducer: answered ``ask_user`` calls become decisions and supersede stale
"waiting for the user" entries (engine.md h.3). Applied after every strategy.

JS quirks kept on purpose: ``\\b`` is ASCII-only even in SOBA's ``u``-flag patterns (so the
last Russian pattern practically never matches), and ``.`` stops at line terminators.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from soba_bench.jscompat import (
    JS_NOT_LINE_TERMINATOR,
    JS_WS_CLASS,
    js_json_parse,
    js_trim,
    utf16_len,
)

_DOT = JS_NOT_LINE_TERMINATOR
_ANSWER = re.compile(
    rf"^User selected:{JS_WS_CLASS}*({_DOT}+?)(?:\nOther details:{JS_WS_CLASS}*([\s\S]+))?\Z",
    re.IGNORECASE | re.ASCII,
)
_TOKEN = re.compile(r"[^\W_]+")  # Unicode letters and numbers, as /[\p{L}\p{N}]+/u


def _compile(patterns: list[str]) -> list[re.Pattern[str]]:
    # re.ASCII makes \b ASCII-only, as in JS; no pattern here relies on \w or \s.
    return [re.compile(p.replace(".*", f"{_DOT}*"), re.ASCII) for p in patterns]


EXPLICIT_USER_WAIT = _compile(
    [
        r"\bawait(?:ing)?\b.*\buser\b",
        r"\bwait(?:ing)?\b.*\buser\b",
        r"\buser\b.*\b(must|need|select|specif|choos|confirm|provide|name|answer)",
        r"\b(ask|prompt)\b.*\buser\b",
        r"\bconfirmation\b.*\b(user|needed|required)",
        r"\b(has not|hasn't|not yet)\b.*\b(provided|selected|specified|confirmed|named)",
        r"\bonce\b.*\b(named|selected|specified|confirmed|answered)",
        r"\bafter\b.*\b(selection|specification|confirmation|answer)",
        r"ожида.*пользоват",
        r"пользоват.*(долж|нуж|выб|указ|назв|ответ|подтверж)",
        r"(спрос|уточн|подтверж).*пользоват",
        r"(после|когда).*\b(выбор|ответ|уточнен|подтвержден)",
    ]
)
CLARIFICATION_VERB = _compile(
    [r"(specif|select|choos|confirm|clarif)", r"(указ|выб|подтверж|уточн)"]
)


@dataclass(frozen=True)
class Lexicon:
    """Pattern groups; integrations may append patterns to either group."""

    explicit_user_wait: tuple[re.Pattern[str], ...] = tuple(EXPLICIT_USER_WAIT)
    clarification_verb: tuple[re.Pattern[str], ...] = tuple(CLARIFICATION_VERB)


@dataclass(frozen=True)
class Clarification:
    question: str
    options: tuple[tuple[str, str], ...]
    answer: str = ""
    tokens: tuple[str, ...] = field(default=())


def _parse_call(arguments: Any) -> tuple[str, tuple[tuple[str, str], ...]] | None:
    try:
        parsed = js_json_parse(arguments) if isinstance(arguments, str) else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(parsed, dict):
        return None
    question, options = parsed.get("question"), parsed.get("options")
    if not isinstance(question, str) or not isinstance(options, list):
        return None
    kept = tuple(
        (o["id"], o["label"])
        for o in options
        if isinstance(o, dict) and isinstance(o.get("id"), str) and isinstance(o.get("label"), str)
    )
    return js_trim(question), kept


class ClarificationScan:
    """Answered ``ask_user`` calls, collected one item at a time."""

    def __init__(self) -> None:
        self.calls: dict[Any, tuple[str, tuple[tuple[str, str], ...]]] = {}
        self.facts: list[Clarification] = []

    def feed(self, item: dict[str, Any]) -> None:
        kind = item.get("type")
        if kind == "function_call" and item.get("name") == "ask_user":
            call = _parse_call(item.get("arguments"))
            if call is not None:
                self.calls[item.get("call_id")] = call
            return
        if kind != "function_call_output":
            return
        call = self.calls.get(item.get("call_id"))
        output = item.get("output")
        if call is None or not isinstance(output, str):
            return
        match = _ANSWER.match(js_trim(output))
        if not match or not match.group(1):
            return
        answer = js_trim(match.group(1))
        if match.group(2):
            answer += "; " + js_trim(match.group(2))
        question, options = call
        fact_text = " ".join(
            [question, answer, *[w for o in options for w in (o[0].replace("_", " "), o[1])]]
        )
        self.facts.append(Clarification(question, options, answer, tuple(_tokens(fact_text))))


def answered_clarifications(items: Sequence[dict[str, Any]]) -> list[Clarification]:
    scan = ClarificationScan()
    for item in items:
        scan.feed(item)
    return scan.facts


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _token_matches(left: str, right: str) -> bool:
    if utf16_len(left) < 5 or utf16_len(right) < 5:
        return False
    return left == right or left.startswith(right) or right.startswith(left)


def is_superseded_wait(value: str, facts: list[Clarification], lexicon: Lexicon) -> bool:
    normalized = value.lower()
    if any(p.search(normalized) for p in lexicon.explicit_user_wait):
        return True
    if not any(p.search(normalized) for p in lexicon.clarification_verb):
        return False
    value_tokens = _tokens(normalized)
    return any(
        _token_matches(left, right)
        for fact in facts
        for left in value_tokens
        for right in fact.tokens
    )


def reconcile_structured_state(
    state: dict[str, Any],
    source_items: Sequence[dict[str, Any]],
    lexicon: Lexicon | None = None,
    *,
    facts: list[Clarification] | None = None,
    superseded: Callable[[str], bool] | None = None,
) -> dict[str, Any]:
    """A new portable state with answered clarifications applied (or ``state`` unchanged).
    ``facts``, when given, are the span's answered clarifications already collected, and
    ``superseded`` answers :func:`is_superseded_wait` for them (e.g. remembering answers)."""
    if facts is None:
        facts = answered_clarifications(source_items)
    if not facts:
        return state
    lexicon = lexicon or Lexicon()
    if superseded is None:

        def superseded(value: str) -> bool:
            return is_superseded_wait(value, facts, lexicon)

    decisions = list(state["decisions"])
    # a set, not a scan per fact: facts only accumulate over a span, and a failing compaction
    # re-reconciles the span at every barrier (issue 18); only strings can equal a decision
    present = {d for d in (d.get("decision") for d in decisions) if isinstance(d, str)}
    for fact in facts:
        decision = f"Clarification answered: {fact.question} → {fact.answer}"
        if decision not in present:
            present.add(decision)
            decisions.append({"decision": decision, "rationale": "Structured ask_user response"})

    def keep(values: list[str]) -> list[str]:
        return [v for v in values if not superseded(v)]

    return {
        **state,
        "inProgress": keep(state["inProgress"]),
        "pending": keep(state["pending"]),
        "decisions": decisions,
        "blockers": keep(state["blockers"]),
        "nextSteps": keep(state["nextSteps"]),
    }
