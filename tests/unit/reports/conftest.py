"""Real run folders for the report tests, made once per test session with the CLI:

* ``adhoc/first``: a two-job sweep (keepRecentTokens 8000, 20000) on synthetic-small, scored;
* ``adhoc/second``: the same sweep again, every job a ``reused.json`` pointer into ``first``;
* ``single``: one run with ROI minima that make every skip category of the soft policy show
  up, and ``scorer=none`` (no scores recorded).

Tests copy what they change; these folders are never modified.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SWEEP = ["engine.keepRecentTokens=8000,20000", "corpus=synthetic-small", "hydra/launcher=basic"]


def soba_bench(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", "soba_bench", *args], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


@dataclass(frozen=True)
class Runs:
    root: Path
    first: Path  # the sweep with both job records
    second: Path  # the re-run: reused.json pointers only
    single: Path  # one run folder (run.json), scorer=none


@pytest.fixture(scope="session")
def runs(tmp_path_factory) -> Runs:
    root = tmp_path_factory.mktemp("report-runs")
    first, second = root / "adhoc" / "first", root / "adhoc" / "second"
    common = [f"paths.results_dir={root}", "progress.bars=false"]
    soba_bench("run", "-m", *SWEEP, *common, f"hydra.sweep.dir={first}")
    soba_bench("run", "-m", *SWEEP, *common, f"hydra.sweep.dir={second}")
    soba_bench(
        "run",
        "corpus=synthetic-small",
        "scorer=none",
        "engine.minReclaimableTokens=52000",
        "engine.minSavingsRatio=0.75",
        "progress.bars=false",
        "--results",
        str(root / "singles"),
    )
    (single,) = (root / "singles").iterdir()
    return Runs(root, first, second, single)
