"""Entry ids the engine writes (capsules, appended entries) are drawn from a generator seeded
by the session id: the same replay writes the same ids every run, so run tables reproduce;
ids never collide with the transcript's own (reserved) ids."""

from __future__ import annotations

from soba_bench.engine.branch import LiveBranch


def ids(branch: LiveBranch, n: int = 20) -> list[str]:
    return [branch.new_entry_id() for _ in range(n)]


def test_the_same_session_draws_the_same_ids_every_run():
    assert ids(LiveBranch("session-a")) == ids(LiveBranch("session-a"))
    assert ids(LiveBranch("session-a")) != ids(LiveBranch("session-b"))
    assert all(len(i) == 8 and int(i, 16) >= 0 for i in ids(LiveBranch("session-a")))


def test_reserved_ids_are_never_drawn():
    first = ids(LiveBranch("s"), 5)
    drawn = ids(LiveBranch("s", reserved_ids=set(first)), 5)
    assert not set(drawn) & set(first)
    # a factory that only ever proposes a reserved id falls back to a long id, not a collision
    stuck = LiveBranch("s", reserved_ids={"dup"}, id_factory=lambda: "dup")
    fallback = stuck.new_entry_id()
    assert fallback != "dup" and len(fallback) == 32
