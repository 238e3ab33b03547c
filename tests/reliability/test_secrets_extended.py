"""The extended secret scanner on everything the harness writes. One fake credential of each
kind (AWS key id and secret, GitHub, GitLab, Slack, Stripe and Google tokens, a JWT, a PEM
private key, a password in a URL, a .env assignment, a bearer header) is planted in the first
user message and in tool output of an imported corpus; then ``import``, ``run``, ``score``,
``report``, ``compare`` and ``tune`` write their files, and every file is read back (gzip
decompressed, Parquet as text) and searched for the secret part of each credential.

Allowed by design: the imported session files and ``replays/`` (the transcript itself, which
``score`` re-reads), and with the default engine ``capsules/`` (SOBA's own sanitizer rules,
kept for fidelity). With ``variant=soba-0.6.14+extended-redaction`` capsules are clean too.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd

from tests.integration.sweeps import cli, cli_in_process
from tests.reliability.figures import tally
from tests.reliability.planted_secrets import NEEDLES, planted_text

ENGINE = [
    "contextWindow=32000",
    "maxOutputTokens=4000",
    "keepRecentTokens=4000",
    "minTokensForAutoCompact=8000",
    "minReclaimableTokens=2000",
]
FILLER = "Reading the module again to understand the retry logic and its edge cases. " * 12


def conversation(index: int) -> dict:
    secrets = planted_text()
    messages = [
        {"role": "user", "content": f"Task {index}: rotate the leaked keys below.\n{secrets}"}
    ]
    for step in range(80):
        if step and step % 5 == 0:  # new turns give the engine places to cut
            text = f"Continue with file {step}; the keys are still:\n{secrets}"
            messages.append({"role": "user", "content": text})
        call = {"id": f"c{index}-{step}", "type": "function"}
        call["function"] = {"name": "bash", "arguments": json.dumps({"command": f"cat f{step}"})}
        messages.append({"role": "assistant", "content": FILLER, "tool_calls": [call]})
        output = f"{FILLER}\n{secrets}" if step % 7 == 0 else FILLER
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
    return {"messages": messages}


def files(root: Path):
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.suffix == ".parquet":
            yield path, pd.read_parquet(path).to_json()
        elif path.suffix == ".png":
            continue
        else:
            raw = path.read_bytes()
            if raw[:2] == b"\x1f\x8b":
                raw = gzip.decompress(raw)
            yield path, raw.decode("utf-8", "replace")


def _session_copy(path: Path) -> bool:
    """A session file of a corpus folder (the transcript, by design kept as it is)."""
    corpus = next((p for p in path.parents if (p / "manifest.json").is_file()), None)
    return corpus is not None and path.name.endswith((".jsonl", ".jsonl.gz"))


def leaks(root: Path, allowed: tuple[str, ...]) -> tuple[int, list[tuple[str, str]]]:
    scanned, found = 0, []
    for path, text in files(root):
        rel = path.relative_to(root).as_posix()
        if any(part in allowed for part in rel.split("/")):
            continue
        if _session_copy(path):
            continue
        scanned += 1
        found += [(rel, kind) for kind, needle in NEEDLES.items() if needle in text]
    return scanned, found


def test_no_planted_credential_in_any_file_the_harness_writes(tmp_path):
    source = tmp_path / "chats.jsonl"
    source.write_text("".join(json.dumps(conversation(i)) + "\n" for i in range(3)))
    corpus = tmp_path / "corpus"
    done = cli_in_process("import", "openai-messages", str(source), "--out", str(corpus))
    assert done.returncode == 0, done.stderr
    truths = list(corpus.rglob("*.truth.json"))
    assert truths and "[REDACTED:aws-key-id]" in truths[0].read_text()

    runs = {}
    for variant in ("soba-0.6.14", "soba-0.6.14+extended-redaction"):
        results = tmp_path / variant
        done = cli(
            "run", "--corpus", str(corpus), "--results", str(results),
            f"variant={variant}", *ENGINE,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        (runs[variant],) = [p for p in results.iterdir() if (p / "run.json").is_file()]
    base, extended = runs["soba-0.6.14"], runs["soba-0.6.14+extended-redaction"]
    assert list((base / "capsules").rglob("*.gz")), "the engine must have written capsules"

    # score, report and compare keep no process state: run in this process (a CLI process
    # start is seconds); run and tune go through their own process (Hydra owns it).
    assert cli_in_process("score", str(base)).returncode == 0
    assert cli_in_process("report", str(base)).returncode == 0
    compare_out = tmp_path / "compare.md"
    done = cli_in_process("compare", str(base), str(extended), "--out", str(compare_out))
    assert done.returncode in (0, 1, 3), done.stderr
    assert not [k for k, n in NEEDLES.items() if n in done.stdout]
    tune_out = tmp_path / "tune"
    done = cli(
        "tune", "corpus=path", f"corpus.paths=[{corpus}]", "search.trials=2",
        "report.resamples=50", "--out", str(tune_out), f"paths.cache_dir={tmp_path / 'cache'}",
    )  # fmt: skip
    # A tiny corpus may meet no constraint (exit 1); the files are written either way.
    assert done.returncode in (0, 1), done.stderr
    assert (tune_out / "tune.md").is_file() and (tune_out / "trials.csv").is_file()

    # The transcript (imported sessions, replays) and SOBA's capsules are allowed to carry
    # them; everything else the harness wrote must not.
    transcript = ("sessions", "replays")
    scanned = 0
    for root, allowed in (
        (corpus, ()),
        (base, (*transcript, "capsules")),
        (extended, transcript),
        (tune_out, (*transcript, "capsules")),
    ):
        n, found = leaks(root, allowed)  # session files of a corpus are the transcript
        scanned += n
        assert not found, found
    compare_text = compare_out.read_text()
    assert not [k for k, n in NEEDLES.items() if n in compare_text]
    # The default engine keeps SOBA's rules: its capsules quote the goal (the latest user
    # message) with what SOBA's sanitizer lets through, an AWS key id among it; the extended
    # variant's capsules carry typed markers instead.
    base_text = "".join(t for _, t in files(base / "capsules"))
    extended_text = "".join(t for _, t in files(extended / "capsules"))
    assert NEEDLES["aws-key-id"] in base_text and "[REDACTED:aws-key-id]" not in base_text
    assert "[REDACTED:aws-key-id]" in extended_text
    tally("secrets (extended scanner)", "kinds planted", len(NEEDLES))
    tally("secrets (extended scanner)", "files scanned", scanned + 1)
