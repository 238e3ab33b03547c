"""The rival strategies end to end: one multirun over every strategy on the small synthetic
corpus, complete run folders naming the strategy and its parameters, rival model inputs
scored from the folder alone, and truncation keeping fewer planted facts than SOBA."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tests.integration.sweeps import cli, job_dirs

STRATEGIES = ("soba", "observation_masking", "truncation", "none", "hybrid")
PARAMS = {
    "soba": {},
    "observation_masking": {"keep_observations": 10},
    "truncation": {"budget_tokens": None},
    "none": {},
    "hybrid": {"keep_observations": 10},
}
PLANTED = ("goal", "blocker", "file_read", "file_modified", "file_renamed")


@pytest.fixture(scope="module")
def strategy_sweep(tmp_path_factory) -> dict[str, Path]:
    sweep_dir = tmp_path_factory.mktemp("rivals") / "sweep"
    done = cli(
        "run",
        "-m",
        f"strategy={','.join(STRATEGIES)}",
        "corpus=synthetic-small",
        f"hydra.sweep.dir={sweep_dir}",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("[complete]") == len(STRATEGIES)
    folders = {}
    for folder in job_dirs(sweep_dir):
        record = json.loads((folder / "run.json").read_text())
        folders[record["strategy"]] = folder
    return folders


def test_every_strategy_writes_a_complete_folder_naming_it(strategy_sweep):
    assert sorted(strategy_sweep) == sorted(STRATEGIES)
    for name, folder in strategy_sweep.items():
        record = json.loads((folder / "run.json").read_text())
        assert record["status"] == "complete"
        assert record["resolvedConfig"]["strategy"] == {"name": name, "params": PARAMS[name]}
        sessions = [json.loads(line) for line in (folder / "sessions.jsonl").open()]
        assert len(sessions) == 3
        barriers = pd.read_parquet(folder / "tables" / "barriers.parquet")
        assert set(barriers["jobStrategy"]) == {name} and len(barriers) == sum(
            s["barriers"] for s in sessions
        )
        assert (folder / "scores" / "corpus.jsonl").stat().st_size > 0
        corpus = [json.loads(line) for line in (folder / "scores" / "corpus.jsonl").open()]
        assert any(r["strategy"] == name and r["view"] == "input" for r in corpus)
    # Same walk for everyone: the barrier tables have the same (session, entry, turn) rows.
    walks = {
        name: pd.read_parquet(folder / "tables" / "barriers.parquet")[
            ["session", "entryIndex", "turn", "flush"]
        ].values.tolist()
        for name, folder in strategy_sweep.items()
    }
    assert all(walk == walks["soba"] for walk in walks.values())


def test_rival_attempts_carry_the_model_input_state(strategy_sweep):
    attempts = pd.read_parquet(strategy_sweep["truncation"] / "tables" / "attempts.parquet")
    assert len(attempts) > 0 and set(attempts["strategy"]) == {"truncation"}
    assert attempts["droppedThroughEntryId"].notna().all()
    assert (attempts["tokensAfter"] < attempts["tokensBefore"]).all()
    none = pd.read_parquet(strategy_sweep["none"] / "tables" / "attempts.parquet")
    assert len(none) == 0


def test_rescoring_a_rival_run_folder_gives_the_same_scores(strategy_sweep, tmp_path):
    copy = tmp_path / "run"
    shutil.copytree(strategy_sweep["observation_masking"], copy)
    shutil.rmtree(copy / "scores")
    done = cli("score", str(copy))
    assert done.returncode == 0, done.stderr
    for name in ("rows", "summaries", "corpus", "findings"):
        original = (strategy_sweep["observation_masking"] / "scores" / f"{name}.jsonl").read_text()
        assert (copy / "scores" / f"{name}.jsonl").read_text() == original


def _planted_recall(folder: Path, strategy: str, view: str) -> float:
    found = expected = 0
    for line in (folder / "scores" / "rows.jsonl").open():
        row = json.loads(line)
        moment = (row["strategy"], row["view"], row["generation"] == "final")
        if moment == (strategy, view, False) and row["kind"] in PLANTED:
            found += row["found"]
            expected += row["expected"]
    assert expected > 0
    return found / expected


def test_truncation_keeps_fewer_planted_facts_than_sobas_capsule(strategy_sweep):
    truncation = _planted_recall(strategy_sweep["truncation"], "truncation", "input")
    capsule = _planted_recall(strategy_sweep["soba"], "soba", "capsule")
    soba_input = _planted_recall(strategy_sweep["soba"], "soba", "input")
    assert truncation < capsule and truncation < soba_input
