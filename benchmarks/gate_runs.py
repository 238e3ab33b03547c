"""Shared by the gate benchmarks (and the gate's known-answer tests): generated corpora whose
sessions keep the same names across generator seeds (so two seeds of one config pair session
by session, an A/A comparison), and one job run in-process over a corpus.

The generator names sessions after their seed (``synthetic-s<seed>-000``); here each corpus is
written with the generator's own writer and its sessions renamed ``<stem>-000``... with the
manifest updated (file hashes are unchanged by a rename)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from soba_bench.corpora.synthetic import SyntheticConfig, generate_corpus

STEM = "gate"
# Availability and outcomes only: the gate's default metrics, without the (slow) capsule
# diagnostics.
SCORERS = "scorer.scorers=[availability,outcomes]"


def same_name_corpus(
    out: Path, seed: int, sessions: int, entries: int, stem: str = STEM, **params: Any
) -> Path:
    """A generated corpus whose session names do not depend on ``seed``."""
    generate_corpus(out, SyntheticConfig(entries=entries, **params), seed=seed, sessions=sessions)
    manifest_path = out / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["name"] = f"{stem}-corpus"
    for index, item in enumerate(manifest["sessions"]):
        name = f"{stem}-{index:03d}"
        for key, suffix in (("file", ".jsonl.gz"), ("truth", ".truth.json")):
            old = out / item[key]
            new = old.with_name(name + suffix)
            old.rename(new)
            item[key] = new.relative_to(out).as_posix()
        item["name"] = name
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return out


def run_one(corpus: Path, folder: Path, overrides: list[str], cache: Path) -> Path:
    """Run one job (replay + scoring) over ``corpus`` into ``folder``, in this process."""
    from soba_bench.sweep.app import compose_config
    from soba_bench.sweep.job import JobContext, run_job

    config = compose_config(
        [
            "corpus=path",
            f"corpus.paths=[{corpus}]",
            f"paths.cache_dir={cache}",
            SCORERS,
            *overrides,
        ]
    )
    outcome = run_job(config, JobContext(out_dir=folder, job_id=folder.name, tables=False))
    if outcome.status != "complete":
        raise SystemExit(f"job {folder} {outcome.status}: {outcome.line}")
    return folder
