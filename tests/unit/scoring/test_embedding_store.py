"""The embedding store (``cache.embeddings``): vectors shared across processes must be exactly
the ones the model computes, must spare the model the texts it holds, and a damaged store must
stop a run with its path (exit 2), not change scores. The same holds for the cross-encoder's
pairs, kept in the same file under the cross-encoder's own model name."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest

from soba_bench.errors import InputError
from soba_bench.scoring import embeddings
from soba_bench.scoring.embeddings import STORE_ENV, Embedder, EmbeddingStore
from tests.integration.sweeps import cli, cli_env

TEXTS = [
    "use winston for logging because pino breaks the build",
    "Notes:\n- We switched to winston as logger since pino broke the build",
    "document the job queue changes in docs/architecture.md",
]


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder(threads=1)


def test_a_stored_vector_is_the_computed_one_and_is_not_computed_again(
    embedder, tmp_path, monkeypatch
):
    store = EmbeddingStore(tmp_path / "e.sqlite")
    computed = embedder._run(sorted(TEXTS, key=len))
    first = Embedder(threads=1)
    first.store = store
    vectors = first.embed(TEXTS)
    assert store.flush() == len(TEXTS) and store.written == len(TEXTS)
    # the same bytes whichever batch a text was in
    by_text = dict(zip(sorted(TEXTS, key=len), computed, strict=True))
    assert all((vectors[i] == by_text[t]).all() for i, t in enumerate(TEXTS))

    second = Embedder(threads=1)
    second.store = EmbeddingStore(tmp_path / "e.sqlite")

    def no_model(texts):
        raise AssertionError(f"the model ran for {texts}")

    monkeypatch.setattr(second, "_run", no_model)
    again = second.embed([TEXTS[2], TEXTS[0]])
    assert (again == vectors[[2, 0]]).all()
    assert second.store.hits == 2 and second.store.flush() == 0


def test_only_texts_the_store_lacks_reach_the_model(embedder, tmp_path, monkeypatch):
    store = EmbeddingStore(tmp_path / "e.sqlite")
    store.add(TEXTS[0], embedder.embed([TEXTS[0]])[0])
    store.flush()
    fresh = Embedder(threads=1)
    fresh.store = EmbeddingStore(tmp_path / "e.sqlite")
    ran: list[list[str]] = []
    real = fresh._run
    monkeypatch.setattr(fresh, "_run", lambda texts: ran.append(texts) or real(texts))
    fresh.embed(TEXTS)
    assert sorted(t for batch in ran for t in batch) == sorted(TEXTS[1:])
    assert fresh.store.flush() == 2  # the new ones, for the next process


def test_rows_of_another_model_are_not_served(embedder, tmp_path):
    path = tmp_path / "e.sqlite"
    other = EmbeddingStore(path, model="another-model")
    other.add(TEXTS[0], np.ones(384, np.float32))
    other.flush()
    assert EmbeddingStore(path).get_many([TEXTS[0]], np) == {}


def test_a_row_that_is_not_a_vector_stops_with_the_file_and_key(tmp_path):
    path = tmp_path / "e.sqlite"
    store = EmbeddingStore(path)
    store.add(TEXTS[0], np.zeros(384, np.float32))
    store.flush()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE vectors SET vector = ?", (b"\x00" * 12,))
    with pytest.raises(InputError) as caught:
        EmbeddingStore(path).get_many([TEXTS[0]], np)
    message = str(caught.value)
    assert str(path) in message and "vectors.vector" in message and "12 bytes" in message
    nan = np.full(384, np.nan, np.float32).tobytes()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE vectors SET vector = ?", (nan,))
    with pytest.raises(InputError, match="384 finite float32s"):
        EmbeddingStore(path).get_many([TEXTS[0]], np)


def test_a_file_that_is_not_a_store_is_an_error_naming_it(tmp_path):
    path = tmp_path / "e.sqlite"
    path.write_bytes(b"not a database at all, just some bytes " * 40)
    before = path.read_bytes()
    with pytest.raises(InputError, match=str(path)):
        EmbeddingStore(path).get_many([TEXTS[0]], np)
    assert path.read_bytes() == before  # the input is never modified


def test_a_run_fills_the_store_and_a_second_run_scores_the_same_from_it(tmp_path):
    env = {k: v for k, v in cli_env().items() if k != STORE_ENV}
    store = tmp_path / "vectors.sqlite"
    # four sessions, so that the cross-encoder judges some pairs (the first two give it none)
    common = ["corpus=synthetic-small", "corpus.limit=4", f"cache.embeddings={store}"]
    runs = []
    for n in (1, 2):
        out = tmp_path / f"run{n}"
        done = cli("run", *common, f"hydra.run.dir={out}", env=env)
        assert done.returncode == 0, done.stderr
        runs.append(out)
    first, second = (json.loads((r / "run.json").read_text())["caches"]["embeddings"] for r in runs)
    assert first["store"] == second["store"] == str(store)
    assert first["written"] > 0 and first["hits"] == 0
    assert second["written"] == 0 and second["hits"] > 0  # nothing embedded twice
    # the cross-encoder's pairs too (the default matcher asks it)
    assert first["pairsWritten"] > 0 and first["pairHits"] == 0
    assert second["pairsWritten"] == 0 and second["pairHits"] > 0
    scores = [(r / "scores" / "corpus.jsonl").read_text() for r in runs]
    assert scores[0] == scores[1]


def test_a_damaged_store_is_a_one_line_error_exit_2(tmp_path):
    env = {k: v for k, v in cli_env().items() if k != STORE_ENV}
    store = tmp_path / "vectors.sqlite"
    store.write_bytes(b"garbage " * 512)
    done = cli(
        "run",
        "corpus=synthetic-small",
        "corpus.limit=1",
        f"cache.embeddings={store}",
        f"hydra.run.dir={tmp_path / 'run'}",
        env=env,
    )
    assert done.returncode == 2, done.stderr
    assert str(store) in done.stderr and "Traceback" not in done.stderr


def test_the_environment_variable_wins_over_the_config(tmp_path, monkeypatch):
    monkeypatch.setenv(STORE_ENV, str(tmp_path / "env.sqlite"))
    embeddings.use_store(tmp_path / "config.sqlite")
    try:
        made = embeddings.store_for()
        assert made is not None and made.path == tmp_path / "env.sqlite"
        monkeypatch.delenv(STORE_ENV)
        made = embeddings.store_for()
        assert made is not None and made.path == tmp_path / "config.sqlite"
    finally:
        embeddings.use_store(None)


PAIRS = [
    ("We switched to winston as logger since pino broke the build", TEXTS[0]),
    ("pino stays the logger", TEXTS[0]),
    ("the job queue changes are documented in docs/architecture.md", TEXTS[2]),
]


@pytest.fixture(scope="module")
def nli():
    from soba_bench.scoring.nli import NliModel

    return NliModel(threads=1)


def _pair_store(path):
    from soba_bench.scoring.nli import PAIR_STORE_MODEL

    return EmbeddingStore(path, model=PAIR_STORE_MODEL, width=3, dtype="float64")


def test_a_stored_pair_is_the_computed_one_and_is_not_computed_again(nli, tmp_path, monkeypatch):
    from soba_bench.scoring.nli import NliModel

    first = NliModel(threads=1)
    first.store = _pair_store(tmp_path / "e.sqlite")
    computed = [first.probabilities([s], f)[0] for s, f in PAIRS]
    assert first.store.flush() == len(PAIRS)
    assert computed == [nli.probabilities([s], f)[0] for s, f in PAIRS]  # bit for bit

    second = NliModel(threads=1)
    second.store = _pair_store(tmp_path / "e.sqlite")

    def no_model(pairs):
        raise AssertionError(f"the model ran for {pairs}")

    monkeypatch.setattr(second, "_run", no_model)
    assert [second.probabilities([s], f)[0] for s, f in PAIRS] == computed
    assert second.store.hits == len(PAIRS)
    # the embedder's rows and the pairs' do not mix: under the embedder's model name the
    # pair's own key finds nothing (the same name would find its 24 bytes and refuse them)
    from soba_bench.scoring.nli import _pair_key

    assert EmbeddingStore(tmp_path / "e.sqlite").get_many([_pair_key(*PAIRS[0])], np) == {}


def test_only_pairs_the_store_lacks_reach_the_cross_encoder(nli, tmp_path, monkeypatch):
    from soba_bench.scoring.nli import NliModel

    seed = NliModel(threads=1)
    seed.store = _pair_store(tmp_path / "e.sqlite")
    seed.probabilities([PAIRS[0][0]], PAIRS[0][1])
    seed.store.flush()
    fresh = NliModel(threads=1)
    fresh.store = _pair_store(tmp_path / "e.sqlite")
    ran: list = []
    real = fresh._run
    monkeypatch.setattr(fresh, "_run", lambda pairs: ran.append(pairs) or real(pairs))
    fresh.probabilities([PAIRS[0][0], PAIRS[1][0]], TEXTS[0])
    assert [p for batch in ran for p in batch] == [(PAIRS[1][0], TEXTS[0])]


def test_a_pair_row_that_is_not_three_probabilities_stops_with_the_file(nli, tmp_path):
    from soba_bench.scoring.nli import NliModel

    path = tmp_path / "e.sqlite"
    model = NliModel(threads=1)
    model.store = _pair_store(path)
    model.probabilities([PAIRS[0][0]], PAIRS[0][1])
    model.store.flush()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE vectors SET vector = ?", (np.zeros(3, np.float32).tobytes(),))
    again = NliModel(threads=1)
    again.store = _pair_store(path)
    with pytest.raises(InputError) as caught:
        again.probabilities([PAIRS[0][0]], PAIRS[0][1])
    message = str(caught.value)
    assert str(path) in message and "12 bytes" in message and "3 finite float64s" in message
