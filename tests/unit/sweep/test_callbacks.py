"""The sweep's start-up callback: parallel jobs get one embedding thread each."""

from __future__ import annotations

import os

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from soba_bench.scoring.embeddings import THREADS_ENV
from soba_bench.sweep.app import CONFIG_DIR
from soba_bench.sweep.callbacks import one_embedding_thread_per_job


def launcher(overrides: list[str]):
    """The composed hydra config of a multirun with these overrides (the launcher's node)."""
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        return compose("config", overrides=overrides, return_hydra_config=True)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ([], "1"),  # the default launcher: joblib, one process per core
        (["hydra.launcher.n_jobs=2"], "1"),
        (["hydra.launcher.n_jobs=1"], None),  # joblib, but serial
        (["hydra/launcher=basic"], None),  # one job at a time in this process
    ],
)
def test_parallel_launchers_give_each_job_one_embedding_thread(monkeypatch, overrides, expected):
    monkeypatch.delenv(THREADS_ENV, raising=False)
    config = launcher(overrides)
    one_embedding_thread_per_job(config)

    assert os.environ.get(THREADS_ENV) == expected


def test_a_thread_count_the_user_chose_is_kept(monkeypatch):
    monkeypatch.setenv(THREADS_ENV, "2")
    one_embedding_thread_per_job(OmegaConf.create({"hydra": {"launcher": {"n_jobs": -1}}}))

    assert os.environ[THREADS_ENV] == "2"
