"""Imported tool calls in SOBA's own vocabulary (``ImportOptions.tool_names="soba"``, the
default; ``soba-bench import --tool-names source`` keeps the source's).

SOBA's engine fills a capsule's artifact ledger from its own tools only (engine.md h.5): the
``path`` of a ``read`` call is a read file, of a ``write`` or ``edit`` call a modified one,
and the ``command`` of a ``bash`` call a verification command when it holds a check word.
A session imported with another agent's names (Claude Code's ``Read`` with ``file_path``,
OpenHands' ``str_replace_editor``, Codex's ``exec_command`` with ``cmd``) gave every capsule
SOBA wrote on it an empty ledger, so a replay measured a SOBA blind to the files and checks
its own agent would have recorded (none of the 18 capsules SOBA writes on the real Claude
Code, Codex, OpenHands and chat-completions logs of tests/data/importers/real in a 32k
window listed one; corpora/README.md, Tool names).

A call whose meaning is one of SOBA's tools, by the importer's own reading of it (the
``ToolUse`` its ground truth is derived from), is written as that tool:

* a shell command -> ``bash``, the command as one string under ``command``;
* one file read and nothing else -> ``read``;
* one file modified and nothing else -> ``write`` when the tool writes or creates a whole
  file, else ``edit``;

its path under ``path`` (where the source called it ``file_path``, ``filename`` ...), every
other argument kept. Only a path or command the source's arguments carry is moved, never one
added. Anything else is left as it was: a patch (it names its files in its text), a poll of
a running command (Codex's ``write_stdin``), a search or a web fetch (SOBA has no tool for
them). The ground truth is derived from the source's names either way, and the origin
counts the calls renamed (``toolNames``).
"""

from __future__ import annotations

from typing import Any

from soba_bench.corpora.importers.facts import ToolUse
from soba_bench.corpora.importers.tools import COMMAND_KEYS, PATH_KEYS, command_text, parse_args


def as_soba_call(name: str, arguments: Any, use: ToolUse) -> tuple[str, Any] | None:
    """(SOBA's tool name, its arguments) for a call that is one of SOBA's tools, or None to
    keep the call as the source wrote it (also when it already is SOBA's). Arguments that
    already hold the path or command under SOBA's key are kept as written (a JSON string
    byte for byte)."""
    args = parse_args(arguments)
    if not args and arguments not in ({}, "{}"):
        return None  # arguments that are not a JSON object: nothing to rename safely
    if use.deletes or use.moves:
        return None
    if use.command is not None:
        if use.reads or use.modifies:
            return None
        tool, found = "bash", _under(args, COMMAND_KEYS, "command", use.command, command_text)
    elif len(use.reads) == 1 and not use.modifies:
        tool, found = "read", _under(args, PATH_KEYS, "path", use.reads[0])
    elif len(use.modifies) == 1 and not use.reads:
        tool, found = _modifier(name, args), _under(args, PATH_KEYS, "path", use.modifies[0])
    else:
        return None
    if found is None or (tool == name and found == args):
        return None
    return tool, arguments if found == args else found


def _modifier(name: str, args: dict[str, Any]) -> str:
    """``write`` for a tool that writes a whole file, else ``edit``."""
    key = name.strip().lower()
    whole = "write" in key or "create" in key or args.get("command") == "create"
    return "write" if whole else "edit"


def _under(
    args: dict[str, Any], keys: tuple[str, ...], soba_key: str, value: str, read: Any = None
) -> dict[str, Any] | None:
    """``args`` with the source's key that holds ``value`` renamed ``soba_key``: the first of
    ``keys`` whose value reads as ``value``, else (a path the importer resolved against the
    agent's folder, SWE-agent's ``reproduce.py``) the first of ``keys`` holding a path as the
    agent wrote it, which is kept. None when no key holds one (a patch names its files in its
    text, a poll of a running command does not repeat it): a path or command is moved, never
    added."""
    found = next(
        (k for k in keys if k in args and (read(args[k]) if read else args[k]) == value), None
    )
    if found is None and read is None:
        found = next((k for k in keys if isinstance(args.get(k), str) and args[k].strip()), None)
    if found is None:
        return None
    out: dict[str, Any] = {}
    for key, item in args.items():
        if key == found:
            # a command in SOBA's form (one string); a path as the agent wrote it
            out[soba_key] = value if read else item
        elif key != soba_key:
            out[key] = item
    return out
