"""Which other agent's log a file looks like, so a command given one where a SOBA session (or a
corpus folder) is expected can say which ``soba-bench import FORMAT`` converts it, instead of
only "not valid JSON". The guess reads the file's start and a few of its first lines; it
never decides how a file is read, it only words an error."""

from __future__ import annotations

import gzip
import json
import shlex
from pathlib import Path
from typing import Any

# Enough to hold the first lines of any of these formats; a .traj is one JSON document, so it
# is parsed whole only when it is small enough to be cheap, else recognised by its keys.
HEAD_BYTES = 256 * 1024
WHOLE_JSON_BYTES = 64 * 1024 * 1024
FIRST_LINES = 5

DESCRIPTIONS = {
    "swe-agent": "a SWE-agent trajectory (.traj)",
    "claude-code": "a Claude Code transcript (JSONL)",
    "codex": "a Codex CLI rollout (JSONL)",
    "openhands": "an OpenHands event stream",
    "aider": "an aider chat history (Markdown)",
    "openai-messages": "OpenAI chat messages",
}

PLURALS = {
    "swe-agent": "SWE-agent trajectories (.traj)",
    "claude-code": "Claude Code transcripts (JSONL)",
    "codex": "Codex CLI rollouts (JSONL)",
    "openhands": "OpenHands event streams",
    "aider": "aider chat histories (Markdown)",
    "openai-messages": "OpenAI chat messages",
}

_CLAUDE_TYPES = ("user", "assistant", "summary", "file-history-snapshot")
_CODEX_TYPES = ("session_meta", "response_item", "event_msg", "turn_context", "compacted")


def _read_head(path: Path) -> bytes:
    with path.open("rb") as fh:
        raw = fh.read(HEAD_BYTES)
    if raw[:2] == b"\x1f\x8b":
        try:
            with gzip.open(path, "rb") as fh:
                return fh.read(HEAD_BYTES)
        except (OSError, EOFError):
            return b""
    return raw


def _document(value: Any) -> str | None:
    """A whole-file JSON document."""
    if isinstance(value, dict):
        if "history" in value or ("trajectory" in value and "info" in value):
            return "swe-agent"
        if isinstance(value.get("events"), list):
            return "openhands"
        if isinstance(value.get("messages"), list):
            return "openai-messages"
    if isinstance(value, list) and value and isinstance(value[0], dict):
        first = value[0]
        if "source" in first and ("action" in first or "observation" in first):
            return "openhands"
    return None


def _line(value: Any) -> str | None:
    """One JSONL line."""
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if kind == "session" and "version" in value:
        return "soba"
    if kind in _CODEX_TYPES and "payload" in value:
        return "codex"
    if kind in _CLAUDE_TYPES and ("uuid" in value or "sessionId" in value or "leafUuid" in value):
        return "claude-code"
    if kind == "system" and value.get("subtype") == "init" and "session_id" in value:
        return "claude-code"  # claude -p --output-format stream-json
    if "source" in value and ("action" in value or "observation" in value):
        return "openhands"
    if isinstance(value.get("messages"), list):
        return "openai-messages"
    if {"id", "timestamp", "instructions"} <= value.keys():
        return "codex"  # the older rollout layout's first line
    return None


def sniff_format(path: str | Path) -> str | None:
    """The import format ``path`` looks like (a name of the importer registry), or None for a
    SOBA session, an unreadable file or anything unrecognised."""
    path = Path(path)
    try:
        head = _read_head(path)
    except OSError:
        return None
    text = head.decode("utf-8", errors="replace")
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith("# aider chat started at"):
        return "aider"
    if path.suffix == ".traj" or stripped.startswith(("[", "{\n", "{\r")):
        try:
            small = path.stat().st_size <= WHOLE_JSON_BYTES and head[:2] != b"\x1f\x8b"
            whole = json.loads(path.read_bytes()) if small else None
        except (OSError, ValueError, RecursionError):
            whole = None
        found = _document(whole)
        if found is not None:
            return found
        if path.suffix == ".traj" and ('"trajectory"' in text or '"history"' in text):
            return "swe-agent"
    for line in stripped.splitlines()[:FIRST_LINES]:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        found = _line(value)
        if found == "soba":
            return None
        if found is not None:
            return found
    return None


def import_hint(path: str | Path, out: str = "DIR") -> str | None:
    """One sentence naming the format ``path`` looks like and the exact import command."""
    fmt = sniff_format(path)
    if fmt is None:
        return None
    command = f"soba-bench import {fmt} {shlex.quote(str(path))} --out {out}"
    return f"this looks like {DESCRIPTIONS[fmt]}, not a SOBA session; convert it first: {command}"


def folder_hint(folder: str | Path, out: str = "DIR") -> str | None:
    """For a folder without a corpus manifest: the import command when its files (the first
    few, by name) look like one other agent's format."""
    folder = Path(folder)
    if folder.is_file():
        return import_hint(folder, out)
    try:
        files = sorted(p for p in folder.rglob("*") if p.is_file() and p.name != "README.md")
    except OSError:
        return None
    for candidate in files[:20]:
        fmt = sniff_format(candidate)
        if fmt is not None:
            command = f"soba-bench import {fmt} {shlex.quote(str(folder))} --out {out}"
            looks = f"no manifest, and its files look like {PLURALS[fmt]}"
            return f"{looks}; convert them first: {command}"
    return None


def read_session_or_hint(path: str | Path, *, strict: bool = True):
    """``read_session``, except that a file that fails to read as a SOBA session and looks like
    another agent's log fails with the import command to run (exit 2, as any bad input)."""
    from soba_bench.errors import InputError
    from soba_bench.session import read_session

    try:
        return read_session(path, strict=strict)
    except InputError as exc:
        hint = import_hint(path)
        if hint is None:
            raise
        raise InputError(hint, path=str(path)) from exc
