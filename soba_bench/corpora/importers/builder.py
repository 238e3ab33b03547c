"""Builds one SOBA session from an importer's calls: a ``session`` header, then linear
``item`` entries (each the parent of the next) with deterministic ids, and the ground-truth
facts along the way. Besides its items a session carries ``model_request`` flight records
(the provider's input tokens per request, read by ``soba-bench replay --usage recorded``), the
source tool's own compactions, counted skips and issues, and the finished result with its
ground truth.

Ids are ``sha256(seed, key)`` cut to 12 hex digits, where the seed is the source's session
id (or a hash of the source bytes) and the key names the source record, so importing the
same input again gives the same bytes. Tool calls keep their source ``call_id``; a call id
used twice in one source is made unique (``<id>~2``) and each output is paired with the
latest call that had its id. An output whose call id never appeared is an input error.
"""

from __future__ import annotations

import uuid
from collections import Counter
from typing import Any

from soba_bench.corpora.importers.base import (
    EPOCH,
    EmptySessionError,
    ImportedSession,
    ImportOptions,
    IssueLog,
    digest,
)
from soba_bench.corpora.importers.facts import UNKNOWN_KINDS, FactCollector, ToolUse
from soba_bench.corpora.importers.soba_tools import as_soba_call
from soba_bench.corpora.importers.source import Where, dumps_args, writable
from soba_bench.corpora.importers.tools import classify_generic
from soba_bench.corpora.truth import RecordedCompaction
from soba_bench.errors import InputError

_NAMESPACE = uuid.UUID("5f0c2a4e-8d1b-4f7a-9c3e-6b2d1a0f9e84")
TRUNCATION_MARK = "\n[... {n} characters cut by soba-bench import --max-output-chars]"


def text_blocks(role: str, text: str) -> list[dict[str, str]]:
    return [{"type": "output_text" if role == "assistant" else "input_text", "text": text}]


def plain_text(output: str | list[dict[str, Any]]) -> str:
    """An output's text: the string, or its text blocks joined with newlines."""
    if isinstance(output, str):
        return output
    return "\n".join(
        b["text"] for b in output if isinstance(b, dict) and isinstance(b.get("text"), str)
    )


