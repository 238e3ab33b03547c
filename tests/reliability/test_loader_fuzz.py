"""Fuzzing every loader of the harness's inputs with hostile files: session JSONL (strict and
lenient), CASE.json engine configs, ground-truth sidecars and corpus manifests.

Each input is a valid sample turned hostile (truncated, invalid UTF-8, a value replaced by a
wrong type, 1e400, a 5,000-digit integer, 100k nested brackets, a cut gzip stream, an empty
file). The loader must either accept it or raise a SobaBenchError whose message names the
file, and the line and field where it knows them; nothing else may escape. Lenient reading
must account for every line (read or counted as skipped). Counts go to the figures artifact.
"""

from __future__ import annotations

import gzip
import json
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from soba_bench.corpora.manifest import build_manifest, load_corpus
from soba_bench.corpora.truth import read_truth
from soba_bench.engine.config import load_engine_config
from soba_bench.errors import ConfigError, InputError, SobaBenchError
from soba_bench.session import read_session
from tests.builders import REPO
from tests.reliability.figures import tally
from tests.reliability.hostile import mutated

SMALL = REPO / "corpora" / "synthetic-small" / "sessions"
SESSION = b"\n".join(
    gzip.decompress((SMALL / "synthetic-s7-000.jsonl.gz").read_bytes()).split(b"\n")[:40]
)
CONFIG = (REPO / "corpora" / "soba-conformance" / "configs" / "C1.json").read_bytes()
TRUTH = (SMALL / "synthetic-s7-000.truth.json").read_bytes()


def _manifest_sample() -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sessions").mkdir()
        (Path(tmp) / "sessions" / "s.jsonl").write_bytes(SESSION)
        data = build_manifest(tmp, ["sessions/s.jsonl"], name="fuzz", version="1")
    return json.dumps(data, indent=1).encode()


MANIFEST = _manifest_sample()

# Quick examples per loader in the default tier; the slow tier runs many more.
TIERS = [pytest.param(150, id="quick"), pytest.param(750, id="heavy", marks=pytest.mark.slow)]


def expect_own_error(area: str, path: Path, load: Callable[[Path], object], root: Path):
    """Run ``load``; return its result, or None after checking the error it raised."""
    tally(area)
    try:
        result = load(path)
    except InputError as err:
        message = str(err)
        assert err.path is not None and Path(err.path).is_relative_to(root), message
        assert message.startswith(err.path), message
        if err.line is not None:
            assert f"{err.path}:{err.line}: " in message
        if err.field is not None:
            assert repr(err.field) in message
        tally(area, "rejected")
        return None
    except ConfigError as err:  # SOBA's own config rules, in SOBA's words
        assert str(err).startswith("Invalid compaction config: "), str(err)
        tally(area, "rejected")
        return None
    except SobaBenchError as err:  # pragma: no cover - would name a new error kind
        pytest.fail(f"unexpected SobaBenchError kind {type(err).__name__}: {err}")
    tally(area, "accepted")
    return result


def fuzz(sample: bytes, jsonl: bool, name: str, check, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(content=mutated(sample, jsonl=jsonl))
    def run(content: bytes) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            path = root / name
            path.write_bytes(content)
            check(path, root)
            assert path.read_bytes() == content  # the input is never modified

    run()


def _session_check(path: Path, root: Path) -> None:
    strict = expect_own_error("session strict", path, read_session, root)
    lenient = expect_own_error(
        "session lenient", path, lambda p: read_session(p, strict=False), root
    )
    if strict is not None:
        # Whatever strict accepts, lenient reads the same way, skipping nothing.
        assert lenient is not None
        assert [e.data for e in lenient.lines] == [e.data for e in strict.lines]
        assert not [i for i in lenient.issues if i.skipped]
    if lenient is not None:
        # Every non-blank line is read or counted as skipped: nothing vanishes silently.
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        lines = [ln for ln in raw.removeprefix(b"\xef\xbb\xbf").split(b"\n") if ln.strip()]
        skipped = [i for i in lenient.issues if i.skipped]
        assert len(lenient.lines) + len(skipped) == len(lines)
        assert all(i.line >= 1 and str(path) in i.message for i in skipped)


@pytest.mark.parametrize("examples", TIERS)
def test_session_reader_strict_and_lenient(examples):
    fuzz(SESSION, True, "s.jsonl", _session_check, examples)


@pytest.mark.parametrize("examples", TIERS)
def test_engine_config_loader(examples):
    def check(path, root):
        expect_own_error("engine config (CASE.json)", path, load_engine_config, root)

    fuzz(CONFIG, False, "C.json", check, examples)


@pytest.mark.parametrize("examples", TIERS)
def test_truth_sidecar_loader(examples):
    def check(path, root):
        truth = expect_own_error("ground-truth sidecar", path, read_truth, root)
        if truth is not None:
            truth.to_dict()  # what was accepted is usable

    fuzz(TRUTH, False, "s.truth.json", check, examples)


@pytest.mark.parametrize("examples", TIERS)
def test_corpus_manifest_loader(examples):
    def check(path, root):
        (root / "sessions").mkdir()
        (root / "sessions" / "s.jsonl").write_bytes(SESSION)
        for verify in (True, False):
            corpus = expect_own_error(
                "corpus manifest", path, lambda p, v=verify: load_corpus(p, verify=v), root
            )
            for item in corpus.sessions if corpus is not None else ():
                # Names become output paths and files are read: both stay in the corpus.
                assert item.path.resolve().is_relative_to(root.resolve())
                assert (
                    (root / "out" / corpus.name / item.name).resolve().is_relative_to(root / "out")
                )

    fuzz(MANIFEST, False, "manifest.json", check, examples)


@pytest.mark.parametrize(
    "content",
    [b"", b"\n\n", b"\xef\xbb\xbf", b"[" * 100_000 + b"]" * 100_000, b"1" * 5000, b"1e400"],
    ids=["empty", "blank-lines", "bom-only", "100k-nesting", "5000-digits", "1e400"],
)
def test_degenerate_whole_files(tmp_path, content):
    """Every loader on files that are nothing but a degenerate value."""
    loaders = {
        "session strict": read_session,
        "session lenient": lambda p: read_session(p, strict=False),
        "engine config (CASE.json)": load_engine_config,
        "ground-truth sidecar": read_truth,
        "corpus manifest": load_corpus,
    }
    path = tmp_path / "input.json"
    path.write_bytes(content)
    for area, load in loaders.items():
        tally(area)
        tally(area, "rejected")
        with pytest.raises(SobaBenchError) as info:
            load(path)
        assert str(path) in str(info.value)


def test_lenient_reader_counts_deep_and_huge_lines(tmp_path):
    """A deep or huge line in the middle of a session: strict names its line, lenient skips
    exactly that line and reads the rest."""
    lines = SESSION.split(b"\n")
    for bad in (b"[" * 100_000 + b"]" * 100_000, b'{"type":"item","n":' + b"7" * 5000 + b"}"):
        for area in ("session strict", "session lenient"):
            tally(area)
            tally(area, "rejected" if area.endswith("strict") else "accepted")
        path = tmp_path / "s.jsonl"
        path.write_bytes(b"\n".join([*lines[:5], bad, *lines[5:]]))
        with pytest.raises(InputError) as info:
            read_session(path)
        assert info.value.line == 6 and f"{path}:6: " in str(info.value)
        session = read_session(path, strict=False)
        assert [i.line for i in session.issues if i.skipped] == [6]
        assert len(session.lines) == len([ln for ln in lines if ln.strip()])
