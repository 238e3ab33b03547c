"""The strategy registry: names, errors that list them, and the soba strategy's summarizer
arguments (optional keys only for factories that take them)."""

from __future__ import annotations

from typing import Any

import pytest

from soba_bench.compactors import CompactorContext, compactor_names, get_compactor
from soba_bench.compactors.soba import summarizer_kwargs
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import UnknownNameError
from soba_bench.replay.rules import ReplayOptions
from soba_bench.session import read_session
from soba_bench.summarizers import SUMMARIZERS, SummarizerSpec
from tests.builders import REPO


def test_registry_names_and_unknown_names():
    names = ["claude_code", "codex", "gemini_cli", "hybrid", "none", "observation_masking"]
    names += ["opencode", "openhands", "pi", "soba", "truncation"]
    assert compactor_names() == names
    with pytest.raises(UnknownNameError, match="valid names: " + ", ".join(names)):
        get_compactor("truncation-replay")


def test_optional_keys_reach_only_factories_that_take_them(monkeypatch):
    def strict(model: str = "m", cache_path: str | None = None) -> SummarizerSpec:
        raise AssertionError("not called")

    monkeypatch.setitem(SUMMARIZERS._items, "strict-test", strict)
    params: dict[str, Any] = {"model": "x", "cache_path": "/c.sqlite", "api_key_env": "K"}
    assert summarizer_kwargs("strict-test", params) == {"model": "x", "cache_path": "/c.sqlite"}
    # A factory with **kwargs takes everything; a typo is still passed on (and fails there).
    monkeypatch.setitem(SUMMARIZERS._items, "loose-test", lambda **kw: kw)
    assert summarizer_kwargs("loose-test", {**params, "modle": 1}) == {**params, "modle": 1}
    # One without parameters gets no optional key; a typo is passed on and fails in the build.
    assert summarizer_kwargs("deterministic", {**params, "modle": 1}) == {"model": "x", "modle": 1}


def test_soba_strategy_replays_with_the_summarizers_chain():
    session = read_session(
        REPO / "corpora" / "synthetic-small" / "sessions" / "synthetic-s7-000.jsonl.gz"
    )
    engine = build_engine_config({"compaction": {"keepRecentTokens": 8000}})
    ctx = CompactorContext(engine=engine, options=ReplayOptions())
    run = get_compactor("soba")(session, ctx)
    assert run.summarizer["name"] == "deterministic" and run.summarizer["chain"]
    assert run.trace.summary()["attempts"] >= 1 and run.trace.capsules
