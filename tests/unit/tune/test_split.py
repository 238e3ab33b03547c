"""The search / held-out split: deterministic by seed and session id, stratified by corpus,
disjoint and complete; each side written as corpus folders that load like any corpus."""

from __future__ import annotations

import hashlib

import pytest

from soba_bench.corpora.manifest import load_corpus
from soba_bench.corpora.truth import truth_path
from soba_bench.errors import InputError
from soba_bench.tune.split import session_ids, split_sessions, write_side
from tests.builders import REPO

IDS = [f"a/s{i}" for i in range(10)] + [f"b/t{i}" for i in range(3)]


def test_the_split_is_disjoint_complete_stratified_and_seeded():
    split = split_sessions(IDS, 0.3, seed=0)
    assert set(split.search) | set(split.held_out) == set(IDS)
    assert not set(split.search) & set(split.held_out)
    held = split.held_out
    assert sum(s.startswith("a/") for s in held) == 3
    assert sum(s.startswith("b/") for s in held) == 1  # round(0.9) = 1, both sides kept
    assert split_sessions(list(reversed(IDS)), 0.3, seed=0) == split
    assert split_sessions(IDS, 0.3, seed=1).held_out != held


def test_held_out_sessions_are_those_with_the_lowest_seeded_hash():
    split = split_sessions(IDS, 0.3, seed=7)
    ranked = sorted(
        (s for s in IDS if s.startswith("a/")),
        key=lambda s: hashlib.sha256(f"7:{s}".encode()).hexdigest(),
    )
    assert {s for s in split.held_out if s.startswith("a/")} == set(ranked[:3])


def test_no_held_out_fraction_keeps_everything_for_the_search():
    split = split_sessions(IDS, 0.0, seed=0)
    assert split.held_out == () and len(split.search) == len(IDS)
    single = split_sessions(["c/only"], 0.5, seed=0)
    assert single.search == ("c/only",) and single.held_out == ()


@pytest.mark.parametrize("fraction", [1.0, -0.1, "0.3", True])
def test_a_bad_fraction_is_an_input_error(fraction):
    with pytest.raises(InputError) as info:
        split_sessions(IDS, fraction, seed=0)
    assert info.value.field == "split.held_out"


def test_each_side_is_a_loadable_corpus_with_its_ground_truth(tmp_path):
    source = load_corpus(REPO / "corpora" / "synthetic-small")
    before = {p: p.read_bytes() for p in (source.root / "manifest.json",)}
    ids = session_ids((source,))
    split = split_sessions(ids, 0.34, seed=0)
    assert len(split.held_out) == 1
    folders = write_side((source,), split.held_out, tmp_path / "held")
    assert [f.name for f in folders] == ["synthetic-small"]
    side = load_corpus(folders[0])  # verifies every sha256
    assert [f"{side.name}/{s.name}" for s in side.sessions] == list(split.held_out)
    assert side.data["splitOf"]["manifestSha256"] == source.manifest_sha256
    assert truth_path(side.sessions[0].path).is_file()
    assert all(p.read_bytes() == b for p, b in before.items())  # the source is untouched


def test_two_corpora_with_the_same_name_are_refused():
    source = load_corpus(REPO / "corpora" / "synthetic-small")
    with pytest.raises(InputError, match="same session id"):
        session_ids((source, source))
