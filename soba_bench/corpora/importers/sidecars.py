"""What a built session carries besides its items: ``model_request`` flight records (the
provider's input tokens per request, read by ``soba-bench replay --usage recorded``), the
source tool's own compactions, counted skips and issues, and the finished result with its
ground truth. A mixin of :class:`~soba_bench.corpora.importers.builder.SessionBuilder`."""

from __future__ import annotations

from collections import Counter
from typing import Any

from soba_bench.corpora.importers.base import EmptySessionError, ImportedSession
from soba_bench.corpora.importers.source import Where
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
