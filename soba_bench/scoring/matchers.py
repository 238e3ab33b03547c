"""The matcher registry: how a fact is recognised in what the scorer sees.

``verdict`` (the default) judges entailed / contradicted / absent with state-aware rules
(soba_bench.scoring.verdict). ``fuzzy`` is the earlier bag-of-words matcher (content-word
containment, then rapidfuzz) and ``embedding`` the same with MiniLM sentence embeddings
(the ``embeddings`` extra); both only ever say entailed or absent for a fact that is current,
and judge a stale fact by whether a current capsule section carries its words. They stay for
comparison: ``benchmarks/matcher_calibration.py`` prints all three on the calibration set.
"""

from __future__ import annotations

from typing import Protocol

from soba_bench.registry import Registry
from soba_bench.scoring.context import CURRENT, Context
from soba_bench.scoring.match import MatchConfig, TextIndex, normalize_path
from soba_bench.scoring.verdict import (
    ABSENT,
    CONTRADICTED,
    ENTAILED,
    STATE_JUDGES,
    Claim,
    Verdict,
    compare,
    judge,
)


class Matcher(Protocol):
    name: str

    def judge(self, claim: Claim, context: Context) -> Verdict: ...


MATCHERS: Registry[type] = Registry("matcher")


@MATCHERS.register("verdict")
class VerdictMatcher:
    """State-aware rules: the default."""

    name = "verdict"

    def judge(self, claim: Claim, context: Context) -> Verdict:
        return judge(claim, context)


@MATCHERS.register("verdict-embedding")
class VerdictEmbeddingMatcher:
    """The verdict rules, plus sentence embeddings for the prose facts they find absent: a
    statement the rules set aside only for sharing too few words (not for another subject or
    shuffled words) states the fact if its MiniLM cosine similarity reaches the embedding
    matcher's threshold. Opt-in (the ``embeddings`` extra, about 20x slower); written after the
    held-out split had been read, so its held-out figures are not blind."""

    name = "verdict-embedding"

    def __init__(self, threshold: float = MatchConfig().embedding, max_chars: int = 400) -> None:
        self.threshold = threshold
        self.max_chars = max_chars

    def judge(self, claim: Claim, context: Context) -> Verdict:
        verdict = judge(claim, context)
        if verdict.label != ABSENT or claim.kind in STATE_JUDGES or claim.state != "current":
            return verdict
        lines = [
            s.text
            for s in context.statements
            if len(s.text) <= self.max_chars and compare(claim.text, s.text)[1].startswith("recall")
        ]
        if not lines:
            return verdict
        from soba_bench.scoring.embeddings import get_embedder

        embedder = get_embedder()
        vectors = embedder.embed([claim.text, *lines])
        scores = vectors[1:] @ vectors[0]
        best = int(scores.argmax())
        if float(scores[best]) >= self.threshold:
            return Verdict(ENTAILED, f"embedding {float(scores[best]):.2f}", lines[best])
        return verdict


class _WordsMatcher:
    """The earlier matchers: presence by words, state ignored except for stale facts."""

    name = ""
    prose_matcher = "fuzzy"

    def __init__(self) -> None:
        self.config = MatchConfig(prose_matcher=self.prose_matcher)

    def _present(self, claim: Claim, index: TextIndex, context: Context) -> bool:
        if claim.kind in ("file_read", "file_modified", "file_renamed"):
            path = normalize_path(claim.path or claim.text)
            listed = context.modified if claim.kind == "file_modified" else context.read
            return path in {normalize_path(p) for p in listed} or index.has_path(path)
        if claim.kind == "verification":
            command = claim.command or claim.text
            return command in context.commands or index.has_exact(command)
        return index.has_prose(claim.text)

    def judge(self, claim: Claim, context: Context) -> Verdict:
        index = TextIndex(context.texts, self.config)
        if claim.state == "stale" and claim.kind not in ("verification",):
            current = TextIndex(
                [s.text for s in context.lines if s.section in CURRENT], self.config
            )
            if current.has_prose(claim.text):
                return Verdict(CONTRADICTED, "words in a current section")
        if self._present(claim, index, context):
            return Verdict(ENTAILED, "words present")
        return Verdict(ABSENT, "words missing")


@MATCHERS.register("fuzzy")
class FuzzyMatcher(_WordsMatcher):
    name = "fuzzy"
    prose_matcher = "fuzzy"


@MATCHERS.register("embedding")
class EmbeddingMatcher(_WordsMatcher):
    name = "embedding"
    prose_matcher = "embedding"


DEFAULT_MATCHER = "verdict"


def get_matcher(name: str = DEFAULT_MATCHER) -> Matcher:
    """A matcher by registry name (an unknown name lists the valid ones)."""
    return MATCHERS.get(name)()
