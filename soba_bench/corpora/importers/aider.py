"""aider chat histories (``.aider.chat.history.md``).

aider appends Markdown: ``# aider chat started at <time>`` opens a session (one file usually
holds many), ``#### <text>`` lines are what the user typed, ``> `` lines are aider's tool
output, everything else is the model's reply.

Mapping: user lines -> a user message (lines joined); ``/run X``, ``/test X`` and ``!X``
become a ``function_call`` named ``bash`` (``{"command": X}``) whose output is the ``> ``
block that follows. A ``> `` block after a reply that applied edits ("Applied edit to F")
is the output of an ``apply_edits`` call listing those files (aider applies the reply's
edit blocks as a tool). Other ``> `` blocks (banners, /add notices, token reports) are console
output the model never sees: counted, not imported, but read for facts ("Added F to the
chat" is a file read). Slash commands other than /run, /test, /ask, /code, /architect and
/context are aider's own and not model input (counted). ``Tokens: N sent`` with an exact N
gives a ``model_request`` record for the reply before it; rounded figures ("2.1k") are not
used. aider records no exit codes. aider prefixes only the first line of a multi-line
console message with ``>``; the rest reads as reply text.
"""

from __future__ import annotations

import re
from pathlib import Path

from soba_bench.corpora.importers.base import (
    EPOCH,
    EmptySessionError,
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
    decode_utf8,
)

_START = re.compile(r"^# aider chat started at (.+?)\s*$")
_APPLIED = re.compile(r"^Applied edit to (.+?)\s*$")
_ADDED = re.compile(r"^Added (.+?) to the chat\.?\s*$")
# aider asks about a file the user or the model named, on the line after its path; a yes
# (or "all") adds it to the chat, the same as "Added F to the chat".
_ADD_ASKED = re.compile(r"^Add file to the chat\? .*:\s*(?:y|yes|a|all)\s*$", re.IGNORECASE)
_NOT_FOUND = re.compile(r"^(.+?): file not found error\s*$")
_TOKENS = re.compile(r"^Tokens: (\d{1,3}(?:,\d{3}){0,4}|\d{1,15}) sent\b")
_RUN = re.compile(r"^(?:/run|/test|!)\s*(.*)$", re.DOTALL)
_EDIT_FILES = re.compile(r"^Edit the files\? .*:\s*(?:y|yes)\s*$", re.MULTILINE | re.IGNORECASE)
_PROMPT_LINE = re.compile(r"\(Y\)es/\(N\)o.*\]:?\s*\S*\s*$", re.MULTILINE | re.IGNORECASE)
_ANSWER = re.compile(r"^(?:y|n|a|s|d|yes|no|all|skip|skip all|don't ask again)$", re.IGNORECASE)
_THINKING = re.compile(r"<(thinking-content-[0-9a-f]+)>(.*?)(?:</\1>|\Z)", re.DOTALL)
_ANSWER_MARK = re.compile(r"^\s*►\s*\**(?:ANSWER|THINKING)\**\s*$", re.MULTILINE)
_COMMIT = re.compile(r"^Commit ([0-9a-f]{7,40}) ")
_REMOVED = re.compile(r"^Removed: ([0-9a-f]{7,40}) ")
_KIND_NAMES = {"user": "user (####)", "assistant": "reply", "tool": "console (>)"}
_ASK = re.compile(r"^/(?:ask|code|architect|context)\s+(.*)$", re.DOTALL)
# aider reflects an edit block it could not apply back to the model: a rejected edit.
_NO_MATCH = re.compile(r"^## SearchReplaceNoExactMatch: .* lines in (.+?)\s*$", re.MULTILINE)
_FAILED_EDITS = re.compile(r"^# \d+ SEARCH/REPLACE blocks? failed to match!", re.MULTILINE)


class _Block:
    def __init__(self, kind: str, line: int) -> None:
        self.kind, self.line = kind, line
        self.lines: list[str] = []

    @property
    def text(self) -> str:
        return "\n".join(self.lines).strip("\n")


