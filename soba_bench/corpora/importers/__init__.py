"""Importers: other agents' session formats -> SOBA session JSONL + ground-truth sidecars.

One module per format, one registry (``IMPORTERS``) keyed by the format name used on the
command line (``soba-bench import FORMAT SRC --out DIR``). Importing is deterministic: the
same input gives the same bytes. Nothing here needs an optional package at import time
(``hf`` loads ``datasets`` only when used).
"""

from __future__ import annotations

from pathlib import Path

from soba_bench.corpora.importers.aider import AiderImporter
from soba_bench.corpora.importers.base import (
    ImportedSession,
    Importer,
    ImportOptions,
    ImportResult,
    SourceFile,
)
from soba_bench.corpora.importers.claude_code import ClaudeCodeImporter
from soba_bench.corpora.importers.codex import CodexImporter
from soba_bench.corpora.importers.hf import HF_MAPPINGS, HFImporter
from soba_bench.corpora.importers.openai_messages import OpenAIMessagesImporter
from soba_bench.corpora.importers.openhands import OpenHandsImporter
from soba_bench.corpora.importers.swe_agent import SweAgentImporter
from soba_bench.corpora.importers.text_tools import TextToolsImporter
from soba_bench.corpora.importers.writer import WrittenCorpus, write_corpus
from soba_bench.registry import Registry

IMPORTERS: Registry[Importer] = Registry("import format")
for _importer in (
    ClaudeCodeImporter(),
    CodexImporter(),
    SweAgentImporter(),
    OpenHandsImporter(),
    AiderImporter(),
    OpenAIMessagesImporter(),
    TextToolsImporter(),
    HFImporter(),
):
    IMPORTERS.add(_importer.name, _importer)


def import_source(fmt: str, src: str | Path, options: ImportOptions | None = None) -> ImportResult:
    """Read SRC (a file, a folder, or for ``hf`` a dataset) in format ``fmt``; writes nothing."""
    return IMPORTERS.get(fmt).import_source(str(src), options or ImportOptions())


def import_bytes(
    fmt: str, content: bytes, label: str = "input", options: ImportOptions | None = None
) -> list[ImportedSession]:
    """Convert in-memory content of one source file (tests, fuzzing, pipelines)."""
    source = SourceFile.from_bytes(content, label)
    return IMPORTERS.get(fmt).import_file(source, options or ImportOptions())


def import_to_folder(
    fmt: str, src: str | Path, out_dir: str | Path, options: ImportOptions | None = None
) -> WrittenCorpus:
    """Import SRC and write the sessions, their ground truth and a manifest into OUT_DIR."""
    return write_corpus(import_source(fmt, src, options), out_dir)


__all__ = [
    "HF_MAPPINGS",
    "IMPORTERS",
    "ImportOptions",
    "ImportResult",
    "ImportedSession",
    "Importer",
    "WrittenCorpus",
    "import_bytes",
    "import_source",
    "import_to_folder",
    "write_corpus",
]
