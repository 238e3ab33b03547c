"""OpenHands event streams: a JSON list of events (also ``{"events": [...]}`` or JSONL), each
with ``id``, ``timestamp``, ``source`` (agent | user | environment) and either ``action`` +
``args`` or ``observation`` + ``content`` + ``extras``.

Mapping: ``system`` action -> system message; ``message`` -> user/assistant message by
source; any other action -> its ``thought`` as an assistant message, then a
``function_call`` (``tool_call_metadata`` gives the call id, the tool name and, from the
model response, the arguments as the model wrote them; without it the id is
``oh-<event id>``, the name the action and the arguments its ``args``). An observation is the
output of the call named by its ``tool_call_metadata`` or its ``cause`` event; ``run``
observations carry ``extras.metadata.exit_code``; an unpaired ``error`` observation is a user
message, as OpenHands shows it to the model. ``model_response.usage.prompt_tokens`` gives one
``model_request`` record per response. ``condensation`` actions become recorded
compactions with their summary. State changes, recalls and null events are counted, not
imported.
"""

from __future__ import annotations

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
    load_json,
    looks_like_jsonl,
)
from soba_bench.corpora.importers.tools import classify_generic
from soba_bench.errors import InputError

SKIPPED_ACTIONS = frozenset({"recall", "change_agent_state", "null", "condensation_request"})
SKIPPED_OBSERVATIONS = frozenset({"agent_state_changed", "null", "recall", "condensation"})
_BOOKKEEPING = frozenset(
    {
        "thought",
        "confirmation_state",
        "security_risk",
        "impl_source",
        "hidden",
        "blocking",
        "is_input",
        "is_confirmed",
        "wait_for_response",
        "image_urls",
        "file_urls",
    }
)


def classify(action: str, args: dict[str, Any], name: str | None) -> ToolUse:
    path = args.get("path")
    path = path if isinstance(path, str) and path else None
    if action == "read" and path:
        return ToolUse(reads=(path,))
    if action in ("edit", "write") and path:
        if args.get("command") == "view":
            return ToolUse(reads=(path,))
        return ToolUse(modifies=(path,))
    if action == "run" and isinstance(args.get("command"), str) and args["command"].strip():
        return ToolUse(command=args["command"])
    return classify_generic(name or action, args)


def events_of(source: SourceFile, issues: IssueLog) -> list[tuple[Where, Any]]:
    """The events with their positions (JSON list / object with a list / JSONL)."""
    if looks_like_jsonl(source.content):
        return [(Where(source.path, n), obj) for n, obj in iter_jsonl(source, issues)]
    data = load_json(source)
    where = Where(source.path)
    if isinstance(data, dict):
        for key in ("events", "trajectory", "history"):
            if isinstance(data.get(key), list):
                where, data = where.at(key), data[key]
                break
    if not isinstance(data, list):
        raise where.error(
            "expected a list of events",
            value=data,
            has_value=True,
            expected='a JSON list of events or {"events": [...]}',
        )
    return [(where.at(i), event) for i, event in enumerate(data)]


class OpenHandsImporter(Importer):
    name = "openhands"
    description = "OpenHands event streams (JSON list of action/observation events)"
    patterns = ("*.json", "*.jsonl")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        stem = safe_name(Path(source.label).stem)
        rows = _evaluation_rows(source, IssueLog(options.lenient))
        if rows is None:
            issues = IssueLog(options.lenient)
            return [self._session(source, options, issues, events_of(source, issues), stem, "")]
        # An evaluation output (output.jsonl): one row per instance, its events in
        # "history"; each row is a session of its own, named by its instance.
        out = []
        for n, (where, row) in enumerate(rows, start=1):
            issues = IssueLog(options.lenient)
            events = [(where.at("history").at(i), e) for i, e in enumerate(row["history"])]
            instance = row.get("instance_id")
            name = safe_name(instance) if isinstance(instance, str) and instance else f"{stem}-{n}"
            out.append(self._session(source, options, issues, events, name, str(n)))
        return out

    def _session(
        self,
        source: SourceFile,
        options: ImportOptions,
        issues: IssueLog,
        events: list[tuple[Where, Any]],
        name: str,
        row: str,
    ) -> ImportedSession:
        b = SessionBuilder(
            "openhands",
            seed=digest("openhands", source.sha256, *([row] if row else [])),
            source_label=source.label,
            source_path=source.path,
            source_sha256=source.sha256,
            options=options,
            issues=issues,
            timestamp=next(
                (
                    as_timestamp(e.get("timestamp"))
                    for _, e in events
                    if isinstance(e, dict) and as_timestamp(e.get("timestamp"))
                ),
                None,
            ),
        )
        conv = _Conversion(b)
        for index, (where, event) in enumerate(events):
            b.at(_event_kind(event), where)
            try:
                conv.event(index, event, where)
            except InputError as err:
                b.record(err)
        return b.finish(name)


def _evaluation_rows(source: SourceFile, issues: IssueLog) -> list[tuple[Where, dict]] | None:
    """The rows of an OpenHands evaluation output (JSONL whose rows carry a ``history``
    list of events), else None (an event stream)."""
    if not looks_like_jsonl(source.content):
        return None
    rows = [(Where(source.path, n), obj) for n, obj in iter_jsonl(source, issues)]
    if rows and all(isinstance(r, dict) and isinstance(r.get("history"), list) for _, r in rows):
        return rows
    return None


