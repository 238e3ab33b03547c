"""How a planted fact is recognised in a capsule or a model input.

Paths and commands match exactly after normalisation (a path is a path, not "something like
it"); prose matches fuzzily: by content-word containment (how many of the fact's content words
appear in the text) and, where the candidate is short, by rapidfuzz's token-set similarity.
Both thresholds are configuration, and every decision can be explained by ``why``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from soba_bench.errors import UnknownNameError

_WORD = re.compile(r"[^\W_]+(?:[._/-][^\W_]+)*")
# Path-like runs: dots, slashes, tildes and dashes included, so ".env.local" and
# "~/x/y.ts" are found whole; trailing sentence punctuation is stripped afterwards.
PATH_TOKEN = re.compile(r"[\w.~/@+-]+")  # a path-like run of characters (also used by probes)
_SPACE = re.compile(r"\s+")
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "this",
        "to",
        "was",
        "were",
        "will",
        "with",
        "we",
        "i",
        "you",
        "use",
        "using",
        "should",
        "not",
        "no",
        "do",
        "does",
    ]
)


# The matchers of soba_bench.scoring.matchers (the registry; named here too because this module
# sits below it). "verdict": state-aware entailed / contradicted / absent rules;
# "fuzzy": presence by containment, then rapidfuzz; "embedding": presence by containment, then
# sentence embeddings from a local model (the optional "embeddings" extra). TextIndex.has_prose
# (probes, distractors) uses rapidfuzz unless "embedding" is chosen. "verdict-embedding": the
# verdict rules, then embeddings for prose they find absent, under the rules' vetoes
# (soba_bench.scoring.hybrid). "verdict-nli": the rules for state facts and word order, a
# cross-encoder trained for this project for prose (soba_bench.scoring.nli).
# "verdict-embedding-nli" (the default): verdict-embedding, each prose fact it reads as stated
# checked by that cross-encoder.
PROSE_MATCHERS = (
    "verdict",
    "verdict-embedding",
    "verdict-nli",
    "verdict-embedding-nli",
    "fuzzy",
    "embedding",
)


@dataclass(frozen=True)
class MatchConfig:
    """Thresholds for prose matching (0-100 scale for fuzzy, 0-1 for containment and for
    the embedding matcher's cosine similarity)."""

    containment: float = 0.8
    fuzzy: float = 85.0
    fuzzy_max_chars: int = 400  # longer candidates use containment only (speed)
    prose_matcher: str = "verdict-embedding-nli"
    embedding: float = 0.75  # paraphrases of a fact score ~0.75-0.9, its old version ~0.65

    def __post_init__(self) -> None:
        if self.prose_matcher not in PROSE_MATCHERS:
            raise UnknownNameError("matcher", self.prose_matcher, sorted(PROSE_MATCHERS))


DEFAULT_MATCH = MatchConfig()


@lru_cache(maxsize=65536)
def normalize_text(text: str) -> str:
    return _SPACE.sub(" ", text.lower()).strip()


def normalize_path(path: str) -> str:
    path = path.strip().strip("`'\"").replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path.rstrip("/")


def normalize_command(command: str) -> str:
    return _SPACE.sub(" ", command.strip().strip("`")).strip()


@lru_cache(maxsize=65536)
def content_words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in STOPWORDS)


def containment(fact: str, text_words: frozenset[str]) -> float:
    """Share of the fact's content words that appear in the text (1.0 for an empty fact)."""
    words = content_words(fact)
    if not words:
        return 1.0
    return len(words & text_words) / len(words)


def fuzzy(fact: str, candidate: str) -> float:
    from rapidfuzz import fuzz

    return float(fuzz.token_set_ratio(normalize_text(fact), normalize_text(candidate)))


