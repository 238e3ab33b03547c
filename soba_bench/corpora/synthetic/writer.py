"""Appends SOBA session lines the way SOBA's session manager writes them (engine.md a.2-a.3):
8-hex entry ids, ``parentId`` chained to the leaf, a ``session_migration`` line before the
first v2 entry and a ``session_cursor`` after every tree append from then on, and flight
records (redacted and cut at 4,000 characters as SOBA's recorder does, engine.md l.2).

Time is virtual: a millisecond clock that starts at a fixed instant derived from the seed
and session index and advances by seeded amounts, so the same seed gives the same bytes.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from soba_bench.session import entries as E
from soba_bench.session.entries import Entry

FLIGHT_STRING_LIMIT = 4000
FLIGHT_TRUNCATED = "\n[Flight record string truncated]"
_EPOCH = datetime(2026, 1, 5, 9, 0, 0, tzinfo=UTC)


def start_ms(seed: int, index: int) -> int:
    """A fixed start instant: one day per seed (mod 5 years), one hour per session index."""
    start = _EPOCH + timedelta(days=seed % 1826, hours=index % 10_000)
    return int(start.timestamp() * 1000)


def iso(ms: int) -> str:
    moment = datetime.fromtimestamp(ms // 1000, UTC)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z"


def clip(text: str, secrets: list[str]) -> str:
    """A flight-record string: planted secrets redacted, cut at SOBA's 4,000 characters."""
    for value in secrets:
        if value in text:
            text = text.replace(value, "[REDACTED]")
    if len(text) > FLIGHT_STRING_LIMIT:
        text = text[:FLIGHT_STRING_LIMIT] + FLIGHT_TRUNCATED
    return text


class SessionWriter:
    def __init__(
        self, rng: random.Random, session_id: str, cwd: str, now_ms: int, flight: bool
    ) -> None:
        self.rng = rng
        self.now_ms = now_ms
        self.flight_enabled = flight
        self.lines: list[dict[str, Any]] = []
        self.count = 0  # tree entries
        self.leaf: str | None = None
        self.migrated = False
        self._ids: set[str] = set()
        self._stamp_ms = -1
        self._stamp = ""
        self.lines.append(
            {
                "type": "session",
                "version": 2,
                "id": session_id,
                "timestamp": self.stamp(),
                "cwd": cwd,
            }
        )

    # ── time ─────────────────────────────────────────────────────────────────
    def tick(self, lo_ms: int, hi_ms: int) -> None:
        self.now_ms += self.rng.randint(lo_ms, hi_ms)

    def stamp(self) -> str:
        if self._stamp_ms != self.now_ms:
            self._stamp_ms, self._stamp = self.now_ms, iso(self.now_ms)
        return self._stamp

    # ── tree entries ─────────────────────────────────────────────────────────
    def _new_id(self) -> str:
        for _ in range(100):
            entry_id = f"{self.rng.getrandbits(32):08x}"
            if entry_id not in self._ids:
                self._ids.add(entry_id)
                return entry_id
        raise RuntimeError("could not draw a unique entry id")  # pragma: no cover

    def _tree(self, kind: str, extra: dict[str, Any]) -> str:
        self.tick(1, 40)
        entry_id = self._new_id()
        line = {"type": kind, "id": entry_id, "parentId": self.leaf, "timestamp": self.stamp()}
        line.update(extra)
        self.lines.append(line)
        self.leaf = entry_id
        self.count += 1
        if self.migrated:
            self.lines.append(
                {
                    "type": "session_cursor",
                    "timestamp": self.stamp(),
                    "leafId": entry_id,
                    "reason": "append",
                }
            )
        return entry_id

    def item(self, item: dict[str, Any]) -> str:
        return self._tree(E.ITEM, {"item": item})

    def skill(self, action: str, skill: dict[str, str]) -> str:
        if not self.migrated:
            self.lines.append(
                {
                    "type": "session_migration",
                    "timestamp": self.stamp(),
                    "fromVersion": 1,
                    "toVersion": 2,
                }
            )
            self.migrated = True
        return self._tree(E.SKILL_ACTIVATION, {"action": action, "skill": dict(skill)})

    # ── sidecars ─────────────────────────────────────────────────────────────
    def flight(
        self,
        kind: str,
        payload: dict[str, Any],
        turn: int | None = None,
        iteration: int | None = None,
    ) -> None:
        if not self.flight_enabled:
            return
        data: dict[str, Any] = {"version": 1, "kind": kind}
        if turn is not None:
            data["turn"] = turn
        if iteration is not None:
            data["iteration"] = iteration
        data["payload"] = payload
        self.lines.append({"type": "flight_record", "timestamp": self.stamp(), "data": data})

    def entries(self) -> tuple[Entry, ...]:
        return tuple(Entry(line["type"], line) for line in self.lines)
