"""OpenAI Chat Completions message lists: a JSON array of messages, ``{"messages": [...]}``, a
JSON array of such objects, or JSONL (one message per line, or one ``{"messages": [...]}``
conversation per line, as fine-tuning files have it).

Mapping: ``system`` / ``developer`` -> system message; ``user`` -> user message (the first
is the goal); ``assistant`` -> its content as an assistant message (``reasoning_content``
kept), then one ``function_call`` per ``tool_calls`` entry (ids and argument strings as
written) or for a legacy ``function_call`` (id ``fn-<index>``); ``tool`` -> the output of
its ``tool_call_id``; legacy ``function`` -> the output of the latest call of that name.
A non-standard ``usage.prompt_tokens`` on an assistant message gives a ``model_request``
record. Message lists record no exit codes, except a tool result that ends in OpenHands'
``[Command finished with exit code N]``; other blockers come from the failure rules.
"""

from __future__ import annotations

import re
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
from soba_bench.corpora.importers.source import (
    Where,
    expect_object,
    get,
    iter_jsonl,
    load_json,
    looks_like_jsonl,
)
from soba_bench.errors import InputError

# OpenHands conversations kept as Chat Completions messages (SWE-Gym's trajectories) end
# a command's result with its exit status, the way OpenHands shows it to the model.
_EXIT_MARKER = re.compile(r"\[Command finished with exit code (-?\d{1,9})\]\s*\Z")

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}


def parts(content: Any, role: str, where: Where) -> list[dict[str, Any]]:
    """Message content as SOBA content blocks (text and images)."""
    block_type = "output_text" if role == "assistant" else "input_text"
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": block_type, "text": content}] if content else []
    if not isinstance(content, list):
        raise where.error(
            "wrong type",
            value=content,
            has_value=True,
            expected="string, null or list of content parts",
        )
    out = []
    for i, part in enumerate(content):
        pw = where.at(i)
        if isinstance(part, str):
            out.append({"type": block_type, "text": part})
            continue
        part = expect_object(part, pw, "a content part object")
        kind = part.get("type")
        if kind in ("text", "input_text", "output_text"):
            out.append({"type": block_type, "text": get(part, "text", "string", pw) or ""})
        elif kind in ("image_url", "input_image"):
            url = part.get("image_url")
            url = url.get("url") if isinstance(url, dict) else url
            out.append({"type": "input_image", "image_url": url if isinstance(url, str) else ""})
        else:
            raise pw.at("type").error(
                "unsupported content part", value=kind, has_value=True, expected="text or image_url"
            )
    return out


def output_of(content: Any, where: Where) -> str | list[dict[str, Any]]:
    blocks = parts(content, "tool", where)
    if all(b["type"] == "input_text" for b in blocks):
        return "".join(b["text"] for b in blocks)
    return blocks


