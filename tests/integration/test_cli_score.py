"""Scoring end to end: ``run`` scores while it replays; ``score`` re-scores the stored run
without replaying (and gives the same tables)."""

from __future__ import annotations

import json

import soba_bench.replay.simulator as simulator
from soba_bench.cli.main import main
from tests.builders import REPO

SYNTHETIC = REPO / "corpora" / "synthetic-small"


def read(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_run_scores_and_score_rescores_without_replaying(tmp_path, capsys, monkeypatch):
    args = [
        "run",
        "--corpus",
        str(SYNTHETIC),
        "--results",
        str(tmp_path / "r"),
        "--limit",  # one session shows the round trip as well as three (and the run has
        "1",  # capsules, findings and a recall below 1: the small window compacts often)
        "contextWindow=32000",
        "maxOutputTokens=4000",
        "keepRecentTokens=4000",
        "minTokensForAutoCompact=8000",
        "minReclaimableTokens=2000",
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "retention (capsule moments" in out and "soba_quality: mean score" in out
    (run_dir,) = (tmp_path / "r").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    corpus = {(r["strategy"], r["view"]): r for r in record["scoring"]["corpus"]}
    assert corpus[("none", "input")]["recall"] == 1.0
    assert corpus[("soba", "capsule")]["recall"] < 1.0
    low, high = corpus[("soba", "input")]["recallCI"]
    assert low <= corpus[("soba", "input")]["recall"] <= high
    assert set(record["scoring"]["findings"]) >= {"blocked_forever", "compaction_loop"}
    capsules = read(run_dir / "scores" / "quality.jsonl")
    assert capsules and all(0 <= q["score"] <= 1 for q in capsules)

    def no_replay(*_a, **_k):
        raise AssertionError("score must not replay")

    monkeypatch.setattr(simulator, "replay_session", no_replay)
    assert main(["score", str(run_dir), "--out", str(tmp_path / "again")]) == 0
    for table in ("summaries", "rows", "quality", "corpus"):
        assert read(tmp_path / "again" / f"{table}.jsonl") == read(
            run_dir / "scores" / f"{table}.jsonl"
        )


def test_score_with_one_scorer_and_bad_input(tmp_path, capsys):
    assert main(["run", "--corpus", str(SYNTHETIC), "--results", str(tmp_path)]) == 0
    (run_dir,) = tmp_path.iterdir()
    capsys.readouterr()
    assert (
        main(
            [
                "score",
                str(run_dir),
                "--scorer",
                "failure_modes",
                "--json",
                "--out",
                str(tmp_path / "fm"),
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["corpus"] == [] and "blocked_forever" in summary["findings"]
    assert main(["score", str(tmp_path / "nothing")]) == 2
    assert "no run.json" in capsys.readouterr().err
    assert main(["score", str(run_dir), "--scorer", "bogus"]) == 2
    valid = "valid names: availability, failure_modes, outcomes, probes, retention, soba_quality"
    assert valid in capsys.readouterr().err
