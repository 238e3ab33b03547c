"""Time, deadlines and cancellation for one compaction attempt (engine.md k, e.2 steps 1-8).

SOBA races the strategy chain against one deadline per attempt and an external (turn) abort.
Here the clock is injected:

* :class:`VirtualClock` - model latency is simulated; a 15 s timeout costs no wall time.
  A model call is a :class:`SimulatedReply` (text or error, plus latency).
* :class:`RealClock` - a real model call runs in a worker thread and is waited for until it
  answers, the deadline passes or the external signal aborts. A late answer is discarded:
  the attempt has already moved on, so it can never append.

The only preemption points are model calls, as in SOBA, where the synchronous deterministic
strategy cannot be interrupted either.
"""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


class VirtualClock:
    """Milliseconds that only move when something advances them."""

    real = False

    def __init__(self, start_ms: float = 0) -> None:
        self._now = float(start_ms)

    def now_ms(self) -> float:
        return self._now

    def advance(self, ms: float) -> None:
        self._now += max(0.0, ms)

    def epoch_ms(self) -> int:
        return int(self._now)


class RealClock:
    real = True

    def now_ms(self) -> float:
        return time.monotonic() * 1000.0

    def epoch_ms(self) -> int:
        return int(time.time() * 1000)


class AbortSignal:
    """An external abort (SOBA's turn AbortSignal). ``reason`` follows JS: a string reason is
    kept as-is (not an Error); ``abort()`` without a reason gives an Error."""

    def __init__(self) -> None:
        self.aborted = False
        self.reason: Any = None
        self.abort_at_ms: float | None = None  # virtual-clock abort time, for simulations
        self._event = threading.Event()
        self._listeners: list[Callable[[], None]] = []

    def abort(self, reason: Any = None) -> None:
        if self.aborted:
            return
        self.aborted = True
        self.reason = reason if reason is not None else Exception("This operation was aborted")
        self._event.set()
        for listener in list(self._listeners):
            listener()

    def schedule_abort(self, at_ms: float, reason: Any = None) -> None:
        """Virtual clock only: abort when simulated time reaches ``at_ms``."""
        self.abort_at_ms = at_ms
        self._scheduled_reason = reason

    def poll(self, now_ms: float) -> None:
        if not self.aborted and self.abort_at_ms is not None and now_ms >= self.abort_at_ms:
            self.abort(getattr(self, "_scheduled_reason", None))

    def add_listener(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    def remove_listener(self, fn: Callable[[], None]) -> None:
        if fn in self._listeners:
            self._listeners.remove(fn)


def reason_message(reason: Any) -> str:
    """SOBA's abortReason: the message of an Error reason, else "Compaction cancelled"."""
    return str(reason) if isinstance(reason, BaseException) else "Compaction cancelled"


def reason_text(reason: Any) -> str:
    """``error instanceof Error ? error.message : String(error)``."""
    return str(reason)


def whole_ms_between(start_ms: float, end_ms: float) -> int:
    """A duration as JavaScript measures it: the difference of two integer timestamps."""
    return max(0, int(end_ms) - int(start_ms))


class Interrupted(Exception):
    """The attempt's internal controller aborted while a model call was awaited (SOBA's
    ``raceWithAbort`` rejection). Strategies must let it propagate."""

    def __init__(self, reason: Any) -> None:
        super().__init__(reason_text(reason))
        self.reason = reason


@dataclass(frozen=True)
class SimulatedReply:
    """A model answer on the virtual clock: ``text`` or ``error``, after ``latency_ms``."""

    text: str | None = None
    latency_ms: float = 0
    error: str | None = None


class AttemptContext:
    """One attempt's deadline and abort state (SOBA's internal AbortController)."""

    def __init__(
        self,
        clock: VirtualClock | RealClock,
        timeout_ms: float,
        external: AbortSignal | None = None,
    ) -> None:
        self.clock = clock
        self.started_ms = clock.now_ms()
        self.timeout_ms = timeout_ms
        self.deadline_ms = self.started_ms + timeout_ms
        self.external = external
        self.aborted = False
        self.reason: Any = None
        self.timed_out = False
        self._changed = threading.Event()
        if external is not None:
            external.add_listener(self._forward)
            if not clock.real:  # a scheduled abort that is already due has happened
                external.poll(self.started_ms)
            if external.aborted:
                self._forward()

    def _forward(self) -> None:
        assert self.external is not None  # registered only as the external signal's listener
        self._abort(self.external.reason)

    def _abort(self, reason: Any) -> None:
        if not self.aborted:  # the first abort's reason sticks, as with AbortController
            self.aborted = True
            self.reason = reason
        self._changed.set()

    def _time_out(self) -> None:
        self.timed_out = True
        self._abort(Exception(f"Compaction timed out after {_ms(self.timeout_ms)}ms"))

    def close(self) -> None:
        if self.external is not None:
            self.external.remove_listener(self._forward)

    @property
    def externally_aborted(self) -> bool:
        return self.external is not None and self.external.aborted

    def elapsed_ms(self) -> int:
        """Whole milliseconds since the attempt started (SOBA subtracts ``Date.now()``s)."""
        return whole_ms_between(self.started_ms, self.clock.now_ms())

    def call_model(self, call: Callable[[], Any] | SimulatedReply) -> str:
        """Await one model call under the deadline and the external signal. Returns the reply
        text; raises the model's own error, or :class:`Interrupted` if the attempt aborted."""
        if self.aborted:
            raise Interrupted(self.reason)
        if isinstance(call, SimulatedReply):
            return self._simulate(call)
        if not self.clock.real:
            raise TypeError("a virtual clock needs SimulatedReply model calls")
        return self._wait_real(call)

    def _simulate(self, reply: SimulatedReply) -> str:
        clock, external = self.clock, self.external
        assert isinstance(clock, VirtualClock)  # call_model sends only virtual clocks here
        finish = clock.now_ms() + max(0.0, reply.latency_ms)
        abort_at = None
        if external is not None and external.abort_at_ms is not None:
            abort_at = external.abort_at_ms
        first = min(t for t in (finish, self.deadline_ms, abort_at) if t is not None)
        if (
            external is not None
            and abort_at is not None
            and abort_at == first
            and abort_at < finish
        ):
            clock.advance(abort_at - clock.now_ms())
            external.poll(clock.now_ms())
            raise Interrupted(self.reason)
        if self.deadline_ms < finish:
            clock.advance(self.deadline_ms - clock.now_ms())
            self._time_out()
            raise Interrupted(self.reason)
        clock.advance(finish - clock.now_ms())
        if reply.error is not None:
            raise RuntimeError(reply.error)
        return reply.text if reply.text is not None else ""

    def _wait_real(self, call: Callable[[], Any]) -> str:
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="model")
        future = pool.submit(call)
        future.add_done_callback(lambda _f: self._changed.set())
        pool.shutdown(wait=False)  # a provider that ignores cancellation just finishes alone
        while True:
            if future.done():
                reply: str = future.result()
                return reply
            if self.aborted:
                raise Interrupted(self.reason)
            remaining = self.deadline_ms - self.clock.now_ms()
            if remaining <= 0:
                self._time_out()
                raise Interrupted(self.reason)
            self._changed.clear()
            if future.done() or self.aborted:
                continue
            self._changed.wait(timeout=remaining / 1000.0)


def _ms(value: float) -> str:
    from soba_bench.jscompat import js_number

    return js_number(value)
