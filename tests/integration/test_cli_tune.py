"""``soba-bench tune`` end to end through the console entry point: the recommendation, the
report, the trials table and real job folders; the held-out check; bad input exits 2."""

from __future__ import annotations

import json

import pandas as pd

from soba_bench.tune import load_recommendation
from tests.builders import REPO
from tests.integration.sweeps import cli


def test_tune_writes_a_recommendation_with_a_held_out_check(small_tune):
    out, done = small_tune
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("[trial ") == 6
    assert "## Tuning: 128k window" in done.stdout
    for name in ("recommendation.json", "tune.md", "trials.csv", "trials.parquet", "tune.json"):
        assert (out / name).is_file(), name
    rec = load_recommendation(out)
    doc = rec.data
    assert doc["settings"]["window"]["contextWindow"] == 128000
    assert doc["objective"]["name"] == "availability_at_savings"
    split = doc["split"]
    assert len(split["search"]) == 2 and len(split["heldOut"]) == 1
    assert not set(split["search"]) & set(split["heldOut"])
    assert rec.engine is not None and rec.engine["contextWindow"] == 128000
    held = doc["recommended"]["heldOut"]
    assert held["metrics"]["availability"]["sessions"] == 1
    assert doc["baseline"]["heldOut"]["params"]["keepRecentTokens"] == 20000  # SOBA's default
    assert doc["recommended"]["search"]["feasible"] is True
    # every evaluated config left a real, complete job folder on its side of the split
    job = json.loads((out / doc["recommended"]["heldOut"]["job"] / "run.json").read_text())
    assert job["status"] == "complete"
    assert [c["name"] for c in job["corpora"]] == ["synthetic-small"]
    assert job["corpora"][0]["sessions"] == 1
    trials = pd.read_csv(out / "trials.csv")
    assert set(trials["role"]) == {"search", "baseline", "recommended"}
    assert (trials["role"] == "search").sum() == 6
    expected = {"keepRecentTokens", "savings", "savings_low", "availability_high"}
    assert expected <= set(trials.columns)
    text = (out / "tune.md").read_text()
    assert "Held-out check" in text and "SOBA defaults, held-out" in text
    # The deterministic summarizer runs no model: timeoutMs is left out, and said to be.
    assert "leaving timeoutMs out of the search" in done.stdout
    assert "Left out of the search: `timeoutMs`" in text
    assert "timeoutMs" not in doc["settings"]["space"] and "timeoutMs" in doc["settings"]["leftOut"]
    assert "timeoutMs" not in doc["recommended"]["params"]


def test_grid_on_a_core_space_and_a_window_preset(tmp_path):
    out = tmp_path / "grid"
    # replay only (no scoring): savings and refusals need no ground truth
    done = cli(
        "tune",
        "--corpus",
        str(REPO / "corpora" / "synthetic-small"),
        "window=64k",
        "space=64k-core",
        "search.strategy=grid",
        "report.resamples=100",
        "split.held_out=0",
        "scorer=none",
        "objective=min_input_tokens",
        "objective.constraints=[]",
        "--out",
        str(out),
        f"paths.cache_dir={tmp_path}",
    )
    assert done.returncode == 0, done.stderr
    doc = json.loads((out / "recommendation.json").read_text())
    assert doc["search"]["distinctConfigs"] == 20
    assert doc["settings"]["window"]["contextWindow"] == 64000
    assert doc["recommended"]["heldOut"] is None and doc["split"]["heldOut"] == []
    assert doc["objective"]["text"] == "minimize input_tokens"
    tokens = [t["metrics"]["input_tokens"]["value"] for t in doc["runnerUps"]]
    best = doc["recommended"]["search"]["metrics"]["input_tokens"]["value"]
    assert tokens and all(best <= t for t in tokens)


def test_bad_input_exits_2_with_a_message(tmp_path):
    bad_metric = cli(
        "tune", "corpus=synthetic-small", "objective.metric=recal", "--out", str(tmp_path / "a")
    )
    assert bad_metric.returncode == 2
    assert "unknown tune metric" in bad_metric.stderr and "retention" in bad_metric.stderr
    too_big = cli(
        "tune", "corpus=synthetic-small", "search.strategy=grid", "--out", str(tmp_path / "b")
    )
    assert too_big.returncode == 2 and "more than the trial budget" in too_big.stderr
    no_window = cli("tune", "window=3k", "--out", str(tmp_path / "c"))
    assert no_window.returncode == 2 and "3k" in no_window.stderr
    multirun = cli("tune", "-m", "--out", str(tmp_path / "d"))
    assert multirun.returncode == 2 and "unknown option -m" in multirun.stderr
    assert not (tmp_path / "a").exists() and not (tmp_path / "c").exists()
