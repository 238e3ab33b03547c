"""Guards on what the harness writes and how it says no: duplicate session names (two outputs
on one path) rejected naming both entries; permission denied on a session or manifest, a
read-only results folder and a full disk as one line and exit 2; ``report.md`` escaping the
names it did not write; compare's argument checks; the wording of JSON syntax errors and of a
folder given as a session.

Permission bits do not bind root (CI runs as root), so a denied read or write is injected at
the one call every read or write goes through, with the errno the kernel would give."""

from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
from pathlib import Path

import pytest

from soba_bench.cli.main import main
from soba_bench.corpora.manifest import load_corpus
from soba_bench.errors import InputError
from soba_bench.runs import RunLayout
from tests.reliability.figures import tally

RUN_ARGS = [
    "contextWindow=32000",
    "maxOutputTokens=4000",
    "keepRecentTokens=4000",
    "minTokensForAutoCompact=8000",
    "minReclaimableTokens=2000",
]


def cli(*argv: str) -> tuple[int, str, str]:
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def edit_manifest(corpus: Path, change) -> None:
    path = corpus / "manifest.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


@pytest.fixture
def corpus(tiny_corpus, tmp_path) -> Path:
    copy = tmp_path / "tiny"
    shutil.copytree(tiny_corpus, copy)
    return copy


@pytest.mark.parametrize("second", ["same", "SAME"], ids=["equal", "case-folded"])
def test_duplicate_session_names_are_rejected_naming_both_entries(corpus, tmp_path, second):
    def rename(data):
        data["sessions"][0]["name"] = "same"
        data["sessions"][1]["name"] = second

    edit_manifest(corpus, rename)
    with pytest.raises(InputError) as info:
        load_corpus(corpus)
    assert "sessions[0]" in str(info.value) and "sessions[1]" in str(info.value)
    results = tmp_path / "r"
    code, _, err = cli("run", "--corpus", str(corpus), "--results", str(results), *RUN_ARGS)
    assert code == 2 and "sessions[0]" in err and "sessions[1]" in err, err
    assert not list(results.rglob("replays")) and not list(results.rglob("sessions.jsonl"))
    tally("output guards", "duplicate names rejected")


def test_two_outputs_on_one_path_are_rejected():
    layout = RunLayout(Path("/nowhere"))
    with pytest.raises(InputError, match=r"'c/a'.*'C/A'"):
        layout.output_paths(["c/a", "c/b", "C/A"])
    assert len(layout.output_paths(["c/a", "c/b"])) == 6


def _deny(monkeypatch, target: Path) -> None:
    """Reading ``target`` fails as a mode-000 file does for a non-root user."""
    real_open, real_read = Path.open, Path.read_bytes

    def opener(self, *args, **kwargs):
        if self.resolve() == target.resolve():
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real_open(self, *args, **kwargs)

    def reader(self):
        if self.resolve() == target.resolve():
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
        return real_read(self)

    monkeypatch.setattr(Path, "open", opener)
    monkeypatch.setattr(Path, "read_bytes", reader)


@pytest.mark.parametrize("which", ["session", "manifest"])
def test_an_unreadable_session_or_manifest_is_one_line_exit_2(corpus, tmp_path, monkeypatch, which):
    target = corpus / "manifest.json" if which == "manifest" else next(corpus.rglob("*.jsonl.gz"))
    _deny(monkeypatch, target)
    for argv in (
        ("corpus", "inspect", str(corpus)),
        ("run", "--corpus", str(corpus), "--results", str(tmp_path / "r"), *RUN_ARGS),
    ):
        code, _, err = cli(*argv)
        assert code == 2, (argv, err)
        assert "Permission denied" in err and str(target) in err, err
        assert "Traceback" not in err
        tally("output guards", "permission denied (exit 2)")
    failed = [json.loads(p.read_text()) for p in (tmp_path / "r").rglob("run.json")]
    assert failed and all(r["status"] == "failed" for r in failed)  # never trusted by resume
    assert all(
        RunLayout(p.parent).complete_record() is None for p in (tmp_path / "r").rglob("run.json")
    )


