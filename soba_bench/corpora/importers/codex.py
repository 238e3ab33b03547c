"""Codex CLI rollouts (``~/.codex/sessions/**/rollout-*.jsonl``).

Lines are ``{timestamp, type, payload}`` with type ``session_meta`` (id, cwd), ``response_item``
(Responses API items, which SOBA's own item types mirror), ``event_msg``, ``turn_context`` and
``compacted``; older rollouts (a bare ``{id, timestamp, instructions}`` first line, then bare
items and ``record_type: state`` lines) are read too.

Mapping: ``message`` / ``reasoning`` / ``function_call`` / ``function_call_output`` are
copied as they are (role ``developer`` becomes ``system``: SOBA stores no developer
messages); ``local_shell_call`` -> ``local_shell_call`` with the argv as one command string;
``custom_tool_call`` (freeform tools such as ``apply_patch``) -> ``function_call`` with
``{"input": ...}`` arguments. ``event_msg`` ``token_count`` gives the request's
``last_token_usage.input_tokens`` (cached tokens are part of it); Codex writes it after the
response, so its ``model_request`` record is placed before that response's first item.
``compacted`` lines become recorded compactions (their message as the summary). Other event
messages repeat response items for the UI and are counted, not imported.
"""

from __future__ import annotations

import json
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
from soba_bench.corpora.importers.source import (
    Where,
    as_timestamp,
    expect_object,
    get,
    iter_jsonl,
)
from soba_bench.corpora.importers.tools import command_text, parse_args
from soba_bench.errors import InputError

ROLES = {"user": "user", "assistant": "assistant", "system": "system", "developer": "system"}
MODEL_OUTPUT = frozenset({"reasoning", "function_call", "custom_tool_call", "local_shell_call"})
_CONTEXT_PREFIXES = (
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md",
    "<INSTRUCTIONS>",
)
_EXIT_TEXT = re.compile(
    r"(?:^Exit code: |Process exited with code )(-?\d{1,18})(?!\d)", re.MULTILINE
)


_RUNNING = re.compile(r"^Process running with session ID (\d{1,18})\s*$", re.MULTILINE)


def shell_result(output: Any) -> tuple[int | None, str | None]:
    """(exit code, text) of a shell tool's output: Codex wraps it as JSON
    ``{"output", "metadata": {"exit_code"}}`` or prefixes "Exit code: N" in text."""
    if not isinstance(output, str):
        return None, None
    if output.startswith("{"):
        try:
            data = json.loads(output)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict) and isinstance(data.get("output"), str):
            meta = data.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            valid = isinstance(code, int) and not isinstance(code, bool)
            return (code if valid else None), data["output"]
    m = _EXIT_TEXT.search(output[:2000])
    return (int(m.group(1)) if m else None), None


def content_blocks(content: Any, where: Where) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "input_text", "text": content}]
    if not isinstance(content, list):
        raise where.error("wrong type", value=content, has_value=True, expected="list of blocks")
    for i, block in enumerate(content):
        bw = where.at(i)
        expect_object(block, bw, "a content block object")
        if "text" in block and not isinstance(block["text"], str):
            raise bw.at("text").error(
                "wrong type", value=block["text"], has_value=True, expected="string"
            )
    return content


