"""What every importer shares: options, the imported-session record, the result of an
import, the source file, the issue log and the importer base class.

An importer turns one source file (or, for ``hf``, one dataset) into zero or more
:class:`ImportedSession` objects held in memory; nothing touches the disk until
:mod:`soba_bench.corpora.importers.writer` has rendered every output file.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from soba_bench.corpora.truth import Fact, GroundTruth, RecordedCompaction, scrubbed
from soba_bench.errors import InputError
from soba_bench.jsonio import read_bytes

# The fallback timestamp of lines whose source has none (deterministic on purpose).
EPOCH = "1970-01-01T00:00:00.000Z"
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")
# ImportOptions.tool_names: calls written as SOBA's own tools, or as the source named them.
TOOL_NAMES = ("soba", "source")


@dataclass(frozen=True)
class ImportOptions:
    """How to import. ``max_output_chars`` cuts longer tool outputs (counted in the sidecar
    origin); ``tool_names`` writes the calls whose meaning is one of SOBA's tools as that
    tool (``soba``, see :mod:`soba_bench.corpora.importers.soba_tools`) or as the source
    named them (``source``); the ``hf_*`` fields only concern the ``hf`` importer."""

    lenient: bool = False
    max_output_chars: int | None = None
    tool_names: str = "soba"
    hf_mapping: str | None = None
    hf_columns: tuple[tuple[str, str], ...] = ()
    hf_split: str = "train"
    hf_limit: int | None = None

    def __post_init__(self) -> None:
        if self.max_output_chars is not None and self.max_output_chars < 1:
            raise InputError(
                "max_output_chars must be a positive number of characters",
                field="max_output_chars",
                value=self.max_output_chars,
                has_value=True,
                expected="an integer >= 1, or none for no truncation",
            )
        if self.tool_names not in TOOL_NAMES:
            raise InputError(
                "unknown tool_names",
                field="tool_names",
                value=self.tool_names,
                has_value=True,
                expected=" or ".join(TOOL_NAMES),
            )
        if self.hf_limit is not None and self.hf_limit < 1:
            raise InputError(
                "limit must be at least 1",
                field="limit",
                value=self.hf_limit,
                has_value=True,
                expected="an integer >= 1",
            )


@dataclass(frozen=True)
class ImportedSession:
    """One converted session: its SOBA JSONL objects (header first) and its ground truth."""

    name: str
    session_id: str
    lines: tuple[dict[str, Any], ...]
    facts: tuple[Fact, ...]
    compactions: tuple[RecordedCompaction, ...]
    unknown_kinds: tuple[str, ...]
    origin: dict[str, Any]

    def truth(self, name: str | None = None) -> GroundTruth:
        """The session's ground truth, secrets scrubbed (it is what gets written)."""
        return scrubbed(
            GroundTruth(
                session=name or self.name,
                session_id=self.session_id,
                origin=self.origin,
                facts=self.facts,
                recorded_compactions=self.compactions,
                unknown_kinds=self.unknown_kinds,
            )
        )


@dataclass(frozen=True)
class ImportResult:
    """Sessions read from a source, the source files they came from, and (lenient mode
    only) the files that could not be read, with the reason."""

    format: str
    sessions: tuple[ImportedSession, ...]
    sources: tuple[str, ...]
    skipped_files: tuple[str, ...] = ()
    description: str = ""


@dataclass(frozen=True)
class SourceFile:
    """A source file's content and identity. ``label`` (the file name) is what outputs
    record, so importing the same bytes from another folder gives the same output."""

    path: str
    label: str
    content: bytes
    sha256: str

    @classmethod
    def read(cls, path: str | Path) -> SourceFile:
        content = read_bytes(path)
        return cls(str(path), Path(path).name, content, hashlib.sha256(content).hexdigest())

    @classmethod
    def from_bytes(cls, content: bytes, label: str = "input") -> SourceFile:
        return cls(label, label, content, hashlib.sha256(content).hexdigest())


class EmptySessionError(InputError):
    """A source that yields no conversation at all. A folder import skips such a file (and
    lists it); a single file fails with it."""


@dataclass
class IssueLog:
    """Problems met while importing. Strict: the first one raises. Lenient: each is
    counted and reported in the sidecar's origin, never silently dropped."""

    lenient: bool = False
    messages: list[str] = field(default_factory=list)
    count: int = 0

    MAX_LISTED = 50

    def record(self, err: InputError) -> None:
        if not self.lenient:
            raise err
        self.count += 1
        if len(self.messages) < self.MAX_LISTED:
            self.messages.append(str(err))

    def to_dict(self) -> dict[str, Any]:
        return {"skipped": self.count, "messages": list(self.messages)}


def safe_name(text: str, fallback: str = "session") -> str:
    """A file-name stem: unsafe characters become '_', no leading dots."""
    name = _UNSAFE_NAME.sub("_", text).strip("._-")
    return name[:120] or fallback


def digest(*parts: str) -> str:
    joined = "\x00".join(parts)
    return hashlib.sha256(joined.encode("utf-8", "surrogatepass")).hexdigest()


class Importer:
    """Base class: one source format. Subclasses set ``name``, ``patterns`` (the file
    globs used when SRC is a folder) and ``description``, and implement
    :meth:`import_file`."""

    name: str = ""
    description: str = ""
    patterns: tuple[str, ...] = ("*",)

    def discover(self, src: str) -> list[Path]:
        """The source files under SRC (a file, or a folder searched recursively)."""
        path = Path(src)
        if path.is_file():
            return [path]
        if path.is_dir():
            found: set[Path] = set()
            for pattern in self.patterns:
                found.update(p for p in path.rglob(pattern) if p.is_file())
            files = sorted(found)
            if not files:
                raise InputError(
                    f"no {self.name} files found in folder",
                    path=str(path),
                    expected=f"files matching {', '.join(self.patterns)}",
                )
            return files
        raise InputError("source not found", path=str(path), expected="a file or a folder")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        raise NotImplementedError

    def import_source(self, src: str, options: ImportOptions) -> ImportResult:
        """Every session from SRC (a file or a folder). In lenient mode a folder's file
        that cannot be read at all is skipped and reported instead of failing the import."""
        sessions: list[ImportedSession] = []
        labels: list[str] = []
        skipped: list[str] = []
        files = self.discover(src)
        for path in files:
            try:
                source = SourceFile.read(path)
                found = self.import_file(source, options)
            except EmptySessionError as err:
                # A folder of real logs holds files with no conversation (title-only or
                # aborted sessions): listed, never written as an empty session.
                if len(files) == 1:
                    raise
                skipped.append(str(err))
                continue
            except InputError as err:
                if not options.lenient or len(files) == 1:
                    raise
                skipped.append(str(err))
                continue
            sessions.extend(found)
            labels.append(source.label)
        if not sessions:
            raise InputError(
                f"no {self.name} sessions found", path=src, expected=self.description or None
            )
        return ImportResult(self.name, tuple(sessions), tuple(labels), tuple(skipped))
