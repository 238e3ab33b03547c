"""Scoring end to end: ``run`` scores while it replays; ``score`` re-scores the stored run
without replaying (and gives the same tables)."""

from __future__ import annotations

import json

import pytest

import soba_bench.replay.simulator as simulator
from soba_bench.cli.main import main
from soba_bench.errors import InputError
from soba_bench.reports.frames import load_runs
from soba_bench.scoring.scorer import SCORES_REVISION
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

    # every moment, or the final state and one more: the session table says how many the job had
    scored = {}
    for bound in ("all", "2"):
        out = tmp_path / f"moments-{bound}"
        assert (
            main(
                [
                    "score",
                    str(run_dir),
                    "--scorer",
                    "retention",
                    "--max-moments",
                    bound,
                    "--out",
                    str(out),
                ]
            )
            == 0
        )
        scored[bound] = {
            (r["view"], r["moment"]): r
            for r in read(out / "sessions.jsonl")
            if r["strategy"] == "soba"
        }
    every, two = scored["all"][("capsule", "capsules")], scored["2"][("capsule", "capsules")]
    assert every["moments"] == every["points"] == len(capsules) > 1
    assert (two["moments"], two["points"]) == (len(capsules), 1)
    assert read(tmp_path / "moments-all" / "drift.jsonl") and not read(
        tmp_path / "moments-2" / "drift.jsonl"
    )
    capsys.readouterr()
    with pytest.raises(SystemExit) as refused:  # argparse's usage error: exit 2
        main(["score", str(run_dir), "--max-moments", "0"])
    assert refused.value.code == 2
    assert "--max-moments: '0' is not a count" in capsys.readouterr().err


def test_score_with_one_scorer_and_bad_input(tmp_path, capsys):
    results = tmp_path / "r"
    # The job scores outcomes only; the re-scores below add what it did not run.
    args = ["run", "--corpus", str(SYNTHETIC), "--results", str(results)]
    assert main([*args, "scorer.scorers=[outcomes]"]) == 0
    (run_dir,) = results.iterdir()
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


def scorers_read(run_dir):
    runs = load_runs(run_dir)
    return runs.jobs["scorers"].item(), set(runs.scores["scorer"])


