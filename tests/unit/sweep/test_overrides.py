"""Command-line overrides: a misspelled setting stops with the close matches, before Hydra
would suggest appending it as a junk ``+key``; valid keys and Hydra's own syntax pass."""

from __future__ import annotations

import pytest

from soba_bench.cli.run_cmd import translate
from soba_bench.errors import InputError


@pytest.mark.parametrize(
    ("arg", "suggestion"),
    [
        ("keepRecentToken=8000", "did you mean keepRecentTokens?"),
        ("engine.keepRecentToken=8000", "did you mean engine.keepRecentTokens?"),
        ("compaction.minSavingRatio=0.2", "did you mean engine.minSavingsRatio?"),
        ("stratgy=truncation", "did you mean strategy?"),
        ("strategy.parms.keep_observations=3", "did you mean strategy.params?"),
    ],
)
def test_a_misspelled_setting_names_the_close_match(arg, suggestion):
    with pytest.raises(InputError) as info:
        translate([arg])
    assert suggestion in str(info.value)
    assert info.value.exit_code == 2


def test_an_unknown_setting_without_a_close_match_lists_the_valid_ones():
    with pytest.raises(InputError) as info:
        translate(["zzz=1"])
    assert "did you mean" not in str(info.value)
    assert "keepRecentTokens" in str(info.value) and "strategy" in str(info.value)


@pytest.mark.parametrize(
    "arg",
    [
        "keepRecentTokens=8000",
        "engine.keepRecentTokens=8000,20000",
        "strategy.params.keep_observations=3",
        "+summarizer.params.prompt=anchored-iterative",
        "hydra/launcher=basic",
        "hydra.sweep.dir=/tmp/x",
        "experiment=blocker_fix",
        "-m",
        "seed=3",
    ],
)
def test_valid_settings_and_hydra_syntax_pass(arg):
    assert translate([arg])
