"""Upgrading a version-1 response cache: its answers stay hits under SOBA's request body."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from soba_bench.errors import HarnessFault
from soba_bench.models.cache import ResponseCache, canonical_json, request_key
from soba_bench.models.cache_migrate import main, migrate, v1_request_to_v2
from soba_bench.models.client import EndpointConfig, build_request

LOCAL = EndpointConfig("http://127.0.0.1:1/v1", "qwen", temperature=0.0, seed=0)
REASONING = EndpointConfig("http://127.0.0.1:1/v1", "gpt", reasoning_effort="low")


def v1_body(config: EndpointConfig, prompt: str) -> dict:
    """What the version-1 client sent: max_completion_tokens always, no stream key."""
    body = {"model": config.model, "messages": [{"role": "user", "content": prompt}]}
    body["max_completion_tokens"] = 1024
    for key in ("temperature", "seed", "reasoning_effort"):
        if getattr(config, key) is not None:
            body[key] = getattr(config, key)
    return body


def write_v1(path: Path, rows: list[tuple[str, dict, str]]) -> None:
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE responses (key TEXT PRIMARY KEY, model TEXT NOT NULL, request TEXT "
            "NOT NULL, text TEXT NOT NULL, latency_ms REAL NOT NULL, finish_reason TEXT, "
            "usage TEXT, endpoint TEXT, created_at TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('schema_version', '1');"
        )
        for model, body, text in rows:
            db.execute(
                "INSERT INTO responses VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    *(request_key(model, body), model, canonical_json(body), text, 1234.5),
                    *("stop", None, "http://127.0.0.1", "2026-01-01T00:00:00Z"),
                ),
            )


def test_v1_bodies_become_the_bodies_the_client_now_sends():
    for config in (LOCAL, REASONING):
        assert v1_request_to_v2(v1_body(config, "p")) == build_request(config, "p", 1024)


def test_a_migrated_cache_answers_the_current_requests(tmp_path: Path):
    src, dst = tmp_path / "v1.sqlite", tmp_path / "v2.sqlite"
    write_v1(src, [("qwen", v1_body(LOCAL, "a"), "A"), ("gpt", v1_body(REASONING, "b"), "B")])
    before = src.read_bytes()
    with pytest.raises(HarnessFault, match=r"schema version 1.*cache_migrate"):
        ResponseCache(src, "read-only").get("x")
    assert migrate(src, dst) == {"rows": 2, "rekeyed": 2, "duplicates": 0}
    assert src.read_bytes() == before  # the input is never modified
    cache = ResponseCache(dst, "read-only")
    a = cache.require(request_key("qwen", build_request(LOCAL, "a", 1024)), "qwen")
    b = cache.require(request_key("gpt", build_request(REASONING, "b", 1024)), "gpt")
    assert (a.text, a.latency_ms, b.text) == ("A", 1234.5, "B")
    assert migrate(dst, dst) == {"rows": 2, "rekeyed": 0, "duplicates": 0}  # idempotent


def test_two_v1_bodies_with_one_soba_body_keep_the_first_answer(tmp_path: Path):
    src = tmp_path / "v1.sqlite"
    first = v1_body(LOCAL, "a")
    second = {**{k: v for k, v in first.items() if k != "max_completion_tokens"}}
    second["max_tokens"] = 1024  # a v1 run that asked for the max_tokens name already
    write_v1(src, [("qwen", first, "first"), ("qwen", second, "second")])
    assert migrate(src, src)["duplicates"] == 1
    key = request_key("qwen", build_request(LOCAL, "a", 1024))
    assert ResponseCache(src, "read-only").require(key, "qwen").text == "first"


def test_the_command_reports_and_fails_cleanly(tmp_path: Path, capsys):
    src = tmp_path / "v1.sqlite"
    write_v1(src, [("qwen", v1_body(LOCAL, "a"), "A")])
    assert main([str(src), str(src)]) == 0
    assert "1 answers, 1 re-keyed" in capsys.readouterr().out
    assert main([str(tmp_path / "missing.sqlite"), str(src)]) == 2
    assert "missing.sqlite" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v1.sqlite"]  # no temp file left
