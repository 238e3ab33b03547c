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
