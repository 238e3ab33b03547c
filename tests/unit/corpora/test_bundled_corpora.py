"""The bundled derived corpora are exactly what the project's own tools make from their
sources: a changed importer or generator must come with regenerated corpora."""

from __future__ import annotations

from pathlib import Path

from soba_bench.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.suffix != ".md" and "recorded" not in p.parts
    }


def test_swe_agent_corpus_is_the_importers_output(tmp_path: Path) -> None:
    out = tmp_path / "swe-agent"
    assert (
        main(["import", "swe-agent", str(ROOT / "corpora/swe-agent-real"), "--out", str(out)]) == 0
    )
    bundled = _files(ROOT / "corpora/swe-agent")
    assert bundled, "corpora/swe-agent is empty"
    assert _files(out) == bundled


def test_synthetic_tiny_corpus_regenerates_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "tiny"
    args = ["corpus", "generate", "--seed", "11", "--sessions", "1", "--entries", "120"]
    args += ["--name", "synthetic-tiny", "--out", str(out), "tool_output_tokens=60"]
    args += ["file_read_tokens=150", "edit_tokens=60", "large_output_tokens=800"]
    assert main(args) == 0
    bundled = _files(ROOT / "corpora/synthetic-tiny")
    assert _files(out) == bundled


def test_synthetic_gate_corpus_regenerates_from_its_config_byte_for_byte(tmp_path: Path) -> None:
    """The YAML in configs/corpus/ is the recipe: turned into the documented command, it
    rebuilds the bundled folder exactly, and every session matches the manifest's sha256."""
    import hashlib
    import json

    import yaml

    conf = yaml.safe_load((ROOT / "configs/corpus/synthetic-gate.yaml").read_text())
    params = dict(conf["params"])
    out = tmp_path / "gate"
    args = ["corpus", "generate", "--seed", str(conf["seed"]), "--sessions", str(conf["sessions"])]
    args += ["--entries", str(params.pop("entries")), "--name", conf["name"], "--out", str(out)]
    args += [f"{k}={json.dumps(v)}" for k, v in params.items()]
    for key, (lo, hi) in conf["vary"].items():
        args += ["--vary", f"{key}={lo}:{hi}"]
    assert main(args) == 0
    bundled = _files(ROOT / "corpora/synthetic-gate")
    assert len([f for f in bundled if f.endswith(".jsonl.gz")]) == 30
    assert _files(out) == bundled
    manifest = json.loads(bundled["manifest.json"])
    for item in manifest["sessions"]:
        assert hashlib.sha256(bundled[item["file"]]).hexdigest() == item["sha256"]
    # the axes really vary from session to session
    for key in ("entries", "blockers_per_1k", "constraints", "goal_refinements"):
        drawn = {item["varied"][key] for item in manifest["sessions"]}
        assert len(drawn) >= 4, key
