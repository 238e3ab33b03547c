"""The collector's state around a replay's and a scoring's frozen heap: what was alive at the
start is left out of collections inside the block and handed back after it, a caller's own
freeze is left alone, and garbage made inside the block is still collected."""

from __future__ import annotations

import gc
import weakref

from soba_bench.gc_pause import frozen_heap
from soba_bench.scoring.session import ScoreContext, score_replay
from tests.unit.scoring.test_availability import LINES, ONLY, REPLAYED, TRUTH


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the collector frees it


def test_the_block_freezes_what_is_alive_and_hands_it_back():
    before = gc.get_freeze_count()
    assert before == 0
    with frozen_heap() as settle:
        assert gc.get_freeze_count() > 0
        cycle = weakref.ref(_Node())  # garbage made inside the block
        gc.collect()
        assert cycle() is None
        settle()
    assert gc.get_freeze_count() == 0


def test_a_callers_freeze_is_left_alone():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        # neither frozen again (more) nor handed back (none); frozen objects may die meanwhile
        with frozen_heap():
            assert 0 < gc.get_freeze_count() <= frozen
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


def test_scoring_runs_in_a_frozen_heap_and_leaves_it_as_it_found_it(monkeypatch):
    seen = []
    counts = ScoreContext.moment_counts

    def spy(self):
        seen.append(gc.get_freeze_count())  # what was alive when scoring began
        return counts(self)

    monkeypatch.setattr(ScoreContext, "moment_counts", spy)
    (row,) = score_replay("s", REPLAYED, TRUTH, ONLY, LINES).availability
    assert row["points"] > 0
    assert len(seen) == 1 and seen[0] > 0
    assert gc.get_freeze_count() == 0
