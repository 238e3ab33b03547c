"""Compaction events (engine.md l.1) and flight-record redaction (l.2).

Events carry ids, trigger, token numbers, limits, source, strategy/quality, duration and the
outcome reason - never the portable state, the capsule text or a model summary.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from soba_bench.jscompat import JS_WHITESPACE, JS_WS_CLASS, js_slice, utf16_len

COMPACTION_START = "compaction_start"
COMPACTION_DONE = "compaction_done"
COMPACTION_SKIPPED = "compaction_skipped"
COMPACTION_FAILED = "compaction_failed"
COMPACTION_CANCELLED = "compaction_cancelled"
CONTEXT_ERROR = "context_error"
BUDGET_UPDATE = "budget_update"
EVENT_TYPES = (
    COMPACTION_START,
    COMPACTION_DONE,
    COMPACTION_SKIPPED,
    COMPACTION_FAILED,
    COMPACTION_CANCELLED,
    CONTEXT_ERROR,
    BUDGET_UPDATE,
)

# Fields an event may carry; anything else (state, capsule text) is a leak.
ALLOWED_FIELDS = frozenset(
    {
        "type",
        "timestamp",
        "operationId",
        "trigger",
        "reason",
        "tokensBefore",
        "tokensAfter",
        "tokensSaved",
        "effectiveTokens",
        "softLimit",
        "hardLimit",
        "required",
        "source",
        "checkpointId",
        "quality",
        "strategy",
        "durationMs",
        "reclaimedTokens",
        "error",
        "recoveryAttempted",
        "usedTokens",
        "totalBudget",
        "contextWindow",
        "percentage",
        "effectiveContextTokens",
        "turn",
    }
)


def legacy_reason(trigger: str) -> str:
    if trigger == "context_overflow":
        return "overflow_recovery"
    if trigger == "user_request":
        return "manual"
    return "pre_inference"


class EventLog:
    """Collects events in order; optional listeners see each one as it is emitted."""

    def __init__(self, listeners: list[Callable[[dict[str, Any]], None]] | None = None) -> None:
        self.events: list[dict[str, Any]] = []
        self.listeners = list(listeners or [])

    def __call__(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        for listener in self.listeners:
            listener(event)

    def of_type(self, *types: str) -> list[dict[str, Any]]:
        return [e for e in self.events if e["type"] in types]


# ── flight-record redaction (l.2) ─────────────────────────────────────────────
# JavaScript regex semantics (no u flag): \b and /i are ASCII-only, \s is JS whitespace and
# "$" is the very end of the string (Python's "$" also matches before a final newline).
_SECRET_KEY = re.compile(
    r"(?:api[_-]?key|apikey|authorization|cookie|credential|password|secret|access[_-]?token|"
    r"accesstoken|auth[_-]?token|authtoken|refresh[_-]?token|refreshtoken|(?:^|[_-])token\Z)",
    re.IGNORECASE | re.ASCII,
)
_WS = JS_WS_CLASS
_NOT_WS = f"[^{JS_WHITESPACE}"
_JS = re.ASCII
# Secret scrubbing of string values, rule by rule (private keys, bearer headers, key
# assignments, provider key prefixes, GitHub/AWS/Slack tokens, JWTs, credential URLs).
_SCRUB_RULES: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----"),
        "[REDACTED PRIVATE KEY]",
    ),
    (
        re.compile(
            rf"(authorization{_WS}*:{_WS}*bearer{_WS}+){_NOT_WS}\"'`]+", re.IGNORECASE | _JS
        ),
        r"\1[REDACTED]",
    ),
    (
        re.compile(
            r"((?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password)"
            rf"{_WS}*[:=]{_WS}*[\"']?){_NOT_WS}\"'`]+",
            re.IGNORECASE | _JS,
        ),
        r"\1[REDACTED]",
    ),
    (re.compile(r"\b(?:sk|pk|rk)-[A-Za-z0-9_-]{12,}\b", _JS), "[REDACTED]"),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b", _JS), "[REDACTED]"),
    (re.compile(r"\bAKIA[A-Z0-9]{16}\b", _JS), "[REDACTED]"),
    (re.compile(r"\bxox[baprs]-[A-Za-z0-9-]{10,}\b", _JS), "[REDACTED]"),
    (re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\b", _JS), "[REDACTED]"),
    (
        re.compile(rf"([a-z][a-z0-9+.-]*://){_NOT_WS}/:@]+:{_NOT_WS}/@]+@", re.IGNORECASE | _JS),
        r"\1[REDACTED]@",
    ),
]
MAX_STRING = 4000
MAX_DEPTH = 8
REDACTED = "[REDACTED]"


def scrub_string(text: str) -> str:
    for pattern, replacement in _SCRUB_RULES:
        text = pattern.sub(replacement, text)
    if utf16_len(text) > MAX_STRING:  # JavaScript string length
        text = js_slice(text, 0, MAX_STRING) + "\n[Flight record string truncated]"
    return text


def is_secret_key(key: str) -> bool:
    return bool(_SECRET_KEY.search(key))


def redact_record(value: Any, depth: int = 0) -> Any:
    """Key-based redaction before a record is persisted: secret-looking keys are replaced,
    strings are scrubbed and capped at 4000 characters, nesting deeper than 8 is cut."""
    if depth > MAX_DEPTH:
        return "[Max depth reached]"
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return scrub_string(value)
    if callable(value):
        return "[Function]"
    if isinstance(value, list | tuple):
        return [redact_record(v, depth + 1) for v in value]
    if isinstance(value, dict):
        return {
            k: REDACTED if is_secret_key(str(k)) else redact_record(v, depth + 1)
            for k, v in value.items()
        }
    return str(value)