def test_a_re_score_is_what_report_and_compare_read(tmp_path, capsys):
    """``score --scorer X`` in place: readers see X's tables, also when the job did not run X,
    and no longer read the tables of the scorers the job ran."""
    results = tmp_path / "r"
    args = ["run", "--corpus", str(SYNTHETIC), "--results", str(results), "--limit", "1"]
    assert main([*args, "scorer.scorers=[outcomes]"]) == 0
    (run_dir,) = results.iterdir()
    assert scorers_read(run_dir) == ("outcomes", {"outcomes"})
    again = ["score", str(run_dir), "--scorer", "failure_modes", "--scorer", "retention"]
    assert main(again) == 0
    assert scorers_read(run_dir) == ("failure_modes,retention", {"failure_modes", "retention"})
    runs = load_runs(run_dir)
    fired = runs.scores.query("scorer == 'failure_modes'")
    assert "blocked_forever" in set(fired["kind"])  # the detectors the re-score ran
    assert not runs.scores.query("scorer == 'retention' and metric == 'recall'").empty

    # A table that is not the one written with the list (a re-score killed between two
    # tables leaves newer tables beside the older list) is refused, not mixed in.
    rows = run_dir / "scores" / "rows.jsonl"
    kept = rows.read_bytes()
    rows.write_bytes(kept[: len(kept) // 2])
    with pytest.raises(InputError, match=r"not the one scores/scored\.json lists"):
        load_runs(run_dir)
    rows.write_bytes(kept)

    # A run folder from before scored.json: the run record's scorers, as before.
    (run_dir / "scores" / "scored.json").unlink()
    assert scorers_read(run_dir)[0] == "outcomes"

    # A damaged list is named by file and field, and the CLI exits 2.
    (run_dir / "scores" / "scored.json").write_text('{"schemaVersion": 1, "scorers": "retention"}')
    with pytest.raises(InputError, match="scorers") as caught:
        load_runs(run_dir)
    assert "scored.json" in str(caught.value)
    capsys.readouterr()
    assert main(["report", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert "scored.json" in err and "Traceback" not in err


def test_compare_refuses_sides_scored_by_different_matchers(tmp_path, capsys):
    """Scores of two matchers differ by the matchers: ``scored.json`` names the matcher that
    judged the tables and its models, and ``compare`` exits 2 naming both instead of gating
    the difference."""
    runs = []
    for name in ("base", "cand"):
        args = ["run", "--corpus", str(SYNTHETIC), "--results", str(tmp_path / name)]
        assert main([*args, "--limit", "1", "scorer.scorers=[outcomes,retention]"]) == 0
        (run_dir,) = (tmp_path / name).iterdir()
        runs.append(run_dir)
    base, cand = runs
    scored = json.loads((cand / "scores" / "scored.json").read_text())
    assert scored["matcher"] == "verdict-embedding-nli"
    capsys.readouterr()
    assert main(["compare", str(base), str(cand)]) in (0, 3)  # one session: may not test
    again = ["score", str(cand), "--scorer", "outcomes", "--scorer", "retention"]
    assert main([*again, "--prose-matcher", "verdict"]) == 0
    assert json.loads((cand / "scores" / "scored.json").read_text())["matcher"] == "verdict"
    capsys.readouterr()
    assert main(["compare", str(base), str(cand)]) == 2
    err = capsys.readouterr().err
    assert "different matchers" in err and "verdict-embedding" in err and "Traceback" not in err
    # A list written before the matcher was recorded (no "matcher") is compared as before.
    listed = json.loads((cand / "scores" / "scored.json").read_text())
    del listed["matcher"]
    (cand / "scores" / "scored.json").write_text(json.dumps(listed))
    capsys.readouterr()
    assert main(["compare", str(base), str(cand)]) in (0, 3)
    # A matcher that is not a string is named by file and field.
    (cand / "scores" / "scored.json").write_text(json.dumps({**listed, "matcher": 7}))
    assert main(["compare", str(base), str(cand)]) == 2
    err = capsys.readouterr().err
    assert "scored.json" in err and "matcher" in err and "Traceback" not in err
    # One matcher with another model (scores written by a soba-bench that shipped another
    # model file) is refused too; the same models compare.
    assert main(again) == 0
    listed = json.loads((cand / "scores" / "scored.json").read_text())
    assert listed["matcher"] == "verdict-embedding-nli"
    assert listed["matcherModels"].startswith("nli:") and " embedding:" in listed["matcherModels"]
    capsys.readouterr()
    assert main(["compare", str(base), str(cand)]) in (0, 3)
    older = {**listed, "matcherModels": "nli:000000000000 embedding:000000000000"}
    (cand / "scores" / "scored.json").write_text(json.dumps(older))
    capsys.readouterr()
    assert main(["compare", str(base), str(cand)]) == 2
    err = capsys.readouterr().err
    assert "different models" in err and "matcherModels" in err and "Traceback" not in err
    # Scores written by another revision of the scorers (or before revisions were recorded)
    # are another instrument: refused, naming the older side's list and what to do.
    assert listed["scoresRevision"] == SCORES_REVISION
    for revision in (SCORES_REVISION - 1, None):
        older = {k: v for k, v in listed.items() if k != "scoresRevision"}
        if revision is not None:
            older["scoresRevision"] = revision
        (cand / "scores" / "scored.json").write_text(json.dumps(older))
        capsys.readouterr()
        assert main(["compare", str(base), str(cand)]) == 2
        err = capsys.readouterr().err
        assert "different revisions of the scorers" in err and "scoresRevision" in err
        assert str(cand / "scores" / "scored.json") in err and "Traceback" not in err
