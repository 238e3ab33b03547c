"""The response cache: keys, modes, replay misses, recorded latencies, concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from soba_bench.errors import ConfigError, HarnessFault, SobaBenchError, UnknownNameError
from soba_bench.models.cache import (
    CachedReply,
    CacheMissError,
    ResponseCache,
    default_cache_path,
    open_cache,
    request_key,
)

REQUEST = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 10}


def test_key_covers_model_and_whole_request_in_any_key_order():
    same = {"max_tokens": 10, "messages": [{"content": "hi", "role": "user"}], "model": "m"}
    assert request_key("m", REQUEST) == request_key("m", same)
    assert request_key("m", REQUEST) != request_key("other", REQUEST)
    assert request_key("m", REQUEST) != request_key("m", {**REQUEST, "max_tokens": 11})
    assert len(request_key("m", REQUEST)) == 64


def test_round_trip_keeps_text_latency_finish_and_usage(tmp_path: Path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    key = request_key("m", REQUEST)
    assert cache.get(key) is None
    reply = CachedReply('{"goal":"g"}', 1234.5, "stop", {"prompt_tokens": 3})
    cache.put(key, "m", REQUEST, reply, "http://127.0.0.1:8080")
    assert cache.get(key) == reply
    assert len(cache) == 1 and cache.latencies() == [1234.5] and cache.latencies("x") == []
    row = sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT endpoint FROM responses")
    assert row.fetchone() == ("http://127.0.0.1:8080",)


def test_first_answer_for_a_key_wins(tmp_path: Path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    key = request_key("m", REQUEST)
    cache.put(key, "m", REQUEST, CachedReply("first", 1.0))
    cache.put(key, "m", REQUEST, CachedReply("second", 2.0))
    assert cache.get(key) == CachedReply("first", 1.0)


def test_read_only_serves_hits_and_a_miss_is_a_clear_error(tmp_path: Path):
    path = tmp_path / "c.sqlite"
    writer = ResponseCache(path)
    key = request_key("m", REQUEST)
    writer.put(key, "m", REQUEST, CachedReply("answer", 42.0))
    writer.close()
    replay = ResponseCache(path, "replay")  # alias of read-only
    assert replay.mode == "read-only"
    assert replay.require(key, "m").latency_ms == 42.0
    with pytest.raises(CacheMissError, match=r"read-only.*model 'm'") as err:
        replay.require(request_key("m", {**REQUEST, "seed": 1}), "m")
    assert isinstance(err.value, SobaBenchError) and "record it" in str(err.value)
    replay.put(request_key("m", {}), "m", {}, CachedReply("ignored", 1.0))  # never writes
    assert len(replay) == 1


def test_read_only_needs_an_existing_file(tmp_path: Path):
    with pytest.raises(HarnessFault, match="does not exist"):
        ResponseCache(tmp_path / "missing.sqlite", "read-only")


def test_modes_off_and_unknown(tmp_path: Path):
    assert open_cache(tmp_path / "c.sqlite", "off") is None
    assert not (tmp_path / "c.sqlite").exists()
    with pytest.raises(UnknownNameError, match="off, read-only, read-write, replay, rw"):
        open_cache(tmp_path / "c.sqlite", "write-through")
    with pytest.raises(ConfigError):
        ResponseCache(tmp_path / "c.sqlite", "off")


def test_default_path_follows_the_environment(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("SOBA_BENCH_CACHE", str(tmp_path / "x.sqlite"))
    assert default_cache_path() == tmp_path / "x.sqlite"
    monkeypatch.delenv("SOBA_BENCH_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "soba-bench" / "responses.sqlite"


def test_a_file_of_another_schema_version_is_refused(tmp_path: Path):
    path = tmp_path / "c.sqlite"
    ResponseCache(path).put(request_key("m", REQUEST), "m", REQUEST, CachedReply("a", 1.0))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(HarnessFault, match="schema version 99"):
        ResponseCache(path).get(request_key("m", REQUEST))


def test_wal_journal_for_concurrent_readers(tmp_path: Path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    cache.get("k")
    mode = sqlite3.connect(tmp_path / "c.sqlite").execute("PRAGMA journal_mode").fetchone()
    assert mode == ("wal",)


def _writer(path: str, worker: int, start, count: int) -> None:
    cache = ResponseCache(path)
    start.wait(10)
    for i in range(count):
        shared = {"n": i}  # both workers write these keys: the first answer stays
        cache.put(request_key("m", shared), "m", shared, CachedReply(f"w{worker}", float(i)))
        own = {"n": i, "worker": worker}
        cache.put(request_key("m", own), "m", own, CachedReply(f"w{worker}", float(i)))
    cache.close()


def test_two_processes_writing_at_once(tmp_path: Path):
    path = str(tmp_path / "shared.sqlite")
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_writer, args=(path, w, start, 60)) for w in (1, 2)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0, 0]
    cache = ResponseCache(path, "read-only")
    assert len(cache) == 60 + 2 * 60
    for i in range(60):
        assert cache.get(request_key("m", {"n": i})).text in ("w1", "w2")
        for w in (1, 2):
            got = cache.get(request_key("m", {"n": i, "worker": w}))
            assert got == CachedReply(f"w{w}", float(i))


def _create_and_put(path: str, start, i: int) -> None:
    start.wait(10)
    cache = ResponseCache(path)
    cache.put(request_key("m", {"i": i}), "m", {"i": i}, CachedReply("x", 1.0))
    cache.close()


def test_many_processes_creating_one_new_cache_at_once(tmp_path: Path):
    # Switching a brand-new file to WAL under contention made SQLite answer "database is
    # locked" at once (no busy wait): about one round in ten lost a worker before the fix.
    # Children come from a fork server, not from this worker: a fork of a multi-threaded
    # process (xdist's I/O thread, the tokenizer's thread pool) can inherit a lock held by
    # another thread and never exit; in a clean-clone CI run two of six children had not
    # exited after 30 s. Spawning 240 interpreters would cost minutes.
    ctx = multiprocessing.get_context("forkserver")
    # The server imports this module (and with it the cache) once, so each child is a bare
    # fork of it; otherwise every one of the 240 children imports the package itself (about
    # 50 s of a CI run). A server another test already started keeps its own preload list:
    # the children are then only slower, not different.
    ctx.set_forkserver_preload([__name__])
    for round_ in range(40):
        path = str(tmp_path / f"c{round_}.sqlite")
        start = ctx.Event()
        procs = [ctx.Process(target=_create_and_put, args=(path, start, i)) for i in range(6)]
        for p in procs:
            p.start()
        start.set()
        for p in procs:
            p.join(30)
        assert [p.exitcode for p in procs] == [0] * 6, f"round {round_}"
        assert len(ResponseCache(path, "read-only")) == 6
