"""Settings the summarizer makes inert are left out of the search, and said to be."""

from __future__ import annotations

import pytest

from soba_bench.errors import InputError
from soba_bench.tune.inert import drop_inert, inert_settings
from soba_bench.tune.report import render
from soba_bench.tune.space import parse_space
from tests.unit.tune.test_recommend import document  # a complete recommendation

SPACE = {"params": {"keepRecentTokens": {"values": [8000, 16000]}, "timeoutMs": {"values": [5, 9]}}}


def test_timeout_is_inert_only_without_a_model():
    assert set(inert_settings({"name": "deterministic"})) == {"timeoutMs"}
    assert inert_settings({"name": "model", "params": {}}) == {}
    assert inert_settings({"name": "local", "params": {"cache": "read-only"}}) == {}


def test_drop_inert_removes_the_key_and_says_why():
    space, left_out = drop_inert(parse_space(SPACE), inert_settings({"name": "deterministic"}))
    assert [p.name for p in space.params] == ["keepRecentTokens"] and space.size == 2
    assert "runs no model" in left_out["timeoutMs"]
    same, none = drop_inert(parse_space(SPACE), {})
    assert same.size == 4 and none == {}


def test_a_space_of_inert_keys_only_is_an_error():
    only = parse_space({"params": {"timeoutMs": {"values": [5, 9]}}})
    with pytest.raises(InputError, match="inert"):
        drop_inert(only, {"timeoutMs": "no model"})


def test_tune_md_names_what_was_left_out(tmp_path):
    doc = document(tmp_path)
    assert "Left out of the search" not in render(doc)
    doc["settings"]["leftOut"] = {"timeoutMs": "the 'deterministic' summarizer runs no model"}
    assert "Left out of the search: `timeoutMs`" in render(doc)
