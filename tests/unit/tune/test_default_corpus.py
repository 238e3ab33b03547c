"""tune replays the 30-session synthetic-gate corpus unless a corpus is named."""

from __future__ import annotations

import pytest

from soba_bench.cli.tune_cmd import DEFAULT_CORPUS, load_configs
from tests.builders import REPO


def test_tune_defaults_to_the_gate_corpus():
    _, job, _ = load_configs(["window=64k"])
    assert DEFAULT_CORPUS == "synthetic-gate"
    assert job["corpus"]["name"] == "synthetic-gate"
    assert job["corpus"]["paths"] == ["corpora/synthetic-gate"]
    assert (REPO / "corpora" / "synthetic-gate" / "manifest.json").is_file()


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["corpus=synthetic-small"], "synthetic-small"),
        (["--corpus", str(REPO / "corpora" / "synthetic-tiny")], "custom"),
        (["corpus=path", "corpus.paths=[corpora/synthetic-tiny]"], "custom"),
    ],
)
def test_a_named_corpus_wins(args, name):
    _, job, _ = load_configs(args)
    assert job["corpus"]["name"] != "synthetic-gate"
    assert job["corpus"]["name"] == name or job["corpus"]["paths"] != ["corpora/synthetic-gate"]
