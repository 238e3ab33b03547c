"""Search spaces: ranges and lists of SOBA keys, the grid they span, and bad specs."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from soba_bench.errors import InputError
from soba_bench.tune.space import TUNABLE_KEYS, parse_space

SPACES = Path(__file__).resolve().parents[3] / "configs" / "tune" / "space"


def test_ranges_and_lists_give_exact_values_and_a_fixed_grid_order():
    space = parse_space(
        {
            "params": {
                "keepRecentTokens": {"low": 4000, "high": 12000, "step": 4000},
                "autoCompactThresholdRatio": {"low": 0.6, "high": 0.9, "step": 0.1},
                "minSavingsRatio": {"values": [0.1, 0.25, 0.1]},
            }
        }
    )
    keep, ratio, savings = space.params
    assert keep.values == (4000, 8000, 12000) and keep.is_int and keep.ordered
    assert ratio.values == (0.6, 0.7, 0.8, 0.9)  # no 0.7000000000000001
    assert savings.values == (0.1, 0.25) and not savings.ordered
    grid = list(space.grid())
    assert len(grid) == space.size == 3 * 4 * 2
    assert grid[0] == {
        "keepRecentTokens": 4000,
        "autoCompactThresholdRatio": 0.6,
        "minSavingsRatio": 0.1,
    }
    assert grid[-1]["keepRecentTokens"] == 12000 and grid[1]["minSavingsRatio"] == 0.25


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"contextWindow": {"values": [1]}}, "space.params.contextWindow"),
        ({"auto": {"values": [1]}}, "space.params.auto"),
        ({"keepRecentTokens": {"values": []}}, "space.params.keepRecentTokens.values"),
        ({"keepRecentTokens": {"values": ["8k"]}}, "space.params.keepRecentTokens.values"),
        ({"keepRecentTokens": {"low": 10, "high": 5, "step": 1}}, "space.params.keepRecentTokens"),
        ({"keepRecentTokens": {"low": 0, "high": 10, "step": 3}}, "space.params.keepRecentTokens"),
        ({"keepRecentTokens": 8000}, "space.params.keepRecentTokens"),
    ],
)
def test_bad_spaces_name_the_parameter(params, field):
    with pytest.raises(InputError) as info:
        parse_space({"params": params}, "space.yaml")
    assert info.value.field == field


def test_an_empty_space_is_an_error():
    with pytest.raises(InputError, match="names no parameter"):
        parse_space({"params": {}})


def test_every_shipped_space_parses_and_searches_only_tunable_keys():
    files = sorted(SPACES.glob("*.yaml"))
    names = {p.stem for p in files}
    for window in ("64k", "128k", "200k", "1m"):
        assert {window, f"{window}-core"} <= names
    for path in files:
        space = parse_space(yaml.safe_load(path.read_text()), str(path))
        assert {p.name for p in space.params} <= set(TUNABLE_KEYS)
        if path.stem.endswith("-core"):
            assert space.size <= 24  # fits the default budget with search.strategy=grid
