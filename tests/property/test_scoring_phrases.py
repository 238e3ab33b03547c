"""The verdict rules' phrase rewriting looks for a phrase only in a text holding one of its
literals (issue 18): every match must hold one, and the guarded rewriting must give what
searching every phrase gives, chained rewrites included ("off-limits" -> "not allowed",
which the next phrase reads)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from soba_bench.scoring.verdict import _PHRASE_RES, _rewrite, parse

ASCII = st.characters(max_codepoint=127)


@pytest.mark.parametrize("index", range(len(_PHRASE_RES)))
@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_every_match_of_a_phrase_holds_one_of_its_literals(index, data):
    pattern, _, literals = _PHRASE_RES[index]
    text = data.draw(st.from_regex(pattern, alphabet=ASCII))
    match = pattern.search(text)
    assert match is not None
    assert any(literal in match.group(0).lower() for literal in literals)


# The phrases' own words, the words around them and separators, in any case: texts that
# match several phrases, one after another's rewrite, and near misses.
_WORDS = [
    *("stop", "stopped", "avoiding", "refrain", "from", "exporting", "turn", "turned", "switch"),
    *("switching", "off", "on", "in", "for", "at", "by", "no", "more", "than", "most", "up", "to"),
    *("the", "longer", "larger", "exceeds", "over", "above", "60", "under", "below", "within"),
    *("fewer", "and", "nothing", "else", "but", "other", "least", "recently", "used", "lru"),
    *("lru-first", "once", "simultaneously", "parallel", "backing", "back", "back-off"),
    *("wall-clock", "wall", "clock", "off-limits", "limits", "not", "never", "rather", "instead"),
    *("of", "place", "can't", "don't", "cannot", "change", "modify", "touch", "keep", "server"),
    *("cache", "the", "builds"),
    *("skip", "skipped", "omits", "forgo", "ruled", "out", "decided", "against", "turned"),
    *("down", "was", "rejected", "stay", "kept", "away", "later", "service", "billing", "30"),
    *("30-second", "shut", "shutting", "until", "support", "dropped", "end", "banned", "is"),
]
_SEPARATORS = [" ", " ", ", ", ". ", "; ", ") ", "\t", "-", "'", ""]
# "ſ" and "ı" match "s" and "i" case-insensitively, but lower() keeps them.
_CASES = [
    str.lower,
    str.upper,
    str.title,
    lambda w: w.replace("s", "\u017f").replace("i", "\u0131"),
]
_WORD = st.builds(lambda word, case: case(word), st.sampled_from(_WORDS), st.sampled_from(_CASES))
_TEXT = st.lists(st.tuples(_WORD, st.sampled_from(_SEPARATORS)), max_size=10).map(
    lambda parts: "".join(w + s for w, s in parts)
)


@settings(max_examples=500, deadline=None)
@given(st.one_of(_TEXT, st.text(ASCII, max_size=30)))
def test_guarded_rewriting_matches_searching_every_phrase(text):
    assert _rewrite(text) == _rewrite(text, guarded=False)


def test_parse_reads_the_rewritten_phrases():
    # Spot checks that the guard lets each kind of phrase through to parse().
    assert parse("Stop exporting the cache").polarity == 1
    assert "disabl" in parse("Keep the profiler turned OFF in CI").content
    assert parse("no longer retry").polarity == 1
    assert "insteadof" not in parse("use sqlite, not postgres").content
    assert parse("use sqlite, not postgres").rejected