class TextIndex:
    """A searchable body of text: the whole text plus its separate candidate strings
    (capsule list entries), so short candidates can be compared fuzzily."""

    def __init__(self, candidates: Iterable[str], config: MatchConfig = DEFAULT_MATCH) -> None:
        self.candidates = [c for c in candidates if isinstance(c, str) and c]
        self.config = config
        self.text = "\n".join(self.candidates)
        self._prose: dict[str, bool] = {}

    @cached_property
    def words(self) -> frozenset[str]:
        """The text's content words (built on demand: most views of a long history are
        judged by the verdict rules, which never ask). No word spans the newline that joins
        the candidates, so they are the union of each candidate's, which is cached per text:
        a session's views share most of their texts."""
        return frozenset().union(*map(content_words, self.candidates))

    @cached_property
    def _lower(self) -> str:
        return self.text.lower()

    @cached_property
    def _flat(self) -> str:
        """Lower-cased, whitespace-collapsed text for literal searches (built on demand)."""
        return _SPACE.sub(" ", self.text.lower())

    @cached_property
    def _paths(self) -> frozenset[str]:
        # Only runs that look like paths (a slash or a dot) need normalising.
        return frozenset(
            normalize_path(w.rstrip(".,:;"))
            for w in PATH_TOKEN.findall(self.text)
            if "/" in w or "." in w
        )

    def has_prose(self, fact: str) -> bool:
        """Are the fact's content words in the text, or is a candidate close enough? Kept per
        fact: retention asks a capsule about the same distractors at every moment it is in."""
        found = self._prose.get(fact)
        if found is None:
            found = self._prose[fact] = self._has_prose(fact)
        return found

    def _has_prose(self, fact: str) -> bool:
        if containment(fact, self.words) >= self.config.containment:
            return True
        if self.config.prose_matcher == "embedding":
            from soba_bench.scoring.embeddings import best_similarity

            return best_similarity(fact, self._lines) >= self.config.embedding
        # Any short candidate at least ``fuzzy`` close: rapidfuzz's own loop over them (a
        # Python loop of ``fuzzy`` calls was a tenth of scoring a session that compacts
        # often). Its cutoff is not an exact ``>=`` in floats, so the best score it returns is
        # compared here: no other candidate scores higher, so the answer is the loop's.
        from rapidfuzz import fuzz, process

        best = process.extractOne(
            normalize_text(fact),
            self._fuzzy_candidates,
            scorer=fuzz.token_set_ratio,
            processor=None,
            score_cutoff=self.config.fuzzy,
        )
        return best is not None and float(best[1]) >= self.config.fuzzy

    @cached_property
    def _fuzzy_candidates(self) -> list[str]:
        """The candidates short enough for fuzzy matching, normalised as :func:`fuzzy` does."""
        limit = self.config.fuzzy_max_chars
        return [normalize_text(c) for c in self.candidates if len(c) <= limit]

    @cached_property
    def _lines(self) -> list[str]:
        """Candidate lines short enough to embed as one statement (an item's text is split)."""
        limit = self.config.fuzzy_max_chars
        lines = (line.strip(" -*\t") for c in self.candidates for line in c.splitlines())
        return list(dict.fromkeys(line for line in lines if line and len(line) <= limit))

    def has_exact(self, needle: str) -> bool:
        """A command or other literal, normalised, as a substring of the text."""
        needle = normalize_command(needle).lower()
        if _SPACE.search(needle) is None:
            # Collapsing white space changes no run without it: search the text as it is,
            # not a copy of a long history rewritten by a regex.
            return bool(needle) and needle in self._lower
        return bool(needle) and needle in self._flat

    def has_path(self, path: str) -> bool:
        path = normalize_path(path)
        if "/" not in path and "." not in path:  # e.g. "Makefile": a plain word
            return path.lower() in self.words
        return path in self._paths

    def why(self, fact: str) -> dict[str, float]:
        """The scores behind a prose decision, for reports."""
        best = max((fuzzy(fact, c) for c in self.candidates[:200]), default=0.0)
        out = {"containment": round(containment(fact, self.words), 3), "fuzzy": best}
        if self.config.prose_matcher == "embedding":
            from soba_bench.scoring.embeddings import best_similarity

            out["embedding"] = round(best_similarity(fact, self._lines), 3)
        return out
