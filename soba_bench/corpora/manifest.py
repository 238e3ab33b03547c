"""Corpus folders: ``manifest.json`` (name, version, format, per-session sha256 and sizes,
source, licence) next to the session files. Runs record the manifest hash, so a result can
always be traced to the exact bytes it was computed from."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import decode_text, parse_json, read_bytes

MANIFEST_NAME = "manifest.json"
SCHEMA_VERSION = 1
NAME_MAX = 255  # bytes in one file name on Linux and macOS file systems


@dataclass(frozen=True)
class CorpusSession:
    name: str
    file: str
    sha256: str
    bytes: int
    path: Path


@dataclass(frozen=True)
class Corpus:
    name: str
    version: str
    format: str
    source: str
    licence: str
    root: Path
    sessions: tuple[CorpusSession, ...]
    manifest_sha256: str
    data: dict[str, Any]


def sha256_file(path: Path) -> str:
    """The sha256 of a file's bytes; an unreadable file is an InputError naming it."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                digest.update(chunk)
    except OSError as exc:  # permission denied (mode 000), a folder, an I/O error
        raise InputError(f"cannot read file: {exc.strerror or exc}", path=str(path)) from None
    return digest.hexdigest()


def _require(data: dict, key: str, kind: type, path: Path) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise InputError(
            "corpus manifest field is missing or has the wrong type",
            path=str(path),
            field=key,
            value=value,
            has_value=key in data,
            expected=kind.__name__,
        )
    return value


def _contained(key: str, value: str, path: Path) -> str:
    """A relative path that stays inside the corpus (names also become output paths)."""
    parts = value.replace("\\", "/").split("/")
    unencodable = value.encode("utf-8", "surrogatepass") != value.encode("utf-8", "replace")
    bad = value.startswith(("/", "\\")) or "\0" in value or unencodable
    # Each part becomes a file or folder name; past the file system's limit every use fails.
    too_long = any(len(p.encode("utf-8", "replace")) > NAME_MAX for p in parts)
    if bad or too_long or any(p in ("", ".", "..") for p in parts):
        raise InputError(
            "corpus manifest path or name is not a safe relative path inside the corpus",
            path=str(path),
            field=key,
            value=value,
            has_value=True,
            expected=f"a relative path without '.', '..' or empty parts, each part at most "
            f"{NAME_MAX} bytes",
        )
    return value


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # pathlib only hides "missing"; a name the OS rejects is missing too
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _size(item: dict, index: int, path: Path) -> int:
    value = item.get("bytes") or 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InputError(
            "corpus manifest field has the wrong type",
            path=str(path),
            field=f"sessions[{index}].bytes",
            value=value,
            has_value=True,
            expected="a non-negative integer",
        )
    return value


def load_corpus(root: str | Path, *, verify: bool = True) -> Corpus:
    """Read a corpus folder's manifest; with ``verify`` every session's sha256 is checked."""
    root = Path(root)
    path = root / MANIFEST_NAME if root.is_dir() else root
    root = path.parent
    if not path.exists():
        raise InputError(
            "corpus manifest not found", path=str(path), expected=f"a folder with {MANIFEST_NAME}"
        )
    raw = read_bytes(path, "corpus manifest")  # its sha256 goes into the record
    data = parse_json(decode_text(raw, path), path)
    if not isinstance(data, dict):
        raise InputError("corpus manifest must be a JSON object", path=str(path))
    sessions = []
    # Names become output paths (replays/<corpus>/<name>.jsonl.gz ...): two entries with one
    # name (case folded, as some file systems do) would overwrite each other's outputs.
    names: dict[str, int] = {}
    for index, item in enumerate(_require(data, "sessions", list, path)):
        if not isinstance(item, dict):
            raise InputError(
                "session entry must be an object",
                path=str(path),
                field=f"sessions[{index}]",
                value=item,
                has_value=True,
            )
        file = _contained(f"sessions[{index}].file", _require(item, "file", str, path), path)
        name = item.get("name") or Path(file).name
        if not isinstance(name, str):
            name = _require(item, "name", str, path)
        _contained(f"sessions[{index}].name", name, path)
        folded = name.casefold()
        if folded in names:
            raise InputError(
                f"two sessions have one name: sessions[{names[folded]}] and sessions[{index}] "
                "(their replays, barriers and capsules would overwrite each other)",
                path=str(path),
                field=f"sessions[{index}].name",
                value=name,
                has_value=True,
                expected="a distinct name per session",
            )
        names[folded] = index
        session_path = root / file
        expected = _require(item, "sha256", str, path)
        if verify:
            if not _is_file(session_path):
                raise InputError(
                    "corpus session is a directory, not a file"
                    if _is_dir(session_path)
                    else "corpus session file is missing",
                    path=str(session_path),
                    field=f"sessions[{index}].file",
                    value=file,
                    has_value=True,
                )
            actual = sha256_file(session_path)
            if actual != expected:
                raise InputError(
                    "corpus session does not match its manifest sha256",
                    path=str(session_path),
                    field=f"sessions[{index}].sha256",
                    value=actual,
                    has_value=True,
                    expected=expected,
                )
        sessions.append(CorpusSession(name, file, expected, _size(item, index, path), session_path))
    return Corpus(
        name=_contained("name", _require(data, "name", str, path), path),
        version=str(data.get("version", "")),
        format=str(data.get("format", "soba-jsonl")),
        source=str(data.get("source", "")),
        licence=str(data.get("licence", "")),
        root=root,
        sessions=tuple(sessions),
        manifest_sha256=hashlib.sha256(raw).hexdigest(),
        data=data,
    )


def build_manifest(root: str | Path, files: list[str], **fields: Any) -> dict[str, Any]:
    """A manifest dict for session files under ``root`` (sha256 and size filled in)."""
    root = Path(root)
    sessions = []
    for file in files:
        path = root / file
        name = path.name.removesuffix(".gz").removesuffix(".jsonl")
        sessions.append(
            {"name": name, "file": file, "sha256": sha256_file(path), "bytes": path.stat().st_size}
        )
    return {"schemaVersion": SCHEMA_VERSION, **fields, "sessions": sessions}
