"""Tuning metrics from job folders: request-token savings computed exactly from barrier lines,
corpus aggregation (means over sessions where a metric applies, sums for counts)."""

from __future__ import annotations

import pandas as pd
import pytest

from soba_bench.jsonio import read_jsonl
from soba_bench.reports import frames
from soba_bench.reports.metrics import _request_tokens
from soba_bench.runs import RunLayout
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.job import JobContext, run_job
from soba_bench.tune.metrics import _overflows, corpus_metrics, session_tune_metrics


def test_savings_count_every_sent_request_against_its_uncompacted_size():
    lines = [
        {"kind": "config"},
        {"kind": "check", "effectiveTokens": 100, "canProceed": True},
        {"kind": "check", "effectiveTokens": 200, "canProceed": True},
        # a compaction from 300 to 120: 180 reclaimed; the request goes out at 120
        {
            "kind": "attempt",
            "outcome": "completed",
            "reclaimed": 180,
            "tokensBefore": 300,
            "tokensAfter": 120,
            "canProceed": True,
        },
        {"kind": "check", "effectiveTokens": 150, "canProceed": True},
        {
            "kind": "attempt",
            "outcome": "skipped",
            "reclaimed": 0,
            "tokensBefore": 160,
            "canProceed": True,
        },
        {"kind": "check", "effectiveTokens": 999, "canProceed": False},  # refused: not sent
        {"kind": "summary", "overflowErrors": 2},
    ]
    assert _overflows(lines) == 2
    # The shared frame reads the same lines as a table's rows: the tokens sent, and the
    # savings, whose uncompacted sizes add every token reclaimed before each request.
    rows = pd.DataFrame([{"job_id": "j", "session": "s", **line} for line in lines])
    ((sent, savings),) = _request_tokens(rows)[["input_tokens_sent", "savings"]].itertuples(
        index=False
    )
    assert sent == 100 + 200 + 120 + 150 + 160
    assert savings == pytest.approx(1 - sent / (100 + 200 + 300 + 330 + 340))


def test_corpus_metrics_average_where_a_metric_applies_and_sum_counts():
    per_session = {
        "c/a": {"savings": 0.2, "retention": None, "refused": 1.0},
        "c/b": {"savings": 0.4, "retention": 0.9, "refused": 2.0},
    }
    out = corpus_metrics(per_session, resamples=200)
    assert out["savings"].value == pytest.approx(0.3) and out["savings"].sessions == 2
    assert out["retention"].value == 0.9 and out["retention"].sessions == 1
    assert out["refused"].value == 3.0
    low, high = out["savings"].low, out["savings"].high
    assert 0.2 <= low <= 0.3 <= high <= 0.4
    assert corpus_metrics(per_session, resamples=200) == out  # seeded
    only_a = corpus_metrics(per_session, sessions=["c/a"], resamples=200)
    assert only_a["refused"].value == 1.0 and only_a["retention"].value is None


def test_session_metrics_read_a_real_job_folder(tmp_path):
    config = compose_config(["corpus=synthetic-small", f"paths.cache_dir={tmp_path}"])
    folder = tmp_path / "job"
    assert run_job(config, JobContext(out_dir=folder, job_id="job", tables=False)).status == (
        "complete"
    )
    per_session = session_tune_metrics(folder)
    assert sorted(per_session) == [f"synthetic-small/synthetic-s7-00{i}" for i in range(3)]
    for values in per_session.values():
        assert 0 < values["savings"] < 1  # every bundled synthetic session compacts
        assert values["input_tokens"] > 0
        assert 0 < values["retention"] <= 1 and values["soba_quality"] is not None
        assert 0 < values["availability"] <= 1
        assert values["refused"] == 0 and values["blocked_forever"] == 0
        assert values["degraded_rate"] == 0.0  # no model, so no fallback capsule
    # One definition: every number the report's per-session frame also has is read from it.
    shared = frames.session_metrics(frames.load_runs(folder)).set_index("session")
    for name, values in per_session.items():
        row = shared.loc[name]
        assert values["savings"] == row["savings"] > 0
        # ... and the frame's savings are those of a plain walk over the job's barrier log
        sent = uncompacted = reclaimed = 0.0
        for line in read_jsonl(RunLayout(folder).barriers(name)):
            if line["kind"] not in ("check", "attempt"):
                continue
            done = line["kind"] == "attempt" and line["outcome"] == "completed"
            reclaimed += line["reclaimed"] if done else 0
            size = (
                line["effectiveTokens"]
                if line["kind"] == "check"
                else (line["tokensAfter"] if done else line["tokensBefore"])
            )
            if line["canProceed"]:
                sent, uncompacted = sent + size, uncompacted + size + reclaimed
        assert values["savings"] == pytest.approx(1 - sent / uncompacted)
        assert values["input_tokens"] == row["input_tokens_sent"] == sent
        assert values["retention"] == row["recall"]
        assert values["availability"] == row["availability"]
        assert values["capsule_retention"] == row["capsule_recall"]
        assert values["soba_quality"] == row["soba_quality_score"]
        assert values["soba_quality_pass_rate"] == row["soba_quality_pass"]
        assert values["attempts"] == row["attempts"] > 0
        assert values["skip_rate"] == row["skipped"] / row["attempts"]
        assert values["refused"] == row["blocked"]
    # ... and availability is the scorer's own per-session headline, as it wrote it
    rows = read_jsonl(folder / "scores" / "availability.jsonl")
    written = {r["session"]: r["availability"] for r in rows if r["strategy"] == "soba"}
    assert {name: v["availability"] for name, v in per_session.items()} == written
