"""Pulling answer items out of text: file paths, commands and a pass/fail status. Shared by
the exact grader (what does an answer list?) and the extractive answerer (what does the input
say?), so both read text the same way."""

from __future__ import annotations

import json
import re

from soba_bench.scoring.match import PATH_TOKEN, content_words, normalize_command, normalize_path


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# A token counts as a path when it has a directory part or a file extension from this list;
# dotted code (``shard.record``, ``router.lock``) is not a path.
EXTENSIONS = _words(
    "c cc cfg cjs conf cpp cs css csv env go h hpp html ini java js json jsx kt md mjs "
    "php py rb rs scss sh sql swift toml ts tsx txt vue xml yaml yml"
)
_BACKTICK = re.compile(r"`([^`\n]+)`")
_JSON_COMMAND = re.compile(r'"(?:command|cmd)"\s*:\s*"((?:[^"\\]|\\.)*)"')
_LABELLED = re.compile(r"(?:verification command|command|run|ran)s?\s*:\s*(.+)", re.IGNORECASE)
# Program names a command line starts with (to tell a command from prose in a free answer).
RUNNERS = _words(
    "npm pnpm yarn npx node bun deno make cargo go pytest python python3 tox uv pip ruff "
    "mypy tsc eslint jest vitest gradle mvn dotnet bash sh ./gradlew bundle rake rspec"
)
PASS_WORDS = frozenset(["pass", "passes", "passed", "passing", "green", "ok", "success", "✓"])
FAIL_WORDS = frozenset(["fail", "fails", "failed", "failing", "red", "error", "errors", "✗"])


def is_path(token: str) -> bool:
    if "://" in token or token.startswith("@"):
        return False
    path = normalize_path(token)
    if not path or path in (".", ".."):
        return False
    if "/" in path:
        return True
    name = path.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return ext in EXTENSIONS and len(name) > len(ext) + 1


def paths_in(text: str) -> list[str]:
    """Path-like tokens of ``text``, normalised, in order of first appearance."""
    out: dict[str, None] = {}
    for token in PATH_TOKEN.findall(text):
        token = token.rstrip(".,:;)")
        if ("/" in token or "." in token) and is_path(token):
            out.setdefault(normalize_path(token), None)
    return list(out)


def _looks_like_command(text: str) -> bool:
    words = text.split()
    return bool(words) and words[0].lower() in RUNNERS


def commands_in(text: str) -> list[str]:
    """Commands ``text`` names: JSON ``"command"`` values, backticked spans and labelled or
    bare lines that start with a known program."""
    found: dict[str, None] = {}
    for match in _JSON_COMMAND.finditer(text):
        try:
            value = json.loads(f'"{match.group(1)}"')
        except ValueError:
            value = match.group(1)
        found.setdefault(normalize_command(value), None)
    for match in _BACKTICK.finditer(text):
        if _looks_like_command(match.group(1)):
            found.setdefault(normalize_command(match.group(1)), None)
    for line in text.splitlines():
        line = line.strip().lstrip("-*• ").strip()
        labelled = _LABELLED.match(line)
        candidate = labelled.group(1) if labelled else line
        candidate = candidate.strip().strip("`").rstrip(".")
        if _looks_like_command(candidate) and "`" not in candidate:
            found.setdefault(normalize_command(candidate), None)
    return [c for c in found if c]


def status_in(text: str) -> str | None:
    """``passed`` or ``failed`` as the text states it (failure wins when both appear: a run
    with one error has failed), None when it says neither."""
    words = set(content_words(text)) | {c for c in text if c in "✓✗"}
    if words & FAIL_WORDS:
        return "failed"
    if words & PASS_WORDS:
        return "passed"
    return None
