"""SWE-agent trajectories (``*.traj``: a JSON object with ``history``, ``trajectory``, ``info``).

The ``history`` messages are what the model saw, so they are the source. Mapping:
* ``system`` -> system message; a ``user`` message -> user message (``is_demo``
  demonstrations included: they are model context, but never the goal);
* function-calling runs: an assistant message's ``tool_calls`` -> ``function_call``s (source
  ids and arguments as recorded), ``tool`` messages -> outputs by ``tool_call_ids``;
* text-action runs: an assistant ``action`` -> its ``thought`` as the assistant message plus a
  ``function_call`` named ``bash`` with ``{"command": action}`` (id ``swe-<history index>``);
  the next ``user`` message is that call's output;
* the final action's observation is not in ``history`` (the run ended); it is taken from the
  last ``trajectory`` step when that step's action matches. Files without ``history`` are
  rebuilt from ``trajectory`` steps (no system or task message then).

SWE-agent records no exit codes, so outputs carry no status and blockers come from SOBA's
own failure rule. Files: ``open``/``create``/``edit`` (the open file, from the
``(Open file: ...)`` line of the observations), ``str_replace_editor``; relative paths are
resolved against the ``(Current directory: ...)`` line. Every other action is a shell command.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from pathlib import Path
from typing import Any

from soba_bench.corpora.importers.base import (
    ImportedSession,
    Importer,
    ImportOptions,
    IssueLog,
    SourceFile,
    digest,
    safe_name,
)
from soba_bench.corpora.importers.builder import SessionBuilder
from soba_bench.corpora.importers.facts import ToolUse
from soba_bench.corpora.importers.source import (
    Where,
    expect_object,
    get,
    load_json,
)
from soba_bench.corpora.importers.tools import classify_generic, parse_args
from soba_bench.errors import InputError

_OPEN_FILE = re.compile(r"\(Open file: (.+?)\)\s*$", re.MULTILINE)
_CURRENT_DIR = re.compile(r"\(Current directory: (.+?)\)\s*$", re.MULTILINE)
# SWE-agent's own interface commands (plus every exit_*, debug_*, connect_* command): not
# shell commands.
INTERFACE = frozenset(
    {
        *("open", "goto", "scroll_up", "scroll_down", "create", "edit", "insert", "append"),
        *("search_file", "search_dir", "find_file", "filemap", "str_replace_editor"),
        *("submit", "skip", "decompile", "disassemble"),
    }
)
INTERFACE_PREFIXES = ("exit_", "debug_", "connect_")


def text_of(content: Any, where: Where) -> str:
    """A message's text: a string, or the text blocks of a block list joined."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for i, block in enumerate(content):
            block = expect_object(block, where.at(i), "a content block object")
            parts.append(get(block, "text", "string", where.at(i)) or "")
        return "".join(parts)
    raise where.error(
        "wrong type", value=content, has_value=True, expected="string or list of text blocks"
    )


class FileState:
    """The open file and current directory SWE-agent prints after every command."""

    def __init__(self) -> None:
        self.open_file: str | None = None
        self.cwd: str | None = None

    def observe(self, text: str) -> None:
        for m in _OPEN_FILE.finditer(text):
            self.open_file = None if m.group(1) == "n/a" else m.group(1)
        for m in _CURRENT_DIR.finditer(text):
            self.cwd = m.group(1)

    def resolve(self, path: str) -> str:
        path = path.strip().strip("\"'")
        if self.cwd and path and not path.startswith("/"):
            return posixpath.normpath(posixpath.join(self.cwd, path))
        return path

    def classify_action(self, action: str) -> ToolUse:
        try:
            words = shlex.split(action.split("\n", 1)[0])
        except ValueError:
            words = action.split()
        if not words:
            return ToolUse()
        cmd = words[0]
        if cmd == "open" and len(words) > 1:
            return ToolUse(reads=(self.resolve(words[1]),))
        if cmd == "create" and len(words) > 1:
            return ToolUse(modifies=(self.resolve(words[1]),))
        if cmd in ("edit", "insert", "append") and self.open_file:
            return ToolUse(modifies=(self.open_file,), target=" ".join(words[:2]))
        if cmd == "str_replace_editor" and len(words) > 2:
            path = self.resolve(words[2])
            return ToolUse(reads=(path,)) if words[1] == "view" else ToolUse(modifies=(path,))
        if cmd in INTERFACE or cmd.startswith(INTERFACE_PREFIXES):
            return ToolUse(target=action.rstrip())  # submit, find_file...: not shell commands
        return ToolUse(command=action.rstrip())

    def classify_call(self, name: str, arguments: Any) -> ToolUse:
        args = parse_args(arguments)
        path = args.get("path") or args.get("filename")
        path = self.resolve(path) if isinstance(path, str) else None
        if name == "open" and path:
            return ToolUse(reads=(path,))
        if name == "create" and path:
            return ToolUse(modifies=(path,))
        if name in ("edit", "insert", "append") and self.open_file:
            return ToolUse(modifies=(self.open_file,), target=name)
        if name == "str_replace_editor" and path:
            sub = args.get("command")
            return ToolUse(reads=(path,)) if sub == "view" else ToolUse(modifies=(path,))
        if name in INTERFACE or name.startswith(INTERFACE_PREFIXES):
            return ToolUse(target=f"{name} {arguments}")
        return classify_generic(name, arguments)