class CodexImporter(Importer):
    name = "codex"
    description = "Codex CLI rollout files (rollout-*.jsonl)"
    patterns = ("*.jsonl",)

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        issues = IssueLog(options.lenient)
        records = list(iter_jsonl(source, issues))
        meta: dict[str, Any] = {}
        for _, rec in records:
            payload = rec.get("payload") if rec.get("type") == "session_meta" else None
            if isinstance(payload, dict):
                inner = payload.get("meta")
                meta = inner if isinstance(inner, dict) else payload
                break
            if "type" not in rec and "record_type" not in rec and "id" in rec:
                meta = rec  # legacy first line
                break
        sid = meta.get("id") if isinstance(meta.get("id"), str) and meta.get("id") else None
        cwd = meta.get("cwd")
        b = SessionBuilder(
            "codex",
            seed=f"codex:{sid}" if sid else digest("codex", source.sha256),
            source_label=source.label,
            source_path=source.path,
            source_sha256=source.sha256,
            options=options,
            issues=issues,
            session_id=sid,
            timestamp=as_timestamp(meta.get("timestamp")),
            cwd=cwd if isinstance(cwd, str) else None,
        )
        conv = _Conversion(b, source)
        conv.user_texts = {
            _norm(text) for _, rec in records if (text := _response_user_text(rec)) is not None
        }
        for lineno, rec in records:
            b.at(_record_kind(rec), lineno)
            try:
                conv.line(lineno, rec)
            except InputError as err:
                b.record(err)
        return [b.finish(safe_name(Path(source.label).stem))]


