"""Portable capsules (engine.md m.1-m.3): the mapping from a ``context_capsule`` entry to a
portable capsule v1 and SOBA's sanitizer with its leak detector. Strings are measured, trimmed
and cased with JavaScript semantics (``jscompat``), because SOBA's titles and summaries depend
on them."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from soba_bench.jscompat import (
    JS_WHITESPACE,
    js_join,
    js_json_stringify,
    js_slice,
    js_string,
    js_trim,
    js_truthy,
    utf16_len,
)

SCHEMA = "soba.portable-capsule"
VERSION = 1
DEFAULT_RECEIVER = "another SOBA-compatible agent"

# ── m.2 mapping ──────────────────────────────────────────────────────────────────────────

# SOBA's creation options, by their Python names; camelCase spellings are accepted as well so
# an options object copied from SOBA works unchanged.
_OPTION_ALIASES = {
    "intendedReceiver": "intended_receiver",
    "integrationPlan": "integration_plan",
    "verbatimPayloads": "verbatim_payloads",
}
_OPTIONS = (
    "id",
    "title",
    "sender",
    "intended_receiver",
    "objective",
    "tier",
    "category",
    "archetype",
    "integration_plan",
    "verbatim_payloads",
)
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def sha256_hex(text: str) -> str:
    # Node hashes a JS string as UTF-8 with lone surrogates replaced by U+FFFD.
    return hashlib.sha256(_LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")).hexdigest()


def iso_timestamp(value: str | datetime | None = None) -> str:
    """``new Date(value).toISOString()``: UTC with milliseconds. A time without an offset is
    read as UTC (a replay has no local time zone); None means now."""
    if value is None:
        moment = datetime.now(UTC)
    elif isinstance(value, datetime):
        moment = value
    else:
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"invalid time value {value!r} (expected an ISO 8601 date)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _title(objective: str) -> str:
    trimmed = js_trim(objective)
    if not trimmed:
        return "Portable capsule"
    return js_slice(trimmed, 0, 77) + "..." if utf16_len(trimmed) > 80 else trimmed


def _decision_parts(decision: Any) -> tuple[str, str | None]:
    d = decision if isinstance(decision, dict) else {}
    rationale = d.get("rationale")
    return js_string(d.get("decision")), js_string(rationale) if js_truthy(rationale) else None


def _core_content(state: dict[str, Any]) -> list[str]:
    content = [f"Goal: {js_string(state.get('goal'))}"]
    labels = (("completed", "Completed"), ("inProgress", "In progress"), ("pending", "Pending"))
    for key, label in labels:
        content.extend(f"{label}: {js_string(v)}" for v in state.get(key) or [])
    for decision in state.get("decisions") or []:
        text, rationale = _decision_parts(decision)
        content.append(f"Decision: {text} ({rationale})" if rationale else f"Decision: {text}")
    content.extend(f"Blocker: {js_string(v)}" for v in state.get("blockers") or [])
    content.extend(f"Next: {js_string(v)}" for v in state.get("nextSteps") or [])
    return content[:100]


def _dispatch_summary(state: dict[str, Any]) -> str:
    completed, blockers = state.get("completed") or [], state.get("blockers") or []
    text = js_string(state.get("goal")) + "."
    if completed:
        text += f" Completed: {js_join(completed, '; ')}."
    if blockers:
        text += f" Blockers: {js_join(blockers, '; ')}."
    return js_trim(text)


def _payloads(payloads: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for payload in payloads:
        entry = dict(payload)
        if "checksum" not in entry:
            entry["checksum"] = sha256_hex(js_string(entry.get("content")))
        out.append(entry)
    return out


def portable_capsule_from_checkpoint(
    capsule: dict[str, Any],
    *,
    session_id: str | None = None,
    created_at: str | datetime | None = None,
    home_directory: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A ``context_capsule`` entry as SOBA's portable capsule v1, already sanitized.

    ``options`` are SOBA's creation options (id, title, sender, intended_receiver, objective,
    tier, category, archetype, integration_plan, verbatim_payloads). ``created_at`` defaults to
    now, as in SOBA; pass the capsule's timestamp for reproducible records. ``session_id`` is
    accepted so callers can pass their context uniformly, but SOBA's v1 schema has no field
    for it, so it does not appear in the result.
    """
    del session_id  # not part of the v1 mapping (see docstring)
    opts: dict[str, Any] = {}
    for key, value in options.items():
        name = _OPTION_ALIASES.get(key, key)
        if name not in _OPTIONS:
            raise TypeError(
                f"unknown portable capsule option {key!r}; valid: {', '.join(_OPTIONS)}"
            )
        opts[name] = value
    state = capsule.get("portableState") or {}
    checkpoint_id = js_string(capsule.get("checkpointId"))
    objective = opts["objective"] if opts.get("objective") is not None else state.get("goal")
    objective = js_string(objective)
    created = iso_timestamp(created_at) if not isinstance(created_at, str) else created_at

    def opt(name: str, default: Any) -> Any:
        value = opts.get(name)
        return default if value is None else value

    portable: dict[str, Any] = {
        "schema": SCHEMA,
        "version": VERSION,
        "id": opt("id", "pc_" + sha256_hex(checkpoint_id)[:12]),
        "title": opt("title", _title(objective)),
        "createdAt": created,
    }
    if opts.get("sender") is not None:  # undefined in SOBA: absent from the JSON
        portable["sender"] = opts["sender"]
    portable |= {
        "intendedReceiver": opt("intended_receiver", DEFAULT_RECEIVER),
        "objective": objective,
        "tier": opt("tier", "quick"),
        "category": opt("category", "conversation_thread"),
        "archetype": opt("archetype", "handoff"),
        "dispatchSummary": _dispatch_summary(state),
        "coreContent": _core_content(state),
        "patterns": [
            {"name": f"decision-{n}", "description": f"{d} — {r}" if r else d}
            for n, (d, r) in enumerate(map(_decision_parts, state.get("decisions") or []), 1)
        ],
        "assumptions": list(state.get("constraints") or []),
        "signals": list(state.get("nextSteps") or []),
        "artifacts": dict(capsule.get("artifacts") or {}),
        "integrationPlan": list(opt("integration_plan", [])),
        "verbatimPayloads": _payloads(opt("verbatim_payloads", [])),
        "sanitation": {"checkedAt": created, "redactions": [], "secretLeakDetected": False},
        "provenance": {"source": "session_checkpoint", "checkpointId": checkpoint_id},
    }
    sanitized, _report = sanitize_portable_capsule(
        portable, home_directory, now=iso_timestamp(created)
    )
    return sanitized