class SessionBuilder:
    """Accumulates one session. Every public method validates before it changes state, so
    a rejected record (lenient mode) leaves nothing half-written."""

    def __init__(
        self,
        fmt: str,
        *,
        seed: str,
        source_label: str,
        source_sha256: str,
        options: ImportOptions,
        issues: IssueLog,
        session_id: str | None = None,
        timestamp: str | None = None,
        cwd: str | None = None,
        source_path: str | None = None,
    ) -> None:
        self.fmt = fmt
        self.source_path = source_path or source_label
        self.seed = seed
        self.options = options
        self.issues = issues
        self.session_id = session_id or str(uuid.uuid5(_NAMESPACE, seed))
        self.timestamp = timestamp or EPOCH
        self.last_timestamp = self.timestamp
        self.cwd = cwd
        self.lines: list[dict[str, Any]] = []
        self.facts = FactCollector(cwd=cwd)
        self.compactions: list[RecordedCompaction] = []
        self.skipped: Counter[str] = Counter()
        self.records = 0
        # The loss report: per source record kind, records read, entries written, skips.
        self.loss: dict[str, dict[str, Any]] = {}
        self._kind = "record"
        self.lost: Counter[str] = Counter()
        # Kinds this format cannot give (unknown, which is not "none"); importers add to it.
        self.unknown_kinds: tuple[str, ...] = UNKNOWN_KINDS
        self._where: Where | None = None
        self.renamed_calls = 0
        self.truncated_outputs = 0
        self.truncated_chars = 0
        self.notes: dict[str, Any] = {}
        self.origin: dict[str, Any] = {
            "format": fmt,
            "sourceFile": source_label,
            "sourceSha256": source_sha256,
        }
        self._ids: set[str] = set()
        self._last_entry: str | None = None
        self._calls: dict[str, str] = {}  # source call id -> SOBA call id
        self._call_ids: set[str] = set()
        self._pending_usage: dict[str, Any] | None = None

    @property
    def last_entry_id(self) -> str | None:
        return self._last_entry

    def _append(self, item: dict[str, Any], key: str, ts: str | None) -> str:
        if isinstance(ts, str) and ts:
            self.last_timestamp = ts
        if self._pending_usage is not None:
            self.lines.append(self._pending_usage)
            self._pending_usage = None
        attempt = 0
        while (entry_id := digest(self.seed, key, str(attempt))[:12]) in self._ids:
            attempt += 1
        self._ids.add(entry_id)
        self._tally()["entries"] += 1
        self.lines.append(
            {
                "type": "item",
                "id": entry_id,
                "parentId": self._last_entry,
                "timestamp": self.last_timestamp,
                "item": item,
            }
        )
        self._last_entry = entry_id
        return entry_id

    def message(
        self,
        role: str,
        content: str | list[dict[str, Any]],
        *,
        key: str,
        ts: str | None = None,
        goal: bool = False,
        where: Where | None = None,
        **extra: Any,
    ) -> str:
        """A message item; ``goal`` marks a candidate for the goal fact (the first wins)."""
        blocks = text_blocks(role, content) if isinstance(content, str) else content
        writable(blocks, where)
        item = {"type": "message", "role": role, "content": blocks, **extra}
        entry_id = self._append(item, key, ts)
        if goal:
            text = "".join(
                b["text"] for b in blocks if isinstance(b, dict) and isinstance(b.get("text"), str)
            )
            self.facts.goal(text, entry_id)
        return entry_id

    def item(
        self, item: dict[str, Any], *, key: str, ts: str | None = None, where: Where | None = None
    ) -> str:
        """Any other model item, copied as given (e.g. a Responses API reasoning item)."""
        writable(item, where)
        return self._append(item, key, ts)

    def reasoning(self, text: str | None, *, key: str, ts: str | None = None, **extra: Any) -> str:
        """A reasoning item (0 tokens in SOBA's estimator); readable text kept as summary."""
        item: dict[str, Any] = {"type": "reasoning"}
        if text:
            item["summary"] = [{"type": "summary_text", "text": text}]
        item.update(extra)
        return self._append(item, key, ts)

    def _register_call(self, source_id: str, item: dict[str, Any], key: str, ts: str | None):
        soba_id = source_id
        if soba_id in self._call_ids:
            n = 2
            while f"{source_id}~{n}" in self._call_ids:
                n += 1
            soba_id = f"{source_id}~{n}"
            self.renamed_calls += 1
        item["call_id"] = soba_id
        entry_id = self._append(item, key, ts)
        self._calls[source_id] = soba_id
        self._call_ids.add(soba_id)
        return soba_id, entry_id

    def call(
        self,
        call_id: str,
        name: str,
        arguments: str | dict[str, Any] | list[Any],
        *,
        key: str,
        ts: str | None = None,
        where: Where,
        use: ToolUse | None = None,
    ) -> str:
        """A ``function_call``; dict/list arguments are written as a JSON string. A call that
        is one of SOBA's tools is written as that tool (``options.tool_names``, soba_tools);
        the ground truth reads the source's name and arguments either way."""
        use = use or classify_generic(name, arguments)
        written, written_args = name, arguments
        if self.options.tool_names == "soba":
            soba = as_soba_call(name, arguments, use)
            if soba is not None:
                written, written_args = soba
                renamed = self.notes.setdefault("toolNames", {})
                label = f"{name} -> {written}"
                renamed[label] = renamed.get(label, 0) + 1
        args = written_args if isinstance(written_args, str) else dumps_args(written_args, where)
        item = {"type": "function_call", "call_id": call_id, "name": written, "arguments": args}
        soba_id, entry_id = self._register_call(call_id, item, key, ts)
        self.facts.call(soba_id, entry_id, name, use)
        return entry_id

    def shell_call(self, call_id: str, command: str, *, key: str, ts: str | None = None) -> str:
        """A ``local_shell_call`` (its ``command`` as one string)."""
        item = {"type": "local_shell_call", "call_id": call_id, "command": command}
        soba_id, entry_id = self._register_call(call_id, item, key, ts)
        self.facts.call(soba_id, entry_id, "local_shell", ToolUse(command=command))
        return entry_id

    def has_call(self, call_id: str) -> bool:
        return call_id in self._calls

    def output(
        self,
        call_id: str,
        output: str | list[dict[str, Any]],
        *,
        key: str,
        ts: str | None = None,
        where: Where,
        status: str | None = None,
        exit_code: int | None = None,
        failed: bool | None = None,
        fact_text: str | None = None,
    ) -> str:
        """A ``function_call_output`` paired with the latest call that had ``call_id``.
        ``fact_text`` is what the ground truth quotes when the output wraps its text (JSON)."""
        soba_id = self._calls.get(call_id)
        if soba_id is None:
            raise where.error(
                "tool output has no matching call",
                value=call_id,
                has_value=True,
                expected="the call_id of an earlier tool call in the same session",
            )
        writable(output, where)
        output = self._truncate(output)
        item: dict[str, Any] = {"type": "function_call_output", "call_id": soba_id}
        item["output"] = output
        if status is not None:
            item["status"] = status
        entry_id = self._append(item, key, ts)
        if failed is None and status in ("completed", "failed"):
            failed = status == "failed"
        text = fact_text if fact_text is not None else plain_text(output)
        self.facts.output(soba_id, entry_id, text, exit_code=exit_code, failed=failed)
        return entry_id

    def _truncate(self, output: str | list[dict[str, Any]]) -> str | list[dict[str, Any]]:
        limit = self.options.max_output_chars
        if limit is None or not isinstance(output, str) or len(output) <= limit:
            return output
        cut = len(output) - limit
        self.truncated_outputs += 1
        self.truncated_chars += cut
        return output[:limit] + TRUNCATION_MARK.format(n=cut)

    # ── usage records, compactions, skips, and the finished session ──────────────
    def usage(
        self,
        input_tokens: int,
        *,
        ts: str | None = None,
        before_entry: str | None = None,
        **payload: Any,
    ) -> None:
        """A ``model_request`` record placed just before the response's first item: the
        next item appended, or the existing entry ``before_entry``. A second pending record
        before any item replaces the first (only one request can precede a response)."""
        line = {
            "type": "flight_record",
            "timestamp": ts if isinstance(ts, str) and ts else self.last_timestamp,
            "data": {
                "version": 1,
                "kind": "model_request",
                "payload": {"inputTokens": input_tokens, **payload},
            },
        }
        if before_entry is None:
            self._pending_usage = line
            return
        for index in range(len(self.lines) - 1, -1, -1):
            if self.lines[index].get("id") == before_entry:
                self.lines.insert(index, line)
                return
        raise ValueError(f"entry {before_entry} is not in the session")

    def compaction(
        self,
        *,
        trigger: str | None = None,
        pre_tokens: int | None = None,
        post_tokens: int | None = None,
        summary: str | None = None,
    ) -> None:
        """A compaction the source tool did itself, after the current last entry."""
        self.compactions.append(
            RecordedCompaction(
                self.fmt, self._last_entry, trigger, pre_tokens, post_tokens, summary
            )
        )

    def at(self, kind: str, where: Where | int | None = None) -> None:
        """The source record converted next (``where``: its position, or its line in the
        source file): its entries and skips count for ``kind``."""
        if isinstance(where, int):
            where = Where(self.source_path, where)
        self.records += 1
        self._kind, self._where = kind, where
        self._tally()["records"] += 1

    def _tally(self, kind: str | None = None) -> dict[str, Any]:
        return self.loss.setdefault(
            kind or self._kind, {"records": 0, "entries": 0, "skipped": Counter()}
        )

    def skip(self, reason: str, *, lost: str | None = None) -> None:
        """A source record (or part of one) left out, counted by reason under the current
        record kind. ``lost`` names what the model saw and the session would then miss
        ("user message", "tool call"): strict mode refuses such a drop, naming file, line
        and record kind; lenient mode counts it under ``lost``."""
        reason = reason if len(reason) <= 60 else reason[:57] + "..."
        if lost is not None:
            where = self._where or Where(self.source_path)
            err = where.error(
                f"{self._kind} record would be dropped ({reason}): the session would lose a {lost}",
                expected="a record the importer can convert, or --lenient to drop it and count it",
            )
            if not self.issues.lenient:
                raise err
            self.lost[lost] += 1
            reason = f"{reason} (lost {lost})"
        self.skipped[reason] += 1
        self._tally()["skipped"][reason] += 1

    def record(self, err: InputError) -> None:
        """A bad record: raised in strict mode, counted and listed in lenient mode."""
        self.issues.record(err)
        self._tally()["skipped"]["invalid"] += 1

    def loss_report(self) -> dict[str, Any]:
        """Source records by kind -> entries written and records skipped (by reason)."""
        return {
            kind: {
                "records": t["records"],
                "entries": t["entries"],
                "skipped": dict(sorted(t["skipped"].items())),
            }
            for kind, t in sorted(self.loss.items())
        }

    def finish(self, name: str) -> ImportedSession:
        """The session (a usage record after the last item has no response: dropped). A
        session without a single item is an error (:class:`EmptySessionError`)."""
        self._pending_usage = None
        if not any(line["type"] == "item" for line in self.lines):
            kinds = ", ".join(f"{k} x{t['records']}" for k, t in sorted(self.loss.items()))
            bad = self.issues.count
            raise EmptySessionError(
                "nothing to import: the session would be empty"
                + (f" (records read: {kinds})" if kinds else " (no records)")
                + (f"; {bad} bad records skipped" if bad else ""),
                path=self.source_path,
                expected=f"a {self.fmt} log with at least one message or tool call",
            )
        header: dict[str, Any] = {
            "type": "session",
            "version": 2,
            "id": self.session_id,
            "timestamp": self.timestamp,
        }
        if self.cwd:
            header["cwd"] = self.cwd
        origin = dict(self.origin)
        origin.update(
            {
                "records": self.records,
                "items": sum(1 for line in self.lines if line["type"] == "item"),
                "flightRecords": sum(1 for line in self.lines if line["type"] == "flight_record"),
                "skippedRecords": dict(sorted(self.skipped.items())),
                "renamedCallIds": self.renamed_calls,
                "loss": self.loss_report(),
                "lost": dict(sorted(self.lost.items())),
                "issues": self.issues.to_dict(),
            }
        )
        if self.options.max_output_chars is not None:
            origin["truncated"] = {
                "maxOutputChars": self.options.max_output_chars,
                "outputs": self.truncated_outputs,
                "chars": self.truncated_chars,
            }
        origin.update(self.notes)
        return ImportedSession(
            name=name,
            session_id=self.session_id,
            lines=(header, *self.lines),
            facts=self.facts.build(),
            compactions=tuple(self.compactions),
            unknown_kinds=self.unknown_kinds,
            origin=origin,
        )
