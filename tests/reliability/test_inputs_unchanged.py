"""Inputs are never modified: every job hashes its corpus files (manifest, sessions,
ground-truth sidecars) before and after it runs, records ``inputsUnchanged``, and fails if a
hash changed. The tests hash the corpus themselves too."""

from __future__ import annotations

import hashlib
import shutil

from soba_bench.compactors import get_compactor
from soba_bench.sweep import job as job_module
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.job import JobContext, run_job
from tests.reliability.figures import tally


def digests(root):
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def job_config(tmp_path, corpus):
    return compose_config(
        [
            "corpus=path",
            f"corpus.paths=[{corpus}]",
            "scorer=default",
            "engine=64k-8k",
            f"paths.cache_dir={tmp_path / 'cache'}",
        ]
    )


def test_a_job_records_that_its_inputs_are_unchanged(tmp_path, tiny_corpus):
    before = digests(tiny_corpus)
    outcome = run_job(
        job_config(tmp_path, tiny_corpus), JobContext(tmp_path / "j", "j", tables=False)
    )
    assert outcome.status == "complete", outcome.record.get("error")
    assert outcome.record["inputsUnchanged"] is True
    assert outcome.record["inputFiles"] == 5  # manifest, 2 sessions, 2 ground-truth sidecars
    assert digests(tiny_corpus) == before
    tally("input immutability", "jobs checked")


def test_a_job_whose_input_changes_while_it_runs_fails(tmp_path, tiny_corpus, monkeypatch):
    corpus = tmp_path / "corpus"
    shutil.copytree(tiny_corpus, corpus)
    truth = next(corpus.rglob("*.truth.json"))
    real = get_compactor("soba")

    def tampering(session, ctx):  # another process editing the corpus mid-run
        run = real(session, ctx)
        truth.write_bytes(truth.read_bytes() + b" ")
        return run

    monkeypatch.setattr(job_module, "get_compactor", lambda name: tampering)
    outcome = run_job(job_config(tmp_path, corpus), JobContext(tmp_path / "j", "j", tables=False))
    assert outcome.status == "failed" and outcome.exit_code == 2
    error = outcome.record["error"]
    assert error.startswith(f"{truth}: input file changed while the job ran"), error
    assert not (tmp_path / "j" / "run.json").read_text().count('"complete"')
    tally("input immutability", "changes detected")


def test_verified_digests_are_the_files_own(tiny_corpus):
    # A job takes the manifest and session digests its verified load computed; they must be
    # exactly what hashing the files gives, or the after-check would fail every job.
    from soba_bench.corpora.manifest import load_corpus
    from soba_bench.sweep.inputs import hash_inputs

    corpora = (load_corpus(tiny_corpus),)
    assert hash_inputs(corpora, verified=True) == hash_inputs(corpora)
