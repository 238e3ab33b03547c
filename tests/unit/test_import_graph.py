"""The package's import graph follows the pipeline: a stage never imports a stage above it.

Read statically from the source (every ``import``, at module level or inside a function, so
a lazy import cannot hide a cycle), then closed transitively: ``scoring`` must not reach
``sweep`` (sweep runs jobs and scores them, so the edge goes one way only); ``reports`` reads
run folders through ``runs``, never through ``sweep``; the shared layers (``runs``,
``models``, ``jsonio``) reach none of the stages that use them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "soba_bench"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(name: str) -> str | None:
    """The module a dotted import name lands in (``pkg.mod.Class`` -> ``pkg.mod``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


@cache
def direct_imports(module: str) -> frozenset[str]:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        found.update(m for m in map(_resolve, names) if m and m != module)
    # Importing a module runs its packages' __init__ first.
    for parent in {m.rsplit(".", i)[0] for m in found for i in range(1, m.count(".") + 1)}:
        if parent in MODULES and parent != module:
            found.add(parent)
    return frozenset(found)


def reachable(roots: list[str]) -> dict[str, str]:
    """Every module reachable from ``roots``, each with the module that imports it first."""
    seen: dict[str, str] = {root: "" for root in roots}
    stack = list(roots)
    while stack:
        current = stack.pop()
        for nxt in direct_imports(current):
            if nxt not in seen:
                seen[nxt] = current
                stack.append(nxt)
    return seen


def _chain(seen: dict[str, str], target: str) -> str:
    chain = [target]
    while seen[chain[-1]]:
        chain.append(seen[chain[-1]])
    return " <- ".join(chain)


def _stage(prefix: str) -> list[str]:
    return [m for m in MODULES if m == prefix or m.startswith(prefix + ".")]


@pytest.mark.parametrize(
    ("lower", "upper"),
    [
        ("soba_bench.scoring", "soba_bench.sweep"),
        ("soba_bench.reports", "soba_bench.sweep"),
        ("soba_bench.runs", "soba_bench.sweep"),
        ("soba_bench.runs", "soba_bench.scoring"),
        ("soba_bench.models", "soba_bench.summarizers"),
        ("soba_bench.models", "soba_bench.scoring"),
        ("soba_bench.jsonio", "soba_bench.session"),
        ("soba_bench.session", "soba_bench.engine"),
    ],
)
def test_a_lower_layer_never_reaches_an_upper_one(lower: str, upper: str) -> None:
    seen = reachable(_stage(lower))
    reached = sorted(m for m in seen if m == upper or m.startswith(upper + "."))
    assert not reached, f"{lower} imports {upper}: " + _chain(seen, reached[0])


def test_the_graph_reader_sees_real_edges() -> None:
    # The instrument itself: a known direct edge, a lazy (function-level) one and a relative one.
    assert "soba_bench.scoring.session" in direct_imports("soba_bench.sweep.job")
    assert "soba_bench.summarizers" in reachable(["soba_bench.sweep.schema"])
    assert "soba_bench.scoring.probes.config" in direct_imports("soba_bench.scoring.probes.backend")
    assert "soba_bench.sweep" in reachable(["soba_bench.sweep.job"])  # the package __init__
