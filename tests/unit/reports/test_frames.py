"""load_runs / RunSet / swept_parameters / session_metrics on real run folders."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from soba_bench.engine.config import BOOL_KEYS, NUMBER_KEYS, TOP_LEVEL_KEYS
from soba_bench.errors import InputError
from soba_bench.reports import sections
from soba_bench.reports.frames import load_runs, session_metrics, swept_parameters
from soba_bench.reports.skips import ALL_CATEGORIES
from soba_bench.scoring.matchers import get_matcher


def _jobs(folder):
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def test_single_run_frames_match_the_files(runs):
    rs = load_runs(runs.single)
    record = json.loads((runs.single / "run.json").read_text())
    assert len(rs.jobs) == 1
    job = rs.jobs.iloc[0]
    assert job["job_id"] == record["job"]["id"]
    assert job["job_key"] == record["jobKey"]
    assert job["status"] == "complete"
    assert job["strategy"] == record["strategy"] and job["variant"] == record["variant"]
    assert job["summarizer"] == record["summarizer"]["name"]
    for key in (*TOP_LEVEL_KEYS, *BOOL_KEYS, *NUMBER_KEYS):
        assert key in rs.jobs.columns, key
    assert job["minReclaimableTokens"] == 52000 and job["minSavingsRatio"] == 0.75
    assert job["wall_seconds"] == record["timings"]["wallSeconds"]
    lines = (runs.single / "sessions.jsonl").read_text().splitlines()
    assert len(rs.sessions) == len(lines)
    assert list(rs.sessions["reclaimed"]) == [json.loads(x)["reclaimed"] for x in lines]
    table = pd.read_parquet(runs.single / "tables" / "attempts.parquet")
    assert len(rs.attempts) == len(table) > 0
    assert (rs.attempts["job_id"] == job["job_id"]).all()
    # scorer=none: no score rows, and the load says so instead of failing
    assert rs.scores.empty
    assert any("scores not recorded" in note for note in rs.notes)


def test_provenance_comes_from_the_record(runs):
    rs = load_runs(runs.single)
    record = json.loads((runs.single / "run.json").read_text())
    row = rs.provenance.iloc[0]
    assert row["package_version"] == record["package"]["version"]
    assert row["git_revision"] == record["gitRevision"]
    assert row["seed"] == record["seed"]
    assert row["corpora_sha256"] == ", ".join(c["manifestSha256"] for c in record["corpora"])
    assert row["summarizer"] == record["summarizer"]["name"]


def test_sweep_scores_are_tidy(runs):
    rs = load_runs(runs.first)
    assert len(rs.jobs) == 2
    assert set(rs.scores.columns) >= {
        "job_id",
        "session",
        "scorer",
        "view",
        "kind",
        "metric",
        "value",
        "higher_is_better",
    }
    assert set(rs.scores["scorer"]) == {
        "availability",
        "outcomes",
        "retention",
        "soba_quality",
        "failure_modes",
    }
    avail = rs.scores[rs.scores["metric"] == "availability"]
    assert not avail.empty and avail["value"].between(0, 1).all()
    assert avail["higher_is_better"].all()
    refused = rs.scores[rs.scores["metric"] == "refused_requests"]
    assert not refused.empty and not refused["higher_is_better"].any()
    # The error rates beside availability: ratios, lower is better, one column each per session.
    for metric in ("contradiction", "invented_paths"):
        rows = rs.scores[rs.scores["metric"] == metric]
        assert not rows.empty and rows["value"].between(0, 1).all(), metric
        assert not rows["higher_is_better"].any()
        assert session_metrics(rs)[metric].notna().any(), metric
    recall = rs.scores[rs.scores["metric"] == "recall"]["value"]
    assert recall.between(0, 1).all()
    leaks = rs.scores[(rs.scores["kind"] == "secret") & (rs.scores["metric"] == "recall")]
    assert not leaks.empty and not leaks["higher_is_better"].any()
    # the soba_quality score per session equals the mean of quality.jsonl's rows
    folder = rs.jobs.iloc[0]["path"]
    lines = Path(folder, "scores", "quality.jsonl").read_text().splitlines()
    rows = [json.loads(x) for x in lines]
    session = rows[0]["session"]
    expected = sum(r["score"] for r in rows if r["session"] == session) / sum(
        1 for r in rows if r["session"] == session
    )
    got = rs.scores[
        (rs.scores["job_id"] == rs.jobs.iloc[0]["job_id"])
        & (rs.scores["scorer"] == "soba_quality")
        & (rs.scores["session"] == session)
        & (rs.scores["kind"] == "all")
        & (rs.scores["metric"] == "score")
    ]["value"]
    assert got.iloc[0] == pytest.approx(expected)


def test_reused_pointers_are_followed_and_counted_once(runs):
    second = _jobs(runs.second)
    assert second and all((d / "reused.json").is_file() for d in second)
    assert not any((d / "run.json").exists() for d in second)
    only_pointers = load_runs(runs.second)
    assert len(only_pointers.jobs) == 2
    assert only_pointers.jobs["reused"].all()
    parents = {Path(p).parent.resolve() for p in only_pointers.jobs["path"]}
    assert parents == {runs.first.resolve()}
    everything = load_runs(runs.root / "adhoc")
    assert len(everything.jobs) == 2  # the originals and their pointers: once each
    assert everything.jobs["job_key"].is_unique


def test_results_root_holds_every_job(runs):
    rs = load_runs(runs.root)
    assert len(rs.jobs) == 3
    assert rs.sessions.groupby("job_id").size().eq(3).all()


def test_swept_parameters(runs):
    assert swept_parameters(load_runs(runs.first)) == ["keepRecentTokens"]
    assert swept_parameters(load_runs(runs.single)) == []
    swept = swept_parameters(load_runs(runs.root))
    assert {"keepRecentTokens", "minReclaimableTokens", "minSavingsRatio"} <= set(swept)
    assert "contextWindow" not in swept


def test_session_metrics_one_row_per_job_and_session(runs):
    rs = load_runs(runs.root)
    m = session_metrics(rs)
    assert len(m) == len(rs.sessions)
    assert not m.duplicated(["job_id", "session"]).any()
    # every barrier is accounted for exactly once: a compaction, an issue or a skip
    skips = m[[f"skip.{c}" for c in ALL_CATEGORIES]].sum(axis=1)
    done = m["completed"] + m["failed"] + m["stale"] + m["cancelled"]
    assert (skips + done == m["barriers"]).all()
    scored = m[m["job_id"].isin(load_runs(runs.first).jobs["job_id"])]
    assert scored["recall"].between(0, 1).all()
    assert "recall.goal" in m.columns and "leak.secret" in m.columns
    assert scored["soba_quality_pass"].between(0, 1).all()
    single = m[~m["job_id"].isin(scored["job_id"])]
    assert single["recall"].isna().all()  # scorer=none: not recorded, never 0
    assert set(m["keepRecentTokens"]) == {8000, 20000}


def test_missing_tables_fall_back_to_the_barrier_logs(runs, tmp_path):
    job = _jobs(runs.first)[0]
    copy = tmp_path / "old-run"
    shutil.copytree(job, copy)
    shutil.rmtree(copy / "tables")
    shutil.rmtree(copy / "scores")
    original = load_runs(job)
    old = load_runs(copy)
    columns = ["session", "seq", "trigger", "outcome", "reclaimed", "tokensAfter"]
    pd.testing.assert_frame_equal(
        old.attempts[columns].reset_index(drop=True),
        original.attempts[columns].reset_index(drop=True),
        check_dtype=False,
    )
    assert len(old.barriers) == len(original.barriers)
    assert any("read from barriers/" in n for n in old.notes)
    assert old.scores.empty


def test_nothing_but_a_record_still_loads(runs, tmp_path):
    copy = tmp_path / "bare"
    copy.mkdir()
    shutil.copy(runs.single / "run.json", copy / "run.json")
    rs = load_runs(copy)
    assert len(rs.jobs) == 1 and rs.sessions.empty and rs.attempts.empty
    assert any("attempts not recorded" in n for n in rs.notes)
    assert session_metrics(rs).empty


def test_no_record_is_an_input_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no run record"):
        load_runs(tmp_path / "empty")
    with pytest.raises(InputError, match="not a folder"):
        load_runs(tmp_path / "missing")


def test_bad_records_name_the_file(runs, tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "run.json").write_text("{not json")
    with pytest.raises(InputError, match=r"broken/run\.json.*not valid JSON"):
        load_runs(broken)
    pointer = tmp_path / "pointer"
    pointer.mkdir()
    (pointer / "reused.json").write_text('{"status": "reused"}')
    with pytest.raises(InputError, match=r"reused\.json.*field 'record'"):
        load_runs(pointer)


def test_a_dangling_pointer_is_a_note(runs, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(runs.single, root / "single")
    (root / "gone").mkdir()
    (root / "gone" / "reused.json").write_text(
        json.dumps({"status": "reused", "record": str(tmp_path / "nowhere" / "run.json")})
    )
    rs = load_runs(root)
    assert len(rs.jobs) == 1
    assert any("no longer exists" in n for n in rs.notes)


def test_failed_jobs_are_listed_apart(runs, tmp_path):
    copy = tmp_path / "failed"
    shutil.copytree(runs.single, copy / "ok")
    (copy / "bad").mkdir()
    (copy / "bad" / "run.json").write_text(
        json.dumps(
            {"schemaVersion": 2, "status": "failed", "error": "boom", "job": {"id": "bad-job"}}
        )
    )
    rs = load_runs(copy)
    assert list(rs.failed["job_id"]) == ["bad-job"] and list(rs.failed["error"]) == ["boom"]
    assert "bad-job" not in set(rs.jobs["job_id"])


def test_jobs_name_their_matcher_and_a_mix_is_noted(runs, tmp_path):
    rs = load_runs(runs.first)
    assert set(rs.jobs["matcher"]) == {f"verdict-embedding-nli ({get_matcher().models})"}
    assert not any("different matchers" in n for n in rs.notes)
    mixed = tmp_path / "mixed"
    shutil.copytree(runs.first, mixed)
    listed = json.loads((_jobs(mixed)[0] / "scores" / "scored.json").read_text())
    listed.update(matcher="verdict-nli", matcherModels=get_matcher("verdict-nli").models)
    (_jobs(mixed)[0] / "scores" / "scored.json").write_text(json.dumps(listed))
    rs = load_runs(mixed)
    assert rs.jobs["matcher"].nunique() == 2
    (note,) = [n for n in rs.notes if "different matchers" in n]
    assert "verdict-nli (nli:" in note and "verdict-embedding-nli (nli:" in note
    # the report's overview shows it
    shown = [i.frame for i in sections.overview(rs).items if "mixed matchers" in i.caption]
    assert shown and note in list(shown[0]["note"])
