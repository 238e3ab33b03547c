"""The scorers' revision (``SCORES_REVISION``) moves with what they write.

A sweep resumes a job when its key matches, and ``compare`` gates two runs as one instrument,
so a change to the score records of unchanged inputs must come with a new revision: then no
sweep resumes a job the older scorers judged, and ``compare`` refuses to gate one against the
other. The golden digest below fails when the records change and the revision did not.

It scores two generated sessions replayed by SOBA (which writes capsules) and by Codex (which
pins user messages: the walk that once lost them) with every default scorer and the rules
matcher alone (``verdict``: no model, so the digest is the same on every CPU)."""

from __future__ import annotations

import dataclasses
import hashlib
import json

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.scorer import SCORES_REVISION, ScoreConfig
from soba_bench.scoring.session import score_replay
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

# revision -> the digest of the records below. When this test fails after an intended change
# of the records, bump SCORES_REVISION (soba_bench/scoring/scorer.py, with a line saying
# why) and add the new digest here; never edit an old one.
DIGESTS = {
    1: "e84b28c3349aa1a1d4dd09372ac837b91b648bb3879b83eb928cb83759fdfc14",
    # the default matcher changed; these records use the rules alone, so they did not
    2: "e84b28c3349aa1a1d4dd09372ac837b91b648bb3879b83eb928cb83759fdfc14",
    # facts of clauses: these replays' goals are restated word for word, found whole
    3: "e84b28c3349aa1a1d4dd09372ac837b91b648bb3879b83eb928cb83759fdfc14",
    # a clause replaced by another act: the default's check, not the rules these records use
    4: "e84b28c3349aa1a1d4dd09372ac837b91b648bb3879b83eb928cb83759fdfc14",
    # facts in model inputs found by their own entries or the capsule, not in every message
    5: "f1229ef0358b455de59de8f954c8aee1f3f4d3e9497f2d518ccdd60c3cd545cd",
    # the generator's truth lists turn summaries among the entries of files and checks
    6: "46361e0dc5383843c9d932ac5f3d41a9fe88718777e93e3b1cacbf2ce2272903",
    # the default's check: a run replaced behind a lead-in, a reworded clause; not the rules
    7: "46361e0dc5383843c9d932ac5f3d41a9fe88718777e93e3b1cacbf2ce2272903",
    # the moments a job had beside those read (these jobs have fewer than the bound)
    8: "ece3cc5f3dea129eb0b9c5c7011a17c27adce6550a551a675e46cd106927bb2f",
    # a session's paths read from its strings, a path's end named: these name them as calls do
    9: "ece3cc5f3dea129eb0b9c5c7011a17c27adce6550a551a675e46cd106927bb2f",
    # a capsule states wrongly only what was so before its tail; a check by its result then
    # and presented only where it reports the result at the request (the spellings and
    # problem goals of this revision are imported truths' only)
    10: "a8f35ccb694f09b0193e89d1c18444afe096718a452afbb3ccab3d5ea4ef916a",
}


def records() -> tuple[str, int]:
    """The score records as JSON, and how many items Codex pinned."""
    config = ScoreConfig(
        match=dataclasses.replace(DEFAULT_MATCH, prose_matcher="verdict"), max_points=None
    )
    out, pinned = [], 0
    for strategy, seed in (("soba", 3), ("codex", 4)):
        session, truth = generated(700, seed=seed)
        ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions())
        trace = get_compactor(strategy)(session, ctx).trace
        lines = trace.check_lines()
        pinned += sum(len(line.get("pinnedEntryIds") or ()) for line in lines)
        out.append(dataclasses.asdict(score_replay(strategy, trace.entries, truth, config, lines)))
    return json.dumps(out, sort_keys=True, ensure_ascii=False), pinned


def test_the_records_are_those_of_this_revision():
    text, pinned = records()
    assert '"capsule"' in text and '"codex"' in text and pinned > 0  # what it must cover
    digest = hashlib.sha256(text.encode()).hexdigest()
    assert digest == DIGESTS.get(SCORES_REVISION), (
        f"the score records of these fixed replays changed (sha256 {digest}): the scorers, "
        "or the generator or engine they read. If that is intended, bump SCORES_REVISION in "
        "soba_bench/scoring/scorer.py and add this digest to DIGESTS"
    )