# ── m.3 sanitizer ────────────────────────────────────────────────────────────────────────

# JS regexes: ASCII \b and \d, Unicode \s (hence re.ASCII plus an explicit whitespace class).
_WS = f"[{JS_WHITESPACE}]"
_F = re.ASCII
_PRIVATE_KEY = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----", _F
)
_CREDENTIAL_URL = re.compile(
    rf"\b([a-z][a-z0-9+.-]*://)([^/:@{JS_WHITESPACE}]+):([^/@{JS_WHITESPACE}]+)@", _F | re.I
)
_BEARER = re.compile(rf"\bBearer{_WS}+[A-Za-z0-9._~+/=-]{{12,}}", _F)
_KEY_ASSIGNMENT = re.compile(
    rf"\b(api[_-]?key|token|secret|password){_WS}*[:=]{_WS}*[\"']?([A-Za-z0-9._~+/=-]{{12,}})[\"']?",
    _F | re.I,
)
_SK_KEY = re.compile(r"\bsk-[A-Za-z0-9_-]{12,}\b", _F)
_SESSION_ID = re.compile(
    r"\b(?:sess|session|thread|conversation)[_-](?=[A-Za-z0-9]*\d)[A-Za-z0-9]{8,}\b", _F | re.I
)
_PROVIDER_ID = re.compile(
    rf"\b(?:openai|anthropic|google|xai)::[^{JS_WHITESPACE}\"'`),\]}}]+", _F | re.I
)
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*://)", _F | re.I)
_KEY_NAME = re.compile(rf"^([^:=]+){_WS}*[:=]", _F)
_MARKER = re.compile(r"\[REDACTED:[a-z_]+:\d+\]")


def _scheme_marker(match: str, marker: str) -> str:
    scheme = _SCHEME.match(match)
    return f"{scheme.group(1) if scheme else ''}{marker}@"


def _key_marker(match: str, marker: str) -> str:
    key = _KEY_NAME.match(match)
    return f"{js_trim(key.group(1)) if key else 'secret'}={marker}"


