"""The reliability tier writes what it tried to ``tests/artifacts/reliability.json``."""

from __future__ import annotations

import pytest

from tests.reliability import figures


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
