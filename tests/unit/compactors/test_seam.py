"""The compactor seam (engine/compactor.py): the manager hands each attempt to its
Compactor; a new compactor plugs in without subclassing the manager."""

from __future__ import annotations

from soba_bench.compactors import CompactorContext
from soba_bench.compactors.rival import Edit, conclude_edit, items_tokens_after, replay_rival
from soba_bench.engine import outcome as O
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.compactor import SOBA_CAPSULES, Attempt, Compactor
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome
from soba_bench.meter import get_meter
from soba_bench.replay.rules import ReplayOptions
from tests.unit.compactors.helpers import run, small_engine, tool_session


class DropAll:
    """The README's example: drop everything before the newest item from the model input."""

    name = "drop_all"

    def __init__(self) -> None:
        self.calls = 0

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        self.calls += 1
        branch = attempt.branch
        last = len(branch) - 1
        edit = Edit(
            strategy=self.name,
            tokens_after=items_tokens_after(attempt.plan, branch.tokens_from(last)),
            source_ids=[e.id for e in branch.entries[:last] if e.item is not None],
            drop_through=last - 1,
            reason="dropped all but the newest item",
        )
        return conclude_edit(attempt, edit)


class Deferring:
    """SOBA's own step through the seam, counting calls."""

    def __init__(self) -> None:
        self.calls = 0

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        self.calls += 1
        return attempt.capsule()


def test_the_default_compactor_is_sobas_capsule_step():
    session, engine = tool_session(14, 7000), small_engine()
    ctx = CompactorContext(engine=engine, options=ReplayOptions())
    soba = run("soba", session, engine)
    deferring = Deferring()
    through_seam = replay_rival(session, ctx, deferring, "deferring", {})
    # Every attempt went through the compactor, and the capsules are SOBA's, byte for byte.
    assert deferring.calls == len([b for b in soba.barriers if b.attempt is not None]) > 0
    assert soba.capsules
    assert [c["portableState"] for c in through_seam.capsules] == [
        c["portableState"] for c in soba.capsules
    ]
    manager = ContextManager(LiveBranch("s", meter=get_meter()), engine)
    assert manager.compactor is SOBA_CAPSULES
    typed: Compactor = deferring  # the protocol a compactor satisfies (checked by mypy)
    assert typed is deferring


def test_a_new_compactor_plugs_in_through_the_seam():
    session, engine = tool_session(14, 7000), small_engine()
    ctx = CompactorContext(engine=engine, options=ReplayOptions())
    compactor = DropAll()
    trace = replay_rival(session, ctx, compactor, compactor.name, {})
    attempts = [b.attempt for b in trace.barriers if b.attempt is not None]
    assert compactor.calls == len(attempts) > 0
    done = [a for a in attempts if a["outcome"] == O.COMPLETED]
    assert done and all(a["strategy"] == "drop_all" for a in done)
    assert all(a["reason"] == "dropped all but the newest item" for a in done)
    assert trace.config_line["replayStrategy"] == "drop_all"