class MessageConverter:
    """Feeds Chat Completions messages into a builder (also used by the ``hf`` importer)."""

    def __init__(self, b: SessionBuilder) -> None:
        self.b = b
        self.legacy: dict[str, str] = {}  # function name -> latest legacy call id

    def run(self, messages: list[Any], where: Where) -> None:
        for index, message in enumerate(messages):
            role = message.get("role") if isinstance(message, dict) else None
            self.b.at(f"message:{role}" if isinstance(role, str) else "message", where.at(index))
            try:
                self.message(index, message, where.at(index))
            except InputError as err:
                self.b.record(err)

    def message(self, index: int, message: Any, where: Where) -> None:
        message = expect_object(message, where, "a message object")
        role = get(message, "role", "string", where, required=True)
        key = f"m{index}"
        if role in ("tool", "function"):
            content = output_of(message.get("content"), where.at("content"))
            if role == "tool":
                call_id = get(message, "tool_call_id", "string", where, required=True)
            else:
                name = get(message, "name", "string", where, required=True)
                call_id = self.legacy.get(name, f"fn-{name}")
            marker = _EXIT_MARKER.search(content) if isinstance(content, str) else None
            exit_code = int(marker.group(1)) if marker else None
            self.b.output(call_id, content, key=key, where=where, exit_code=exit_code)
            return
        if role not in ROLES:
            raise where.at("role").error(
                "unknown role",
                value=role,
                has_value=True,
                expected="system, developer, user, assistant, tool",
            )
        blocks = parts(message.get("content"), ROLES[role], where.at("content"))
        if role != "assistant":
            self.b.message(ROLES[role], blocks, key=key, goal=role == "user")
            return
        calls = self._planned_calls(index, message, where)
        reasoning = get(message, "reasoning_content", "string", where)
        usage = get(message, "usage", "object", where)
        tokens = get(usage, "prompt_tokens", "integer", where.at("usage")) if usage else None
        if tokens is not None and tokens > 0:
            self.b.usage(tokens)
        if blocks or reasoning or not calls:
            extra = {"reasoning_content": reasoning} if reasoning else {}
            self.b.message("assistant", blocks, key=key, **extra)
        for n, (call_id, name, args, legacy) in enumerate(calls):
            self.b.call(call_id, name, args, key=f"{key}:{n}", where=where)
            if legacy:
                self.legacy[name] = call_id

    def _planned_calls(self, index: int, message: dict[str, Any], where: Where):
        planned = []
        for n, call in enumerate(get(message, "tool_calls", "list", where) or ()):
            cw = where.at("tool_calls").at(n)
            call = expect_object(call, cw, "a tool call object")
            call_id = get(call, "id", "string", cw, required=True)
            fn = get(call, "function", "object", cw, required=True)
            name = get(fn, "name", "string", cw.at("function"), required=True)
            planned.append((call_id, name, _arguments(fn, cw.at("function")), False))
        legacy = get(message, "function_call", "object", where)
        if legacy is not None:
            name = get(legacy, "name", "string", where.at("function_call"), required=True)
            planned.append(
                (f"fn-{index}", name, _arguments(legacy, where.at("function_call")), True)
            )
        return planned


def _arguments(fn: dict[str, Any], where: Where) -> str | dict[str, Any]:
    args = fn.get("arguments", "{}")
    if not isinstance(args, str | dict):
        raise where.at("arguments").error(
            "wrong type", value=args, has_value=True, expected="JSON string"
        )
    return args


def conversations(source: SourceFile, issues: IssueLog) -> list[tuple[Where, list[Any]]]:
    """The message lists in a file, each with its position."""
    if looks_like_jsonl(source.content):
        lines = list(iter_jsonl(source, issues))
        if lines and all("messages" in obj for _, obj in lines):
            return [
                (
                    Where(source.path, n).at("messages"),
                    get(obj, "messages", "list", Where(source.path, n), required=True),
                )
                for n, obj in lines
            ]
        return [(Where(source.path), [obj for _, obj in lines])]
    data = load_json(source)
    where = Where(source.path)
    if isinstance(data, dict):
        return [(where.at("messages"), get(data, "messages", "list", where, required=True))]
    if not isinstance(data, list):
        raise where.error(
            "expected a message list",
            value=data,
            has_value=True,
            expected='a JSON array of messages or {"messages": [...]}',
        )
    if data and all(isinstance(x, dict) and "messages" in x for x in data):
        return [
            (where.at(i).at("messages"), get(x, "messages", "list", where.at(i), required=True))
            for i, x in enumerate(data)
        ]
    return [(where, data)]


class OpenAIMessagesImporter(Importer):
    name = "openai-messages"
    description = "OpenAI Chat Completions message lists (JSON array, {messages}, or JSONL)"
    patterns = ("*.json", "*.jsonl")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        issues = IssueLog(options.lenient)
        convs = conversations(source, issues)
        stem = safe_name(Path(source.label).stem)
        out = []
        for index, (where, messages) in enumerate(convs):
            b = SessionBuilder(
                "openai-messages",
                seed=digest("openai-messages", source.sha256, str(index)),
                source_label=source.label,
                source_path=source.path,
                source_sha256=source.sha256,
                options=options,
                issues=issues,
            )
            if len(convs) > 1:
                b.notes["conversationIndex"] = index
            MessageConverter(b).run(messages, where)
            out.append(b.finish(stem if len(convs) == 1 else f"{stem}-{index + 1:03d}"))
        return out
