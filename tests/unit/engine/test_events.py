"""Flight-record redaction (test-scenarios 10.4, engine.md l.2) and what compaction events
may carry (l.1, l.3)."""

from __future__ import annotations

import json

import pytest

from soba_bench.engine import events as ev
from soba_bench.engine.events import EventLog, is_secret_key, redact_record, scrub_string


def test_flight_record_payload_is_redacted() -> None:
    payload = {
        "toolName": "bash",
        "apiKey": "sk-secret",
        "nested": {
            "token": "secret-token",
            "tokensUsed": 321,
            "visible": "authorization: Bearer sk-abcdefghijklmnop",
            "output": "database=postgres://admin:hunter2@localhost/app",
        },
    }
    redacted = redact_record(payload)
    assert redacted == {
        "toolName": "bash",
        "apiKey": "[REDACTED]",
        "nested": {
            "token": "[REDACTED]",
            "tokensUsed": 321,
            "visible": "authorization: Bearer [REDACTED]",
            "output": "database=postgres://[REDACTED]@localhost/app",
        },
    }
    dumped = json.dumps(redacted)
    for secret in ("sk-secret", "secret-token", "sk-abcdefghijklmnop", "hunter2"):
        assert secret not in dumped
    assert payload["apiKey"] == "sk-secret"  # the input is not modified


@pytest.mark.parametrize(
    "key",
    [
        "apiKey",
        "api_key",
        "API-KEY",
        "apikey",
        "Authorization",
        "cookie",
        "Set-Cookie",
        "credentials",
        "password",
        "clientSecret",
        "access_token",
        "accessToken",
        "auth-token",
        "refreshToken",
        "token",
        "TOKEN",
        "session_token",
        "csrf-token",
    ],
)
def test_secret_keys(key: str) -> None:
    assert is_secret_key(key)
    assert redact_record({key: "value"}) == {key: "[REDACTED]"}


@pytest.mark.parametrize(
    "key", ["tokensBefore", "reclaimedTokens", "tokensUsed", "tokens", "tokenizer", "mytoken"]
)
def test_token_count_keys_are_kept(key: str) -> None:
    assert not is_secret_key(key)
    assert redact_record({key: 12}) == {key: 12}


def test_token_suffix_is_whole_key_only() -> None:
    # JS "$" matches only at the very end (no multiline flag).
    assert not is_secret_key("token\n")
    assert not is_secret_key("my_token_count")
    assert not is_secret_key("ſecret")  # no Unicode case folding in JS without the u flag


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer abc.def", "Authorization: Bearer [REDACTED]"),
        ('api_key = "abcdef123"', 'api_key = "[REDACTED]"'),
        ("password=hunter2 rest", "password=[REDACTED] rest"),
        ("key sk-ABCDEFGHIJKLMNOP end", "key [REDACTED] end"),
        ("ghp_" + "a" * 24, "[REDACTED]"),
        ("AKIA" + "B" * 16, "[REDACTED]"),
        ("xoxb-1234567890-abc", "[REDACTED]"),
        ("jwt eyJhbGci.eyJzdWIi.c2lnbmF0dXJl", "jwt [REDACTED]"),
        ("https://user:pw@host/x", "https://[REDACTED]@host/x"),
        (
            "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\nb",
            "a\n[REDACTED PRIVATE KEY]\nb",
        ),
        ("nothing secret here", "nothing secret here"),
        ("sk-short", "sk-short"),
    ],
)
def test_string_scrubbing(text: str, expected: str) -> None:
    assert scrub_string(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # \b is ASCII-only in JavaScript: a non-ASCII letter is a word boundary.
        ("ключsk-abcdefghijklmnop", "ключ[REDACTED]"),
        ("sk-abcdefghijklmnopé", "[REDACTED]é"),
        ("éghp_" + "a" * 24, "é[REDACTED]"),
        # \s is JavaScript whitespace (no-break space included).
        ("password\u00a0=\u00a0hunter2 x", "password\u00a0=\u00a0[REDACTED] x"),
        ("Authorization: Bearer abc\u00a0def", "Authorization: Bearer [REDACTED]\u00a0def"),
        # /i without the u flag folds ASCII letters only.
        ("paſſword=abc", "paſſword=abc"),
    ],
)
def test_scrubbing_uses_javascript_word_boundaries(text: str, expected: str) -> None:
    assert scrub_string(text) == expected


def test_long_strings_are_cut_at_4000_utf16_units() -> None:
    text = "a" * 4_001
    assert scrub_string(text) == "a" * 4_000 + "\n[Flight record string truncated]"
    assert scrub_string("a" * 4_000) == "a" * 4_000
    # Astral characters count twice, as JavaScript's string length does.
    emoji = "😀" * 2_500  # 5000 UTF-16 units
    assert scrub_string(emoji) == "😀" * 2_000 + "\n[Flight record string truncated]"
    assert scrub_string("😀" * 2_000) == "😀" * 2_000


def test_depth_functions_and_other_values() -> None:
    deep: dict = {"v": "leaf"}
    for _ in range(9):
        deep = {"d": deep}
    redacted = redact_record(deep)
    node = redacted
    for _ in range(8):
        node = node["d"]
    assert node == {"d": "[Max depth reached]"}
    assert redact_record({"fn": len, "n": None, "b": True, "f": 1.5, "l": ("x", 2)}) == {
        "fn": "[Function]",
        "n": None,
        "b": True,
        "f": 1.5,
        "l": ["x", 2],
    }
    assert redact_record(8 * [[]]) == 8 * [[]]


# ── what compaction events may carry ─────────────────────────────────────────────
def test_legacy_reasons() -> None:
    assert ev.legacy_reason("context_overflow") == "overflow_recovery"
    assert ev.legacy_reason("user_request") == "manual"
    for trigger in ("hard_limit", "auto_threshold", "turn_complete", "milestone", "plan_pivot"):
        assert ev.legacy_reason(trigger) == "pre_inference"


def test_event_fields_never_include_state_or_capsule_text() -> None:
    assert ev.EVENT_TYPES == (
        "compaction_start",
        "compaction_done",
        "compaction_skipped",
        "compaction_failed",
        "compaction_cancelled",
        "context_error",
        "budget_update",
    )
    forbidden = {"portableState", "artifacts", "capsule", "summary", "text", "goal", "state"}
    assert not forbidden & ev.ALLOWED_FIELDS


def test_event_log_keeps_order_and_notifies_listeners() -> None:
    seen: list[str] = []
    log = EventLog([lambda e: seen.append(e["type"])])
    log({"type": "compaction_start"})
    log({"type": "compaction_done"})
    log({"type": "context_error"})
    assert (
        [e["type"] for e in log.events]
        == seen
        == [
            "compaction_start",
            "compaction_done",
            "context_error",
        ]
    )
    assert log.of_type("compaction_done", "context_error") == log.events[1:]


def test_redacting_a_compaction_event_keeps_its_numbers() -> None:
    event = {
        "type": "compaction_done",
        "operationId": "s:compact:1:1",
        "tokensBefore": 5_000,
        "tokensAfter": 1_000,
        "tokensSaved": 4_000,
        "reclaimedTokens": 4_000,
        "reason": "Validation failed: token=abcdef0123456789",
    }
    redacted = redact_record(event)
    assert {k: redacted[k] for k in ("tokensBefore", "tokensAfter", "tokensSaved")} == {
        "tokensBefore": 5_000,
        "tokensAfter": 1_000,
        "tokensSaved": 4_000,
    }
    assert redacted["reclaimedTokens"] == 4_000
    assert redacted["reason"] == "Validation failed: token=abcdef0123456789"
