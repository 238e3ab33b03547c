"""constraints.txt (the lock every Makefile install uses) agrees with pyproject.toml: every
dependency of the core and of every extra is pinned there to exactly one version that satisfies
pyproject's range, and the lock pins nothing twice or loosely. Refresh with `make lock`."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>[^\s;#]+)$")


def lock() -> dict[str, str]:
    pins: dict[str, str] = {}
    for number, line in enumerate((ROOT / "constraints.txt").read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        found = PIN.match(line)
        assert found, f"constraints.txt:{number}: not an exact pin: {line!r}"
        name = canonicalize_name(found["name"])
        assert name not in pins, f"constraints.txt:{number}: {name} pinned twice"
        pins[name] = found["version"]
    return pins


def requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in project["optional-dependencies"].values():
        found += [Requirement(r) for r in extra]
    return [r for r in found if canonicalize_name(r.name) != "soba-bench"]


def test_every_dependency_is_pinned_within_its_range():
    pins = lock()
    problems = []
    for req in requirements():
        version = pins.get(canonicalize_name(req.name))
        if version is None:
            problems.append(f"{req} is not in constraints.txt")
        elif not req.specifier.contains(version, prereleases=True):
            problems.append(f"{req}: the lock pins {version}, outside pyproject's range")
    assert problems == [], "run `make lock`:\n" + "\n".join(problems)


def test_the_makefile_installs_through_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "$(INSTALL) " in line]
    assert len(installs) == 2 and all("-c $(LOCK) -e" in line for line in installs), installs
    assert "LOCK := constraints.txt" in makefile
    # Both installers the Makefile offers take the same lock; uv itself is pinned.
    assert "INSTALL := $(BIN)/python -m pip install" in makefile
    assert "INSTALL := $(BIN)/uv pip install" in makefile
    # With PYTHONDONTWRITEBYTECODE set (CI) Python writes no .pyc, and every process the suite
    # starts compiled its imports again (about 3 s each): the recipes clear it, so each module
    # is compiled once, when first imported.
    assert "WRITE_PYC := PYTHONDONTWRITEBYTECODE=\n" in makefile
    for target in ("run", "test", "fast"):
        recipe = makefile.split(f"\n{target}: ", 1)[1].split("\n\n", 1)[0]
        assert "\t$(WRITE_PYC) $(BIN)/" in recipe, target
    assert re.search(r"^UV_VERSION := \d+\.\d+\.\d+$", makefile, re.M)


def test_the_venv_is_ignored_as_a_link_too():
    # "venv/" ignores only a directory: a worktree's .venv symlink to another checkout's venv
    # was once committed that way, and every clean clone then failed to create its own.
    lines = (ROOT / ".gitignore").read_text().splitlines()
    assert ".venv" in lines
