"""The extended secret scanner: one planted credential of each kind is replaced by its typed
marker, and what run records must keep (digests, git revisions, paths, config keys, SOBA's
own markers) is left alone."""

from __future__ import annotations

import pytest

from soba_bench.secrets_scan import RULES, find_secrets, scrub_text, scrub_value
from tests.reliability.planted_secrets import NEEDLES, PLANTED


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_each_kind_is_replaced_by_its_typed_marker(kind):
    text, needle = PLANTED[kind]
    out = scrub_text(f"before {text} after")
    assert needle not in out
    assert f"[REDACTED:{kind}]" in out
    assert out.startswith("before ") and out.endswith(" after")
    assert kind in {f.kind for f in find_secrets(text)}


def test_every_rule_has_a_planted_case():
    kinds = {r.kind for r in RULES} - {"slack-webhook", "google-oauth-token", "openai-key"}
    kinds -= {"password"}  # covered by the JSON-key and prose cases below
    assert kinds <= set(PLANTED)


@pytest.mark.parametrize(
    "text",
    [
        "manifest " + "ab" * 32,
        "rev 0123456789abcdef0123456789abcdef01234567-dirty",
        "/tmp/pytest-of-root/pytest-19/test_no_record_is_an_input_err0/run.json",
        "summarizer.api_key_env=SOBA_BENCH_RELIABILITY_KEY",
        "engine.keepRecentTokens=8000 maxOutputTokens=4000",
        "the token budget of 12000 tokens was exceeded",
        '"secretLeakDetected": false',
        "key [REDACTED:api_key] kept",
        "Bearer [REDACTED:bearer-token]",
    ],
)
def test_what_records_must_keep_is_left_alone(text):
    assert scrub_text(text) == text


def test_values_under_credential_keys_and_prose_passwords():
    value = {"password": "hunter22", "api_key_env": "OPENAI_API_KEY", "n": [{"x": "pwd: abc123"}]}
    out = scrub_value(value)
    assert out["password"] == "[REDACTED:password]"
    assert out["api_key_env"] == "OPENAI_API_KEY"  # names a variable, holds no secret
    assert out["n"][0]["x"] == "pwd: [REDACTED:password]"
    all_in_one = scrub_text("\n".join(t for t, _ in PLANTED.values()))
    assert not [k for k, n in NEEDLES.items() if n in all_in_one]