# In SOBA's order: a private key block is removed before anything inside it can match a
# narrower rule, and a credential URL before its password looks like a key assignment.
# (matched text, its marker) -> the replacement
_Replace = Callable[[str, str], str]
_RULES: tuple[tuple[str, re.Pattern[str], _Replace], ...] = (
    ("private_key", _PRIVATE_KEY, lambda m, marker: marker),
    ("credential_url", _CREDENTIAL_URL, _scheme_marker),
    ("bearer_token", _BEARER, lambda m, marker: f"Bearer {marker}"),
    ("api_key", _KEY_ASSIGNMENT, _key_marker),
    ("api_key", _SK_KEY, lambda m, marker: marker),
    ("session_identifier", _SESSION_ID, lambda m, marker: marker),
    ("provider_identifier", _PROVIDER_ID, lambda m, marker: marker),
)
_LEAK_PATTERNS = (_PRIVATE_KEY, _BEARER, _SK_KEY, _CREDENTIAL_URL, _KEY_ASSIGNMENT)


@dataclass(frozen=True)
class SanitationReport:
    checked_at: str
    redactions: tuple[tuple[str, int], ...]  # (category, count), sorted by category
    secret_leak_detected: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "checkedAt": self.checked_at,
            "redactions": [{"category": c, "count": n} for c, n in self.redactions],
            "secretLeakDetected": self.secret_leak_detected,
        }


class _Redactor:
    """Markers are numbered per category; the same raw value keeps its marker, but every
    occurrence counts (SOBA's report counts occurrences, not distinct secrets)."""

    def __init__(self, home: str | None) -> None:
        self.home = home if home and home != "/" else None
        self.markers: dict[tuple[str, str], str] = {}
        self.counts: dict[str, int] = {}
        self.next: dict[str, int] = {}
        # The path runs until whitespace, a quote or a closing bracket, as in SOBA.
        self.home_re = (
            re.compile(re.escape(self.home) + "[^" + JS_WHITESPACE + "\"'\\]`),}]*")
            if self.home
            else None
        )

    def marker(self, category: str, raw: str) -> str:
        self.counts[category] = self.counts.get(category, 0) + 1
        key = (category, raw)
        if key not in self.markers:
            self.next[category] = self.next.get(category, 0) + 1
            self.markers[key] = f"[REDACTED:{category}:{self.next[category]}]"
        return self.markers[key]

    def text(self, value: str) -> str:
        for category, pattern, replace in _RULES:

            def redact(m: re.Match[str], c: str = category, r: _Replace = replace) -> str:
                return r(m.group(), self.marker(c, m.group()))

            value = pattern.sub(redact, value)
        if self.home_re is not None and self.home is not None and self.home in value:
            value = self.home_re.sub(lambda m: self.marker("absolute_home_path", m.group()), value)
        return value

    def walk(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list | tuple):
            return [self.walk(v) for v in value]
        if isinstance(value, dict):
            return {k: self.walk(v) for k, v in value.items()}
        return value


def detect_potential_secret(text: str) -> bool:
    """SOBA's leak detector: does anything secret-shaped survive once markers are masked?"""
    masked = _MARKER.sub("[REDACTED]", text)
    return any(p.search(masked) for p in _LEAK_PATTERNS)


def sanitize_text(text: str, home_directory: str | None = None) -> str:
    return _Redactor(home_directory).text(text)


def sanitize_value(value: Any, home_directory: str | None = None) -> Any:
    """SOBA's sanitizer rules (m.3) on every string of a JSON value: for what the harness
    exports (a context capsule written by a model may copy secrets from the transcript)."""
    return _Redactor(home_directory).walk(value)


def sanitize_portable_capsule(
    capsule: dict[str, Any], home_directory: str | None = None, *, now: str | None = None
) -> tuple[dict[str, Any], SanitationReport]:
    """Redact every string of the capsule (ids and payloads included, which can break payload
    checksums, as in SOBA). ``now`` (ISO) stamps the report; default: the current time."""
    checked_at = now if now is not None else iso_timestamp()
    redactor = _Redactor(home_directory)
    empty = {"checkedAt": checked_at, "redactions": [], "secretLeakDetected": False}
    sanitized = redactor.walk({**capsule, "sanitation": empty})
    report = SanitationReport(
        checked_at=checked_at,
        redactions=tuple(sorted(redactor.counts.items())),
        secret_leak_detected=detect_potential_secret(js_json_stringify(sanitized)),
    )
    sanitized["sanitation"] = report.to_dict()
    return sanitized, report
