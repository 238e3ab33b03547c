"""A capsule's files and checks are found however it spells them. On the real Claude Code logs
in tests/data/importers/real the tools name absolute paths and run checks with their output
piped (``mix test --seed 0 2>&1 | head -100``), and SOBA's capsules list them so; a
model-written summary may name the same files from the repository root, as the agents' own
prose does, and the check as ``mix test --seed 0``. Each session is replayed, and its capsules
scored as written and again with every path rewritten relative to the session's cwd and
every check to its plain spelling: file and check retention, their availability, the paths
counted as hallucinated and the invented-path share must not move. Without the truth's
aliases (soba_bench.corpora.importers: facts.cwd_aliases, commands.check_spelling) the
rewritten capsules kept none of the files they list. (SOBA's capsules here show no piped
check's result, a pipe hides its exit status, so no check is kept either way: a reported
check under its plain spelling is tests/unit/scoring/test_verdict.py's.)"""

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
from tests.unit.corpora.test_soba_tools import COMPACTING

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"
ENGINE = build_engine_config(COMPACTING)
# the rules alone: what is tested is how a file is looked up, not the models
CONFIG = ScoreConfig(
    scorers=("availability", "retention"),
    max_points=None,
    match=dataclasses.replace(DEFAULT_MATCH, prose_matcher="verdict"),
)


def _respelled(entry: Entry, cwd: str, checks: dict[str, str]) -> Entry:
    """The capsule with every path under ``cwd`` written from the folder instead, and each
    check (``checks``: as run -> its plain spelling) written plain."""
    text = json.dumps(entry.data).replace(json.dumps(cwd.rstrip("/") + "/")[1:-1], "")
    for run, plain in checks.items():
        text = text.replace(json.dumps(run)[1:-1], json.dumps(plain)[1:-1])
    return Entry(entry.kind, json.loads(text))


def _kept(entries, truth: GroundTruth, lines) -> tuple:
    """(file and check availability, capsule file and check facts kept, expected, paths
    counted as hallucinated, invented-path share) of SOBA's capsules."""
    scored = score_replay("s", entries, truth, CONFIG, lines)
    (row,) = scored.availability
    rows = [
        r
        for r in scored.rows
        if r["view"] == "capsule"
        and (str(r["kind"]).startswith("file_") or r["kind"] == "verification")
    ]
    made_up = sum(r["hallucinatedPaths"] for r in scored.summaries if r["view"] == "capsule")
    return (
        row["availability.file"],
        row["availability.verification"],
        {
            k: sum(r["found"] for r in rows if r["kind"] == k)
            for k in sorted({r["kind"] for r in rows})
        },
        sum(r["expected"] for r in rows),
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
def test_a_capsule_scores_the_same_whichever_way_it_spells_its_files_and_checks(folder):
    rewritten = files = plain_checks = 0
    lost: dict[str, int] = {}
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
        plain = {
            f.attributes["command"]: f.attributes["aliases"][0]
            for f in truth.facts
            if f.kind == "verification" and f.attributes.get("aliases")
        }
        respelled = [
            _respelled(e, cwd, plain) if e.kind == E.CONTEXT_CAPSULE else e for e in trace.entries
        ]
        rewritten += sum(e.data != r.data for e, r in zip(trace.entries, respelled, strict=True))
        as_written = _kept(trace.entries, truth, lines)
        assert _kept(respelled, truth, lines) == as_written, imported.name
        files += sum(n for k, n in as_written[2].items() if k.startswith("file_"))
        plain_checks += len(plain)
        for kind, n in _kept(respelled, _unaliased(truth), lines)[2].items():
            lost[kind] = lost.get(kind, 0) + as_written[2][kind] - n
    # Not vacuous: capsules were rewritten, list files the truth names, and the sessions ran
    # piped checks; without the aliases most of the files are lost (the old reading).
    assert rewritten >= 2 and files >= 10 and plain_checks >= 1, (rewritten, files, plain_checks)
    assert sum(n for k, n in lost.items() if k.startswith("file_")) >= files * 3 // 4, lost
