"""SOBA lowers an oversized keepRecentTokens to 85 % of the hard limit without a word; the
resolved config says so (``adaptations``) and the commands print it once."""

from __future__ import annotations

import subprocess
import sys

from soba_bench.engine.config import build_engine_config
from tests.builders import CONFORMANCE

SESSION = CONFORMANCE / "sessions" / "cc4-failures.jsonl.gz"


def test_an_oversized_keep_recent_is_adapted_and_reported():
    config = build_engine_config(
        {"contextWindow": 48000, "maxOutputTokens": 8000, "compaction": {"keepRecentTokens": 40000}}
    )
    assert config.compaction.keepRecentTokens == 27036  # SOBA's behaviour is kept
    (note,) = config.adaptations()
    assert "keepRecentTokens=40000" in note and "31808" in note and "27036" in note


def test_a_config_that_fits_has_nothing_to_report():
    assert build_engine_config({}).adaptations() == ()
    config = build_engine_config({"compaction": {"keepRecentTokens": 8000}})
    assert config.adaptations() == ()


def test_replay_prints_the_warning_once():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "soba_bench",
            "replay",
            str(SESSION),
            "--json",
            "contextWindow=48000",
            "maxOutputTokens=8000",
            "keepRecentTokens=40000",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("warning: keepRecentTokens=40000") == 1
    quiet = subprocess.run(
        [sys.executable, "-m", "soba_bench", "replay", str(SESSION), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "warning" not in quiet.stderr
