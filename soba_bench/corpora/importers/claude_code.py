"""Claude Code: project transcripts (``~/.claude/projects/*/*.jsonl``) and ``claude -p
--output-format stream-json`` logs.

Transcripts are read along their main chain (``claude_chain``): sidechain (subagent)
records and abandoned branches are left out and counted.

Mapping: ``text`` blocks -> messages; ``thinking`` / ``redacted_thinking`` -> ``reasoning``
items (0 tokens in SOBA's estimator, as thinking is not resent); ``tool_use`` ->
``function_call`` (input as compact JSON); ``tool_result`` -> ``function_call_output``
(status ``failed`` when ``is_error``; text blocks joined). ``message.usage`` gives one
``model_request`` record per ``message.id``: input + cache-creation + cache-read tokens.
``compact_boundary`` markers become recorded compactions, with the following
``isCompactSummary`` message as their summary (the summary itself is not an item: the
replay keeps the full history and decides its own compactions; only a file that starts with
a summary keeps it, as that file's history begins there).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from soba_bench.corpora.importers.base import (
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
from soba_bench.corpora.importers.claude_chain import chain_order, split_sidechains, stream_order
from soba_bench.corpora.importers.commands import only_missing_paths
from soba_bench.corpora.importers.facts import ToolUse
from soba_bench.corpora.importers.source import (
    Where,
    as_timestamp,
    get,
    iter_jsonl,
)
from soba_bench.corpora.importers.tools import classify_generic
from soba_bench.errors import InputError

_EXIT_CODE = re.compile(r"^Exit code (-?\d{1,18})(?!\d)")
_NOT_A_GOAL = ("<command-", "<local-command-", "Caveat:", "[Request interrupted")


def classify(name: Any, args: Any) -> ToolUse:
    if not isinstance(args, dict):
        return ToolUse()
    path = args.get("file_path") or args.get("notebook_path")
    path = path if isinstance(path, str) else None
    if name in ("Read", "NotebookRead") and path:
        return ToolUse(reads=(path,))
    if name in ("Write", "Edit", "MultiEdit", "NotebookEdit") and path:
        return ToolUse(modifies=(path,))
    if name == "Bash" and isinstance(args.get("command"), str):
        return ToolUse(command=args["command"])
    return classify_generic(name, args)


def usage_tokens(message: dict[str, Any], where: Where) -> dict[str, int] | None:
    usage = get(message, "usage", "object", where)
    if usage is None:
        return None
    uw = where.at("usage")
    parts = {
        k: get(usage, k, "integer", uw) or 0
        for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
    }
    out = get(usage, "output_tokens", "integer", uw)
    return {**parts, "output_tokens": out} if out is not None else parts


def result_output(block: dict[str, Any], where: Where) -> str | list[dict[str, Any]]:
    content = block.get("content")
    if content is None or isinstance(content, str):
        return content or ""
    if not isinstance(content, list):
        raise where.at("content").error(
            "wrong type", value=content, has_value=True, expected="string or list of content blocks"
        )
    blocks = [convert_block(b, where.at("content").at(i), "user") for i, b in enumerate(content)]
    if all(b["type"] == "input_text" for b in blocks):
        return "\n".join(b["text"] for b in blocks)
    return blocks


def convert_block(block: Any, where: Where, role: str) -> dict[str, Any]:
    """A text/image block as a SOBA content block; other block types are an error."""
    if isinstance(block, str):
        block = {"type": "text", "text": block}
    if not isinstance(block, dict):
        raise where.error("content block is not an object", value=block, has_value=True)
    kind = block.get("type")
    if kind == "text":
        text = get(block, "text", "string", where) or ""
        return {"type": "output_text" if role == "assistant" else "input_text", "text": text}
    if kind == "image":
        source = get(block, "source", "object", where) or {}
        data, media = source.get("data"), source.get("media_type")
        url = f"data:{media};base64,{data}" if isinstance(data, str) else source.get("url")
        return {"type": "input_image", "image_url": url if isinstance(url, str) else ""}
    if kind == "document":
        # A PDF or text document the user attached: its text when it has one, else a marker
        # (the model saw the document; its bytes are not text a replay can count).
        source = get(block, "source", "object", where) or {}
        data = source.get("data") if source.get("type") == "text" else None
        title = block.get("title") if isinstance(block.get("title"), str) else "document"
        text = data if isinstance(data, str) else f"[{title}: {source.get('media_type', '?')}]"
        return {"type": "input_text", "text": text}
    if isinstance(kind, str) and kind:
        # Other block kinds (tool references, search results...) are kept as their JSON so
        # nothing the model saw is dropped silently.
        return {"type": "input_text", "text": json.dumps(block, ensure_ascii=False)}
    raise where.at("type").error(
        "unsupported content block", value=kind, has_value=True, expected="text or image"
    )


class ClaudeCodeImporter(Importer):
    name = "claude-code"
    description = "Claude Code project transcripts or --output-format stream-json logs (.jsonl)"
    patterns = ("*.jsonl",)

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        issues = IssueLog(options.lenient)
        records = list(iter_jsonl(source, issues))
        # Transcript records link by `parentUuid`; stream-json events carry a `uuid` too
        # (Claude Code 1.x and later) but never a `parentUuid`.
        transcript = any("parentUuid" in r for _, r in records)
        main, sides = split_sidechains(records)
        stem = safe_name(Path(source.label).stem)
        out = [_Run(source, options, issues, main, stream=not transcript).build(stem)]
        # Subagent (sidechain) conversations are their own sessions: the main model never
        # saw their turns, only the Task call's result.
        for n, (agent, side) in enumerate(sides.items(), start=1):
            run = _Run(source, options, issues, side, stream=not transcript, side=agent)
            try:
                out.append(run.build(f"{stem}.sidechain-{safe_name(agent, str(n))}"))
            except EmptySessionError:
                # A subagent that never got to talk (or, lenient, whose records were all
                # bad): no session, but the main session says so.
                notes = out[0].origin
                notes["emptySidechains"] = notes.get("emptySidechains", 0) + 1
        return out


class _Run:
    """One conversation's conversion (the main one, or one subagent's)."""

    def __init__(self, source, options, issues, records, *, stream: bool, side=None) -> None:
        self.source, self.stream = source, stream
        self.records: list[tuple[int, dict[str, Any]]] = records
        first = self._first_meta()
        sid = first.get("sessionId") or first.get("session_id")
        sid = sid if isinstance(sid, str) and sid else None
        cwd = first.get("cwd")
        seed = f"claude-code:{sid}" if sid else digest("claude-code", source.sha256)
        self.b = SessionBuilder(
            "claude-code",
            seed=seed if side is None else f"{seed}:sidechain:{side}",
            source_label=source.label,
            source_path=source.path,
            source_sha256=source.sha256,
            options=options,
            issues=issues,
            session_id=sid if side is None else None,
            timestamp=as_timestamp(first.get("timestamp")),
            cwd=cwd if isinstance(cwd, str) else None,
        )
        self.b.notes["variant"] = "stream-json" if stream else "transcript"
        if side is not None:
            self.b.notes["sidechainOf"] = sid
            self.b.notes["agent"] = side
        self.tool_names: dict[str, Any] = {}
        self.seen_messages: set[str] = set()

    def _first_meta(self) -> dict[str, Any]:
        for _, rec in self.records:
            if rec.get("sessionId") or rec.get("session_id"):
                return rec
        return {}

    def build(self, name: str) -> ImportedSession:
        ordered = (stream_order if self.stream else chain_order)(self.records, self.b)
        for lineno, rec in ordered:
            kind = rec.get("type")
            if kind == "system":
                kind = f"system:{rec.get('subtype')}"
            self.b.at(str(kind), lineno)
            try:
                self._record(lineno, rec)
            except InputError as err:
                self.b.record(err)
        return self.b.finish(name)

    # -- records -------------------------------------------------------------------------

    def _record(self, lineno: int, rec: dict[str, Any]) -> None:
        where = Where(self.source.path, lineno)
        kind = rec.get("type")
        ts = as_timestamp(rec.get("timestamp"))
        uuid = rec.get("uuid")
        key = uuid if isinstance(uuid, str) else f"line{lineno}"
        if kind == "system":
            self._system(rec, where)
            return
        if kind == "attachment":
            self._attachment(rec, key, ts, where)
            return
        message = get(rec, "message", "object", where, required=True)
        mw = where.at("message")
        content = message.get("content")
        if kind == "user" and rec.get("isCompactSummary") is True:
            self._compact_summary(content, key, ts)
            return
        if not isinstance(content, str | list):
            raise mw.at("content").error(
                "wrong type",
                value=content,
                has_value=True,
                expected="string or list of content blocks",
            )
        if kind == "assistant":
            self._assistant(message, content, key, ts, mw, rec)
        else:
            self._user(content, key, ts, mw, rec)

    def _attachment(self, rec: dict[str, Any], key: str, ts: str | None, where: Where) -> None:
        """Claude Code 2.x attachments. A ``queued_command`` is a prompt the user typed while
        the agent worked, delivered to the model at the next turn: a user message. The other
        kinds (file change notices, todo and plan reminders, hook context) are reminders the
        harness generates, counted by kind."""
        att = get(rec, "attachment", "object", where) or {}
        kind = att.get("type")
        prompt = att.get("prompt")
        if kind == "queued_command" and isinstance(prompt, str) and prompt.strip():
            self.b.message("user", prompt, key=key, ts=ts, goal=True)
        else:
            self.b.skip(f"attachment:{kind} (harness reminder)")

    def _compact_summary(self, content: Any, key: str, ts: str | None) -> None:
        """The summary Claude Code continued from. It completes the boundary's recorded
        compaction; it is an item only when the file starts with it (the history it replaced
        is then not in this file, so the summary is the real context)."""
        text = content if isinstance(content, str) else _text_of(content)
        last = self.b.compactions[-1] if self.b.compactions else None
        if last is not None and last.summary is None:
            self.b.compactions[-1] = replace(last, summary=text)
        else:
            self.b.compaction(summary=text)
        if self.b.last_entry_id is None and text:
            self.b.message("user", text, key=key, ts=ts)
        else:
            self.b.skip("compactSummary")

    def _system(self, rec: dict[str, Any], where: Where) -> None:
        if rec.get("subtype") != "compact_boundary":
            self.b.skip(f"system:{rec.get('subtype')}")
            return
        meta = rec.get("compactMetadata") or rec.get("compact_metadata") or {}
        if not isinstance(meta, dict):
            raise where.at("compactMetadata").error(
                "wrong type", value=meta, has_value=True, expected="object"
            )
        mw = where.at("compactMetadata")
        pre = get(meta, "preTokens", "integer", mw) or get(meta, "pre_tokens", "integer", mw)
        post = get(meta, "postTokens", "integer", mw) or get(meta, "post_tokens", "integer", mw)
        trigger = get(meta, "trigger", "string", mw)
        self.b.compaction(trigger=trigger, pre_tokens=pre, post_tokens=post)

    def _assistant(self, message, content, key, ts, where, rec) -> None:
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        usage = usage_tokens(message, where)
        mid = message.get("id") if isinstance(message.get("id"), str) else None
        plan = [_plan_block(b, where.at("content").at(i)) for i, b in enumerate(blocks)]
        if usage is not None and (mid is None or mid not in self.seen_messages):
            total = sum(
                usage[k]
                for k in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
            )
            if total > 0:
                extra: dict[str, Any] = {
                    "uncachedInputTokens": usage["input_tokens"],
                    "cacheCreationInputTokens": usage["cache_creation_input_tokens"],
                    "cacheReadInputTokens": usage["cache_read_input_tokens"],
                }
                if "output_tokens" in usage:
                    extra["outputTokens"] = usage["output_tokens"]
                if isinstance(message.get("model"), str):
                    extra["model"] = message["model"]
                if mid:
                    extra["messageId"] = mid
                self.b.usage(total, ts=ts, **extra)
        if mid:
            self.seen_messages.add(mid)
        for i, (kind, value, bw) in enumerate(plan):
            k = f"{key}:{i}"
            if kind == "text":
                self.b.message("assistant", value, key=k, ts=ts)
            elif kind == "reasoning":
                self.b.reasoning(value[0], key=k, ts=ts, **value[1])
            elif kind == "call":
                call_id, name, args = value
                self.tool_names[call_id] = name
                self.b.call(call_id, name, args, key=k, ts=ts, where=bw, use=classify(name, args))
            else:
                self.b.skip(f"block:{value}")

    def _user(self, content, key, ts, where, rec) -> None:
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        texts: list[dict[str, Any]] = []
        results = []
        for i, block in enumerate(blocks):
            bw = where.at("content").at(i)
            if isinstance(block, dict) and block.get("type") == "tool_result":
                call_id = get(block, "tool_use_id", "string", bw, required=True)
                is_error = get(block, "is_error", "boolean", bw) is True
                results.append((i, call_id, result_output(block, bw), is_error, bw))
            else:
                texts.append(convert_block(block, bw, "user"))
        for i, call_id, output, is_error, bw in results:
            exit_code = None
            if self.tool_names.get(call_id) == "Bash":
                m = _EXIT_CODE.match(output) if isinstance(output, str) else None
                exit_code = int(m.group(1)) if m else (None if is_error else 0)
                if not m and isinstance(output, str) and only_missing_paths(output):
                    # Claude Code reports no error for a `find` whose start folder is
                    # missing; the output, only "No such file or directory", says it failed.
                    exit_code, is_error = None, True
            self.b.output(
                call_id,
                output,
                key=f"{key}:{i}",
                ts=ts,
                where=bw,
                status="failed" if is_error else "completed",
                exit_code=exit_code,
            )
        if texts:
            text = "".join(b.get("text", "") for b in texts)
            goal = rec.get("isMeta") is not True and not text.lstrip().startswith(_NOT_A_GOAL)
            self.b.message("user", texts, key=f"{key}:text", ts=ts, goal=goal)


def _plan_block(block: Any, where: Where):
    """(kind, value, where) for one assistant block, validated before anything is emitted."""
    if isinstance(block, str):
        return "text", block, where
    if not isinstance(block, dict):
        raise where.error("content block is not an object", value=block, has_value=True)
    kind = block.get("type")
    if kind == "text":
        return "text", get(block, "text", "string", where) or "", where
    if kind == "thinking":
        return "reasoning", (get(block, "thinking", "string", where), {}), where
    if kind == "redacted_thinking":
        data = get(block, "data", "string", where)
        return "reasoning", (None, {"encrypted_content": data} if data else {}), where
    if kind in ("tool_use", "server_tool_use"):
        call_id = get(block, "id", "string", where, required=True)
        name = get(block, "name", "string", where, required=True)
        args = block.get("input", {})
        return "call", (call_id, name, args), where
    return "skip", kind if isinstance(kind, str) else "unknown", where


def _text_of(content: Any) -> str | None:
    if isinstance(content, list):
        return "".join(
            b.get("text", "")
            for b in content
            if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return None
