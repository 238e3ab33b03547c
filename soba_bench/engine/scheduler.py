"""SOBA's deprecated BackgroundScheduler shim (engine.md d.6): it only holds one frozen
intent; it never runs anything. Kept so hosts written against it behave the same."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from soba_bench.engine.attempt import AbortSignal
from soba_bench.engine.snapshot import ContextSnapshot


@dataclass(frozen=True)
class DeferredIntent:
    id: str
    trigger: str
    leafId: str | None
    snapshot: ContextSnapshot
    startedAt: int
    signal: AbortSignal


class BackgroundScheduler:
    def __init__(
        self,
        clock_ms: Callable[[], int],
        on_cancelled: Callable[[DeferredIntent, str], Any] | None = None,
    ) -> None:
        self._clock_ms = clock_ms
        self._on_cancelled = on_cancelled
        self._current: DeferredIntent | None = None
        self._seq = 0

    def schedule(
        self, trigger: str, leaf_id: str | None, snapshot: ContextSnapshot
    ) -> DeferredIntent:
        if self._current is not None:
            previous = self._current
            previous.signal.abort("New intent scheduled")
            if self._on_cancelled:
                self._on_cancelled(previous, "New intent scheduled")
        self._seq += 1
        now = self._clock_ms()
        self._current = DeferredIntent(
            f"deferred_{self._seq}_{now}", trigger, leaf_id, replace(snapshot), now, AbortSignal()
        )
        return self._current

    def is_running(self) -> bool:
        return False

    @property
    def current(self) -> DeferredIntent | None:
        return self._current

    def take_pending_operation(self) -> DeferredIntent | None:
        current, self._current = self._current, None
        return current
