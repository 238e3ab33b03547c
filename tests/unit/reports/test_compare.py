"""``compare_runs``: pairing by config and session, paired-bootstrap deltas, the gate's rule
(worse by more than max drop with the interval excluding 0), direction per metric, and the
Markdown / JSON renderings. Run folders are written here with known per-session values, so
every expected delta is known; one test pairs real jobs."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from soba_bench.errors import InputError, UnknownNameError
from soba_bench.reports.compare import SCHEMA_VERSION, compare_runs
from soba_bench.reports.compare_metrics import COMPARE_METRICS, DEFAULT_METRICS
from soba_bench.runs.layout import write_json, write_jsonl
from soba_bench.sweep.tables import write_parquet

SESSIONS = [f"c/s{i}" for i in range(12)]
BASE_BLOCKER = [1.0, 0.9, 1.0, 0.8, 1.0, 0.9, 1.0, 0.95, 0.85, 0.9, 1.0, 0.8]
BASE_AVAIL = [0.8, 0.7, 0.75, 0.9, 0.6, 0.85, 0.8, 0.7, 0.65, 0.9, 0.75, 0.8]


def make_job(
    folder: Path,
    *,
    blocker: list[float] = BASE_BLOCKER,
    blocked: list[int] | None = None,
    availability: list[float | None] = BASE_AVAIL,
    goal: list[float] | None = None,
    refused: list[int] | None = None,
    degraded: list[float | None] | None = None,
    engine: dict[str, Any] | None = None,
    variant: str = "soba-0.6.14",
    prompt: str | None = None,
    sessions: list[str] = SESSIONS,
    status: str = "complete",
) -> Path:
    """A job folder with the files compare reads; ``blocker`` is each session's capsule
    recall of blockers (two capsules per session, averaging to that value); ``availability``
    each session's headline (``goal`` its goal kind, default the same value), ``refused``
    its refused requests, ``degraded`` its degraded-fallback rate."""
    engine = {"contextWindow": 64000, "compaction": {"keepRecentTokens": 8000, **(engine or {})}}
    job_id = folder.name
    record = {
        "schemaVersion": 2,
        "status": status,
        "job": {"id": job_id},
        "jobKey": f"key-{folder}",
        "config": engine,
        "variant": variant,
        "strategy": "soba",
        "summarizer": {"name": "deterministic", "promptId": prompt},
        "corpora": [{"name": "c", "manifestSha256": "ab" * 32}],
        "meter": "soba",
        "seed": 0,
        "resolvedConfig": {"summarizer": {"params": {"prompt": prompt} if prompt else {}}},
    }
    record["resolvedConfig"]["scorer"] = {
        "scorers": ["availability", "outcomes", "retention", "soba_quality"]
    }
    avail_rows, outcome_rows = [], []
    rows, summaries, quality, attempts, session_rows = [], [], [], [], []
    for i, name in enumerate(sessions):
        value = blocker[i % len(blocker)]
        for generation, v in ((1, value - 0.05), (2, value + 0.05), ("final", 0.0)):
            base = {"session": name, "generation": generation, "strategy": "soba"}
            rows.append({**base, "view": "capsule", "kind": "blocker", "recall": v})
            rows.append({**base, "view": "input", "kind": "blocker", "recall": 1.0})
            # a comparison view at the same moment: never read as the job's own values
            rows.append({**base, "strategy": "truncation", "view": "input", "kind": "blocker"})
            rows[-1]["recall"] = 0.0
        for view, recall in (("capsule", 0.9), ("input", 0.95)):
            summaries.append(
                {"session": name, "strategy": "soba", "view": view, "moment": "capsules"}
            )
            summaries[-1].update(recall=recall, staleness=0.1, leaks=0, hallucinatedPaths=0)
        quality.append({"session": name, "generation": 1, "score": 0.7, "passed": False})
        attempts.append(
            {
                "session": name,
                "outcome": "completed",
                "savingsRatio": 0.5,
                "tokensBefore": 2000,
                "reason": "Compaction completed using deterministic strategy",
                "strategy": "deterministic",
                "summarizer": "deterministic",
            }
        )
        value = availability[i % len(availability)]
        if value is not None:
            kind = goal[i % len(goal)] if goal else value
            avail_rows.append(
                {
                    "session": name,
                    "strategy": "soba",
                    "availability": value,
                    "availability.goal": kind,
                    "availability.file": value,
                    "pointsDigest": f"d{i}",
                }
            )
        n_refused = (refused or [0])[i % len(refused or [0])]
        outcome_rows.append(
            {
                "session": name,
                "strategy": "soba",
                "requests": 100,
                "refusedRequests": n_refused,
                "blockedTurns": min(n_refused, 3),
                "overflows": 0,
                "attempts": 2,
                "degradedRate": (degraded or [0.0])[i % len(degraded or [0.0])],
                "inputTokensBilled": 50000 + 100 * i,
                "peakContextTokens": 9000,
            }
        )
        session_rows.append(
            {
                "session": name,
                "blocked": (blocked or [0])[i % len(blocked or [0])],
                "reclaimed": 1000,
                "attempts": 2,
                "skipped": 0,
            }
        )
    write_jsonl(folder / "scores" / "rows.jsonl", rows)
    write_jsonl(folder / "scores" / "sessions.jsonl", summaries)
    write_jsonl(folder / "scores" / "quality.jsonl", quality)
    write_jsonl(folder / "scores" / "availability.jsonl", avail_rows)
    write_jsonl(folder / "scores" / "outcomes.jsonl", outcome_rows)
    write_jsonl(folder / "sessions.jsonl", session_rows)
    write_parquet(folder / "tables" / "attempts.parquet", attempts)
    write_json(folder / "run.json", record)
    return folder


def deltas(comparison, metric):
    return [d for d in comparison.deltas if d.metric == metric]


def test_a_run_compared_with_itself_has_zero_deltas_and_passes(tmp_path):
    job = make_job(tmp_path / "base")
    c = compare_runs(job, job)
    assert c.exit_code == 0 and c.regressions == () and c.tested == ()
    assert c.verdict == "no regression" and c.cannot_test is None
    measured = [d for d in c.deltas if d.delta is not None]
    assert {d.metric for d in measured} >= {
        "availability",
        "availability.goal",
        "refused_requests",
        "degraded_rate",
        "input_tokens_billed",
    }
    assert all(d.testable for d in measured if d.gated)
    assert all(d.delta == 0 and d.low == 0 and d.high == 0 for d in measured)
    assert all(not d.changed for d in c.deltas)
    assert "no regression" in c.to_markdown()


def test_lower_availability_fails_the_gate(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", availability=[v - 0.2 for v in BASE_AVAIL])
    c = compare_runs(base, cand)
    assert c.exit_code == 1 and c.verdict == "regression"
    assert c.flagged_metrics == ("availability", "availability.goal", "availability.file")
    (d,) = deltas(c, "availability")
    assert d.delta == pytest.approx(-0.2) and d.p_worse is not None and d.p_worse <= 0.05
    # every session worse: the exact sign-flip p is 2^-12; Holm multiplies the smallest by
    # the 7 tests with values (3 availability columns, 4 outcomes)
    assert d.p_worse == pytest.approx(7 * 2**-12)
    assert d.mde == pytest.approx(0.0, abs=1e-9)  # no spread in the differences


def test_a_worse_candidate_is_flagged_on_the_metric_that_dropped(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", blocker=[v - 0.2 for v in BASE_BLOCKER])
    c = compare_runs(base, cand, metrics=["capsule_recall.blocker", "recall.blocker"])
    assert c.exit_code == 1
    assert c.flagged_metrics == ("capsule_recall.blocker",)
    (d,) = deltas(c, "capsule_recall.blocker")
    assert d.delta == pytest.approx(-0.2) and d.high < 0 and d.sessions == len(SESSIONS)
    assert d.base == pytest.approx(sum(BASE_BLOCKER) / len(BASE_BLOCKER))
    # the input view (capsule plus tail) kept every blocker on both sides
    assert deltas(c, "recall.blocker")[0].delta == 0
    md = c.to_markdown()
    assert (
        "❌" in md
        and "`capsule_recall.blocker`" in md
        and md.index("capsule_recall.blocker") < md.index("Unchanged")
    )


def test_an_improvement_never_fails_the_gate(tmp_path):
    base = make_job(tmp_path / "base", availability=[v - 0.2 for v in BASE_AVAIL])
    cand = make_job(tmp_path / "cand")
    c = compare_runs(base, cand)
    assert c.exit_code == 0 and c.verdict == "improvement"
    assert deltas(c, "availability")[0].delta == pytest.approx(0.2)
    assert deltas(c, "availability")[0].improved
    assert "improvement" in c.to_markdown()


def test_lower_is_better_metrics_flag_an_increase(tmp_path):
    base = make_job(tmp_path / "base", blocked=[0, 1])
    worse = make_job(tmp_path / "worse", blocked=[5, 9])
    better = make_job(tmp_path / "better", blocked=[0, 0])
    assert compare_runs(base, worse, metrics=["blocked_requests"]).flagged_metrics == (
        "blocked_requests",
    )
    assert compare_runs(base, better, metrics=["blocked_requests"]).exit_code == 0


def test_a_drop_within_max_drop_passes(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", blocker=[v - 0.05 for v in BASE_BLOCKER])
    assert compare_runs(base, cand, metrics=["capsule_recall.blocker"]).exit_code == 1
    assert compare_runs(base, cand, metrics=["capsule_recall.blocker"], max_drop=0.1).exit_code == 0
    per_metric = {"capsule_recall.blocker": 0.1, "*": 0.0}
    assert compare_runs(base, cand, max_drop=per_metric).exit_code == 0


def test_a_drop_whose_interval_includes_zero_passes(tmp_path):
    base = make_job(tmp_path / "base")
    # one session much worse, one better, the rest equal: a mean drop, but noise
    noisy = list(BASE_BLOCKER)
    noisy[0] -= 0.6
    noisy[1] += 0.1
    cand = make_job(tmp_path / "cand", blocker=noisy)
    (d,) = deltas(
        compare_runs(base, cand, metrics=["capsule_recall.blocker"]), "capsule_recall.blocker"
    )
    assert d.delta == pytest.approx(-0.5 / len(SESSIONS))
    assert d.high >= 0 and not d.regression


def test_intervals_are_seeded(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", blocker=[1.0, 0.5, 0.9, 0.8, 0.7, 0.9, 1.0, 0.6])
    first = compare_runs(base, cand, metrics=["capsule_recall.blocker"], seed=3).deltas[0]
    again = compare_runs(base, cand, metrics=["capsule_recall.blocker"], seed=3).deltas[0]
    other = compare_runs(base, cand, metrics=["capsule_recall.blocker"], seed=4).deltas[0]
    assert (first.low, first.high) == (again.low, again.high)
    assert (first.low, first.high) != (other.low, other.high)


def test_the_setting_under_test_is_found_and_sweeps_pair_point_by_point(tmp_path):
    for side, prompt in (("base", "v1@aaa"), ("cand", "v2@bbb")):
        for keep in (8000, 16000):
            make_job(tmp_path / side / f"k{keep}", engine={"keepRecentTokens": keep}, prompt=prompt)
    make_job(tmp_path / "cand" / "k32000", engine={"keepRecentTokens": 32000}, prompt="v2@bbb")
    c = compare_runs(tmp_path / "base", tmp_path / "cand", metrics=["recall"])
    keys = {k for k, _, _ in c.tested}
    assert keys == {"summarizer.promptId", "summarizer.params.prompt"}
    assert sorted(p.config for p in c.pairs) == [
        "engine.keepRecentTokens=16000",
        "engine.keepRecentTokens=8000",
    ]
    assert all(p.base_job == p.cand_job for p in c.pairs)  # k8000 with k8000, ...
    assert c.unpaired_cand_configs == ("k32000",) and c.unpaired_base_configs == ()
    md = c.to_markdown()
    assert "v1@aaa → v2@bbb" in md and "Unpaired configs" in md and "k32000" in md


def test_sessions_on_one_side_only_are_listed(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", sessions=[*SESSIONS[:6], "c/new"])
    c = compare_runs(base, cand, metrics=["capsule_recall.blocker"])
    (pair,) = c.pairs
    assert pair.sessions == 6
    assert pair.unpaired_base_sessions == tuple(SESSIONS[6:])
    assert pair.unpaired_cand_sessions == ("c/new",)
    assert c.deltas[0].sessions == 6


def test_nothing_pairs_is_an_input_error(tmp_path):
    for side in ("base", "cand"):
        make_job(tmp_path / side / "a", engine={"keepRecentTokens": 8000})
        make_job(tmp_path / side / "b", engine={"keepRecentTokens": 16000})
    make_job(tmp_path / "other", engine={"keepRecentTokens": 4000}, variant="x")
    with pytest.raises(InputError, match="no config pairs"):
        compare_runs(tmp_path / "base", tmp_path / "other")
    make_job(tmp_path / "elsewhere", sessions=["d/s0", "d/s1"])
    with pytest.raises(InputError, match="no session pairs"):
        compare_runs(tmp_path / "base" / "a", tmp_path / "elsewhere")


def test_bad_input_names_what_is_wrong(tmp_path):
    job = make_job(tmp_path / "base")
    with pytest.raises(UnknownNameError, match=r"valid names: .*recall\.blocker,"):
        compare_runs(job, job, metrics=["recall.blockers"])
    with pytest.raises(UnknownNameError):
        compare_runs(job, job, max_drop={"nope": 0.1})
    with pytest.raises(InputError, match="max drop"):
        compare_runs(job, job, max_drop=-1)
    with pytest.raises(InputError, match="CAND is not a folder"):
        compare_runs(job, tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"run\.json"):
        compare_runs(job, tmp_path / "empty")
    make_job(tmp_path / "twice" / "a")
    make_job(tmp_path / "twice" / "b")
    with pytest.raises(InputError, match="same config"):
        compare_runs(tmp_path / "twice", job)


def test_failed_jobs_are_listed_not_compared(tmp_path):
    make_job(tmp_path / "base" / "ok")
    make_job(tmp_path / "base" / "broken", engine={"keepRecentTokens": 1}, status="failed")
    c = compare_runs(tmp_path / "base", tmp_path / "base" / "ok")
    assert c.failed_jobs == ("broken",) and len(c.pairs) == 1
    assert "Failed jobs" in c.to_markdown()


def test_json_is_versioned_and_complete(tmp_path):
    base = make_job(tmp_path / "base")
    cand = make_job(tmp_path / "cand", blocker=[v - 0.2 for v in BASE_BLOCKER])
    data = json.loads(
        compare_runs(base, cand, metrics=["capsule_recall.blocker", "capsule_recall"]).to_json()
    )
    assert data["schema_version"] == SCHEMA_VERSION and data["verdict"] == "regression"
    assert data["flagged_metrics"] == ["capsule_recall.blocker"]
    by_name = {d["metric"]: d for d in data["deltas"]}
    assert by_name["capsule_recall.blocker"]["regression"] is True
    assert by_name["capsule_recall.blocker"]["higher_is_better"] is True
    assert by_name["capsule_recall"]["changed"] is False
    assert data["pairs"][0]["sessions"] == len(SESSIONS)


def test_every_default_metric_is_declared_with_a_direction():
    assert set(DEFAULT_METRICS) <= set(COMPARE_METRICS)
    for name in ("availability", "availability.goal", "availability.file", "availability.blocker"):
        assert name in DEFAULT_METRICS
    assert {"refused_requests", "blocked_turns", "overflows", "degraded_rate"} <= set(
        DEFAULT_METRICS
    )
    # capsule-moment scores are diagnostics now: selectable, not gated by default
    assert "recall" not in DEFAULT_METRICS and "capsule_recall.blocker" in COMPARE_METRICS
    assert COMPARE_METRICS.get("availability").spec.higher_is_better is True
    assert COMPARE_METRICS.get("refused_requests").spec.higher_is_better is False
    assert COMPARE_METRICS.get("staleness.blocker").spec.higher_is_better is False
    assert COMPARE_METRICS.get("degraded_rate").spec.higher_is_better is False


def test_real_jobs_pair_and_a_job_equals_itself(tmp_path):
    from soba_bench.sweep.app import compose_config
    from soba_bench.sweep.job import JobContext, run_job

    folders = []
    for keep in (8000, 20000):
        config = compose_config(
            [
                "corpus=synthetic-small",
                f"engine.keepRecentTokens={keep}",
                f"paths.cache_dir={tmp_path / 'cache'}",
            ]
        )
        folder = tmp_path / f"k{keep}"
        assert run_job(config, JobContext(out_dir=folder, job_id=folder.name)).status == "complete"
        folders.append(folder)
    same = compare_runs(folders[0], folders[0])
    # three sessions cannot reach the Holm level of the default gate: it says so, exit 3
    assert same.exit_code == 3 and same.verdict == "cannot test"
    assert "too few" in same.cannot_test and "✅" not in same.to_markdown()
    assert all(d.delta in (None, 0) for d in same.deltas)
    assert sum(d.delta is not None for d in same.deltas) > 10  # it measured, and found 0
    assert same.pairs[0].same_points == 3  # each session scored at the same requests
    c = compare_runs(folders[1], folders[0])
    assert [k for k, _, _ in c.tested] == ["engine.keepRecentTokens"]
    assert c.pairs[0].sessions == 3
    avail = deltas(c, "availability")[0]
    assert avail.sessions == 3 and avail.delta is not None
    # every job of a session is scored at the same requests, whatever its keepRecentTokens
    assert c.pairs[0].same_points == 3


def test_fewer_refused_requests_with_availability_not_lower_is_an_improvement(tmp_path):
    base = make_job(tmp_path / "base", refused=[40, 55, 60, 38])
    # the goal kind is worse (the fix keeps other things), the headline is not lower
    cand = make_job(tmp_path / "cand", refused=[4, 6, 5, 3], goal=[v - 0.3 for v in BASE_AVAIL])
    c = compare_runs(base, cand)
    assert c.verdict == "improvement" and c.exit_code == 0
    assert deltas(c, "refused_requests")[0].improved
    (goal,) = deltas(c, "availability.goal")
    assert goal.worse and goal.traded and not goal.regression
    md = c.to_markdown()
    assert "⇄" in md and "availability.goal" in md and "❌" not in md


def test_a_higher_degraded_rate_always_fails(tmp_path):
    base = make_job(tmp_path / "base", refused=[40, 55], degraded=[0.33])
    cand = make_job(tmp_path / "cand", refused=[4, 6], degraded=[0.67])
    c = compare_runs(base, cand)
    assert c.exit_code == 1 and c.flagged_metrics == ("degraded_rate",)
    assert deltas(c, "degraded_rate")[0].delta == pytest.approx(0.34)


def test_too_few_sessions_cannot_test_and_exits_3(tmp_path):
    base = make_job(tmp_path / "base", sessions=SESSIONS[:1], degraded=[0.33])
    cand = make_job(tmp_path / "cand", sessions=SESSIONS[:1], degraded=[0.67])
    c = compare_runs(base, cand)
    assert c.exit_code == 3 and c.verdict == "cannot test"
    assert "1 paired session(s), too few" in c.cannot_test
    md = c.to_markdown()
    assert "cannot test" in md and "✅" not in md
    assert json.loads(c.to_json())["verdict"] == "cannot test"


def test_no_ground_truth_cannot_test(tmp_path):
    base = make_job(tmp_path / "base", availability=[None])
    c = compare_runs(base, base)
    assert c.exit_code == 3 and "no paired values" in c.cannot_test


def test_the_cli_exits_3_when_it_cannot_test(tmp_path, capsys):
    from soba_bench.cli.main import main

    base = make_job(tmp_path / "base", sessions=SESSIONS[:2])
    assert main(["compare", str(base), str(base)]) == 3
    assert "cannot test" in capsys.readouterr().out


def test_a_a_noise_rarely_flags(tmp_path):
    """Both sides drawn from one distribution (an A/A comparison): Holm over the gated
    metrics keeps the share of flagged comparisons near or below 5 %."""
    import random

    rng = random.Random(7)
    flagged = 0
    trials = 40
    for trial in range(trials):
        sides = []
        for side in ("a", "b"):
            avail = [min(1.0, max(0.0, rng.gauss(0.75, 0.1))) for _ in SESSIONS]
            goal = [min(1.0, max(0.0, rng.gauss(0.5, 0.2))) for _ in SESSIONS]
            refused = [rng.randrange(0, 20) for _ in SESSIONS]
            sides.append(
                make_job(
                    tmp_path / f"{side}{trial}",
                    availability=avail,
                    goal=goal,
                    refused=refused,
                    prompt=side,
                )
            )
        flagged += compare_runs(*sides).exit_code == 1
    assert flagged <= 3  # 5 % of 40 is 2
