"""What every importer shares: the registry, the corpus folder it writes, atomicity."""

from __future__ import annotations

import shutil

import pytest

from soba_bench.corpora.importers import (
    IMPORTERS,
    ImportOptions,
    import_source,
    import_to_folder,
)
from soba_bench.corpora.manifest import load_corpus
from soba_bench.corpora.truth import read_truth
from soba_bench.errors import InputError, UnknownNameError
from soba_bench.session import read_session
from tests.unit.corpora.helpers import DATA, SWE_REAL, tree_hash

FORMATS = [
    "aider",
    "claude-code",
    "codex",
    "hf",
    "openai-messages",
    "openhands",
    "swe-agent",
    "text-tools",
]


def test_registry_names_and_unknown_name_lists_valid_ones():
    assert IMPORTERS.names() == FORMATS
    with pytest.raises(UnknownNameError) as exc:
        IMPORTERS.get("cursor")
    assert str(exc.value) == f"unknown import format 'cursor'; valid names: {', '.join(FORMATS)}"


@pytest.mark.parametrize(
    ("fmt", "src"),
    [
        ("claude-code", DATA / "claude-code"),
        ("claude-code", DATA / "claude-code-stream"),
        ("codex", DATA / "codex"),
        ("openhands", DATA / "openhands"),
        ("aider", DATA / "aider"),
        ("openai-messages", DATA / "openai-messages"),
        ("swe-agent", SWE_REAL),
    ],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_written_corpus_is_readable_and_deterministic(fmt, src, tmp_path):
    before = tree_hash(src)
    one = import_to_folder(fmt, src, tmp_path / "one")
    two = import_to_folder(fmt, src, tmp_path / "two")
    assert tree_hash(src) == before  # inputs are never modified
    corpus = load_corpus(tmp_path / "one", verify=True)
    assert corpus.format == "soba-jsonl" and corpus.licence == "as the source"
    assert corpus.source.startswith(f"imported from {fmt}: ")
    assert corpus.data["importedFrom"]["format"] == fmt
    assert len(corpus.sessions) == len(one.sessions) > 0
    for written in one.sessions:
        session = read_session(tmp_path / "one" / written.file)  # strict
        assert session.session_id == written.session.session_id
        truth = read_truth(tmp_path / "one" / written.truth_file)
        assert truth.session == written.name and truth.origin["format"] == fmt
        for name in (written.file, written.truth_file):
            assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert len(two.sessions) == len(one.sessions)
    assert not list((tmp_path / "one").glob(".*.tmp"))  # no temporary files left


def test_same_names_from_different_folders_are_made_unique(tmp_path):
    for sub in ("a", "b"):
        (tmp_path / "src" / sub).mkdir(parents=True)
        shutil.copy(DATA / "openai-messages" / "slugify-accents.json", tmp_path / "src" / sub)
    corpus = import_to_folder("openai-messages", tmp_path / "src", tmp_path / "out")
    assert [w.name for w in corpus.sessions] == ["slugify-accents", "slugify-accents-2"]


def test_bad_input_writes_nothing(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(DATA / "openai-messages" / "slugify-accents.json", src / "good.json")
    (src / "bad.json").write_text('{"messages": [{"role": 5}]}')
    out = tmp_path / "out"
    with pytest.raises(InputError) as exc:
        import_to_folder("openai-messages", src, out)
    assert exc.value.path.endswith("bad.json") and exc.value.field == "messages[0].role"
    assert not out.exists()


def test_lenient_folder_import_skips_unreadable_files_and_reports_them(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    shutil.copy(DATA / "openai-messages" / "slugify-accents.json", src / "good.json")
    (src / "bad.json").write_text("[truncated")
    result = import_source("openai-messages", src, ImportOptions(lenient=True))
    assert [s.name for s in result.sessions] == ["good"]
    (skipped,) = result.skipped_files
    assert "bad.json:1: not valid JSON" in skipped
    corpus = import_to_folder("openai-messages", src, tmp_path / "out", ImportOptions(lenient=True))
    assert corpus.manifest["skippedFiles"] == [skipped]


def test_invalid_options():
    with pytest.raises(InputError, match="max_output_chars"):
        ImportOptions(max_output_chars=0)
    with pytest.raises(InputError, match="limit"):
        ImportOptions(hf_limit=0)
