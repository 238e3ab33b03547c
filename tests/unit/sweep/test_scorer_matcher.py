"""``scorer.matcher``: a sweep job scores with the matcher it names (recorded in
``scores/scored.json``), a scored job's key names the matcher and its model files (another
matcher, or another model file of one, is another job), a job that scores nothing names none,
and an unknown name is refused listing the valid ones. A
scored job's key names the scorers' revision, so no sweep resumes a job older scorers
judged."""

from __future__ import annotations

import json

import pytest

from soba_bench.cli.main import main
from soba_bench.errors import UnknownNameError
from soba_bench.scoring.match import PROSE_MATCHERS
from soba_bench.scoring.matchers import (
    DEFAULT_MATCHER,
    VerdictEmbeddingNliMatcher,
    VerdictNliMatcher,
    get_matcher,
)
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.jobspec import JobSpec
from tests.builders import REPO

SMALL = REPO / "corpora" / "synthetic-small"


def test_a_scored_jobs_key_names_its_matcher_and_model_files(monkeypatch):
    default = JobSpec.from_config(compose_config(["corpus=synthetic-small"]))
    scorer = default.key_material()["scorer"]
    assert scorer["matcher"] == "verdict-embedding-nli" == DEFAULT_MATCHER
    assert scorer["matcherModels"] == get_matcher().models
    assert default.score is not None and default.score.match.prose_matcher == DEFAULT_MATCHER
    nli = JobSpec.from_config(
        compose_config(["corpus=synthetic-small", "scorer.matcher=verdict-nli"])
    )
    assert nli.key_material()["scorer"]["matcher"] == "verdict-nli"
    assert nli.key_material()["scorer"]["matcherModels"] == get_matcher("verdict-nli").models
    assert nli.score is not None and nli.score.match.prose_matcher == "verdict-nli"
    key = nli.key
    assert key != default.key
    # another model of the matcher is another job: a sweep never resumes it as this one
    monkeypatch.setattr(VerdictNliMatcher, "models", "nli:000000000000")
    again = JobSpec.from_config(
        compose_config(["corpus=synthetic-small", "scorer.matcher=verdict-nli"])
    )
    assert again.key != key
    default_key = default.key
    monkeypatch.setattr(VerdictEmbeddingNliMatcher, "models", "nli:000000000000")
    assert JobSpec.from_config(compose_config(["corpus=synthetic-small"])).key != default_key
    # a job that scores nothing depends on no matcher
    unscored = JobSpec.from_config(compose_config(["corpus=synthetic-small", "scorer=none"]))
    assert "matcher" not in unscored.key_material()["scorer"]


def test_an_unknown_matcher_lists_the_valid_ones():
    with pytest.raises(UnknownNameError) as caught:
        JobSpec.from_config(compose_config(["corpus=synthetic-small", "scorer.matcher=bogus"]))
    assert all(name in str(caught.value) for name in PROSE_MATCHERS)


def test_a_run_scores_with_the_matcher_it_names(tmp_path, capsys):
    args = ["run", "--corpus", str(SMALL), "--results", str(tmp_path), "--limit", "1"]
    assert main([*args, "scorer.scorers=[retention]", "scorer.matcher=verdict"]) == 0
    (run_dir,) = tmp_path.iterdir()
    assert json.loads((run_dir / "scores" / "scored.json").read_text())["matcher"] == "verdict"
    capsys.readouterr()
    assert main([*args, "scorer.matcher=bogus"]) == 2
    err = capsys.readouterr().err
    assert "bogus" in err and "verdict-nli" in err and "Traceback" not in err


def test_a_scored_job_is_keyed_by_the_scorers_revision(monkeypatch):
    from soba_bench.sweep import jobspec

    scored = JobSpec.from_config(compose_config(["corpus=synthetic-small"]))
    bare = JobSpec.from_config(compose_config(["corpus=synthetic-small", "scorer=none"]))
    assert scored.key_material()["scorer"]["scoresRevision"] == jobspec.SCORES_REVISION
    assert "scoresRevision" not in bare.key_material()["scorer"]  # it scores nothing
    keys = (scored.key, bare.key)
    monkeypatch.setattr(jobspec, "SCORES_REVISION", jobspec.SCORES_REVISION + 1)
    assert JobSpec.from_config(compose_config(["corpus=synthetic-small"])).key != keys[0]
    again = JobSpec.from_config(compose_config(["corpus=synthetic-small", "scorer=none"]))
    assert again.key == keys[1]
