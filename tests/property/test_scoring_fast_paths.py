"""The scorer's label-only and lazy paths against the straightforward ones (issue 18).

The scorers read only a verdict's label, so the hybrid matcher embeds only the candidates
that could change it (``Matcher.label``); the session's named paths are looked up per path
by substring search; a view's content words are the union of its candidates'; a literal
without white space is searched in the text as it is. Each must give what the full
computation gives: scores of generated failure-heavy sessions (with a stand-in embedding
model, so the property does not depend on one model's vectors) and each lookup on
generated texts.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from soba_bench.scoring import embeddings, matchers
from soba_bench.scoring.context import Context
from soba_bench.scoring.hybrid import entails_hybrid, judge_hybrid
from soba_bench.scoring.match import MatchConfig, TextIndex, content_words, fuzzy, normalize_command
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.scorers.availability import SessionPaths, capsule_paths
from soba_bench.scoring.session import score_replay
from soba_bench.scoring.verdict import ENTAILED, Claim
from tests.property.test_scoring_lookups import failure_heavy, replay_small


class WordsEmbedder:
    """A stand-in for MiniLM: a text's hashed words as a unit vector, so texts sharing most
    words are close (both sides of the threshold occur) and no model is loaded."""

    def embed(self, texts: list[str]) -> Any:
        rows = np.zeros((len(texts), 16), np.float32)
        for row, text in zip(rows, texts, strict=True):
            for word in text.lower().split():
                row[hashlib.blake2b(word.encode(), digest_size=1).digest()[0] % 16] += 1.0
            row /= max(float(np.linalg.norm(row)), 1e-12)
        return rows


def _full_label(self: matchers.VerdictEmbeddingMatcher, claim: Any, context: Context) -> str:
    return judge_hybrid(claim, context, self.config).label


def _full_entails(self: matchers.VerdictEmbeddingMatcher, claim: Any, context: Context) -> bool:
    return judge_hybrid(claim, context, self.config).label == ENTAILED


def _scores(trace: Any, truth: Any) -> str:
    config = ScoreConfig()  # the default matcher: the rules, then the embeddings
    scores = score_replay("s", trace.entries, truth, config, trace.check_lines())
    return json.dumps(dataclasses.asdict(scores), sort_keys=True)


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.generate],
)
@given(
    failure_heavy,
    st.sampled_from(["soba", "truncation", "observation_masking", "hybrid"]),
    st.sampled_from(["soba-0.6.14", "soba-0.6.14+newest-blockers"]),
    st.integers(0, 10_000),
)
def test_label_only_scores_match_full_verdicts(monkeypatch, config, strategy, variant, seed):
    monkeypatch.setattr(embeddings, "get_embedder", WordsEmbedder)
    trace, truth = replay_small(config, strategy, variant, seed)
    fast = _scores(trace, truth)
    assert json.loads(fast)["summaries"]  # something was scored
    with monkeypatch.context() as full:
        full.setattr(matchers.VerdictEmbeddingMatcher, "label", _full_label)
        full.setattr(matchers.VerdictEmbeddingMatcher, "entails", _full_entails)
        full.setattr(Context, "indexed", False)
        assert fast == _scores(trace, truth)


# Few words, so that statements share many of a fact's (the vetoes' words among them).
_WORD = st.one_of(
    st.sampled_from(["use", "sqlite", "cache", "tests", "build", "retry", "limit", "store", "the"]),
    st.sampled_from(["keep", "remove", "never", "not", "no", "longer", "replaced", "fixed"]),
    st.sampled_from(["src/app.ts", "42", "7"]),  # paths and numbers: another subject
)


@st.composite
def _fact_and_texts(draw: Any) -> tuple[str, list[str]]:
    """A fact, and texts whose statements keep part of its words in order and add others:
    too few shared words for the rules, so the embeddings decide (entailed, contradicted by a
    negation or a stale cue, another subject by a path or a number, or too far)."""
    words = draw(st.lists(_WORD, min_size=3, max_size=7))
    texts = []
    for _ in range(draw(st.integers(1, 4))):
        statements = []
        for _ in range(draw(st.integers(1, 3))):
            kept = [w for w in words if draw(st.booleans())]  # about half
            for word in draw(st.lists(_WORD, max_size=2)):
                kept.insert(draw(st.integers(0, len(kept))), word)
            statements.append(" ".join(kept) or "the")
        texts.append(". ".join(statements))
    return " ".join(words), texts


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    _fact_and_texts(),
    st.sampled_from(["constraint", "decision", "goal", "next_step"]),
    st.sampled_from(["current", "stale"]),
    st.one_of(st.none(), st.lists(_WORD, min_size=1, max_size=5).map(" ".join)),
)
def test_presence_matches_the_full_label(monkeypatch, fact_and_texts, kind, state, replaces):
    # The yes-or-no question skips candidates that could only contradict: it must answer what
    # the full verdict's label says, including when the embeddings decide it.
    monkeypatch.setattr(embeddings, "get_embedder", WordsEmbedder)
    fact, texts = fact_and_texts
    claim = Claim(kind, fact, state=state, replaces=replaces)
    context = Context.from_texts(texts)
    label = judge_hybrid(claim, context).label
    assert entails_hybrid(claim, context) == (label == ENTAILED)


# Paths, path characters, characters JSON escapes, and line breaks: so that runs, "./"
# prefixes, trailing dots, near misses ("a/b.ts" inside "xa/b.tsx") and paths at the start of
# a line all occur.
_PATHISH = st.lists(
    st.sampled_from(
        ["a/b.ts", "./a/b.ts", "b.", "x", "/", "~", "-", ":", ")", " ", '"', "\\", "\n", "\t", "c/"]
    ),
    max_size=8,
).map("".join)
# Parsed JSON: the strings stand as values, keys and list items, beside other scalars.
_ITEM = st.recursive(
    _PATHISH | st.integers() | st.booleans() | st.none(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_PATHISH, inner, max_size=3),
    max_leaves=8,
)


def _each_string(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _each_string(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _each_string(inner)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ITEM, max_size=6), st.lists(_PATHISH, max_size=6))
def test_session_paths_match_extraction(items, asked):
    # The oracle reads each string on its own, as a user reads the entry.
    named: set[str] = set()
    for item in items:
        for string in _each_string(item):
            named |= capsule_paths(string)
    lookup = SessionPaths(items)
    for path in [*named, *asked, *(capsule_paths(a) for a in asked)]:
        for one in [path] if isinstance(path, str) else path:
            # named as such, or as the end of a named path after a folder
            expected = any(q == one or q.endswith("/" + one) for q in named)
            assert (one in lookup) == expected


_PROSE = st.text(st.sampled_from(list("ab c\n\t-_./AB")), max_size=16)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PROSE, max_size=6), st.lists(_PROSE, max_size=6))
def test_text_index_lookups_match_whole_text(candidates, needles):
    index = TextIndex(candidates)
    assert index.words == content_words(index.text)
    flat = re.sub(r"\s+", " ", index.text.lower())  # white space collapsed, as before
    for needle in needles:
        normal = normalize_command(needle).lower()
        assert index.has_exact(needle) == (bool(normal) and normal in flat)


# Words shared in part, so that token-set ratios fall on both sides of the threshold and on it.
_WORDS = st.lists(st.sampled_from(["cap", "the", "cache", "at", "64", "entries", "lru", "x"]))


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_WORDS.map(" ".join), max_size=8),
    st.lists(_WORDS.map(" ".join), min_size=1, max_size=4),
    st.sampled_from([50.0, 66.66666666666667, 80.0, 85.0, 100.0]),
)
def test_fuzzy_presence_matches_the_loop_over_candidates(candidates, facts, threshold):
    """rapidfuzz's own loop with a cutoff gives what the loop of ``fuzzy`` calls gave, at
    thresholds a ratio can equal; containment is set out of reach so the fuzzy path decides."""
    config = dataclasses.replace(MatchConfig(), fuzzy=threshold, containment=2.0)
    index = TextIndex(candidates, config)
    for fact in facts:
        loop = any(
            fuzzy(fact, c) >= threshold
            for c in index.candidates
            if len(c) <= config.fuzzy_max_chars
        )
        assert index.has_prose(fact) == loop
        assert index.has_prose(fact) == loop  # the kept answer
