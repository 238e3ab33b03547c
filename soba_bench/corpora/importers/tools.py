"""What a tool call means for the ground truth, from its name and arguments.

Each format knows its own tool vocabulary; :func:`classify_generic` covers the names common
to chat-completions agents (read_file, str_replace_editor, bash, ...) and is the fallback.
Only unambiguous meanings count: a ``grep`` is neither a read nor a modification.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

from soba_bench.corpora.importers.facts import ToolUse

PATH_KEYS = ("path", "file_path", "filepath", "filename", "file", "target_file", "notebook_path")
COMMAND_KEYS = ("command", "cmd")

READ_TOOLS = frozenset(
    {"read", "read_file", "readfile", "view", "view_file", "open", "open_file", "cat"}
)
WRITE_TOOLS = frozenset(
    {
        "write",
        "write_file",
        "writefile",
        "edit",
        "edit_file",
        "create",
        "create_file",
        "str_replace",
        "replace",
        "insert",
        "multiedit",
        "multi_edit",
        "notebookedit",
        "notebook_edit",
        "apply_patch",
        "patch",
    }
)
EDITOR_TOOLS = frozenset(
    {"str_replace_editor", "str_replace_based_edit_tool", "text_editor", "editor", "file_editor"}
)
SHELL_TOOLS = frozenset(
    {
        "bash",
        "shell",
        "sh",
        "execute_bash",
        "execute_command",
        "run",
        "run_command",
        "run_shell_command",
        "terminal",
        "exec",
        "exec_command",
        "local_shell",
        "container.exec",
    }
)
_PATCH_OP = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.+?)\s*$")
_PATCH_MOVE = re.compile(r"^\*\*\* Move to: (.+?)\s*$")


def parse_args(arguments: Any) -> dict[str, Any]:
    """Arguments as a dict: a dict as-is, a JSON object string parsed, else empty."""
    if isinstance(arguments, dict):
        return arguments
    if isinstance(arguments, str):
        try:
            value = json.loads(arguments)
        except (ValueError, RecursionError):
            return {}
        return value if isinstance(value, dict) else {}
    return {}


def first_str(args: dict[str, Any], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def command_text(value: Any) -> str | None:
    """A shell command as one string: ``["bash", "-lc", "x"]`` -> ``x``; other argv lists
    are shell-joined."""
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        if len(value) == 3 and value[0] in ("bash", "sh", "zsh") and value[1] in ("-lc", "-c"):
            return value[2]
        return shlex.join(value)
    return None


def patch_paths(patch: Any) -> tuple[str, ...]:
    """Files an ``apply_patch`` envelope adds, updates, deletes or moves to."""
    use = patch_use(patch)
    return tuple(dict.fromkeys((*use.modifies, *use.deletes)))


def patch_use(patch: Any) -> ToolUse:
    """An ``apply_patch`` envelope's effects: files added or updated (modified), deleted,
    and moved (``*** Move to:`` after an update)."""
    if not isinstance(patch, str):
        return ToolUse()
    modifies: list[str] = []
    deletes: list[str] = []
    moves: list[tuple[str, str]] = []
    current = None
    for line in patch.splitlines():
        m = _PATCH_OP.match(line)
        if m:
            op, path = m.group(1), m.group(2)
            current = path
            target = deletes if op == "Delete" else modifies
            if path not in target:
                target.append(path)
        elif (mv := _PATCH_MOVE.match(line)) and current:
            moves.append((current, mv.group(1)))
    return ToolUse(modifies=tuple(modifies), deletes=tuple(deletes), moves=tuple(moves))


def classify_generic(name: Any, arguments: Any) -> ToolUse:
    """Reads, modifications and shell commands of a call named ``name``."""
    if not isinstance(name, str):
        return ToolUse()
    key = name.strip().lower()
    args = parse_args(arguments)
    if key in SHELL_TOOLS:
        command = None
        for k in COMMAND_KEYS:
            command = command_text(args.get(k))
            if command:
                break
        return ToolUse(command=command)
    if key in ("apply_patch", "patch"):
        patch = args.get("input") or args.get("patch")
        use = patch_use(patch if patch is not None else arguments)
        if use.modifies or use.deletes:
            return use
    path = first_str(args, PATH_KEYS)
    if key in EDITOR_TOOLS:
        sub = args.get("command")
        if path and sub == "view":
            return ToolUse(reads=(path,))
        if path and isinstance(sub, str):
            return ToolUse(modifies=(path,))
        return ToolUse()
    if path and key in READ_TOOLS:
        return ToolUse(reads=(path,))
    if path and key in WRITE_TOOLS:
        return ToolUse(modifies=(path,))
    return ToolUse()