def split_sessions(text: str) -> list[tuple[str | None, int, list[_Block]]]:
    """(start time, first line, blocks) per ``# aider chat started`` section."""
    sessions: list[tuple[str | None, int, list[_Block]]] = []
    blocks: list[_Block] = []
    started: str | None = None
    start_line = 1
    for lineno, raw in enumerate(text.split("\n"), start=1):
        m = _START.match(raw)
        if m:
            if blocks:
                sessions.append((started, start_line, blocks))
            blocks, started, start_line = [], m.group(1), lineno
            continue
        if raw.startswith("####"):
            kind, body = "user", raw[4:].removeprefix(" ")
            body = body.rstrip() if body.endswith("  ") else body
            body = "" if body == "<blank>" else body
        elif raw == ">" or raw.startswith("> "):  # not ">>>>>>> REPLACE" in a reply
            kind, body = "tool", raw[2:].rstrip()
        else:
            kind, body = "assistant", raw
        if not blocks or blocks[-1].kind != kind:
            blocks.append(_Block(kind, lineno))
        blocks[-1].lines.append(body)
    if blocks:
        sessions.append((started, start_line, blocks))
    return sessions


class AiderImporter(Importer):
    name = "aider"
    description = "aider chat histories (.aider.chat.history.md)"
    patterns = (".aider.chat.history.md", "*.aider.chat.history.md")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        text = decode_utf8(source.content, source.path).replace("\r\n", "\n")
        every = split_sessions(text)
        # A start with only console output (aider opened and closed, a failed model check,
        # `--show-repo`) or only aider's own slash commands (`/help hi`) holds no
        # conversation: counted, not a session. The model only ever answers a typed line.
        sections = [s for s in every if any(b.kind == "user" and _is_conversation(b) for b in s[2])]
        if not sections:
            raise EmptySessionError(
                "nothing to import: no user or model text in any chat section"
                f" ({len(every)} sections)",
                path=source.path,
                expected="an aider chat history with at least one #### line or reply",
            )
        stem = safe_name(Path(source.label).name.removesuffix(".md"), "aider")
        out = []
        for index, (started, first_line, blocks) in enumerate(sections):
            b = SessionBuilder(
                "aider",
                seed=digest("aider", source.sha256, str(index)),
                source_label=source.label,
                source_path=source.path,
                source_sha256=source.sha256,
                options=options,
                issues=IssueLog(options.lenient),
                timestamp=_iso(started),
            )
            b.notes["sourceLines"] = first_line
            if index == 0 and len(every) > len(sections):
                b.notes["consoleOnlySections"] = len(every) - len(sections)
            _Conversion(b, source.path).run(blocks)
            name = stem if len(sections) == 1 else f"{stem}-{index + 1:03d}"
            out.append(b.finish(name))
        return out


def _is_conversation(block: _Block) -> bool:
    """Whether a block reaches the model: reply text, a user line, or a slash command that
    is model input or a tool run (the others are aider's own and skipped as commands)."""
    text = block.text.strip()
    if block.kind == "tool" or not text:
        return False
    if block.kind == "user" and text.startswith("/"):
        return bool(_ASK.match(text) or _RUN.match(text))
    return True


def _same_text(a: str, b: str) -> bool:
    """Equal but for trailing spaces on lines (aider ends #### lines with two)."""
    return [ln.rstrip() for ln in a.strip().split("\n")] == [
        ln.rstrip() for ln in b.strip().split("\n")
    ]


def _iso(started: str | None) -> str:
    """``2024-05-01 10:00:00`` -> ``2024-05-01T10:00:00.000Z`` (aider writes local time)."""
    m = re.match(r"^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})$", started or "")
    return f"{m.group(1)}T{m.group(2)}.000Z" if m else EPOCH