@pytest.mark.parametrize("code_no", [errno.EROFS, errno.ENOSPC, errno.EACCES])
def test_a_results_folder_that_refuses_writes_fails_the_job_cleanly(
    corpus, tmp_path, monkeypatch, code_no
):
    real_replace = os.replace

    def refuse(src, dst):
        if str(dst).endswith(".jsonl.gz"):  # the job's outputs; run.json may still go through
            raise OSError(code_no, os.strerror(code_no))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", refuse)
    results = tmp_path / "r"
    code, _, err = cli("run", "--corpus", str(corpus), "--results", str(results), *RUN_ARGS)
    assert code == 2 and "cannot write" in err and os.strerror(code_no) in err, err
    assert "Traceback" not in err
    (record_path,) = results.rglob("run.json")
    record = json.loads(record_path.read_text())
    assert record["status"] == "failed" and os.strerror(code_no) in record["error"]
    assert RunLayout(record_path.parent).complete_record() is None  # resume redoes it
    assert not list(results.rglob("*.tmp"))
    tally("output guards", "write refused (exit 2, job failed)")


def test_report_md_escapes_names_it_did_not_write(corpus, tmp_path):
    hostile = ["<script>alert(1)</script>", "<img src=x onerror=alert(2)>"]

    def rename(data):
        data["name"] = "<img src=x onerror=alert(3)>"
        for item, name in zip(data["sessions"], hostile, strict=False):
            item["name"] = name

    edit_manifest(corpus, rename)
    results = tmp_path / "r"
    code, _, err = cli("run", "--corpus", str(corpus), "--results", str(results), *RUN_ARGS)
    assert code == 0, err
    (run_dir,) = [p for p in results.iterdir() if (p / "run.json").is_file()]
    code, _, err = cli("report", str(run_dir), "--out", str(tmp_path / "rep"))
    assert code == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "onerror=alert(3)" in text or "alert(1)" in text  # the names are there...
    for raw in ("<script", "<img", "</script"):
        assert raw not in text  # ...but never as markup
    tally("output guards", "hostile names escaped in report.md", 3)


@pytest.mark.parametrize(
    "args, field",
    [
        (["--confidence", "2"], "--confidence"),
        (["--confidence", "nan"], "--confidence"),
        (["--confidence", "0"], "--confidence"),
        (["--seed", "-5"], "--seed"),
        (["--max-drop", "nan"], "--max-drop"),
    ],
)
def test_compare_rejects_arguments_it_cannot_use(tmp_path, args, field):
    code, _, err = cli("compare", str(tmp_path), str(tmp_path), *args)
    assert code == 2 and field in err and len(err.strip().splitlines()) == 1, err


def test_json_errors_read_well_and_a_folder_is_called_a_folder(tmp_path):
    session = tmp_path / "s.jsonl"
    session.write_text('{"type":"session","version":3,"id":"x"}\n{"b": "abc\n')
    code, _, err = cli("replay", str(session))
    assert code == 2 and "starting at column" in err and "at at" not in err, err
    folder = tmp_path / "a-folder.jsonl"
    folder.mkdir()
    code, _, err = cli("replay", str(folder))
    assert code == 2 and "is a directory" in err and "missing" not in err, err


def test_a_manifest_session_that_is_a_folder_is_called_a_folder(corpus):
    session = next(corpus.rglob("*.jsonl.gz"))
    session.unlink()
    session.mkdir()
    with pytest.raises(InputError, match="is a directory"):
        load_corpus(corpus)


def test_a_results_folder_that_cannot_be_created_is_one_line_before_hydra(corpus, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    results = blocker / "results"
    code, _, err = cli("run", "--corpus", str(corpus), "--results", str(results), *RUN_ARGS)
    assert code == 2 and "cannot write" in err and "Not a directory" in err, err
    assert len(err.strip().splitlines()) == 1 and blocker.read_text() == "not a folder"


@pytest.mark.parametrize("entry", ["[1]", '{"folder": 5}', "{", '{"folder": ""}', "[" * 100_000])
def test_a_damaged_job_index_entry_is_not_trusted(tmp_path, entry):
    from soba_bench.sweep.store import JobIndex

    index = tmp_path / ".index"
    index.mkdir()
    (index / "k.json").write_text(entry)
    assert JobIndex(tmp_path).lookup("k") is None  # resume redoes the job
