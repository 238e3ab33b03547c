"""Fuzzing what reads run folders back: ``score``, ``report`` and ``compare`` on a real run
folder with one file turned hostile (run.json, sessions.jsonl, a barrier log, a replay, a
Parquet table, a score table, a reused.json pointer) or with its shape changed (a file where a
folder is expected, a folder where a file is expected, a file missing).

The command must either succeed (0, or 1 for a compare that finds a regression) or exit 2 with
one line naming the file, and never raise (a traceback). When it exits 2 it has written
nothing: score tables, the report folder and compare's --out are untouched. Counts go to the
figures artifact.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soba_bench.cli.main import main
from soba_bench.reports import report
from tests.reliability.figures import tally
from tests.reliability.hostile import mutated

RUN_ARGS = [
    "contextWindow=32000",
    "maxOutputTokens=4000",
    "keepRecentTokens=4000",
    "minTokensForAutoCompact=8000",
    "minReclaimableTokens=2000",
]


def cli(*argv: str) -> tuple[int, str]:
    """Run the CLI in this process; any exception escaping ``main`` fails the test."""
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, err.getvalue()


@pytest.fixture(scope="module")
def run_folder(tiny_corpus, tmp_path_factory) -> Path:
    results = tmp_path_factory.mktemp("fuzz-run")
    code, err = cli("run", "--corpus", str(tiny_corpus), "--results", str(results), *RUN_ARGS)
    assert code == 0, err
    (folder,) = [p for p in results.iterdir() if (p / "run.json").is_file()]
    return folder


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def targets(folder: Path) -> list[str]:
    """The files of a run folder a reader may open, relative to it."""
    names = ["run.json", "sessions.jsonl", "tables/attempts.parquet", "tables/barriers.parquet"]
    names += sorted(str(p.relative_to(folder)) for p in (folder / "scores").glob("*.jsonl"))
    names += ["scores/scored.json"]
    names += sorted(str(p.relative_to(folder)) for p in (folder / "barriers").rglob("*.gz"))
    names += sorted(str(p.relative_to(folder)) for p in (folder / "replays").rglob("*.gz"))
    return names


SHAPES = ("file-for-folder", "folder-for-file", "missing", "reused-pointer")


@st.composite
def damage(draw, folder: Path):
    """(target file, how, new bytes or None) for one hostile change to the run folder."""
    target = draw(st.sampled_from(targets(folder)))
    how = draw(st.sampled_from(("content", "content", "content", *SHAPES)))
    if how != "content":
        pointer = draw(st.sampled_from([b"[]", b'{"record": 5}', b"{", b'{"record": "/nowhere"}']))
        return target, how, pointer if how == "reused-pointer" else None
    raw = (folder / target).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    if target.endswith(".parquet"):
        blob = draw(
            st.one_of(
                st.binary(max_size=64),
                st.integers(0, len(raw)).map(lambda n: raw[:n]),
                st.just(b"PAR1" + raw[4:-8] + b"PAR1"),
            )
        )
        return target, how, blob
    jsonl = target.endswith((".jsonl", ".jsonl.gz"))
    sample = raw if len(raw) < 20_000 else b"\n".join(raw.split(b"\n")[:30])
    blob = draw(mutated(sample, jsonl=jsonl))
    if target.endswith(".gz") and draw(st.booleans()):
        blob = gzip.compress(blob, mtime=0)
    return target, how, blob


def apply(folder: Path, target: str, how: str, blob: bytes | None) -> Path:
    """Damage a copy of the run folder; return the path to hand to the command."""
    path = folder / target
    if how == "content":
        path.write_bytes(blob)
    elif how == "missing":
        path.unlink()
    elif how == "folder-for-file":
        path.unlink()
        path.mkdir()
    elif how == "reused-pointer":  # the job folder holds a pointer instead of its record
        (folder / "run.json").unlink()
        (folder / "reused.json").write_bytes(blob)
    elif how == "file-for-folder":
        return folder / "run.json" if target == "run.json" else path
    return folder


def check(code: int, err: str, allowed: tuple[int, ...], area: str) -> None:
    assert code in allowed, err
    if code == 2:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "error:" in lines[0], err
        assert "Traceback" not in err
        tally(area, "rejected (exit 2, one line)")
    else:
        tally(area, "accepted")
    tally(area, "inputs")


FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@FUZZ
@given(data=st.data())
def test_score_on_a_damaged_run_folder(run_folder, data):
    change = data.draw(damage(run_folder))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        shutil.copytree(run_folder, folder)
        given_path = apply(folder, *change)
        scores_before = snapshot(folder / "scores") if (folder / "scores").is_dir() else {}
        code, err = cli("score", str(given_path))
        check(code, err, (0, 2), "run folders: score")
        if code == 2 and (folder / "scores").is_dir():
            assert snapshot(folder / "scores") == scores_before  # nothing written


# A report that reads its input draws every figure (about 7 s of matplotlib here), so this
# fuzzer gets fewer examples than score's and compare's; the reading it fuzzes is the same.
@pytest.mark.slow
@settings(FUZZ, max_examples=12)
@given(data=st.data())
def test_report_on_a_damaged_run_folder(run_folder, data):
    change = data.draw(damage(run_folder))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        shutil.copytree(run_folder, folder)
        given_path = apply(folder, *change)
        out = Path(tmp) / "report"
        code, err = cli("report", str(given_path), "--out", str(out))
        check(code, err, (0, 2), "run folders: report")
        if code == 2:
            assert not out.exists()  # nothing written


@FUZZ
@given(data=st.data())
def test_compare_with_a_damaged_candidate(run_folder, data):
    change = data.draw(damage(run_folder))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "run"
        shutil.copytree(run_folder, folder)
        given_path = apply(folder, *change)
        out = Path(tmp) / "compare.md"
        code, err = cli("compare", str(run_folder), str(given_path), "--out", str(out))
        # compare has its own exit codes besides 0/1/2 for "cannot test" (issue 17).
        check(code, err, (0, 1, 2, 3), "run folders: compare")
        if code == 2:
            assert not out.exists()


@pytest.mark.parametrize(
    "record",
    [
        "[1, 2]",
        "[" * 100_000,
        '{"schemaVersion": 1, "status": "complete"}',
        '{"schemaVersion": 2, "status": "complete", "job": "x"}',
        '{"schemaVersion": 2, "status": "complete", "totals": {"entries": "many"}}',
        '{"schemaVersion": "2", "status": "complete"}',
        '{"schemaVersion": 2, "status": "done"}',
    ],
    ids=["array", "deep", "old-version", "job-string", "totals-text", "version-text", "status"],
)
def test_each_damaged_run_record_is_named_by_file_and_field(run_folder, tmp_path, record):
    folder = tmp_path / "run"
    shutil.copytree(run_folder, folder)
    (folder / "run.json").write_text(record)
    for argv in (
        ("score", str(folder)),
        ("report", str(folder), "--out", str(tmp_path / "rep")),
        ("compare", str(run_folder), str(folder)),
    ):
        code, err = cli(*argv)
        assert code == 2 and str(folder / "run.json") in err, (argv, err)
        assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "rep").exists()
    code, err = cli("score", str(folder))
    if record.startswith('{"schemaVersion": 1'):
        assert "older soba-bench" in err and "schemaVersion" in err
    if "job" in record:
        assert "'job'" in err and '"x"' in err


def test_a_read_only_run_folder_is_one_line_exit_2(run_folder, tmp_path, monkeypatch):
    """Permission bits do not bind root (the CI container), so the write is made to fail the
    way a read-only folder or a full disk fails it, at the one place every output goes.
    ``score`` and ``report`` meet each of the three errors; ``report`` meets them before it
    draws a figure (a probe write), so each costs a fraction of a second."""
    import errno
    import os

    folder = tmp_path / "run"
    shutil.copytree(run_folder, folder)
    before = snapshot(folder)
    drawn: list[tuple] = []  # calls that would have drawn the report's figures
    for code_no in (errno.EROFS, errno.EACCES, errno.ENOSPC):

        def refuse(src, dst, _code=code_no):
            raise OSError(_code, os.strerror(_code))

        monkeypatch.setattr(os, "replace", refuse)
        code, err = cli("score", str(folder))
        assert code == 2 and "cannot write" in err and os.strerror(code_no) in err, err
        monkeypatch.setattr(report, "build_sections", lambda *a: drawn.append(a) or [])
        code, err = cli("report", str(folder))
        assert code == 2 and "cannot write" in err and os.strerror(code_no) in err, err
        assert not drawn  # refused before drawing a figure
        monkeypatch.undo()
    assert snapshot(folder) == before  # no temp file left behind, nothing changed
    assert not list(folder.rglob("*.tmp"))
