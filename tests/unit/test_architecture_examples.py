"""The examples of docs/architecture.md run as they stand: each ``python`` block under a
"### A new ..." heading is run from the repository root in a fresh interpreter (a block
registers a plug-in, which must not leak into other tests) and must exit 0."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "architecture.md"
BLOCK = re.compile(r"^### (A new [a-z]+)\n(?:(?!^### ).)*?^```python\n(.*?)^```", re.M | re.S)


def examples() -> dict[str, str]:
    return dict(BLOCK.findall(PAGE.read_text(encoding="utf-8")))


def test_the_page_has_an_example_per_plug_in_kind() -> None:
    assert sorted(examples()) == [
        "A new compactor",
        "A new importer",
        "A new scorer",
        "A new summarizer",
    ]


@pytest.mark.parametrize("title", sorted(examples()))
def test_example_runs(title: str) -> None:
    code = examples()[title]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{title} failed:\n{done.stderr[-3000:]}"
