"""What a built session carries besides its items: ``model_request`` flight records (the
provider's input tokens per request, read by ``soba-bench replay --usage recorded``), the
source tool's own compactions, counted skips and issues, and the finished result with its
ground truth. A mixin of :class:`~soba_bench.corpora.importers.builder.SessionBuilder`."""

from __future__ import annotations

from typing import Any

from soba_bench.corpora.importers.base import ImportedSession
from soba_bench.corpora.importers.facts import UNKNOWN_KINDS
from soba_bench.corpora.truth import RecordedCompaction
from soba_bench.errors import InputError


class SidecarSteps:
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

    def skip(self, reason: str) -> None:
        """A source record deliberately left out (not model context); counted by reason."""
        self.skipped[reason if len(reason) <= 60 else reason[:57] + "..."] += 1

    def record(self, err: InputError) -> None:
        """A bad record: raised in strict mode, counted and listed in lenient mode."""
        self.issues.record(err)

    def finish(self, name: str) -> ImportedSession:
        """The session (a usage record after the last item has no response: dropped)."""
        self._pending_usage = None
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
            unknown_kinds=UNKNOWN_KINDS,
            origin=origin,
        )