class _Conversion:
    def __init__(self, b: SessionBuilder, source: SourceFile) -> None:
        self.b, self.source = b, source
        self.response_start: str | None = None
        self.user_texts: set[str] = set()
        self.last_was_output = False
        # Unified exec: `exec_command` answers "Process running with session ID N" while
        # the command runs; `write_stdin` calls on session N then carry its later output and
        # its exit code. Each poll is attributed to the command that started the session.
        self.commands: dict[str, str] = {}  # call id -> command it runs (or polls)
        self.exec_sessions: dict[str, str] = {}  # session id -> command

    def _unified_exec_use(self, call_id: str, name: str, args: str) -> ToolUse | None:
        parsed = parse_args(args)
        if name == "exec_command":
            command = command_text(parsed.get("cmd"))
            if command:
                self.commands[call_id] = command
            return None
        if name == "write_stdin":
            command = self.exec_sessions.get(str(parsed.get("session_id")))
            if command:
                self.commands[call_id] = command
                return ToolUse(command=command)
        return None

    def line(self, lineno: int, rec: dict[str, Any]) -> None:
        where = Where(self.source.path, lineno)
        kind = rec.get("type")
        kind = kind if isinstance(kind, str) else None
        ts = as_timestamp(rec.get("timestamp"))
        if "payload" in rec:
            payload = expect_object(rec["payload"], where.at("payload"), "an object")
            pw = where.at("payload")
        else:
            payload, pw = rec, where
        if kind == "response_item" or ("payload" not in rec and kind in _ITEM_KINDS):
            self.item(payload, pw, f"line{lineno}", ts)
        elif kind == "event_msg":
            self.event(payload, pw, ts)
        elif kind == "compacted":
            summary = get(payload, "message", "string", pw)
            self.b.compaction(summary=summary)
        elif kind in ("session_meta", "turn_context") or "record_type" in rec or kind is None:
            self.b.skip(str(kind or rec.get("record_type") or "sessionMeta"))
        else:
            self.b.skip(f"type:{kind}")

    def event(self, payload: dict[str, Any], where: Where, ts: str | None) -> None:
        if payload.get("type") == "user_message":
            self.user_event(payload, where, ts)
            return
        if payload.get("type") != "token_count":
            self.b.skip(f"event_msg:{payload.get('type')}")
            return
        info = get(payload, "info", "object", where)
        last = get(info, "last_token_usage", "object", where.at("info")) if info else None
        if last is None:
            self.b.skip("token_count:noUsage")
            return
        lw = where.at("info").at("last_token_usage")
        tokens = get(last, "input_tokens", "integer", lw, required=True)
        extra = {}
        for src, dst in (
            ("cached_input_tokens", "cachedInputTokens"),
            ("output_tokens", "outputTokens"),
        ):
            value = get(last, src, "integer", lw)
            if value is not None:
                extra[dst] = value
        window = get(info, "model_context_window", "integer", where.at("info"))
        if window is not None:
            extra["modelContextWindow"] = window
        if self.response_start is None or tokens <= 0:
            self.b.skip("token_count:noResponse")
            return
        self.b.usage(tokens, ts=ts, before_entry=self.response_start, **extra)
        self.response_start = None

    def user_event(self, payload: dict[str, Any], where: Where, ts: str | None) -> None:
        """A prompt as the UI recorded it. Most rollouts also hold it as a ``response_item``
        user message (then this line is a duplicate); Codex Desktop rollouts hold only this
        line, so it is the user's turn."""
        text = get(payload, "message", "string", where) or ""
        images = get(payload, "images", "list", where) or []
        if self._repeats_response_item(text):
            self.b.skip("user_message (same as a response_item message)")
            return
        blocks: list[dict[str, Any]] = []
        if text:
            blocks.append({"type": "input_text", "text": text})
        for image in images:
            if isinstance(image, str):
                blocks.append({"type": "input_image", "image_url": image})
        if not blocks:
            self.b.skip("user_message (empty)")
            return
        goal = bool(text) and not text.lstrip().startswith(_CONTEXT_PREFIXES)
        self.b.message("user", blocks, key=f"event:{where.line}", ts=ts, goal=goal, where=where)
        self.last_was_output = False

    def _repeats_response_item(self, text: str) -> bool:
        """True when a ``response_item`` user message holds this prompt (the event line may
        be shortened with a trailing ellipsis, or the item may carry extra context)."""
        norm = _norm(text)
        if norm in self.user_texts:
            return True
        short = norm.removesuffix("...").removesuffix("…").rstrip()
        return bool(short) and any(short in full for full in self.user_texts)

    def _model_output(self, entry_id: str) -> None:
        if not self.last_was_output:
            self.response_start = entry_id  # the latest response's first item
        self.last_was_output = True

    def item(self, p: dict[str, Any], where: Where, key: str, ts: str | None) -> None:
        kind = p.get("type")
        b = self.b
        if kind == "message":
            role = get(p, "role", "string", where, required=True)
            if role not in ROLES:
                raise where.at("role").error(
                    "unknown role", value=role, has_value=True, expected=", ".join(ROLES)
                )
            blocks = content_blocks(p.get("content"), where.at("content"))
            extra = {k: p[k] for k in ("phase",) if isinstance(p.get(k), str)}
            text = "".join(bl.get("text") or "" for bl in blocks)
            goal = role == "user" and not text.lstrip().startswith(_CONTEXT_PREFIXES)
            entry = b.message(ROLES[role], blocks, key=key, ts=ts, goal=goal, where=where, **extra)
            if role == "assistant":
                self._model_output(entry)
            else:
                self.last_was_output = False
        elif kind == "reasoning":
            entry = b.item(dict(p), key=key, ts=ts, where=where)
            self._model_output(entry)
        elif kind == "function_call":
            call_id = get(p, "call_id", "string", where, required=True)
            name = get(p, "name", "string", where, required=True)
            args = p.get("arguments")
            if not isinstance(args, str):
                raise where.at("arguments").error(
                    "wrong type", value=args, has_value=True, expected="string (JSON)"
                )
            use = self._unified_exec_use(call_id, name, args)
            self._model_output(b.call(call_id, name, args, key=key, ts=ts, where=where, use=use))
        elif kind == "custom_tool_call":
            call_id = get(p, "call_id", "string", where, required=True)
            name = get(p, "name", "string", where, required=True)
            text = get(p, "input", "string", where) or ""
            self._model_output(b.call(call_id, name, {"input": text}, key=key, ts=ts, where=where))
        elif kind == "local_shell_call":
            call_id = get(p, "call_id", "string", where) or get(p, "id", "string", where)
            if call_id is None:
                raise where.at("call_id").error("field is missing", expected="string")
            action = get(p, "action", "object", where) or {}
            command = command_text(action.get("command"))
            if command is None:
                raise where.at("action.command").error(
                    "no command",
                    value=action.get("command"),
                    has_value=True,
                    expected="argv list of strings",
                )
            self._model_output(b.shell_call(call_id, command, key=key, ts=ts))
        elif kind in ("function_call_output", "custom_tool_call_output"):
            call_id = get(p, "call_id", "string", where, required=True)
            output, failed = self._output(p.get("output"), where.at("output"))
            exit_code, shell_text = shell_result(output)
            raw = output if isinstance(output, str) else shell_text
            running = _RUNNING.search(raw) if isinstance(raw, str) else None
            if running and call_id in self.commands:
                self.exec_sessions[running.group(1)] = self.commands[call_id]
            b.output(
                call_id,
                output,
                key=key,
                ts=ts,
                where=where,
                exit_code=exit_code,
                failed=failed,
                fact_text=shell_text,
            )
            self.last_was_output = False
        elif kind == "web_search_call":
            self.web_search(p, where, key, ts)
        elif kind in ("ghost_snapshot", "compaction_summary"):
            b.skip(f"response_item:{kind} (not model input)")
        else:
            lost = "tool call" if isinstance(kind, str) and kind.endswith("_call") else None
            b.skip(f"response_item:{kind}", lost=lost or ("message" if "content" in p else None))

    def web_search(self, p: dict[str, Any], where: Where, key: str, ts: str | None) -> None:
        """A hosted web search: the model called it and read its results, which the rollout
        does not keep. Written as a ``web_search`` call (the action as its arguments) and an
        output stating its status, so the call is context and pairs like any other."""
        action = get(p, "action", "object", where) or {}
        call_id = get(p, "id", "string", where) or f"ws-{where.line}"
        status = get(p, "status", "string", where)
        args = {k: v for k, v in action.items() if isinstance(k, str)}
        self._model_output(
            self.b.call(
                call_id,
                "web_search",
                args,
                key=key,
                ts=ts,
                where=where,
                use=ToolUse(target=f"web_search {action.get('query') or ''}".strip()),
            )
        )
        query = action.get("query")
        text = f"web search {status or 'done'}" + (f": {query}" if isinstance(query, str) else "")
        text += " (results are not recorded in the rollout)"
        self.b.output(
            call_id,
            text,
            key=f"{key}:output",
            ts=ts,
            where=where,
            failed=None if status is None else status not in ("completed", "done"),
        )
        self.last_was_output = False

    def _output(self, output: Any, where: Where) -> tuple[Any, bool | None]:
        if isinstance(output, str):
            return output, None
        if isinstance(output, dict):
            content = output.get("content")
            success = output.get("success")
            failed = (not success) if isinstance(success, bool) else None
            if isinstance(content, str):
                return content, failed
            items = output.get("content_items")
            if isinstance(items, list):
                return content_blocks(items, where.at("content_items")), failed
        if isinstance(output, list):
            return content_blocks(output, where), None
        raise where.error(
            "wrong type",
            value=output,
            has_value=True,
            expected="string, {content, success} or list of blocks",
        )


_ITEM_KINDS = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "local_shell_call",
        "custom_tool_call",
        "custom_tool_call_output",
        "web_search_call",
    }
)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _response_user_text(rec: dict[str, Any]) -> str | None:
    """The text of a ``response_item`` user message (new or legacy layout), else None."""
    payload = rec.get("payload") if "payload" in rec else rec
    if not isinstance(payload, dict) or payload.get("type") != "message":
        return None
    if "payload" in rec and rec.get("type") != "response_item":
        return None
    if payload.get("role") != "user":
        return None
    content = payload.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    return None


def _record_kind(rec: dict[str, Any]) -> str:
    """A rollout line's kind for the loss report (``response_item:message``...)."""
    kind = rec.get("type")
    payload = rec.get("payload")
    if isinstance(kind, str) and isinstance(payload, dict) and isinstance(payload.get("type"), str):
        return f"{kind}:{payload['type']}"
    if isinstance(kind, str):
        return kind
    return str(rec.get("record_type") or "meta")
