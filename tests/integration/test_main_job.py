"""README command 1: `make run` is `soba-bench main-job`. It must run offline from the bundled
data, cover what the issue names (every bundled corpus, SOBA's engine with deterministic
capsules, the comparison strategies, the embedded local model with its timeout fallbacks) and
end with a report it points to."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from soba_bench.compactors import compactor_names
from soba_bench.reports import load_runs, session_metrics
from tests.integration.sweeps import cli

SECTIONS = (
    "Outcomes by trigger",
    "Reclaimed tokens",
    "Skip rate by reason",
    "Degraded fallbacks and generation latency",
    "Settings against availability, Pareto front, retention and soba_quality",
    "Failure modes",
    "Per-session drill-down",
    "Provenance",
)


@pytest.fixture(scope="module")
def main_job(tmp_path_factory):
    root = tmp_path_factory.mktemp("main") / "results"
    done = cli("main-job", "--results", str(root))
    assert done.returncode == 0, done.stderr[-3000:]
    return root, done.stdout


def test_it_prints_where_the_report_is(main_job):
    root, stdout = main_job
    said = re.search(r"finished in .*; report: (\S+)", stdout)
    assert said, stdout[-2000:]
    report = Path(said.group(1))
    assert report == root / "report"
    assert (report / "report.html").stat().st_size > 0
    markdown = (report / "report.md").read_text()
    for section in SECTIONS:
        assert f"## {section}" in markdown


def test_every_strategy_runs_on_every_bundled_corpus(main_job):
    root, _ = main_job
    runs = load_runs(root / "strategies")
    # The generic rivals (configs/sweep/strategies.yaml); other agents' policies: sweep=peers.
    generic = {"soba", "observation_masking", "truncation", "none", "hybrid"}
    assert generic <= set(compactor_names())
    assert set(runs.jobs["strategy"]) == generic
    corpora = {s.split("/")[0] for s in runs.sessions["session"]}
    assert {"soba-conformance", "synthetic-small", "swe-agent"} <= corpora
    # Every job hashed its corpus files before and after (the record lists them).
    for path in runs.jobs["path"]:
        record = json.loads((Path(path) / "run.json").read_text())
        assert record["inputsUnchanged"] is True and record["inputFiles"] > 0


def test_the_local_model_half_shows_timeouts_and_model_capsules(main_job):
    root, _ = main_job
    runs = load_runs(root / "local_model")
    metrics = session_metrics(runs)
    by_timeout = metrics.set_index("timeoutMs")
    assert set(runs.jobs["summarizer"]) == {"local"}
    # SOBA's 15 s deadline against a CPU model: the recorded answers took longer.
    assert by_timeout.loc[15000, "timeout_fallbacks"] > 0
    assert by_timeout.loc[600000, "timeout_fallbacks"] == 0
    model_written = runs.attempts[runs.attempts["strategy"] == "portable_only"]
    assert set(model_written["timeoutMs"]) == {600000}
