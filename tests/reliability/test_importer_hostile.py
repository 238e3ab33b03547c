"""Every importer on hostile files read from disk (extends tests/property/test_importer_fuzz.py,
which feeds bytes in memory): raw 1e400 and 5,000-digit numbers, 100k nested brackets, junk
bytes, truncated and empty files. Only InputError naming the source file may escape; what is
accepted is written as a corpus whose files all stay inside the output folder, and the source
file is never modified."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from soba_bench.corpora.importers import ImportOptions, import_to_folder
from soba_bench.corpora.manifest import load_corpus
from soba_bench.errors import InputError
from tests.property.test_importer_fuzz import JSONL, NAMES, SAMPLES, fmt_of
from tests.reliability.figures import tally
from tests.reliability.hostile import EMPTY, mutated

FILE_NAMES = {  # what each importer recognises as a source file
    "aider": ".aider.chat.history.md",
    "swe-agent": "x.traj",
    "openhands": "x.json",
    "openai-messages": "x.json",
}
TIERS = [pytest.param(40, id="quick"), pytest.param(200, id="heavy", marks=pytest.mark.slow)]


def import_file(name: str, content: bytes, lenient: bool) -> None:
    area = f"importer {fmt_of(name)}"
    tally(area)
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src" / FILE_NAMES.get(fmt_of(name), "x.jsonl")
        src.parent.mkdir()
        src.write_bytes(content)
        out = Path(tmp) / "out"
        try:
            written = import_to_folder(fmt_of(name), src, out, ImportOptions(lenient=lenient))
        except InputError as err:
            assert err.path is not None and str(src.parent) in err.path, str(err)
            assert str(err).startswith(err.path)
            tally(area, "rejected")
        else:
            tally(area, "accepted")
            corpus = load_corpus(out)  # a valid corpus, sha256 verified
            assert len(corpus.sessions) == len(written.sessions)
            for path in out.rglob("*"):
                assert path.resolve().is_relative_to(out.resolve())
            assert {p.name for p in Path(tmp).iterdir()} == {"src", "out"}
        assert src.read_bytes() == content


@pytest.mark.parametrize("examples", TIERS)
@pytest.mark.parametrize("name", NAMES)
def test_hostile_files(name, examples):
    @settings(
        max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    # aider is markdown: its lines are spliced as raw text, never parsed as JSON
    @given(content=mutated(SAMPLES[name], jsonl=name in JSONL or name == "aider"))
    def run(content):
        import_file(name, content, lenient=False)
        import_file(name, content, lenient=True)

    run()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("content", EMPTY, ids=["empty", "newline", "blank", "bom", "gzip-magic"])
def test_empty_files(name, content):
    import_file(name, content, lenient=False)
    import_file(name, content, lenient=True)
