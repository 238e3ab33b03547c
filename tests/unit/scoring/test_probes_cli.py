"""``soba-bench score RUN --scorer probes``: re-scores stored replays with probes (no replay,
no model call with the extractive answerer), writes per-probe, per-moment, per-session and
corpus tables, and turns bad probe parameters into exit status 2."""

from __future__ import annotations

import json

import soba_bench.replay.simulator as simulator
from soba_bench.cli.main import main
from soba_bench.scoring.session import ScoreConfig
from tests.builders import REPO

TINY = REPO / "corpora" / "synthetic-tiny"
# A small window, so the tiny session compacts (two capsules).
ENGINE = [
    "contextWindow=24000",
    "maxOutputTokens=2000",
    "keepRecentTokens=1500",
    "minTokensForAutoCompact=2000",
    "minReclaimableTokens=500",
]


def read(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_the_default_scorer_set_stays_model_free():
    assert "probes" not in ScoreConfig().scorers


def test_score_with_probes_writes_every_table_without_replaying(tmp_path, capsys, monkeypatch):
    assert main(["run", "--corpus", str(TINY), "--results", str(tmp_path / "r"), *ENGINE]) == 0
    (run_dir,) = (tmp_path / "r").iterdir()
    capsys.readouterr()

    def no_replay(*_a, **_k):
        raise AssertionError("score must not replay")

    monkeypatch.setattr(simulator, "replay_session", no_replay)
    out = tmp_path / "probes"
    args = ["score", str(run_dir), "--scorer", "probes", "--out", str(out)]
    assert main([*args, "--param", "strategies=soba,none,truncation"]) == 0
    printed = capsys.readouterr().out
    assert "probes (mean over sessions" in printed
    probes, moments = read(out / "probes.jsonl"), read(out / "probe_moments.jsonl")
    generations = {m["generation"] for m in moments}
    assert generations == {1, 2, "final"}  # both capsules and the end of the session
    assert {m["strategy"] for m in moments} == {"soba", "none", "truncation"}
    assert all(p["answerSource"] == "extractive" for p in probes)
    assert sum(m["probes"] for m in moments) == len(probes)
    # every moment row explains its score with the missed and wrong items
    soba = [m for m in moments if m["strategy"] == "soba"]
    assert all(m["probeScore"] < 1.0 and m["missed"] for m in soba)
    sessions = [r for r in read(out / "sessions.jsonl") if r["view"] == "probes"]
    corpus = {(r["strategy"], r["moment"]): r for r in read(out / "corpus.jsonl")}
    assert {(r["strategy"], r["moment"]) for r in sessions} <= set(corpus)
    none = corpus[("none", "final")]
    assert none["probeScore"] == 1.0 and none["probeScoreCI"] == [1.0, 1.0]
    assert corpus[("truncation", "final")]["probeScore"] < none["probeScore"]
    # the same probes again: identical tables
    assert (
        main(
            [
                *args,
                "--out",
                str(tmp_path / "again"),
                "--json",
                "--param",
                "strategies=soba,none,truncation",
            ]
        )
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    assert summary["probes"] and summary["corpus"] == []
    assert read(tmp_path / "again" / "probes.jsonl") == probes


def test_bad_probe_parameters_exit_with_status_2(tmp_path, capsys):
    assert main(["run", "--corpus", str(TINY), "--results", str(tmp_path), *ENGINE]) == 0
    (run_dir,) = tmp_path.iterdir()
    capsys.readouterr()
    base = ["score", str(run_dir), "--scorer", "probes", "--out", str(tmp_path / "o")]
    assert main([*base, "--param", "answerer=oracle"]) == 2
    assert "valid names: extractive, local, model" in capsys.readouterr().err
    assert main([*base, "--param", "max_probes=lots"]) == 2
    assert "max_probes" in capsys.readouterr().err
    missing = tmp_path / "none.sqlite"
    assert (
        main(
            [
                *base,
                "--param",
                "answerer=local",
                "--param",
                "cache=read-only",
                "--param",
                f"cache_path={missing}",
            ]
        )
        == 2
    )
    assert "read-only" in capsys.readouterr().err and not missing.exists()


def test_the_probes_scorer_config_group():
    from soba_bench.sweep.app import compose_config
    from soba_bench.sweep.jobspec import JobSpec

    default = JobSpec.from_config(compose_config())
    assert "params" not in default.key_material()["scorer"]  # earlier job keys still match
    spec = JobSpec.from_config(compose_config(["scorer=probes", "scorer.params.max_probes=5"]))
    assert "probes" in spec.score.scorers and spec.score.probes.max_probes == 5
    assert spec.score.probes.model_free
    assert spec.score.probes.strategies == ("soba", "none", "truncation", "observation_masking")
    assert spec.key_material()["scorer"]["params"]["max_probes"] == 5
