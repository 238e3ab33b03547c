"""The type checker is wired into CI and its configuration catches what it should.

`make typecheck` (and `make lint`, which depends on it) runs mypy with pyproject's [tool.mypy]
over the whole package; `make test` (CI) runs that same command as a test here, in parallel with
the rest of the suite instead of before it. The other tests run mypy with the same configuration
on small planted modules: a plain type error anywhere in the package fails, and an unannotated
function fails in a core stage (strict) but not in, say, reports."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE_STAGES = ("session", "meter", "engine", "replay")


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    """One mypy cache for the module: the standard library is analysed once, not per test."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(
    tmp_path: Path, cache_dir: Path, stage: str, source: str
) -> subprocess.CompletedProcess[str]:
    """Run mypy with the project's config on `source` planted as soba_bench/<stage>/planted.py
    (module names, and so the per-module overrides, come from the package layout)."""
    package = tmp_path / "soba_bench"
    (package / stage).mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / stage / "__init__.py").write_text("")
    planted = package / stage / "planted.py"
    planted.write_text(source)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache_dir),
            str(planted),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_make_lint_runs_the_type_checker_and_make_test_runs_this_suite():
    makefile = (ROOT / "Makefile").read_text()
    line = re.search(r"^lint:(.*)$", makefile, re.M)
    assert line and "typecheck" in line[1].split(), "`make lint` must depend on typecheck"
    recipe = re.search(r"^typecheck:.*\n\t(.*)$", makefile, re.M)
    assert recipe and recipe[1].strip() == "$(BIN)/python -m mypy", recipe
    # `make test` runs every tier, so test_the_whole_package_type_checks below with it.
    test_recipe = makefile.split("\ntest: ", 1)[1].split("\n\n", 1)[0]
    assert '-m "slow or not slow"' in test_recipe, test_recipe


@pytest.mark.slow
def test_the_whole_package_type_checks():
    """What `make typecheck` runs: mypy with [tool.mypy] over the package (its files list),
    from the repository root with mypy's own cache (cold in a clean clone: about 35 s)."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("Success: no issues found in "), done.stdout


@pytest.mark.parametrize("stage", ["engine", "reports"])
def test_a_planted_type_error_fails(tmp_path, cache_dir, stage):
    done = _mypy(tmp_path, cache_dir, stage, "def count() -> int:\n    return 'three'\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "planted.py:2: error: Incompatible return value type" in done.stdout, done.stdout


@pytest.mark.parametrize("stage", CORE_STAGES)
def test_core_stages_are_strict(tmp_path, cache_dir, stage):
    done = _mypy(tmp_path, cache_dir, stage, "def double(x):\n    return x * 2\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "[no-untyped-def]" in done.stdout, done.stdout


def test_other_stages_are_not_strict(tmp_path, cache_dir):
    done = _mypy(tmp_path, cache_dir, "reports", "def double(x):\n    return x * 2\n")
    assert done.returncode == 0, done.stdout + done.stderr
