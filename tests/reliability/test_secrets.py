"""Secrets: a run over a generated corpus with planted secrets (sk- keys, bearer tokens, key
assignments, credential URLs), with ``summarizer.api_key_env`` naming a variable that holds a
fake key. Every output file of the run is scanned (gzip decompressed, Parquet read as text,
``.hydra/`` and the log included): the key appears nowhere, and a planted secret only inside
the replayed transcript's own lines, which are the input session's lines verbatim (a replay is
the input plus the capsules, so ``soba-bench score`` can re-score it). With a model that copies
secrets from its prompt into the state, the capsule exports carry SOBA's redaction markers
(engine.md m.3) instead."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from soba_bench.session import read_session
from tests.integration.sweeps import cli, cli_env
from tests.reliability.fault_server import VALID_STATE, FaultServer
from tests.reliability.figures import tally

KEY_ENV = "SOBA_BENCH_RELIABILITY_KEY"
KEY = "sk-reliability-fake-key-0123456789abcdef"
MARKERS = ("sk-", "Bearer", "://", "api_key", "token", "secret", "password", "=")


def planted(corpus: Path) -> list[str]:
    out = []
    for path in sorted(corpus.rglob("*.truth.json")):
        facts = json.loads(path.read_text())["facts"]
        out += [f["text"] for f in facts if f["kind"] == "secret"]
    assert len(out) >= 4, "the corpus must plant secrets"
    return out


def leaky_state(prompt: str) -> str:
    """A model that copies every secret-looking line of the transcript into its state."""
    lines = [ln for ln in prompt.splitlines() if any(m in ln for m in MARKERS)]
    return json.dumps({**VALID_STATE, "completed": lines[:80], "blockers": lines[-5:]})


def texts(run_dir: Path):
    for path in sorted(p for p in run_dir.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            yield path, pd.read_parquet(path).to_json()
            continue
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        yield path, raw.decode("utf-8", "replace")


def canonical(line: dict) -> str:
    return json.dumps(line, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("summarizer", ["deterministic", "model"])
def test_no_secret_or_key_in_any_output_file(tmp_path, tiny_corpus, summarizer):
    secrets = planted(tiny_corpus)
    results = tmp_path / "results"
    args = [
        "run",
        "corpus=path",
        f"corpus.paths=[{tiny_corpus}]",
        "engine=64k-8k",
        f"summarizer.api_key_env={KEY_ENV}",
        f"paths.results_dir={results}",
        f"paths.cache_dir={tmp_path / 'cache'}",
    ]
    with FaultServer(lambda n: "echo", echo=leaky_state) as srv:
        if summarizer == "model":
            args += [
                "summarizer=model",
                f"+summarizer.params.base_url={srv.base_url}",
                "+summarizer.params.model=echo",
                "+summarizer.params.cache=off",  # the response cache keeps answers verbatim
            ]
        done = cli(*args, env=cli_env(**{KEY_ENV: KEY}))
    assert done.returncode == 0, done.stderr
    assert KEY not in done.stdout + done.stderr
    if summarizer == "model":
        assert srv.served and set(srv.authorization) == {f"Bearer {KEY}"}  # the key was used
    (run_dir,) = results.iterdir()
    inputs = {}
    for session in sorted(tiny_corpus.rglob("*.jsonl.gz")):
        inputs.update({canonical(e.data): session.name for e in read_session(session).lines})
    scanned = redacted = raw_capsules = 0
    for path, text in texts(run_dir):
        scanned += 1
        assert KEY not in text, path
        leaked = [s for s in secrets if s in text]
        if not leaked:
            redacted += text.count("[REDACTED:")
            continue
        assert path.parent.parent.name == "replays", (path, leaked)
        for line in map(json.loads, text.splitlines()):
            if not any(s in canonical(line) for s in secrets):
                continue
            if line["type"] == "context_capsule":
                # The raw record of what the model wrote (re-scoring measures its leaks); the
                # deterministic capsule never copies a secret.
                assert summarizer == "model", line
                raw_capsules += 1
            else:
                assert canonical(line) in inputs, "a replay line with a secret is not an input"
    assert (run_dir / ".hydra" / "config.yaml").read_text().count(KEY_ENV) >= 1
    if summarizer == "model":
        assert redacted > 0, "the leaky model's secrets should have been redacted"
    tally("secrets", f"output files scanned ({summarizer})", scanned)
    tally("secrets", f"planted secrets ({summarizer} run)", len(secrets))
    tally("secrets", f"raw capsules kept in replays/ ({summarizer})", raw_capsules)
