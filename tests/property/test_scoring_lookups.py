"""The scorer's cached lookups against the straightforward computation (issue 18).

Scoring judges every fact against every view of a session; the views of one session share
most of their history. ``Context`` parses each history text once (cached per text) and
answers the matchers' line lookups from per-context indexes (lines of a section, lines and
history texts holding a substring) instead of a scan of every line per fact. With
``Context.indexed = False`` every text is parsed anew and every lookup hands back all lines,
for the matcher's own test: the scores of generated failure-heavy sessions must be identical.
"""

from __future__ import annotations

import dataclasses
import json

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.corpora.synthetic import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_session
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.context import Context
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.session import score_replay
from soba_bench.session.capsule_text import CAPSULE_TITLE

# Small alphabet so needles often occur; NUL is the joined search's separator, so texts and
# needles holding it take the fallback path.
_ALPHABET = st.sampled_from(list("ab c\n\x00-`"))
texts = st.lists(st.text(_ALPHABET, max_size=12), max_size=8)
needles = st.text(_ALPHABET, max_size=4)


@settings(max_examples=300, deadline=None)
@given(texts, st.lists(needles, min_size=1, max_size=6))
def test_lookups_match_scans(history, queries):
    context = Context.from_texts(history)
    for needle in queries:  # repeated queries reuse the per-context index
        lines = [s for s in context.lines if needle in s.text]
        assert list(context.lines_containing(needle)) == lines
        expected = [i for i, t in enumerate(context.history) if needle in t]
        assert list(context.history_containing(needle)) == expected
    assert context.lines_in(("history",)) == list(context.lines)


def _parsed(context: Context) -> tuple:
    return (
        list(context.statements),
        list(context.lines),
        context.read,
        context.modified,
        context.commands,
        context.status,
        context.history,
    )


def _index(context: Context) -> dict[str, list[int]]:
    index = context.word_index(_words)
    return index.as_dict() if hasattr(index, "as_dict") else dict(index)


_CAPSULES = [
    f"{CAPSULE_TITLE}\n## Completed\n- Fixed: a `b`\n## Blockers\n- c",
    f"{CAPSULE_TITLE}\n## Artifacts\n- Read: a/b.ts\n- Verification status: failed",
    f"{CAPSULE_TITLE}\n## Artifacts\n- Verification status: passed\n- Modified: c",
]
_ITEM = st.one_of(st.text(_ALPHABET, max_size=12), st.sampled_from(_CAPSULES))


def _words(text: str) -> set[str]:
    return set(text.split())


def _fresh(texts: list[str]) -> Context:
    """The straightforward context: every text parsed anew, every statement made up front."""
    Context.indexed = False
    try:
        return Context.from_texts(texts)
    finally:
        Context.indexed = True


@given(st.lists(_ITEM, max_size=10))
def test_cached_parse_matches_fresh_parse(history):
    cached = Context.from_texts(history)
    fresh = _fresh(history)
    assert _parsed(cached) == _parsed(fresh)
    assert [cached.statements[i] for i in range(len(fresh.statements))] == fresh.statements
    assert cached.statements[1:-1] == fresh.statements[1:-1]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(_ITEM, max_size=10),
    st.lists(st.tuples(st.integers(0, 10), st.lists(_ITEM, max_size=4)), max_size=5),
    st.lists(st.text(_ALPHABET, max_size=3), max_size=40),
)
def test_views_sharing_texts_match_fresh_ones(first, edits, asked):
    # Each next history keeps a prefix of the previous one and adds texts, as the views of
    # successive moments do, so their texts' blocks (and the blocks' word indexes) are shared.
    # Words are asked one by one (at times past the point where the merged index is built),
    # then all of them.
    batches, current = [first], first
    for keep, added in edits:
        current = current[:keep] + added
        batches.append(current)
    for batch in batches:
        built = Context.from_texts(batch)
        fresh = _fresh(batch)
        assert _parsed(built) == _parsed(fresh)
        expected = fresh.word_index(_words)
        for word in asked:
            assert built.word_index(_words).get(word, []) == expected.get(word, [])
        assert _index(built) == expected
        for sections in (("history",), ("completed", "blockers"), ("checkpoint",)):
            assert built.lines_in(sections) == [
                s for s in fresh.lines_in(sections) if s.section in sections
            ]


failure_heavy = st.builds(
    lambda entries, blockers, exit_share: SyntheticConfig(
        entries=entries, blockers_per_1k=blockers, exit_code_share=exit_share
    ),
    st.integers(150, 250),
    st.sampled_from([4.0, 20.0, 60.0]),
    st.sampled_from([0.0, 0.3]),
)
# The rules alone (no embedding model): fast, and the lookups serve them.
CONFIG = ScoreConfig(match=MatchConfig(prose_matcher="verdict"))


def replay_small(config: SyntheticConfig, strategy: str, variant: str, seed: int) -> tuple:
    """A generated session replayed by ``strategy`` on a small window (it compacts several
    times): its trace and ground truth."""
    session, truth = generate_session(config, seed, 0)
    overrides = {
        "contextWindow": 24_000,
        "maxOutputTokens": 2_048,
        "compaction": {"keepRecentTokens": 2_000, "minTokensForAutoCompact": 2_000},
    }
    ctx = CompactorContext(build_engine_config(overrides), ReplayOptions(variant=variant))
    return get_compactor(strategy)(session, ctx).trace, truth


def _scores(trace, truth, indexed: bool) -> str:
    saved = Context.indexed
    Context.indexed = indexed
    try:
        scores = score_replay("s", trace.entries, truth, CONFIG, trace.check_lines())
    finally:
        Context.indexed = saved
    return json.dumps(dataclasses.asdict(scores), sort_keys=True)


@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.generate],
)
@given(
    failure_heavy,
    st.sampled_from(["soba", "truncation", "observation_masking"]),
    st.sampled_from(["soba-0.6.14", "soba-0.6.14+newest-blockers"]),
    st.integers(0, 10_000),
)
def test_scores_match_straightforward_path(config, strategy, variant, seed):
    trace, truth = replay_small(config, strategy, variant, seed)
    indexed = _scores(trace, truth, True)
    assert json.loads(indexed)["summaries"]  # something was scored
    assert indexed == _scores(trace, truth, False)
