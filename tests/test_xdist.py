"""`make test` runs the suite on two xdist workers with tests/conftest.py's groups: tests that
share a module fixture run on one worker (so the fixture is built once), the rest spread, and a
run that collects nothing still exits 5 (which the Makefile turns into a failure)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = Path(__file__).with_name("conftest.py")

MODULE = """
import json, os, pathlib
import pytest

LOG = pathlib.Path(os.environ["BUILD_LOG"])


def note(what):
    with LOG.open("a") as f:
        f.write(json.dumps([what, os.environ.get("PYTEST_XDIST_WORKER")]) + "\\n")


@pytest.fixture(scope="module")
def costly():
    note("built")
    return 1


@pytest.mark.parametrize("n", range(6))
def test_shared(costly, n):
    note("shared")
    assert costly == 1


@pytest.mark.parametrize("n", range(6))
def test_free(n):
    note("free")
"""


def test_module_fixture_users_share_one_worker(pytester, monkeypatch, tmp_path):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_groups=MODULE)
    log = tmp_path / "log.jsonl"
    monkeypatch.setenv("BUILD_LOG", str(log))
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--dist", "loadgroup")
    result.assert_outcomes(passed=12)
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    built = [worker for what, worker in rows if what == "built"]
    shared = {worker for what, worker in rows if what == "shared"}
    assert len(built) == 1 and shared == set(built)  # built once, on the worker that uses it
    assert {worker for _, worker in rows} == {"gw0", "gw1"}  # both workers ran something


def test_no_tests_collected_still_exits_5_on_workers(pytester):
    pytester.makeconftest(CONFTEST.read_text())
    pytester.makepyfile(test_nothing="def helper():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "xdist", "-n", "2", "--dist", "loadgroup")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_modules_started_first_exist():
    # A renamed module would silently lose its place at the front (and CI its balance).
    from tests.conftest import START_FIRST

    root = CONFTEST.parent.parent
    assert [p for p in START_FIRST if not (root / p).is_file()] == []
