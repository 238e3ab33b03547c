"""The gate on planted defects, at a small n (one corpus seed, 10 sessions of the planted
recipe, benchmarks/planted_corpus.yaml): ``compare`` of the planted summarizer's unmutated
answer (``defect=verbatim``) against each known defect must flag the right metric, and against
the controls (paraphrase; the base's own copy) must flag nothing.
``benchmarks/planted_power.py`` measures the same over 20 corpus seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from soba_bench.corpora.synthetic import generate_corpus
from soba_bench.corpora.synthetic.config import config_from_dict
from soba_bench.summarizers.defects import DEFECTS as PLANTED
from tests.builders import REPO
from tests.integration.sweeps import cli, cli_in_process

# Every registered defect and control, one job each (the registry is the one list).
DEFECTS = tuple(PLANTED.names())
SEED = 1000  # the planted-power benchmark's first seed
SESSIONS = 10  # the gate needs at least 9 paired sessions for its default tests
# The benchmark's small window: every session compacts several times.
ENGINE = [
    "engine.contextWindow=32000",
    "engine.maxOutputTokens=4000",
    "engine.keepRecentTokens=4000",
    "engine.minTokensForAutoCompact=8000",
    "engine.minReclaimableTokens=2000",
]
# The gate compares the planted jobs with each other: the baseline strategies' views that the
# default scorer adds at every capsule moment are not read by `compare` (its deltas are the
# same without them) and were about 40 % of the sweep's time.
SCORER = ["scorer.baselines=[]"]
# The gate's default metrics come from the availability and outcomes scorers alone, so most
# jobs run only those (benchmarks/gate_runs.py does the same). Measured on this corpus: every
# one of compare's 19 deltas, for each defect against the base, was the same with the capsule
# diagnostics scored or not, on either side; the sweep took 54 CPU s instead of 95. The
# staleness test reads a capsule-moment diagnostic (retention) of these two jobs.
DIAGNOSED = ("verbatim", "stale_decisions")
GATE_SCORERS = ["scorer.scorers=[availability,outcomes]"]


@pytest.fixture(scope="module")
def planted_runs(tmp_path_factory) -> dict[str, Path]:
    """A small corpus of the planted recipe replayed once per defect (two sweeps: the jobs the
    staleness test reads with every scorer, the others with the gate's scorers only)."""
    root = tmp_path_factory.mktemp("planted")
    recipe = yaml.safe_load((REPO / "benchmarks/planted_corpus.yaml").read_text())
    vary = {k: (float(lo), float(hi)) for k, (lo, hi) in recipe["vary"].items()}
    corpus = root / "corpus"
    config = config_from_dict(recipe["params"])
    generate_corpus(corpus, config, seed=SEED, sessions=SESSIONS, name="planted", vary=vary)
    rest = tuple(d for d in DEFECTS if d not in DIAGNOSED)
    jobs = {
        **_sweep(corpus, root / "diagnosed", DIAGNOSED, []),
        **_sweep(corpus, root / "gated", rest, GATE_SCORERS),
    }
    assert set(jobs) == set(DEFECTS)
    return jobs


def _sweep(corpus: Path, sweep: Path, defects: tuple[str, ...], scorers: list[str]):
    done = cli(
        "run",
        "-m",
        "summarizer=planted",
        f"summarizer.params.defect={','.join(defects)}",
        "corpus=path",
        f"corpus.paths=[{corpus}]",
        *ENGINE,
        *SCORER,
        *scorers,
        f"hydra.sweep.dir={sweep}",
        "hydra/launcher=basic",
        timeout=1800,  # up to seven jobs; a loaded CI machine needs more than the default
    )
    assert done.returncode == 0, done.stderr
    jobs = {}
    for record in sweep.glob("*/run.json"):
        data = json.loads(record.read_text())
        assert data["summarizer"]["name"] == "planted"
        jobs[data["summarizer"]["defect"]] = record.parent
    assert set(jobs) == set(defects)
    return jobs


def compare(base: Path, cand: Path) -> tuple[int, dict]:
    done = cli_in_process("compare", str(base), str(cand), "--format", "json")
    return done.returncode, json.loads(done.stdout)


def flagged(report: dict) -> set[str]:
    if isinstance(report.get("flagged_metrics"), list):
        return set(report["flagged_metrics"])
    return {
        row["metric"]
        for row in report.get("deltas") or []
        if row.get("regression") is True or row.get("verdict") == "regression"
    }


def test_records_say_which_defect_wrote_the_capsules(planted_runs):
    for defect, job in planted_runs.items():
        record = json.loads((job / "run.json").read_text())
        assert record["summarizer"]["defect"] == defect
        assert record["summarizer"]["promptId"].startswith(f"planted-{defect}@")
        assert record["summarizer"]["chain"] == ["portable_only", "deterministic"]


# What each defect must move (the benchmark's rule, benchmarks/planted_power.py): a flagged
# metric whose name holds one of these words. The gate itself is not told the defect.
RIGHT_METRIC = {
    "drop_blockers": ("degraded",),  # SOBA's validator rejects the draft: the fallback writes
    "drop_goal": ("goal",),
    "negate_decisions": ("decision", "contradiction"),
    "swap_files": ("file", "contradiction"),
    "flip_verification": ("verification", "contradiction"),
    "invent_paths": ("invented_paths",),
    "stale_decisions": ("decision", "stale", "checkpoint"),
}


@pytest.mark.parametrize(
    "defect",
    [
        "drop_blockers",
        "drop_goal",
        "negate_decisions",
        "swap_files",
        "flip_verification",
        "invent_paths",
        "stale_decisions",
    ],
)
def test_compare_flags_each_planted_defect_on_its_own_metric(planted_runs, defect):
    code, report = compare(planted_runs["verbatim"], planted_runs[defect])
    assert code == 1, report
    words = RIGHT_METRIC[defect]
    assert any(w in m for m in flagged(report) for w in words), flagged(report)


def test_a_goal_the_base_shows_is_what_drop_goal_loses(planted_runs):
    _, report = compare(planted_runs["verbatim"], planted_runs["drop_goal"])
    (row,) = [r for r in report["deltas"] if r["metric"] == "availability.goal"]
    assert row["delta"] < -0.2  # the planted base keeps the task as the user last stated it


def test_stale_decisions_shows_superseded_decisions_as_current_where_the_base_does_not(
    planted_runs,
):
    # The capsule-moment diagnostic (not a gated metric): superseded decisions the capsule
    # presents as current. The base drops a decision a revision names as replaced.
    done = cli_in_process(
        "compare",
        str(planted_runs["verbatim"]),
        str(planted_runs["stale_decisions"]),
        "--metric",
        "staleness.decision",
        "--format",
        "json",
    )
    deltas = json.loads(done.stdout)["deltas"]
    (row,) = [r for r in deltas if r["metric"] == "staleness.decision"]
    assert row["delta"] > 0.2, row


@pytest.mark.parametrize("control", ["paraphrase", "verbatim"])
def test_compare_does_not_flag_a_control(planted_runs, control, tmp_path):
    cand = planted_runs[control]
    if control == "verbatim":  # the base against a copy of its own job folder (A/A)
        cand = tmp_path / "copy"
        shutil.copytree(planted_runs["verbatim"], cand)
    code, report = compare(planted_runs["verbatim"], cand)
    assert code == 0, flagged(report)
    assert not flagged(report)


def test_the_gate_reads_nothing_the_capsule_diagnostics_add(planted_runs, tmp_path):
    """Why most jobs here score availability and outcomes only: a job re-scored with just
    those two gives the base the same comparison, delta for delta, as with every scorer."""
    base, full = planted_runs["verbatim"], planted_runs["stale_decisions"]
    lean = tmp_path / "lean"
    shutil.copytree(full, lean)
    shutil.rmtree(lean / "scores")
    done = cli_in_process("score", str(lean), "--scorer", "availability", "--scorer", "outcomes")
    assert done.returncode == 0, done.stderr
    assert not (lean / "scores" / "summaries.jsonl").exists() or not (
        (lean / "scores" / "summaries.jsonl").read_text().strip()
    )  # no capsule diagnostics left to read
    (lean_code, lean_report), (full_code, full_report) = compare(base, lean), compare(base, full)
    assert lean_code == full_code == 1
    assert lean_report["deltas"] == full_report["deltas"]
    assert lean_report["flagged_metrics"] == full_report["flagged_metrics"]
