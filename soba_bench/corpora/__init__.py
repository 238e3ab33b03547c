"""Corpora stage: sessions in. Corpus folders with manifests, the synthetic generator and
importers for other agents' formats."""

from soba_bench.corpora.manifest import Corpus, CorpusSession, load_corpus

__all__ = ["Corpus", "CorpusSession", "load_corpus"]
