"""Tool use written as text (SWE-smith / SWE-agent "function calling as text" rows): the
model writes its call inside the assistant message::

    I'll look at the file first.
    <function=bash>
    <parameter=command>grep -n "def parse" src/x.py</parameter>
    </function>

and the harness answers with a user message that starts ``OBSERVATION:`` (any case; for a
command that printed nothing, SWE-agent's bare "Your command ran successfully..." line).
Chat-format readers see only chat there; this converter turns each ``<function=NAME>``
block into a ``function_call`` (its ``<parameter=KEY>`` values as JSON arguments, id
``tt-<message>-<n>``) and the next answer into that call's output. The text before the first
block stays the assistant's message. Other user messages are user turns (the first is the
goal). Used by the ``text-tools`` format (JSON / JSONL message lists, like
``openai-messages``) and by the ``hf`` mappings ``text-tools`` and
``SWE-bench/SWE-smith-trajectories``.
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
from soba_bench.corpora.importers.facts import ToolUse
from soba_bench.corpora.importers.openai_messages import conversations
from soba_bench.corpora.importers.source import Where, expect_object, get
from soba_bench.corpora.importers.swe_agent import text_of
from soba_bench.corpora.importers.tools import classify_generic
from soba_bench.errors import InputError

_CALL = re.compile(r"<function=([A-Za-z0-9_.:-]+)>(.*?)(?:</function>|\Z)", re.DOTALL)
_PARAM = re.compile(r"<parameter=([A-Za-z0-9_.-]+)>(.*?)</parameter>", re.DOTALL)
# SWE-smith rows write "OBSERVATION:" and, in some rows, "Observation:".
_OBSERVATION = re.compile(r"^\s*OBSERVATION:[ \t]*\n?", re.IGNORECASE)
# SWE-agent answers a command with no output with this text alone (no prefix).
_BARE_ANSWER = re.compile(r"^\s*Your command ran successfully and did not produce any output\.")
ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant"}
# Calls that end or steer the episode rather than act on files or run commands.
_CONTROL = frozenset({"submit", "finish", "exit", "think"})


def parse_calls(text: str) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    """(the text outside the call blocks, [(tool name, parameters)]) of an assistant turn."""
    calls = []
    for m in _CALL.finditer(text):
        params = {}
        for p in _PARAM.finditer(m.group(2)):
            params[p.group(1)] = p.group(2).removeprefix("\n").removesuffix("\n")
        calls.append((m.group(1), params))
    return _CALL.sub("", text).strip(), calls


def classify(name: str, params: dict[str, str]) -> ToolUse:
    if name in _CONTROL:
        return ToolUse(target=name)
    return classify_generic(name, params)


class TextToolConverter:
    """Converts one message list; ``role_of`` / ``text_of`` read a message."""

    def __init__(self, b: SessionBuilder) -> None:
        self.b = b
        self.pending: list[str] = []

    def run(
        self,
        messages: list[Any],
        where: Where,
        role_key="role",
        content_key="content",
        roles: dict[str, str] | None = None,
    ) -> None:
        roles = roles or {}
        for index, message in enumerate(messages):
            mw = where.at(index)
            role = message.get(role_key) if isinstance(message, dict) else None
            self.b.at(f"message:{role}" if isinstance(role, str) else "message", mw)
            try:
                message = expect_object(message, mw, "a message object")
                named: str = get(message, role_key, "string", mw, required=True)
                text = text_of(message.get(content_key), mw.at(content_key))
                self.message(index, roles.get(named, named), text, mw)
            except InputError as err:
                self.b.record(err)

    def message(self, index: int, role: str, text: str, where: Where) -> None:
        key = f"m{index}"
        if role == "assistant":
            thought, calls = parse_calls(text)
            if thought or not calls:
                self.b.message("assistant", thought if calls else text, key=key)
            self.pending = []
            for n, (name, params) in enumerate(calls):
                call_id = f"tt-{index}-{n}"
                self.b.call(
                    call_id, name, params, key=f"{key}:{n}", where=where, use=classify(name, params)
                )
                self.pending.append(call_id)
        elif (
            role in ("user", "tool")
            and self.pending
            and (role == "tool" or _OBSERVATION.match(text) or _BARE_ANSWER.match(text))
        ):
            call_id = self.pending.pop(0)
            self.b.output(call_id, _OBSERVATION.sub("", text, count=1), key=key, where=where)
        elif role in ROLES:
            if role == "user" and _OBSERVATION.match(text):
                # An observation with no call before it: the model's text had no parsable
                # call, yet the harness ran something. Kept as the user turn it was.
                notes = self.b.notes
                notes["observationsWithoutCall"] = notes.get("observationsWithoutCall", 0) + 1
            self.b.message(
                ROLES[role], text, key=key, goal=role == "user" and not _OBSERVATION.match(text)
            )
        else:
            raise where.at("role").error(
                "unknown role",
                value=role,
                has_value=True,
                expected="system, user, assistant or tool",
            )


class TextToolsImporter(Importer):
    name = "text-tools"
    description = (
        "message lists whose tool calls are written as text (<function=NAME> blocks, "
        "OBSERVATION: results), as JSON or JSONL like openai-messages"
    )
    patterns = ("*.json", "*.jsonl")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        issues = IssueLog(options.lenient)
        convs = conversations(source, issues)
        stem = safe_name(Path(source.label).stem)
        out = []
        for index, (where, messages) in enumerate(convs):
            b = SessionBuilder(
                "text-tools",
                seed=digest("text-tools", source.sha256, str(index)),
                source_label=source.label,
                source_path=source.path,
                source_sha256=source.sha256,
                options=options,
                issues=issues,
            )
            TextToolConverter(b).run(messages, where)
            name = stem if len(convs) == 1 else f"{stem}-{index + 1:03d}"
            out.append(b.finish(name))
        return out
