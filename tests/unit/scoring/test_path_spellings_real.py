"""A capsule's files are found however it spells their paths. On the real Claude Code logs in
tests/data/importers/real the tools name absolute paths and SOBA's capsules list them so; a
model-written summary may name the same files from the repository root, as the agents' own
prose does. Each session is replayed, and its capsules scored as written and again with every
path rewritten relative to the session's cwd: file retention, file availability, the paths
counted as hallucinated and the invented-path share must not move. Without the truth's
aliases (soba_bench.corpora.importers.facts.cwd_aliases) the rewritten capsules kept none of
the files they list."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from soba_bench.corpora.importers import import_source
from soba_bench.corpora.truth import GroundTruth
from soba_bench.engine.config import build_engine_config
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.session import score_replay
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"
# small enough that SOBA compacts these sessions (tests/unit/corpora/test_soba_tools.py)
ENGINE = build_engine_config(
    {
        "contextWindow": 32000,
        "maxOutputTokens": 1024,
        "compaction": {
            "keepRecentTokens": 1500,
            "minTokensForAutoCompact": 2000,
            "minReclaimableTokens": 500,
        },
    }
)
# the rules alone: what is tested is how a file is looked up, not the models
CONFIG = ScoreConfig(
    scorers=("availability", "retention"),
    max_points=None,
    match=dataclasses.replace(DEFAULT_MATCH, prose_matcher="verdict"),
)


def _relative(entry: Entry, cwd: str) -> Entry:
    """The capsule with every path under ``cwd`` written from the folder instead."""
    prefix = json.dumps(cwd.rstrip("/") + "/")[1:-1]
    return Entry(entry.kind, json.loads(json.dumps(entry.data).replace(prefix, "")))


def _files(entries, truth: GroundTruth, lines) -> tuple[float | None, int, int, int, object]:
    """(file availability, capsule file facts kept, expected, paths counted as hallucinated,
    invented-path share) of SOBA's capsules."""
    scored = score_replay("s", entries, truth, CONFIG, lines)
    (row,) = scored.availability
    files = [
        r for r in scored.rows if r["view"] == "capsule" and str(r["kind"]).startswith("file_")
    ]
    made_up = sum(r["hallucinatedPaths"] for r in scored.summaries if r["view"] == "capsule")
    return (
        row["availability.file"],
        sum(r["found"] for r in files),
        sum(r["expected"] for r in files),
        made_up,
        row["inventedPaths"],
    )


def _unaliased(truth: GroundTruth) -> GroundTruth:
    facts = tuple(
        dataclasses.replace(f, attributes={k: v for k, v in f.attributes.items() if k != "aliases"})
        for f in truth.facts
    )
    return dataclasses.replace(truth, facts=facts)


@pytest.mark.parametrize("folder", ["claude-code", "claude-code-stream"])
def test_a_capsule_scores_the_same_whichever_way_it_spells_its_files(folder):
    rewritten = kept = without_aliases = 0
    for imported in import_source("claude-code", str(REAL / folder)).sessions:
        cwd = imported.lines[0]["cwd"]
        trace = replay_session(
            Session(tuple(Entry(line["type"], line) for line in imported.lines)),
            ENGINE,
            ReplayOptions(),
        )
        if not trace.capsules:
            continue
        truth, lines = imported.truth(), trace.check_lines()
        relative = [_relative(e, cwd) if e.kind == E.CONTEXT_CAPSULE else e for e in trace.entries]
        rewritten += sum(e.data != r.data for e, r in zip(trace.entries, relative, strict=True))
        as_written = _files(trace.entries, truth, lines)
        assert _files(relative, truth, lines) == as_written, imported.name
        kept += as_written[1]
        without_aliases += _files(relative, _unaliased(truth), lines)[1]
    # Not vacuous: capsules were rewritten and list files the truth names; without the
    # aliases most of those are lost (the old reading).
    assert rewritten >= 2 and kept >= 10, (rewritten, kept)
    assert without_aliases <= kept // 4, (without_aliases, kept)