class _Conversion:
    def __init__(self, b: SessionBuilder) -> None:
        self.b = b
        self.calls_by_event: dict[int, str] = {}
        self.responses: set[str] = set()

    def event(self, index: int, event: Any, where: Where) -> None:
        event = expect_object(event, where, "an event object")
        eid = get(event, "id", "integer", where)
        key = f"e{eid}" if eid is not None else f"i{index}"
        ts = as_timestamp(event.get("timestamp"))
        source = event.get("source")
        if "action" in event:
            self.action(event, eid, key, ts, source, where)
        elif "observation" in event:
            self.observation(event, key, ts, where)
        else:
            raise where.error(
                "event has neither 'action' nor 'observation'",
                expected="an action or observation event",
            )

    def action(self, event, eid, key, ts, source, where: Where) -> None:
        action = get(event, "action", "string", where, required=True)
        args = get(event, "args", "object", where) or {}
        aw = where.at("args")
        if action in SKIPPED_ACTIONS:
            self.b.skip(f"action:{action}")
            return
        if action == "condensation":
            summary = get(args, "summary", "string", aw)
            self.b.compaction(trigger="condenser", summary=summary)
            return
        if action == "system":
            self.b.message("system", get(args, "content", "string", aw) or "", key=key, ts=ts)
            return
        if action == "message":
            text = get(args, "content", "string", aw) or ""
            if source == "user":
                self.b.message("user", text, key=key, ts=ts, goal=True)
            else:
                self.b.message("assistant", text, key=key, ts=ts)
            return
        meta = get(event, "tool_call_metadata", "object", where)
        mw = where.at("tool_call_metadata")
        thought = get(args, "thought", "string", aw) or ""
        if meta is not None:
            call_id = get(meta, "tool_call_id", "string", mw, required=True)
            name = get(meta, "function_name", "string", mw, required=True)
            response = get(meta, "model_response", "object", mw) or {}
            arguments = _model_arguments(response, call_id)
            self._usage(response, mw.at("model_response"), ts)
        else:
            call_id, name, arguments, response = f"oh-{key}", action, None, {}
        call_arguments = (
            arguments
            if arguments is not None
            else {k: v for k, v in args.items() if k not in _BOOKKEEPING}
        )
        if thought.strip():
            self.b.message("assistant", thought, key=f"{key}:thought", ts=ts)
        use = classify(action, args, name)
        self.b.call(call_id, name, call_arguments, key=key, ts=ts, where=where, use=use)
        if eid is not None:
            self.calls_by_event[eid] = call_id

    def _usage(self, response: dict[str, Any], where: Where, ts: str | None) -> None:
        rid = response.get("id")
        if isinstance(rid, str) and rid in self.responses:
            return
        usage = get(response, "usage", "object", where)
        tokens = get(usage, "prompt_tokens", "integer", where.at("usage")) if usage else None
        if tokens is not None and tokens > 0:
            extra = {"responseId": rid} if isinstance(rid, str) else {}
            out = get(usage, "completion_tokens", "integer", where.at("usage"))
            if out is not None:
                extra["outputTokens"] = out
            self.b.usage(tokens, ts=ts, **extra)
        if isinstance(rid, str):
            self.responses.add(rid)

    def observation(self, event, key, ts, where: Where) -> None:
        kind = get(event, "observation", "string", where, required=True)
        content = get(event, "content", "string", where) or ""
        meta = get(event, "tool_call_metadata", "object", where)
        cause = get(event, "cause", "integer", where)
        call_id = None
        if meta is not None:
            call_id = get(meta, "tool_call_id", "string", where.at("tool_call_metadata"))
        if call_id is None and cause is not None:
            call_id = self.calls_by_event.get(cause)
        if call_id is None or not self.b.has_call(call_id):
            if kind in ("error", "user_rejected"):
                self.b.message("user", content, key=key, ts=ts)
            elif call_id is not None:
                self.b.output(call_id, content, key=key, ts=ts, where=where)  # raises
            else:
                self.b.skip(f"observation:{kind}")
            return
        if kind in SKIPPED_OBSERVATIONS:
            self.b.skip(f"observation:{kind}")
            return
        extras = get(event, "extras", "object", where) or {}
        metadata = get(extras, "metadata", "object", where.at("extras")) or {}
        exit_code = get(metadata, "exit_code", "integer", where.at("extras").at("metadata"))
        if exit_code is not None and exit_code < 0:
            exit_code = None  # OpenHands' -1: the command did not finish (no exit code)
        failed = True if kind == "error" else None
        self.b.output(
            call_id,
            content,
            key=key,
            ts=ts,
            where=where,
            exit_code=exit_code,
            failed=failed,
            status="failed" if failed else None,
        )


def _model_arguments(response: dict[str, Any], call_id: str) -> str | None:
    """The arguments string the model wrote for ``call_id``, if the response has it."""
    choices = response.get("choices")
    if not isinstance(choices, list):
        return None
    for choice in choices:
        message = choice.get("message") if isinstance(choice, dict) else None
        calls = message.get("tool_calls") if isinstance(message, dict) else None
        for call in calls if isinstance(calls, list) else ():
            if isinstance(call, dict) and call.get("id") == call_id:
                fn = call.get("function")
                args = fn.get("arguments") if isinstance(fn, dict) else None
                if isinstance(args, str):
                    return args
    return None


def _event_kind(event: object) -> str:
    """An event's kind for the loss report: its action or observation name."""
    if isinstance(event, dict):
        for key in ("action", "observation"):
            if isinstance(event.get(key), str):
                return f"{key}:{event[key]}"
    return "event"
