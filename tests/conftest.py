"""Suite-wide settings for running the tests on several processes (pytest-xdist).

`make test` runs ``pytest -n 2 --dist loadgroup``: each test goes to whichever worker is free,
except tests in one ``xdist_group``, which run on one worker. A fixture of module or session
scope is built once per worker that needs it, so tests that share such a fixture (a CLI sweep,
a corpus, a local model) are put in one group here: the fixture is built once, as in a serial
run, instead of once on each worker. A module that caches work in module-level functions
(functools.cache) says so with ``pytestmark = pytest.mark.xdist_group(NAME)``. Function-scoped
fixtures (tmp_path, ...) are per test and never shared, so the other tests spread freely.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
# Two workers share two cores: one onnxruntime thread per process instead of one per core
# (soba_bench/scoring/embeddings.py says what it saves). Set before any test builds the
# embedder; CLI subprocesses inherit it. A value the caller set wins.
os.environ.setdefault("SOBA_BENCH_EMBED_THREADS", "1")
# The same for the local model server (soba_bench/models/local_server.py: measured with one
# other busy process, the probe test took 49 s on one thread and 61 s on two).
os.environ.setdefault("SOBA_BENCH_LLM_THREADS", "1")
# One embedding store for the whole run, shared by the workers and every CLI process they
# start: most tests score the same few generated sessions, and embedding their lines is most
# of what scoring costs. Vectors are a function of their text (tests/unit/scoring/
# test_embedding_store.py checks a stored vector equals a computed one), so sharing changes
# no score. The controller imports this file before it starts the workers, which inherit the
# variable; it removes the folder at the end. A value the caller set wins and is kept.
EMBED_STORE_ENV = "SOBA_BENCH_EMBED_CACHE"
_OWN_STORE: Path | None = None
if not os.environ.get(EMBED_STORE_ENV):
    _OWN_STORE = Path(tempfile.mkdtemp(prefix="soba-bench-tests-"))
    os.environ[EMBED_STORE_ENV] = str(_OWN_STORE / "embeddings.sqlite")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _OWN_STORE is not None and not hasattr(config, "workerinput"):
        shutil.rmtree(_OWN_STORE, ignore_errors=True)


def _shared_fixtures(item: pytest.Item) -> set[str]:
    """Keys of the non-function-scoped fixtures from tests/ that ``item`` asks for, directly or
    through other fixtures (autouse ones are left out: every test of their folder gets them,
    and none is costly). A module fixture is keyed by its module, a session one by its name."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:  # not a python function item (e.g. a doctest)
        return set()
    keys, seen, todo = set(), set(), list(info.argnames)
    while todo:
        name = todo.pop()
        if name in seen or name not in info.name2fixturedefs:
            continue
        seen.add(name)
        fixturedef = info.name2fixturedefs[name][-1]  # the one this item gets
        todo.extend(fixturedef.argnames)
        if fixturedef.scope == "function":
            continue
        code = getattr(fixturedef.func, "__code__", None)
        source = Path(code.co_filename) if code else None
        if source is None or TESTS not in source.parents:
            continue  # pytest's own (tmp_path_factory, ...): cheap and per worker anyway
        where = source.relative_to(TESTS).with_suffix("").as_posix()
        keys.add(name if fixturedef.scope == "session" else f"{fixturedef.scope}:{where}")
    return keys


@pytest.hookimpl(tryfirst=True)  # before xdist reads the xdist_group marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put tests that share a costly fixture in one xdist group. Keys that meet in one test
    are merged (a test using a module fixture and a session fixture joins both groups), and
    an explicit ``xdist_group`` mark (for a module-level cache) is one more key."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key

    by_item = {}
    for item in items:
        marks = item.iter_markers("xdist_group")
        named = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in marks}
        keys = sorted(_shared_fixtures(item) | {f"mark:{name}" for name in named})
        if keys:
            by_item[item] = keys
            for other in keys[1:]:
                parent[find(other)] = find(keys[0])
    items.sort(key=_start_rank)
    worker = getattr(config.option, "loadgroup", False)  # an xdist worker, --dist loadgroup
    for item, keys in by_item.items():
        group = f"shared-{find(keys[0]).split(':')[-1]}"
        item.add_marker(pytest.mark.xdist_group(group))
        if worker and hasattr(item, "_id"):
            _suffix_node_id(item, group)


# The longest work units (a group's fixture and tests, or one notebook), slowest first, as a
# clean-clone CI run measured them (`make test` prints the 25 slowest). Handed out first, they
# run while the short tests fill the other worker, instead of one of them running last on one
# worker while the other idles. Order only: every test still runs.
START_FIRST = (
    "tests/integration/test_local_model.py",
    "tests/integration/test_planted_gate.py",
    "tests/integration/test_probes_local.py",
    "tests/integration/test_cli_compare.py",
    "tests/integration/test_notebooks.py",
    "tests/integration/test_main_job.py",
    "tests/test_typecheck.py",  # mypy over the whole package (make test runs it here)
)


def _start_rank(item: pytest.Item) -> int:
    """Where ``item``'s module is in START_FIRST (the rest after it, in collection order:
    the sort is stable)."""
    path = item.nodeid.split("::", 1)[0]
    return START_FIRST.index(path) if path in START_FIRST else len(START_FIRST)


def _suffix_node_id(item: pytest.Item, group: str) -> None:
    """What xdist's loadgroup does with the mark (its scheduler reads the group from a
    ``nodeid@group`` suffix), done here because pytest >= 9.2 keeps the node id in ``_id``
    and ignores the ``_nodeid`` that xdist 3.8 sets, which would leave every group split."""
    item._id = type(item._id).parse(f"{item.nodeid}@{group}")
    if not item.nodeid.endswith(f"@{group}"):
        raise pytest.UsageError(f"cannot put {item.nodeid} in xdist group {group}")
