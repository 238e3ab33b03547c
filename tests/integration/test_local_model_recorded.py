"""The recorded local-model experiment (configs/experiment/local_model.yaml) replays offline.

Its answers were recorded from the real Qwen2.5-Coder-0.5B server into
corpora/synthetic-tiny/recorded/responses.sqlite; the experiment reads them in read-only mode.
These tests pin what the issue asks of a recorded run: it replays without a server or network
with identical results every time, a cached answer keeps its recorded latency (so SOBA's 15 s
deadline times out exactly the answers that took longer), and a changed request is a cache miss
that stops the job instead of silently calling a model.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from soba_bench.cli import run_cmd
from soba_bench.summarizers import model_backed
from tests.integration.sweeps import job_dirs, records

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "corpora" / "synthetic-tiny" / "recorded" / "responses.sqlite"
VOLATILE = ["wallMs", "jobId", "jobKey"]


@pytest.fixture
def no_server(monkeypatch):
    """Any attempt to start the local model server fails the job."""

    def refuse(*_args, **_kwargs):
        raise AssertionError("the recorded experiment tried to start a model server")

    monkeypatch.setattr(model_backed, "shared_local_server", refuse)


def _sweep(sweep_dir: Path, *extra: str) -> int:
    # In-process (basic launcher) so the monkeypatched server factory applies to every job.
    return run_cmd.main(
        [
            "experiment=local_model",
            "hydra/launcher=basic",
            "progress.bars=false",
            f"hydra.sweep.dir={sweep_dir}",
            *extra,
        ],
        multirun=True,
    )


def _attempts(sweep_dir: Path) -> dict[int, pd.DataFrame]:
    out = {}
    for folder in job_dirs(sweep_dir):
        record = json.loads((folder / "run.json").read_text())
        assert record["status"] == "complete", record.get("error")
        frame = pd.read_parquet(folder / "tables" / "attempts.parquet")
        out[record["config"]["compaction"]["timeoutMs"]] = frame.drop(columns=VOLATILE)
    return out


def _timed_out(frame: pd.DataFrame, timeout: int) -> pd.Series:
    return frame["reason"].str.contains(f"timed out after {timeout}ms", regex=False)


def test_recorded_experiment_replays_offline_identically(tmp_path, no_server):
    before = RECORDED.read_bytes()
    assert _sweep(tmp_path / "a") == 0
    assert _sweep(tmp_path / "b", "resume=false") == 0  # recomputed, not reused from "a"
    first, second = _attempts(tmp_path / "a"), _attempts(tmp_path / "b")
    assert sorted(first) == [15000, 600000]
    for timeout, frame in first.items():
        assert not frame.empty
        pd.testing.assert_frame_equal(frame, second[timeout])
    assert RECORDED.read_bytes() == before
    for record in records(tmp_path / "a"):
        assert record["summarizer"]["cache"] == "read-only"
        assert record["summarizer"]["cachePath"] == str(RECORDED)


def test_recorded_latency_decides_the_timeout_fallbacks(tmp_path, no_server):
    assert _sweep(tmp_path / "s") == 0
    short, long = (_attempts(tmp_path / "s")[t] for t in (15000, 600000))
    # Both jobs send the same first request (the history is the same up to it); its answer's
    # recorded latency is what the patient job measured. SOBA's 15 s deadline must time it
    # out exactly when that latency exceeds 15 s.
    first_latency = long["generationDurationMs"].iloc[0]
    assert long["strategy"].iloc[0] == "portable_only" and first_latency > 0
    assert bool(_timed_out(short, 15000).iloc[0]) == (first_latency > 15000)
    assert not _timed_out(long, 600000).any()
    assert (long["strategy"] == "portable_only").any()  # the model wrote at least one capsule


@pytest.mark.parametrize("latency_ms", [1000, 20000])
def test_a_latency_model_over_the_recorded_answers(tmp_path, no_server, latency_ms):
    # A fixed simulated latency replaces the recorded one: below the 15 s deadline both jobs
    # take the patient job's path (every answer used); above it the short job falls back every
    # time. Either way every request is one the recording holds.
    sweep = tmp_path / "fixed"
    assert _sweep(sweep, f"+summarizer.params.latency={{kind:fixed,ms:{latency_ms}}}") == 0
    short, long = (_attempts(sweep)[t] for t in (15000, 600000))
    assert not _timed_out(long, 600000).any()
    if latency_ms < 15000:
        assert not _timed_out(short, 15000).any()
        columns = ["outcome", "strategy", "quality", "tokensAfter", "reclaimed"]
        pd.testing.assert_frame_equal(short[columns], long[columns])
    else:
        assert _timed_out(short, 15000).all()
        assert (short["quality"] == "degraded").all()


def test_a_changed_request_is_a_cache_miss_not_a_model_call(tmp_path, no_server):
    code = _sweep(tmp_path / "miss", "+summarizer.params.prompt=anchored-iterative")
    assert code != 0
    for record in records(tmp_path / "miss"):
        assert record["status"] == "failed"
        assert "(read-only) has no answer" in record["error"], record["error"]


def test_tune_and_the_report_agree_on_the_fallback_rate(tmp_path, no_server):
    from soba_bench.reports import load_runs
    from soba_bench.reports.compare_metrics import metric_frame
    from soba_bench.tune.metrics import session_tune_metrics

    assert _sweep(tmp_path / "s") == 0
    frame = metric_frame(load_runs(tmp_path / "s")).set_index("job_id")
    rates = {}
    for folder in job_dirs(tmp_path / "s"):
        (tuned,) = session_tune_metrics(folder).values()
        assert tuned["degraded_rate"] == frame.loc[folder.name, "degraded_rate"]
        rates[folder.name.split("-", 1)[1]] = tuned["degraded_rate"]
    # At 15 s every recorded answer is too late; at 600 s only the unparsable one falls back.
    assert rates["timeoutMs=15000"] == 1.0
    assert 0 < rates["timeoutMs=600000"] < 1
