"""The reliability tier writes what it tried to ``tests/artifacts/reliability.json``.

Hypothesis is derandomized for the whole test session once this tier is collected (a fixed seed
per test, tests/property included), so CI sees the same inputs on every run and
a failure reproduces. To look for new failures, run the tier with fresh random inputs:
``SOBA_BENCH_FUZZ_RANDOM=1 pytest tests/reliability -m "slow or not slow"``; fix what it
finds and pin the input in a plain test (as test_hostile_transcripts.py does for the
over-long corpus names such a run found)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests.reliability import figures

settings.register_profile(
    "reliability", derandomize=os.environ.get("SOBA_BENCH_FUZZ_RANDOM") != "1"
)
settings.load_profile("reliability")


@pytest.fixture(scope="session", autouse=True)
def _record_figures():
    yield
    figures.flush()


@pytest.fixture(scope="session")
def tiny_corpus(tmp_path_factory):
    """Two short generated sessions with ground truth (secrets and injections planted)."""
    from soba_bench.corpora.synthetic.config import SyntheticConfig
    from soba_bench.corpora.synthetic.generate import generate_corpus

    out = tmp_path_factory.mktemp("corpus") / "tiny"
    config = SyntheticConfig(entries=300, secrets_per_1k=20.0, injections_per_1k=20.0)
    generate_corpus(out, config, seed=5, sessions=2, name="tiny")
    return out
