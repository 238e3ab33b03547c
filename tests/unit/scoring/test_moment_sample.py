"""The diagnostics at capsule moments read at most ``max_moments`` of them (issue 18).

Observation masking in a full window masks at nearly every request, so it has a moment per
request, and each moment's diagnostics read every live fact: reading every moment made scoring
quadratic in the session. Above the bound the diagnostics read the final state and a seeded
sample of the rest. What a moment's rows say must not depend on which others were read, the
sample must be the same for the same seed, the final state always among them, the session
table must say how many there were, and drift (which counts generations) is left out."""

from __future__ import annotations

import dataclasses

import pytest

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import InputError
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.aggregate import session_table
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.scorer import DEFAULT_MAX_MOMENTS, FINAL, ScoreConfig
from soba_bench.scoring.session import score_replay
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.jobspec import JobSpec
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

# The rules alone (no model): the sampling is the same for every matcher.
RULES = ScoreConfig(
    match=dataclasses.replace(DEFAULT_MATCH, prose_matcher="verdict"),
    max_points=None,
    scorers=("retention", "soba_quality", "failure_modes"),
)


def _replay(strategy: str, seed: int = 1):
    session, truth = generated(1200, seed=seed)
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions())
    trace = get_compactor(strategy)(session, ctx).trace
    return trace, truth


def _by_moment(rows):
    out: dict[tuple, list] = {}
    for row in rows:
        out.setdefault((row["generation"], row["point"]), []).append(row)
    return out


@pytest.mark.parametrize("strategy", ["observation_masking", "soba"])
def test_a_sampled_moment_reads_as_it_does_among_all(strategy):
    trace, truth = _replay(strategy)
    lines = trace.check_lines()
    every = score_replay(
        "s", trace.entries, truth, dataclasses.replace(RULES, max_moments=None), lines
    )
    assert every.moments > 12  # the job has more moments than the bound below
    bound = 8
    sampled = score_replay(
        "s", trace.entries, truth, dataclasses.replace(RULES, max_moments=bound), lines
    )
    assert sampled.moments == every.moments and sampled.capsules == every.capsules
    all_rows, some_rows = _by_moment(every.summaries), _by_moment(sampled.summaries)
    assert len(some_rows) == bound
    assert any(generation == FINAL for generation, _ in some_rows)
    for moment, rows in some_rows.items():
        assert rows == all_rows[moment]  # the same figures, whichever others were read
    assert [r for r in every.rows if (r["generation"], r["point"]) in some_rows] == sampled.rows
    if strategy == "soba":
        points = {q["point"] for q in sampled.quality}
        assert sampled.quality == [q for q in every.quality if q["point"] in points]
        assert len(sampled.quality) == bound - 1  # every SOBA moment but the final wrote one
    assert not sampled.drift  # drift counts generations: not from a sample
    assert bool(every.drift) == (strategy == "soba")  # capsules have drift, masking has none
    table = {(r["view"], r["moment"]): r for r in session_table(sampled)}
    capsules = table[("input", "capsules")]
    assert (capsules["points"], capsules["moments"]) == (bound - 1, every.moments)
    whole = {(r["view"], r["moment"]): r for r in session_table(every)}[("input", "capsules")]
    assert whole["points"] == whole["moments"] == every.moments


def test_the_sample_is_seeded():
    trace, truth = _replay("observation_masking")
    lines = trace.check_lines()

    def read(seed: int) -> set:
        config = dataclasses.replace(RULES, max_moments=6, points_seed=seed, scorers=("retention",))
        return set(_by_moment(score_replay("s", trace.entries, truth, config, lines).summaries))

    first = read(0)
    assert read(0) == first and len(first) == 6
    assert any(read(seed) != first for seed in (1, 2, 3))


def test_under_the_bound_every_moment_is_read():
    trace, truth = _replay("soba")
    lines = trace.check_lines()
    every = score_replay(
        "s", trace.entries, truth, dataclasses.replace(RULES, max_moments=None), lines
    )
    assert every.moments < DEFAULT_MAX_MOMENTS
    bounded = score_replay("s", trace.entries, truth, RULES, lines)
    assert dataclasses.asdict(bounded) == dataclasses.asdict(every)


@pytest.mark.parametrize("value", [0, -1, 2.5, True, "8"])
def test_a_bound_that_is_not_a_count_is_refused(value):
    with pytest.raises(InputError, match=r"scorer\.max_moments"):
        ScoreConfig(max_moments=value)


def test_a_sweep_passes_the_bound_and_keys_jobs_by_it():
    def spec(*overrides: str) -> JobSpec:
        return JobSpec.from_config(compose_config(["corpus=synthetic-small", *overrides]))

    default = spec().score
    assert default is not None and default.max_moments == DEFAULT_MAX_MOMENTS
    every, five = spec("scorer.max_moments=null").score, spec("scorer.max_moments=5").score
    assert every is not None and every.max_moments is None
    assert five is not None and five.max_moments == 5
    assert spec("scorer.max_moments=5").key != spec("scorer.max_moments=6").key
