"""The repository passes ruff (lint rules and formatting from pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).parent / "ruff"


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]], ids=" ".join)
def test_ruff(args: list[str]) -> None:
    assert RUFF.exists(), f"ruff not found next to {sys.executable}; install the 'test' extra"
    result = subprocess.run(
        [str(RUFF), *args], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, f"ruff {' '.join(args)} failed:\n{result.stdout}{result.stderr}"
