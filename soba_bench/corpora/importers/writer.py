"""Writes imported sessions as a corpus folder: ``<name>.jsonl`` + ``<name>.truth.json`` per
session and a ``manifest.json``. Every file is rendered in memory first, so bad input writes
nothing; each file is then written atomically (temporary file + rename), the manifest last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from soba_bench.corpora.importers.base import (
    ImportedSession,
    ImportResult,
)
from soba_bench.corpora.manifest import MANIFEST_NAME, build_manifest
from soba_bench.corpora.truth import SUFFIX as TRUTH_SUFFIX
from soba_bench.corpora.truth import GroundTruth
from soba_bench.jsonio import atomic_write_bytes, encode_jsonl

OUTPUT_FORMAT = "soba-jsonl"
LICENCE = "as the source"


@dataclass(frozen=True)
class WrittenSession:
    name: str
    file: str
    truth_file: str
    session: ImportedSession


@dataclass(frozen=True)
class WrittenCorpus:
    root: Path
    sessions: tuple[WrittenSession, ...]
    manifest: dict[str, Any] = field(default_factory=dict)


def unique_names(sessions: tuple[ImportedSession, ...]) -> list[str]:
    """Session names, made unique in input order with ``-2``, ``-3``... suffixes."""
    seen: set[str] = set()
    names = []
    for session in sessions:
        name, n = session.name, 1
        while name in seen:
            n += 1
            name = f"{session.name}-{n}"
        seen.add(name)
        names.append(name)
    return names


def json_bytes(data: Any) -> bytes:
    """Indented JSON as UTF-8 (the format of write_truth); lone surrogates from the source
    cannot be UTF-8, so then everything non-ASCII is escaped (still JSON-equal)."""
    try:
        return (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(data, ensure_ascii=True, indent=1) + "\n").encode("utf-8")


def truth_bytes(truth: GroundTruth) -> bytes:
    return json_bytes(truth.to_document())


def render(result: ImportResult) -> list[tuple[str, str, bytes, bytes, ImportedSession]]:
    """(name, file, session bytes, truth bytes, session) per session, nothing written."""
    out = []
    for name, session in zip(unique_names(result.sessions), result.sessions, strict=True):
        payload = encode_jsonl(session.lines)
        out.append((name, f"{name}.jsonl", payload, truth_bytes(session.truth(name)), session))
    return out


def source_description(result: ImportResult) -> str:
    if result.description:
        return result.description
    names = ", ".join(result.sources)
    return f"imported from {result.format}: {names}"


def write_corpus(result: ImportResult, out_dir: str | Path) -> WrittenCorpus:
    """Write every session, its ground truth and the folder's manifest."""
    root = Path(out_dir)
    rendered = render(result)
    written = []
    for name, file, payload, truth, session in rendered:
        atomic_write_bytes(root / file, payload)
        truth_file = name + TRUTH_SUFFIX
        atomic_write_bytes(root / truth_file, truth)
        written.append(WrittenSession(name, file, truth_file, session))
    manifest = build_manifest(
        root,
        [w.file for w in written],
        name=root.resolve().name,
        version="1",
        format=OUTPUT_FORMAT,
        source=source_description(result),
        licence=LICENCE,
        importedFrom={"format": result.format, "files": list(result.sources)},
        truth={w.name: w.truth_file for w in written},
    )
    if result.skipped_files:
        manifest["skippedFiles"] = list(result.skipped_files)
    atomic_write_bytes(root / MANIFEST_NAME, json_bytes(manifest))
    return WrittenCorpus(root, tuple(written), manifest)