class SweAgentImporter(Importer):
    name = "swe-agent"
    description = "SWE-agent trajectory files (*.traj)"
    patterns = ("*.traj",)

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        where = Where(source.path)
        data = expect_object(load_json(source), where, "a .traj JSON object")
        history = get(data, "history", "list", where)
        steps = get(data, "trajectory", "list", where)
        if history is None and steps is None:
            raise where.at("history").error(
                "field is missing", expected="a 'history' or 'trajectory' list"
            )
        b = SessionBuilder(
            "swe-agent",
            seed=digest("swe-agent", source.sha256),
            source_label=source.label,
            source_path=source.path,
            source_sha256=source.sha256,
            options=options,
            issues=IssueLog(options.lenient),
        )
        info = data.get("info")
        if isinstance(info, dict) and isinstance(info.get("exit_status"), str):
            b.notes["exitStatus"] = info["exit_status"]
        conv = SweConversion(b, where)
        if history is not None:
            conv.history(history, steps or [])
        else:
            conv.steps(steps)
        return [b.finish(safe_name(Path(source.label).stem.removesuffix(".traj")))]


class SweConversion:
    """SWE-agent history -> session; ``action``/``output`` are shared with the hf importer."""

    def __init__(self, b: SessionBuilder, where: Where) -> None:
        self.b, self.where = b, where
        self.files = FileState()
        self.pending: tuple[str, str] | None = None  # (call id, action) awaiting output

    def history(self, history: list[Any], steps: list[Any]) -> None:
        for index, message in enumerate(history):
            role = message.get("role") if isinstance(message, dict) else None
            self.b.at(
                f"history:{role}" if isinstance(role, str) else "history",
                self.where.at("history").at(index),
            )
            try:
                self.message(index, message, self.where.at("history").at(index))
            except InputError as err:
                self.b.record(err)
        if self.pending is not None and steps:
            last = steps[-1]
            if isinstance(last, dict) and isinstance(last.get("action"), str):
                obs = last.get("observation")
                if last["action"].strip() == self.pending[1].strip() and isinstance(obs, str):
                    self.output(self.pending[0], obs, f"traj{len(steps) - 1}")
                    self.b.notes["observationFromTrajectory"] = 1

    def steps(self, steps: list[Any]) -> None:
        for index, step in enumerate(steps):
            sw = self.where.at("trajectory").at(index)
            self.b.at("trajectory step", sw)
            try:
                step = expect_object(step, sw, "a trajectory step object")
                action = get(step, "action", "string", sw) or ""
                thought = get(step, "thought", "string", sw) or ""
                observation = get(step, "observation", "string", sw) or ""
                self.action(f"swe-{index}", thought, action, f"step{index}")
                if self.pending is not None:
                    self.output(self.pending[0], observation, f"step{index}:obs")
            except InputError as err:
                self.b.record(err)

    def output(self, call_id: str, text: str, key: str) -> None:
        self.b.output(call_id, text, key=key, where=self.where)
        self.files.observe(text)
        self.pending = None

    def action(self, call_id: str, thought: str, action: str, key: str) -> None:
        if thought:
            self.b.message("assistant", thought, key=f"{key}:text")
        if action.strip():
            command = action.rstrip("\n")
            use = self.files.classify_action(command)
            self.b.call(call_id, "bash", {"command": command}, key=key, where=self.where, use=use)
            self.pending = (call_id, command)

    def message(self, index: int, message: Any, where: Where) -> None:
        message = expect_object(message, where, "a history message object")
        role = get(message, "role", "string", where, required=True)
        text = text_of(message.get("content"), where.at("content"))
        key = f"h{index}"
        if role == "system":
            self.b.message("system", text, key=key)
        elif role == "assistant":
            self.assistant(index, message, text, where)
        elif role == "tool":
            ids = get(message, "tool_call_ids", "list", where)
            if ids is None:
                single = get(message, "tool_call_id", "string", where)
                ids = [single] if single else ([self.pending[0]] if self.pending else [])
            if not ids or not all(isinstance(i, str) for i in ids):
                raise where.at("tool_call_ids").error(
                    "tool message without call ids",
                    value=ids,
                    has_value=True,
                    expected="a list of tool call ids",
                )
            for n, call_id in enumerate(ids):
                self.b.output(call_id, text if n == 0 else "", key=f"{key}:{n}", where=where)
            self.files.observe(text)
            self.pending = None
        elif role == "user":
            demo = message.get("is_demo") is True
            if self.pending is not None and not demo:
                self.output(self.pending[0], text, key)
            else:
                self.b.message("user", text, key=key, goal=not demo)
                self.files.observe(text)
        else:
            raise where.at("role").error(
                "unknown role",
                value=role,
                has_value=True,
                expected="system, user, assistant or tool",
            )

    def assistant(self, index: int, message: dict[str, Any], text: str, where: Where) -> None:
        calls = get(message, "tool_calls", "list", where)
        if calls:
            planned = []
            for n, call in enumerate(calls):
                cw = where.at("tool_calls").at(n)
                call = expect_object(call, cw, "a tool call object")
                fn = get(call, "function", "object", cw, required=True)
                name = get(fn, "name", "string", cw.at("function"), required=True)
                args = fn.get("arguments", "{}")
                if not isinstance(args, str | dict):
                    raise cw.at("function.arguments").error(
                        "wrong type", value=args, has_value=True, expected="JSON string"
                    )
                call_id = get(call, "id", "string", cw) or f"swe-{index}-{n}"
                planned.append((call_id, name, args))
            if text:
                self.b.message("assistant", text, key=f"h{index}:text")
            for n, (call_id, name, args) in enumerate(planned):
                use = self.files.classify_call(name, args)
                self.b.call(call_id, name, args, key=f"h{index}:{n}", where=where, use=use)
                self.pending = (call_id, "")
            return
        action = get(message, "action", "string", where)
        thought = get(message, "thought", "string", where)
        if action and action.strip():
            self.action(
                f"swe-{index}", thought if thought is not None else text, action, f"h{index}"
            )
        else:
            self.b.message("assistant", text, key=f"h{index}")
