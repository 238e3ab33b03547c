"""Local model files: joined from package data parts, verified by sha256, never downloaded.
Uses small fake part packages on a temporary sys.path (the real model is in integration)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from soba_bench.errors import HarnessFault, UnknownNameError
from soba_bench.models.local_models import (
    LOCAL_MODELS,
    LocalModel,
    model_dir,
    model_path,
    prepare_model_file,
)

CHUNKS = [b"GGUF" + b"a" * 3000, b"b" * 5000, b"c" * 17]


@pytest.fixture
def parts(tmp_path: Path, monkeypatch) -> Path:
    root = tmp_path / "site"
    for i, chunk in enumerate(CHUNKS, start=1):
        pkg = root / f"fake_model_part{i}" / "data"
        pkg.mkdir(parents=True)
        (pkg / f"part{i:02d}.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(root))
    yield root
    for i in range(1, len(CHUNKS) + 1):
        sys.modules.pop(f"fake_model_part{i}", None)


def fake(sha: str | None = None) -> LocalModel:
    whole = b"".join(CHUNKS)
    return LocalModel(
        name="fake",
        title="fake model",
        parts=tuple((f"fake_model_part{i}", f"data/part{i:02d}.bin") for i in (1, 2, 3)),
        sha256=sha or hashlib.sha256(whole).hexdigest(),
        size=len(whole),
        install="pip install fake-parts",
        licence="none",
    )


def test_parts_are_joined_in_order_and_verified(parts: Path, tmp_path: Path):
    path = prepare_model_file(fake(), tmp_path / "models")
    assert path.read_bytes() == b"".join(CHUNKS)
    assert path.name == f"fake-{fake().sha256[:12]}.gguf"
    assert path.with_name(path.name + ".verified").is_file()
    assert [p.name for p in (tmp_path / "models").iterdir() if p.suffix == ".part"] == []
    assert "fake_model_part1" not in sys.modules  # located, never imported


def test_a_verified_file_is_reused_and_a_changed_one_is_rebuilt(parts: Path, tmp_path: Path):
    first = prepare_model_file(fake(), tmp_path / "models")
    (parts / "fake_model_part2" / "data" / "part02.bin").rename(parts / "moved.bin")
    assert prepare_model_file(fake(), tmp_path / "models") == first  # no parts needed
    with open(first, "ab") as f:
        f.write(b"tampered")
    with pytest.raises(HarnessFault, match=r"needs package fake_model_part2.*fake-parts"):
        prepare_model_file(fake(), tmp_path / "models")  # must re-join, and cannot
    (parts / "moved.bin").rename(parts / "fake_model_part2" / "data" / "part02.bin")
    assert prepare_model_file(fake(), tmp_path / "models").read_bytes() == b"".join(CHUNKS)


def test_a_wrong_checksum_is_refused_and_leaves_no_file(parts: Path, tmp_path: Path):
    with pytest.raises(HarnessFault, match="expected 0000"):
        prepare_model_file(fake(sha="0" * 64), tmp_path / "models")
    assert list((tmp_path / "models").iterdir()) == []


def test_a_single_file_model_is_verified_in_place(parts: Path, tmp_path: Path):
    single = LocalModel(
        "one",
        "one file",
        (("fake_model_part1", "data/part01.bin"),),
        hashlib.sha256(CHUNKS[0]).hexdigest(),
        len(CHUNKS[0]),
        "pip install one",
        "none",
    )
    path = prepare_model_file(single, tmp_path / "unused")
    assert path == parts / "fake_model_part1" / "data" / "part01.bin"
    assert not (tmp_path / "unused").exists()


def test_model_dir_and_registry(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("SOBA_BENCH_MODEL_DIR", str(tmp_path))
    assert model_dir() == tmp_path
    qwen = LOCAL_MODELS.get("qwen2.5-coder-0.5b")
    assert qwen.size == 491_400_064 and len(qwen.parts) == 6
    with pytest.raises(UnknownNameError, match=r"qwen2.5-coder-0.5b"):
        model_path("mistral")
