"""``soba-bench corpus generate | list | inspect`` end to end, and the bundled synthetic corpus:
it matches its manifest and regenerates byte for byte with the command its README gives."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from soba_bench.cli.main import main
from soba_bench.corpora.manifest import load_corpus
from soba_bench.corpora.truth import read_truth, truth_path
from soba_bench.session import read_session
from tests.builders import REPO

SHIPPED = REPO / "corpora" / "synthetic-small"


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "soba_bench", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "README.md"
    }


def test_the_same_command_twice_gives_byte_identical_corpora(tmp_path):
    args = ["corpus", "generate", "--seed", "11", "--sessions", "2", "--entries", "300"]
    first = cli(*args, "--out", str(tmp_path / "one"), "decisions_per_1k=9")
    second = cli(*args, "decisions_per_1k=9", "--out", str(tmp_path / "two"))
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert "wrote 2 sessions (600 tree entries" in first.stdout
    one, two = tree_bytes(tmp_path / "one"), tree_bytes(tmp_path / "two")
    assert sorted(one) == [
        "manifest.json",
        "sessions/synthetic-s11-000.jsonl.gz",
        "sessions/synthetic-s11-000.truth.json",
        "sessions/synthetic-s11-001.jsonl.gz",
        "sessions/synthetic-s11-001.truth.json",
    ]
    assert one == two
    manifest = json.loads(one["manifest.json"])
    assert manifest["generator"]["params"]["decisions_per_1k"] == 9
    assert "decisions_per_1k=9" in manifest["generator"]["command"]


def test_different_seeds_give_different_sessions(tmp_path, capsys):
    for seed in ("1", "2"):
        out = tmp_path / seed
        assert (
            main(["corpus", "generate", "--seed", seed, "--entries", "200", "--out", str(out)]) == 0
        )
    one = (tmp_path / "1" / "sessions" / "synthetic-s1-000.jsonl.gz").read_bytes()
    two = (tmp_path / "2" / "sessions" / "synthetic-s2-000.jsonl.gz").read_bytes()
    assert one != two
    assert load_corpus(tmp_path / "1").name == "synthetic-s1"


def test_generated_corpus_loads_verified_with_readable_sessions_and_truth(tmp_path, capsys):
    out = tmp_path / "c"
    args = ["--seed", "3", "--sessions", "2", "--entries", "250", "--name", "mini"]
    code = main(["corpus", "generate", *args, "--out", str(out), "flight_records=false"])
    assert code == 0
    corpus = load_corpus(out)  # verifies every sha256
    assert corpus.name == "mini" and corpus.format == "soba-jsonl"
    assert corpus.source == "soba-bench synthetic generator v1" and "MIT" in corpus.licence
    for item, raw in zip(corpus.sessions, corpus.data["sessions"], strict=True):
        session = read_session(item.path)  # strict
        truth = read_truth(truth_path(item.path))
        assert len(session.tree_entries) == raw["treeEntries"] == 250
        assert len(truth.facts) == raw["facts"] and truth.session_id == session.session_id
        assert not any(e.kind == "flight_record" for e in session.lines)


def readme_command() -> list[str]:
    text = (SHIPPED / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(soba-bench corpus generate.*?)\n```", text, re.S)
    assert block, "README must show the generate command"
    return shlex.split(block.group(1).replace("\\\n", " "))


def test_shipped_corpus_matches_its_manifest():
    corpus = load_corpus(SHIPPED)  # raises on any sha256 mismatch
    assert corpus.name == "synthetic-small" and len(corpus.sessions) == 3
    sizes = [raw["treeEntries"] for raw in corpus.data["sessions"]]
    assert min(sizes) >= 300 and max(sizes) <= 1500
    assert sum(p.stat().st_size for p in SHIPPED.rglob("*") if p.is_file()) < 1_500_000
    for item in corpus.sessions:
        session = read_session(item.path)
        truth = read_truth(truth_path(item.path))
        assert all(i in session.by_id for f in truth.facts for i in f.entry_ids)


def test_shipped_corpus_regenerates_byte_for_byte_with_the_documented_command(tmp_path, capsys):
    argv = readme_command()
    assert argv[:3] == ["soba-bench", "corpus", "generate"]
    out = argv.index("--out")
    assert argv[out + 1] == "corpora/synthetic-small"
    argv[out + 1] = str(tmp_path / "again")
    assert main(argv[1:]) == 0
    assert tree_bytes(tmp_path / "again") == tree_bytes(SHIPPED)
    manifest = json.loads((SHIPPED / "manifest.json").read_text())
    documented = " ".join(a for a in argv if a != "--force").replace(str(tmp_path / "again"), "DIR")
    canonical = manifest["generator"]["command"].split()
    assert sorted(documented.split()) == sorted(canonical)


def test_list_shows_bundled_corpora_and_folders_without_a_manifest(capsys):
    assert main(["corpus", "list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:4] == ["NAME", "VERSION", "SESSIONS", "SOURCE"]
    row = next(line for line in out.splitlines() if line.startswith("synthetic-small"))
    assert row.split()[1:3] == ["1", "3"] and "soba-bench synthetic generator v1" in row
    assert any(line.startswith("soba-conformance") for line in out.splitlines())
    assert "swe-agent-real" in out and "no manifest.json" in out
    assert main(["corpus", "list", str(SHIPPED), "--json"]) == 0
    (row,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert row["name"] == "synthetic-small" and row["sessions"] == 3
    assert row["licence"].startswith("MIT")


def test_inspect_shows_sizes_verified_hashes_and_fact_counts(capsys):
    assert main(["corpus", "inspect", str(SHIPPED)]) == 0
    out = capsys.readouterr().out
    assert "corpus    synthetic-small (version 1, format soba-jsonl)" in out
    assert "seed 7" in out and "entries_spread=0.6" in out
    assert out.count("  ok  ") == 3
    assert re.search(r"^\s+blocker\s+\d+\s+\(\d+ resolved, \d+ open\)$", out, re.M)
    assert main(["corpus", "inspect", str(SHIPPED), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and [s["sha256Ok"] for s in report["sessions"]] == [True] * 3
    assert all(s["truthSha256Ok"] for s in report["sessions"])
    manifest = json.loads((SHIPPED / "manifest.json").read_text())
    assert [s["treeEntries"] for s in report["sessions"]] == [
        s["treeEntries"] for s in manifest["sessions"]
    ]
    total = sum(info["total"] for info in report["factsByKind"].values())
    assert total == sum(s["facts"] for s in manifest["sessions"])
    assert report["factsByKind"]["goal"]["byStatus"] == {"active": 3, "superseded": 6}


def test_inspect_counts_entries_of_corpora_without_truth(capsys):
    root = REPO / "corpora" / "soba-conformance"
    assert main(["corpus", "inspect", str(root), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["factsByKind"] == {}
    assert all(
        isinstance(s["treeEntries"], int) and s["treeEntries"] > 0 for s in report["sessions"]
    )


def test_inspect_flags_a_file_that_no_longer_matches(tmp_path, capsys):
    copy = tmp_path / "copy"
    shutil.copytree(SHIPPED, copy)
    victim = copy / "sessions" / "synthetic-s7-001.jsonl.gz"
    victim.write_bytes(victim.read_bytes() + b"\0")
    assert main(["corpus", "inspect", str(copy)]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH" in out and "do not match the manifest" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["entires=500"], "unknown synthetic generator parameter (field 'entires'"),
        (["entries=lots"], "wrong type (field 'entries', value \"lots\"); expected an integer"),
        (["--entries", "10"], "Invalid synthetic generator config: entries must be between 50"),
        (["parallel_share=2"], "parallel_share must be between 0 and 1 (got 2)"),
        (["--sessions", "0"], "session count out of range (field 'sessions', value 0)"),
        (["--seed", "-1"], "seed must be a non-negative integer"),
        (["entries"], "override must look like KEY=VALUE"),
    ],
)
def test_bad_generator_parameters_exit_2_with_a_clear_message(tmp_path, capsys, args, message):
    code = main(["corpus", "generate", "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("soba-bench corpus: error: ") and message in err
    assert not (tmp_path / "x").exists()


def test_a_non_empty_output_folder_needs_force(tmp_path, capsys):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert main(["corpus", "generate", "--entries", "100", "--out", str(out)]) == 2
    assert "output folder is not empty" in capsys.readouterr().err
    assert main(["corpus", "generate", "--entries", "100", "--out", str(out), "--force"]) == 0
    assert (out / "notes.txt").read_text() == "keep me" and (out / "manifest.json").is_file()


@pytest.mark.parametrize("action", ["list", "inspect"])
def test_a_folder_without_a_manifest_is_an_input_error(tmp_path, capsys, action):
    assert main(["corpus", action, str(tmp_path)]) == 2
    assert "corpus manifest not found" in capsys.readouterr().err
