"""Positions in a session, so a fact's lifecycle (introduced, resolved, superseded) can be
compared with the moment a capsule or a model input was made."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry

NEVER = 10**12


@dataclass(frozen=True)
class Timeline:
    """``position[id]`` = index of the entry in the original session branch."""

    position: dict[str, int]
    length: int

    @classmethod
    def of(cls, entries: Sequence[Entry]) -> Timeline:
        position: dict[str, int] = {}
        for index, entry in enumerate(entries):
            if entry.id is not None:
                position.setdefault(entry.id, index)
        return cls(position, len(entries))

    def at(self, entry_id: str | None, default: int = NEVER) -> int:
        return self.position.get(entry_id, default) if entry_id else default

    def replay_points(self, replayed: Iterable[Entry]) -> dict[str, int]:
        """For entries a replay added (capsules): the number of original entries before
        them, i.e. the point in the original session where they were made."""
        points: dict[str, int] = {}
        seen = 0
        for entry in replayed:
            if entry.id in self.position and entry.kind != E.CONTEXT_CAPSULE:
                seen = self.position[entry.id] + 1
            elif entry.id is not None:
                points[entry.id] = seen
        return points


def recorded_results(fact: Fact, name: str) -> list[tuple[Any, str | None]] | None:
    """The (entry id, result) of each item of a verification's ``runs`` or ``reports``
    attribute as the truth records it (the result None when it is not text); None when the
    truth records no such list. The one reading of both, for the lifecycle's runs and for the
    entries that show a check's result (``retention.stated_results``)."""
    items = fact.attributes.get(name)
    if not isinstance(items, list):
        return None
    return [
        (item.get("entryId"), item["result"] if isinstance(item.get("result"), str) else None)
        for item in items
        if isinstance(item, dict)
    ]


class Lifecycle:
    """When each fact of a ground truth starts and stops being current."""

    def __init__(self, truth: GroundTruth, timeline: Timeline) -> None:
        self.timeline = timeline
        self.facts = truth.facts
        by_id = {f.id: f for f in truth.facts}
        self.start: dict[str, int] = {}
        self.end: dict[str, int] = {}
        # a verification's recorded runs: (position, result; None when not recorded as text)
        self.runs: dict[str, list[tuple[int, str | None]]] = {}
        for fact in truth.facts:
            ids = (fact.introduced_at, *fact.entry_ids) if fact.introduced_at else fact.entry_ids
            self.start[fact.id] = min((timeline.at(i) for i in ids), default=NEVER)
            runs = recorded_results(fact, "runs")
            if runs is not None:
                self.runs[fact.id] = [(timeline.at(entry), result) for entry, result in runs]
        for fact in truth.facts:
            end = NEVER
            if fact.status == "resolved" and fact.resolved_at:
                end = timeline.at(fact.resolved_at)
            elif fact.status == "superseded" and fact.superseded_by in by_id:
                end = self.start[fact.superseded_by]
            self.end[fact.id] = end

    def introduced_before(self, fact: Fact, point: int) -> bool:
        return self.start[fact.id] < point

    def live_at(self, fact: Fact, point: int) -> bool:
        """Introduced before ``point`` and not yet resolved or superseded there."""
        return self.start[fact.id] < point and self.end[fact.id] >= point

    def stale_at(self, fact: Fact, point: int) -> bool:
        """Introduced and already resolved or superseded before ``point``."""
        return self.start[fact.id] < point and self.end[fact.id] < point

    def result_at(self, fact: Fact, point: int) -> str | None:
        """A verification's result as of ``point``: its last run before it (None when no run
        came before); its final result when the truth records no runs."""
        runs = self.runs.get(fact.id)
        if runs is None:
            final = fact.attributes.get("finalResult")
            return final if isinstance(final, str) else None
        last = None
        for at, result in runs:
            if at < point:
                last = result
        return last
