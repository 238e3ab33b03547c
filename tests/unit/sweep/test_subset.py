"""Running part of a corpus: ``corpus.select`` / ``--sessions`` and ``corpus.limit`` /
``--limit`` pick the sessions, an unknown name lists the valid ones, and the subset is part of
the job key (a subset never resumes from, or stands in for, the whole corpus)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from soba_bench.cli.run_cmd import translate
from soba_bench.corpora.manifest import load_corpus
from soba_bench.corpora.subset import select_sessions
from soba_bench.errors import InputError
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.jobspec import JobSpec
from tests.builders import REPO

SMALL = REPO / "corpora" / "synthetic-small"
CONFORMANCE = REPO / "corpora" / "soba-conformance"


def names(corpora):
    return [f"{c.name}/{s.name}" for c in corpora for s in c.sessions]


def test_select_by_name_or_id_keeps_corpus_order():
    corpora = (load_corpus(CONFORMANCE), load_corpus(SMALL))
    chosen = select_sessions(corpora, ["synthetic-s7-002", "soba-conformance/cc4-failures"])
    assert names(chosen) == ["soba-conformance/cc4-failures", "synthetic-small/synthetic-s7-002"]
    assert chosen[1].manifest_sha256 == corpora[1].manifest_sha256


def test_limit_takes_the_first_sessions_across_corpora():
    corpora = (load_corpus(CONFORMANCE), load_corpus(SMALL))
    every = names(corpora)
    assert names(select_sessions(corpora, limit=2)) == every[:2]
    assert names(select_sessions(corpora, limit=len(every) + 5)) == every
    picked = select_sessions(corpora, ["synthetic-s7-000", "synthetic-s7-001"], limit=1)
    assert names(picked) == ["synthetic-small/synthetic-s7-000"]


def test_unknown_names_and_bad_limits_are_errors_listing_what_is_valid():
    corpora = (load_corpus(SMALL),)
    with pytest.raises(InputError) as err:
        select_sessions(corpora, ["synthetic-s7-009"])
    message = str(err.value)
    assert "synthetic-s7-009" in message and "synthetic-small/synthetic-s7-001" in message
    for bad in (0, -1, True):
        with pytest.raises(InputError, match=r"corpus\.limit"):
            select_sessions(corpora, limit=bad)


def test_the_subset_is_in_the_job_key_and_whole_corpus_keys_are_unchanged():
    whole = JobSpec.from_config(compose_config(["corpus=synthetic-small"]))
    assert "subset" not in whole.key_material()
    one = JobSpec.from_config(
        compose_config(["corpus=synthetic-small", "corpus.select=[synthetic-s7-001]"])
    )
    two = JobSpec.from_config(compose_config(["corpus=synthetic-small", "corpus.limit=2"]))
    assert len({whole.key, one.key, two.key}) == 3
    assert names(one.corpora) == ["synthetic-small/synthetic-s7-001"]
    assert len(names(two.corpora)) == 2


def test_command_line_options_become_the_hydra_keys():
    args = translate(["--sessions", "a,synthetic-small/b", "--limit", "3", "scorer=none"])
    assert args == ["corpus.select=[a,synthetic-small/b]", "corpus.limit=3", "scorer=none"]


def test_run_with_sessions_replays_only_those_and_records_them(tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "soba_bench",
            "run",
            "corpus=synthetic-small",
            "scorer=none",
            "--sessions",
            "synthetic-s7-001",
            "--results",
            str(tmp_path),
            "progress.bars=false",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (folder,) = tmp_path.iterdir()
    rows = [json.loads(x) for x in (folder / "sessions.jsonl").read_text().splitlines()]
    assert [r["session"] for r in rows] == ["synthetic-small/synthetic-s7-001"]
    record = json.loads((folder / "run.json").read_text())
    assert record["resolvedConfig"]["corpus"]["select"] == ["synthetic-s7-001"]
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "soba_bench",
            "run",
            "corpus=synthetic-small",
            "scorer=none",
            "--sessions",
            "nope",
            "--results",
            str(tmp_path / "bad"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2
    assert 'value "nope"' in bad.stderr and "synthetic-small/synthetic-s7-000" in bad.stderr
