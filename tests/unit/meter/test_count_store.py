"""The shared token-count store: counts survive the process, concurrent writers never lose or
corrupt a count, and a cached meter starts from what other jobs stored."""

from __future__ import annotations

import multiprocessing

from soba_bench.meter.base import CachedMeter, content_key
from soba_bench.meter.count_store import CountStore


class CountingMeter:
    """A fake tokenizer that counts how often it is asked."""

    name = "fake"

    def __init__(self) -> None:
        self.calls = 0

    def count_item(self, item):
        self.calls += 1
        return len(item["text"])

    def count_text(self, text):
        return len(text)

    def count_non_session(self, text):
        return len(text)


def items(n: int, offset: int = 0) -> list[dict]:
    return [{"type": "message", "text": "x" * (i + offset)} for i in range(n)]


def test_counts_persist_across_meters_sharing_a_store(tmp_path):
    path = tmp_path / "counts.sqlite"
    first = CachedMeter(CountingMeter())
    first.attach_store(CountStore(path, "fake"))
    assert [first.count_item(i) for i in items(5)] == [0, 1, 2, 3, 4]
    assert first.flush() == 5

    second_inner = CountingMeter()
    second = CachedMeter(second_inner)
    second.attach_store(CountStore(path, "fake"))
    assert [second.count_item(i) for i in items(6)] == [0, 1, 2, 3, 4, 5]
    assert second_inner.calls == 1  # only the item no job had counted yet
    assert (second.hits, second.misses) == (5, 1)


def test_meters_of_other_names_do_not_share_counts(tmp_path):
    path = tmp_path / "counts.sqlite"
    store = CountStore(path, "fake")
    store.add(content_key({"text": "abc"}), 99)
    store.flush()
    assert CountStore(path, "other").load() == {}
    assert CountStore(path, "fake").load() == {content_key({"text": "abc"}): 99}


def _writer(path: str, offset: int) -> None:
    meter = CachedMeter(CountingMeter())
    meter.attach_store(CountStore(path, "fake"))
    for chunk in range(5):  # several commits per process, interleaved with the others
        for item in items(40, offset + chunk * 40):
            meter.count_item(item)
        meter.flush()


def test_concurrent_writers_store_every_count_once(tmp_path):
    path = str(tmp_path / "counts.sqlite")
    ctx = multiprocessing.get_context("spawn")
    # Overlapping ranges: processes write some of the same keys at the same time.
    procs = [ctx.Process(target=_writer, args=(path, offset)) for offset in (0, 100, 150, 0)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    stored = CountStore(path, "fake").load()
    expected = {content_key(i): len(i["text"]) for i in items(350)}
    assert stored == expected


def test_the_same_item_object_is_neither_hashed_nor_counted_twice(monkeypatch):
    import soba_bench.meter.base as base

    inner = CountingMeter()
    meter = CachedMeter(inner)
    item = {"type": "message", "text": "hello"}
    hashed = []
    real_key = base.content_key
    monkeypatch.setattr(base, "content_key", lambda i: hashed.append(1) or real_key(i))
    assert [meter.count_item(item) for _ in range(3)] == [5, 5, 5]
    assert len(hashed) == 1 and inner.calls == 1
    assert meter.count_item(dict(item)) == 5  # an equal copy: found by content
    assert len(hashed) == 2 and inner.calls == 1
    assert (meter.hits, meter.misses) == (3, 1)


def test_the_identity_memo_is_bounded(monkeypatch):
    import soba_bench.meter.base as base

    monkeypatch.setattr(base, "MAX_IDENTITY_MEMO", 2)
    meter = CachedMeter(CountingMeter())
    for item in items(5):
        meter.count_item(item)
    assert len(meter._by_id) <= 2
