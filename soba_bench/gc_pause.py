"""Keeping Python's cyclic garbage collector off the bulk work of a replay (issue 18).

Reading a session and replaying it allocate many small containers and free few; each full
collection walks every live container, so on a 50k-entry session collections cost as much
as the work itself. Parsed JSON has no reference cycles, and a replay's inputs outlive it,
so neither needs the collector's attention: reference counting still frees everything.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside the block (for building acyclic data, such as parsed
    JSON); the collector's previous state is restored after it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _nothing() -> None:
    return None


@contextmanager
def frozen_heap() -> Iterator[Callable[[], None]]:
    """Objects alive at entry are left out of collections inside the block (``gc.freeze``),
    so a long replay's collections walk only what the replay itself allocates. Freezing is
    process-wide and not nested: if something is frozen already, the block changes nothing.

    Yields ``settle()``, which freezes what is alive when it is called as well. A replay
    calls it every few thousand entries: its live branch, trace and events only grow, and
    full collections that walk them again and again cost a quarter of a 50k-entry replay.
    Reference counting still frees everything; only a reference cycle that becomes garbage
    after it was frozen waits for the block's end (a replay makes almost none). A no-op when
    the block does not own the freeze."""
    if gc.get_freeze_count():
        yield _nothing
        return
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()
