from __future__ import annotations

import pytest

from tests.integration.sweeps import GRID, cli


@pytest.fixture(scope="session")
def grid_sweep(tmp_path_factory):
    """The done-when grid swept once, uninterrupted, with the default (joblib) launcher: the
    reference the resumed and the other launchers' sweeps are compared with."""
    sweep_dir = tmp_path_factory.mktemp("grid") / "sweep"
    done = cli("run", "-m", *GRID, f"hydra.sweep.dir={sweep_dir}")
    assert done.returncode == 0, done.stderr
    return sweep_dir, done


# A small real tuning run (6 trials on the small corpus), written once: the tune test checks
# its files, and the threshold notebook shows its recommendation.
SMALL_TUNE = ["corpus=synthetic-small", "search.trials=6", "report.resamples=200"]


@pytest.fixture(scope="session")
def small_tune(tmp_path_factory):
    """``soba-bench tune`` on the small corpus: its output folder and the finished process."""
    root = tmp_path_factory.mktemp("tune")
    out = root / "tune"
    done = cli("tune", *SMALL_TUNE, "--out", str(out), f"paths.cache_dir={root}")
    return out, done
