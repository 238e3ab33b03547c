"""The local server's thread count: asked for, from $SOBA_BENCH_LLM_THREADS, else one per core;
a bad value is refused with the variable's name."""

from __future__ import annotations

import os

import pytest

from soba_bench.errors import ConfigError
from soba_bench.models import local_server
from soba_bench.models.local_server import THREADS_ENV, ServerOptions


def test_a_requested_count_wins_then_the_environment_then_the_cores(monkeypatch):
    monkeypatch.setenv(THREADS_ENV, "1")
    assert local_server._threads(3) == 3
    assert local_server._threads(None) == 1
    monkeypatch.delenv(THREADS_ENV)
    assert local_server._threads(None) == len(os.sched_getaffinity(0))
    # a subprocess server gets no --threads when none was asked: it reads the environment
    assert "--threads" not in ServerOptions().args()


@pytest.mark.parametrize("raw", ["0", "two", "-1"])
def test_a_bad_count_is_refused_naming_the_variable(monkeypatch, raw):
    monkeypatch.setenv(THREADS_ENV, raw)
    with pytest.raises(ConfigError, match=f"{THREADS_ENV}: value '{raw}'"):
        local_server._threads(None)


def test_the_prompt_step_reaches_the_server_process():
    # LocalServer starts `serve-model` with these arguments; its parser must give the step
    # back to ServerOptions (the real-clock test in tests/integration/test_local_model.py
    # relies on 64-token steps to end an abandoned prompt within seconds).
    import argparse

    from soba_bench.cli import serve_model_cmd

    args = ServerOptions(batch=64).args()
    assert args[args.index("--batch") + 1] == "64"
    parser = argparse.ArgumentParser()
    serve_model_cmd.add_arguments(parser)
    parsed = parser.parse_args(args)
    assert parsed.batch == 64 and ServerOptions().batch == 512
