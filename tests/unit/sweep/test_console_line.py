"""The one-line job summary and the jobs table read recall from the scoring record: SOBA's
capsule recall for SOBA jobs, and every job's own model-input recall, so a sweep over
strategies shows a comparable number for the capsule-free ones too."""

from __future__ import annotations

from soba_bench.sweep.console import input_recall, job_line, soba_recall

SCORING = {
    "corpus": [
        {"strategy": "soba", "view": "capsule", "moment": "capsules", "recall": 0.9},
        {"strategy": "soba", "view": "input", "moment": "capsules", "recall": 0.95},
        {"strategy": "soba", "view": "input", "moment": "final", "recall": 0.5},
        {"strategy": "truncation", "view": "input", "moment": "capsules", "recall": 0.7},
    ]
}


def record(strategy: str, scoring=SCORING) -> dict:
    totals = {"attempts": 3, "completed": 3, "failed": 0, "skipped": 0, "blocked": 0}
    return {"strategy": strategy, "scoring": scoring, "totals": {**totals, "reclaimed": 10}}


def test_soba_job_line_shows_capsule_and_input_recall():
    line = job_line("0-x", "complete", record("soba"))
    assert "recall 0.900" in line and "input recall 0.950" in line
    assert soba_recall(SCORING) == 0.9 and input_recall(record("soba")) == 0.95


def test_rival_job_reads_its_own_input_recall_not_sobas():
    own = {"corpus": [r for r in SCORING["corpus"] if r["strategy"] != "soba"]}
    line = job_line("1-x", "complete", record("truncation", own))
    assert "input recall 0.700" in line and "recall 0.9" not in line
    assert input_recall(record("truncation", own)) == 0.7


def test_unscored_job_has_no_recall():
    line = job_line("2-x", "complete", record("soba", None))
    assert "recall" not in line
    assert input_recall(record("none", None)) is None
