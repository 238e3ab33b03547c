"""The extended secret scanner: credentials in text the harness writes are replaced with a typed
marker (``[REDACTED:aws-secret]``).

SOBA's own sanitizer (engine.md m.3, :mod:`soba_bench.scoring.portable`) has no rule for AWS
keys, cloud tokens, JWTs or private-key blocks; the default engine keeps SOBA's rules for the
capsules it writes, so it stays faithful. What the harness itself writes (run records, event
logs, tables, score tables, truth files, reports, compare and tune output) goes through this
scanner instead; the opt-in engine variant ``soba-0.6.14+extended-redaction`` applies it to
capsules too, so a sweep can measure what it costs.

The rules look for the shape of a credential (a known prefix, a key-value context), never for
long random-looking strings alone: run records hold sha256 digests and git revisions, which must
survive. Core-safe: no pandas, no Hydra.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

MARKER = "[REDACTED:{kind}]"
_MAX_DEPTH = 200  # deeper JSON values are left as they are (the loaders refuse them anyway)


@dataclass(frozen=True)
class Rule:
    """One kind of credential: a pattern and which group is the secret (0: the whole match)."""

    kind: str
    pattern: re.Pattern[str]
    group: int = 0


def _rule(kind: str, pattern: str, group: int = 0, flags: int = 0) -> Rule:
    return Rule(kind, re.compile(pattern, flags), group)


# Order matters: whole blocks and specific prefixes before the generic key=value rules, so a
# finding gets its most specific kind and the generic rules see the marker, not the value.
RULES: tuple[Rule, ...] = (
    _rule(
        "private-key",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----"
        r"(?:.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----|.*\Z)",
        flags=re.DOTALL,
    ),
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]{6,}"),
    _rule("aws-key-id", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b"),
    _rule(
        "aws-secret",
        r"(?i)(?:aws[\w.\- ]{0,24}?secret[\w.\- ]{0,24}?|secret_?access_?key)[\"']?\s*[:=]\s*"
        r"[\"']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])",
        group=1,
    ),
    _rule("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})"),
    _rule("gitlab-token", r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_\-]{20,}"),
    _rule("slack-token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}"),
    _rule(
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/\-]{20,}",
    ),
    _rule("stripe-key", r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}"),
    _rule("google-api-key", r"\bAIza[0-9A-Za-z_\-]{35}"),
    _rule("google-oauth-token", r"\bya29\.[0-9A-Za-z_\-]{20,}"),
    _rule("openai-key", r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_\-]{20,}"),
    _rule(
        "url-password",
        r"\b[a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@\"'<>]+:([^\s@/\"'<>]+)@",
        group=1,
    ),
    _rule(
        "bearer-token",
        r"(?i)\bbearer\s+(?!\[REDACTED)([A-Za-z0-9\-._~+/]{12,}=*)",
        group=1,
    ),
    # .env style: NAME=value with a credential-like NAME (upper case, any position in text).
    _rule(
        "env-secret",
        r"(?<![A-Za-z0-9_])(?:export\s+)?[A-Z][A-Z0-9_]*"
        r"(?:SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)"
        r"[A-Z0-9_]*\s*=\s*[\"']?(?!\[REDACTED)([^\s\"'`]{4,})",
        group=1,
    ),
    # key: value / key=value with a credential word as the key, in prose, YAML or JSON.
    _rule(
        "password",
        r"(?i)(?<![A-Za-z0-9_])[\"']?(?:password|passwd|pwd|passphrase|client_secret|"
        r"api[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|secret)"
        r"[\"']?\s*[:=]\s*[\"']?(?!\[REDACTED)([^\s\"',;`]{4,})",
        group=1,
    ),
)


def _replace(rule: Rule) -> Callable[[re.Match[str]], str]:
    marker = MARKER.format(kind=rule.kind)

    def sub(match: re.Match[str]) -> str:
        if rule.group == 0:
            return marker
        start, end = match.span(rule.group)
        offset = match.start()
        text = match.group(0)
        return text[: start - offset] + marker + text[end - offset :]

    return sub


_SUBS = tuple((rule, _replace(rule)) for rule in RULES)
# A JSON key naming a credential: its string value is a secret whatever it looks like.
SECRET_KEY = re.compile(
    r"(?i)(?:password|passwd|pwd|passphrase|client_?secret|api[_-]?key|secret(?:[_-]?key)?|"
    r"(?:access|auth|refresh|bearer)[_-]?token|aws_secret_access_key|private[_-]?key)"
)


@dataclass(frozen=True)
class Finding:
    """One credential found in a text: its kind and where it was (the value is not kept)."""

    kind: str
    start: int
    end: int


def find_secrets(text: str) -> list[Finding]:
    """Every credential the rules find in ``text`` (before any replacement)."""
    found = []
    for rule in RULES:
        for match in rule.pattern.finditer(text):
            start, end = match.span(rule.group)
            found.append(Finding(rule.kind, start, end))
    return sorted(found, key=lambda f: (f.start, f.kind))


# Every rule above needs one of these in the text; most strings a run writes (ids, names,
# numbers as text) have none, and one search is much cheaper than fifteen substitutions.
_TRIGGER = re.compile(
    r"(?i)A[KSGIRNBC][A-Z]A|secret|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt)-|xox|hooks\.slack|"
    r"_live_|_test_|AIza|ya29\.|eyJ|sk-|://|bearer|PRIVATE|passw|pwd|token|"
    r"api[_-]?key|access[_-]?key|credential|auth"
)


def scrub_text(text: str) -> str:
    """``text`` with every credential replaced by its typed marker."""
    if len(text) <= _SHORT:
        return _scrub_short(text)
    return _scrub(text)


def _scrub(text: str) -> str:
    if _TRIGGER.search(text) is None:
        return text
    for rule, sub in _SUBS:
        text = rule.pattern.sub(sub, text)
    return text


# Keys and names repeat on every row a run writes ("tokensBefore", session names): cached.
_SHORT = 120
_scrub_short = lru_cache(maxsize=16384)(_scrub)


# Values a scrub hands back as they are, by exact type: most of a run's table rows are numbers,
# flags and nulls, and a call per value was most of what writing a job's tables cost.
_PLAIN = frozenset({int, float, bool, type(None)})


@lru_cache(maxsize=4096)
def _secret_key(key: str) -> bool:
    return SECRET_KEY.fullmatch(key) is not None  # keys repeat on every row


def scrub_value(value: Any, _depth: int = 0) -> Any:
    """Every string of a JSON value (keys included) scrubbed; other values unchanged."""
    if isinstance(value, str):
        return scrub_text(value)
    if _depth > _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if isinstance(key, str):
                if (
                    _secret_key(key)
                    and isinstance(item, str)
                    and item
                    and not item.startswith("[REDACTED")
                ):
                    out[scrub_text(key)] = MARKER.format(kind="password")
                    continue
                key = scrub_text(key)
            out[key] = item if type(item) in _PLAIN else scrub_value(item, _depth + 1)
        return out
    if isinstance(value, list | tuple):
        return [v if type(v) in _PLAIN else scrub_value(v, _depth + 1) for v in value]
    return value
