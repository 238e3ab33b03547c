"""Tables of means carry n and an interval resampled over sessions; generation latency counts
a timed-out attempt at its timeoutMs (the model took at least that long), never at 0 ms; the
soba_quality chart says so when no capsule passed instead of drawing empty bars."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from soba_bench.reports import figures, figures_scores, tables
from soba_bench.reports.frames import RunSet

EMPTY = pd.DataFrame()
TIMED_OUT = "Compaction model timed out after 15000ms; used deterministic fallback"


def runset(jobs: list[dict], attempts: list[dict]) -> RunSet:
    return RunSet(
        Path("/tmp/r"),
        pd.DataFrame(jobs),
        EMPTY,
        pd.DataFrame(attempts),
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
    )


def attempt(job_id, session, ms, reason="ok", strategy="portable_only", summarizer="local"):
    return {
        "job_id": job_id,
        "session": session,
        "outcome": "completed",
        "reason": reason,
        "strategy": strategy,
        "summarizer": summarizer,
        "generationDurationMs": ms,
        "reclaimed": 600,
        "tokensBefore": 1000,
        "tokensAfter": 400,
        "savingsRatio": 0.6,
        "hardLimit": 1000,
        "softLimit": 800,
        "trigger": "hard_limit",
    }


JOBS = [
    {"job_id": "j1", "strategy": "soba", "summarizer": "local", "timeoutMs": 15000},
    {"job_id": "j2", "strategy": "soba", "summarizer": "deterministic", "timeoutMs": 15000},
]


def test_timed_out_attempts_count_at_their_timeout_and_deterministic_jobs_have_no_latency():
    rows = [
        attempt("j1", "s1", 2000),
        attempt("j1", "s1", 0, reason=TIMED_OUT, strategy="deterministic"),
        attempt("j1", "s2", 4000),
        attempt("j2", "s1", 0, summarizer="deterministic", strategy="deterministic"),
    ]
    rs = runset(JOBS, rows)
    lat = tables.generation_latency(rs)
    assert sorted(lat["ms"]) == [2000, 4000, 15000]
    assert lat["timed_out"].sum() == 1 and set(lat["job_id"]) == {"j1"}
    table = tables.fallbacks(rs).set_index("job")
    row = table.iloc[0]
    assert row["latency n"] == 3 and row["latency ms max"] == 15000
    assert row["latency ms median"] == 4000  # not 2000: the timeout is not read as 0 ms
    fig = figures.generation_latency(rs)
    assert "n = 3 attempts, 1 timed out" in fig.axes[0].get_title()
    assert "too few attempts" in fig.axes[0].get_title()


def test_degraded_rate_and_savings_carry_n_and_an_interval_over_sessions():
    rows = [attempt("j1", f"s{i}", 1000) for i in range(6)]
    rows += [attempt("j1", "s0", 0, reason=TIMED_OUT, strategy="deterministic")]
    rs = runset(JOBS[:1], rows)
    table = tables.fallbacks(rs).iloc[0]
    assert table["sessions"] == 6
    low, high = (float(x) for x in table["degraded rate 95% interval (sessions)"][1:-1].split(","))
    # one session in six degraded at rate 1/2: the session means are 0.5, 0, 0, 0, 0, 0
    assert low == 0.0 and 0.0 < high <= 0.5
    reclaimed = tables.reclaimed_summary(rs).iloc[0]
    assert reclaimed["sessions"] == 6
    assert reclaimed["savings ratio 95% interval (sessions)"] == "[0.600, 0.600]"


def test_quality_chart_says_when_no_capsule_passed(monkeypatch):
    quality = pd.DataFrame(
        {"job_id": ["j1"], "sessions": [3], "mean score": [0.42], "pass rate": [0.0]}
    )
    monkeypatch.setattr(tables, "quality", lambda rs, ids=False: quality)
    monkeypatch.setattr(figures_scores, "axis_labels", lambda rs: {"j1": "soba"})
    fig = figures_scores.quality_pass_rate(runset(JOBS[:1], []))
    ax = fig.axes[0]
    assert "no capsule passed" in ax.get_title()
    assert ax.patches[0].get_width() == 42.0  # the mean score is drawn, not an empty bar