class _Conversion:
    def __init__(self, b: SessionBuilder, path: str) -> None:
        self.b, self.path = b, path
        self.pending: str | None = None  # call id waiting for its ``>`` block
        self.reply_start: str | None = None  # first entry of the latest reply
        self.calls = 0
        self.pending_reads: list[str] = []
        self.pending_deletes: list[tuple[str, str]] = []  # (fact kind, path)
        self.commits: dict[str, tuple[str, ...]] = {}  # aider's commit -> files it edited
        self.undone: set[str] = set()
        self.echo_at = -1  # index of the echoed copy of a raw-printed /run output
        self.last_reply = ""  # text of the latest model reply (architect handoff check)

    def run(self, blocks: list[_Block]) -> None:
        previous: _Block | None = None
        typed = False  # the model only answers a typed line; text before one is aider's
        for index, block in enumerate(blocks):
            if self._echoed_output(blocks, index):
                # `/test`'s output printed as it ran: only its first line carries `> `, so
                # the rest reads as reply text; aider then echoes the whole output, every
                # line prefixed. Keep the prefixed copy as the output, skip the raw print.
                self.b.at(_KIND_NAMES[block.kind], Where(self.path, block.line))
                self.b.skip("console output printed twice (unprefixed copy)")
                continue
            self.b.at(_KIND_NAMES[block.kind], Where(self.path, block.line))
            text = block.text
            if not text.strip():
                continue
            key = f"L{block.line}"
            if block.kind == "user":
                if self.last_reply and _same_text(text, self.last_reply):
                    # Architect mode with auto-accept (aider's default since 0.80): the
                    # reply goes to the editor model as its prompt with no "Edit the
                    # files?" question, echoed as a #### block that repeats it verbatim.
                    self.b.skip("architect handoff to the editor (repeats the reply)")
                    self.last_reply = ""
                    previous = block
                    continue
                if previous is not None and previous.kind == "tool":
                    console = previous.text
                    if _EDIT_FILES.search(console):
                        # Architect mode: the reply is handed to the editor model as its
                        # prompt, echoed as a #### block. It repeats the reply, not the user.
                        self.b.skip("architect handoff to the editor (repeats the reply)")
                        previous = block
                        continue
                    if _PROMPT_LINE.search(console) and _ANSWER.match(text.strip()):
                        self.b.skip("answer to an aider prompt (not model input)")
                        previous = block
                        continue
                typed = True
                self.last_reply = ""
                self.user(text, key, block)
            elif block.kind == "assistant" and not typed:
                # The rest of a multi-line console print whose first line alone carries
                # `> ` (`aider --show-repo` prints the repo map so): no model reply yet.
                self.b.skip("console output before any user line (not a model reply)")
                previous = block
                continue
            elif block.kind == "assistant":
                self.pending = None
                self.last_reply = text
                self.reply(text, key)
            else:
                self.tool(text, key, block)
            previous = block
            entry = self.b.last_entry_id
            if entry is not None:
                for path in self.pending_reads:
                    self.b.facts.file("file_read", path, entry)
                for kind, path in self.pending_deletes:
                    self.b.facts.file(kind, path, entry)
                self.pending_reads.clear()
                self.pending_deletes.clear()

    def _echoed_output(self, blocks: list[_Block], index: int) -> bool:
        """Whether ``blocks[index]`` belongs to the raw print of a ``/run``/``/test`` output
        that aider echoes in full, every line prefixed, as a later ``> `` block (before the
        next user line). The raw print interleaves prefixed and unprefixed lines (pytest's
        own ``>`` markers), so it spans several blocks."""
        if index < self.echo_at:
            return True
        block = blocks[index]
        head = block.text.strip()
        if self.pending is None or block.kind != "tool" or not head:
            return False
        for j in range(index + 2, len(blocks)):
            if blocks[j].kind == "user":
                return False
            if blocks[j].kind == "tool" and blocks[j].text.lstrip().startswith(head):
                self.echo_at = j
                return True
        return False

    def reply(self, text: str, key: str) -> None:
        """A model reply; ``<thinking-content-...>`` sections (how aider shows a reasoning
        model's thinking) become a reasoning item, not reply text."""
        thoughts = [m.group(2).strip() for m in _THINKING.finditer(text)]
        answer = _ANSWER_MARK.sub("", _THINKING.sub("", text)).strip()
        first = None
        if thoughts:
            first = self.b.reasoning("\n\n".join(thoughts), key=f"{key}:thinking")
            self.b.notes["thinkingSections"] = self.b.notes.get("thinkingSections", 0) + len(
                thoughts
            )
        if answer:
            entry = self.b.message("assistant", answer, key=key)
            first = first or entry
        self.reply_start = first

    def _call(self, name: str, args: dict, key: str, use: ToolUse) -> str:
        self.calls += 1
        call_id = f"aider-{self.calls}"
        self.b.call(call_id, name, args, key=key, where=Where(self.path), use=use)
        return call_id

    def user(self, text: str, key: str, block: _Block) -> None:
        self.pending, self.reply_start = None, None
        m = _RUN.match(text)
        if m and m.group(1).strip():
            command = m.group(1).strip()
            self.pending = self._call("bash", {"command": command}, key, ToolUse(command=command))
            return
        ask = _ASK.match(text)
        if ask:
            text = ask.group(1)
        elif text.startswith("/"):
            if text.startswith("/drop "):
                self.pending_deletes.extend(("dropped", p) for p in text.split()[1:])
            self.b.skip("command")  # /add, /drop, /undo...: aider's own, not model input
            return
        self.b.message("user", text, key=key, goal=True)

    def tool(self, text: str, key: str, block: _Block) -> None:
        lines = text.split("\n")
        self.pending_reads.extend(m.group(1) for ln in lines if (m := _ADDED.match(ln)))
        self.pending_reads.extend(
            lines[i - 1].strip() for i, ln in enumerate(lines) if i and _ADD_ASKED.match(ln)
        )
        # aider noticed a chat file is gone from disk: it leaves the modified set.
        self.pending_deletes.extend(
            ("deleted", m.group(1)) for ln in lines if (m := _NOT_FOUND.match(ln))
        )
        # /undo removes aider's last commit: a file none of the remaining commits edited
        # is back as it was, so it leaves the modified set.
        for ln in lines:
            m = _REMOVED.match(ln)
            if m and m.group(1) in self.commits:
                self.undone.add(m.group(1))
                live = {f for h, fs in self.commits.items() if h not in self.undone for f in fs}
                self.pending_deletes.extend(
                    ("reverted", f) for f in self.commits[m.group(1)] if f not in live
                )
        tokens = next((_TOKENS.match(ln) for ln in lines if _TOKENS.match(ln)), None)
        if tokens and self.reply_start is not None:
            self.b.usage(int(tokens.group(1).replace(",", "")), before_entry=self.reply_start)
            self.reply_start = None
        if self.pending is not None:
            self.b.output(self.pending, text, key=key, where=Where(self.path, block.line))
            self.pending = None
            return
        applied = [m.group(1) for ln in lines if (m := _APPLIED.match(ln))]
        rejected = (
            list(dict.fromkeys(_NO_MATCH.findall(text))) if _FAILED_EDITS.search(text) else []
        )
        if rejected and not applied and self.b.last_entry_id is not None:
            call_id = self._call(
                "apply_edits", {"files": rejected}, f"{key}:call", ToolUse(modifies=tuple(rejected))
            )
            self.b.output(call_id, text, key=key, where=Where(self.path, block.line), failed=True)
            return
        for ln in lines:
            m = _COMMIT.match(ln)
            if m and applied:
                self.commits[m.group(1)] = tuple(applied)
        if applied and self.b.last_entry_id is not None:
            call_id = self._call(
                "apply_edits", {"files": applied}, f"{key}:call", ToolUse(modifies=tuple(applied))
            )
            self.b.output(call_id, text, key=key, where=Where(self.path, block.line))
            return
        self.b.skip("consoleOutput")
