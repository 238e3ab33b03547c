"""The gate on planted defects, at a small n: ``compare`` of the planted summarizer's
unmutated answer (``defect=verbatim``) against a known defect must flag the right metric, and
against the paraphrase control must flag nothing. ``benchmarks/planted_power.py`` measures the
same over 20 corpus seeds and every defect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from soba_bench.corpora.synthetic import generate_corpus
from soba_bench.corpora.synthetic.config import config_from_dict
from tests.builders import REPO
from tests.integration.sweeps import cli

DEFECTS = ("verbatim", "drop_goal", "drop_blockers", "negate_decisions", "paraphrase")
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


@pytest.fixture(scope="module")
def planted_runs(tmp_path_factory) -> dict[str, Path]:
    """A small corpus of the synthetic-gate recipe replayed once per defect (one sweep)."""
    root = tmp_path_factory.mktemp("planted")
    recipe = yaml.safe_load((REPO / "configs/corpus/synthetic-gate.yaml").read_text())
    vary = {k: (float(lo), float(hi)) for k, (lo, hi) in recipe["vary"].items()}
    corpus = root / "corpus"
    config = config_from_dict(recipe["params"])
    generate_corpus(corpus, config, seed=SEED, sessions=SESSIONS, name="planted", vary=vary)
    sweep = root / "sweep"
    done = cli(
        "run",
        "-m",
        "summarizer=planted",
        f"summarizer.params.defect={','.join(DEFECTS)}",
        "corpus=path",
        f"corpus.paths=[{corpus}]",
        *ENGINE,
        f"hydra.sweep.dir={sweep}",
        "hydra/launcher=basic",
    )
    assert done.returncode == 0, done.stderr
    jobs = {}
    for record in sweep.glob("*/run.json"):
        data = json.loads(record.read_text())
        assert data["summarizer"]["name"] == "planted"
        jobs[data["summarizer"]["defect"]] = record.parent
    assert set(jobs) == set(DEFECTS)
    return jobs


def compare(base: Path, cand: Path) -> tuple[int, dict]:
    done = cli("compare", str(base), str(cand), "--format", "json")
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


@pytest.mark.xfail(
    strict=True,
    reason="a known gap, measured (benchmarks/planted_power.py: 0 of 3 seeds): SOBA's "
    "deterministic goal, which the planted base reuses, is the span's last user message, "
    "so the base rarely shows the true goal and dropping it moves no goal metric",
)
def test_compare_flags_a_dropped_goal_on_a_goal_metric(planted_runs):
    code, report = compare(planted_runs["verbatim"], planted_runs["drop_goal"])
    assert code == 1, report
    assert any("goal" in m for m in flagged(report)), flagged(report)


def test_compare_flags_dropped_blockers_by_the_degraded_fallback_rate(planted_runs):
    code, report = compare(planted_runs["verbatim"], planted_runs["drop_blockers"])
    assert code == 1, report
    assert any("degraded" in m for m in flagged(report)), flagged(report)


def test_compare_flags_negated_decisions_on_availability(planted_runs):
    code, report = compare(planted_runs["verbatim"], planted_runs["negate_decisions"])
    assert code == 1, report
    # A negated decision is contradicted, so no longer available to the model.
    assert "availability" in flagged(report), flagged(report)


def test_compare_does_not_flag_a_paraphrase(planted_runs):
    code, report = compare(planted_runs["verbatim"], planted_runs["paraphrase"])
    assert code == 0, flagged(report)
    assert not flagged(report)
