"""Proof that a job left its inputs alone: every corpus file a job reads (manifest, session
files, ground-truth sidecars) is hashed before the job and again after it. A change fails the
job, since its results would no longer describe the corpus its record names."""

from __future__ import annotations

from pathlib import Path

from soba_bench.corpora.manifest import MANIFEST_NAME, Corpus, sha256_file
from soba_bench.corpora.truth import truth_path
from soba_bench.errors import InputError


def _files(corpora: tuple[Corpus, ...]) -> list[Path]:
    out: list[Path] = []
    for corpus in corpora:
        out.append(corpus.root / MANIFEST_NAME)
        for item in corpus.sessions:
            out.append(item.path)
            out.append(truth_path(item.path))
    return out


def hash_inputs(corpora: tuple[Corpus, ...], *, verified: bool = False) -> dict[str, str | None]:
    """sha256 of every input file by path (None: the file does not exist, e.g. no sidecar).

    ``verified``: the corpora were loaded with ``verify=True``, which has just hashed the
    manifest and checked every session file against it; those digests are taken as they are
    (so a change since loading is caught too) and only the sidecars are read here."""
    known: dict[str, str] = {}
    if verified:
        for corpus in corpora:
            known[str(corpus.root / MANIFEST_NAME)] = corpus.manifest_sha256
            known.update((str(item.path), item.sha256) for item in corpus.sessions)
    out: dict[str, str | None] = {}
    for p in _files(corpora):
        key = str(p)
        out[key] = known[key] if key in known else sha256_file(p) if p.is_file() else None
    return out


def check_unchanged(before: dict[str, str | None], corpora: tuple[Corpus, ...]) -> int:
    """Raise InputError naming the first input file whose hash changed; else the file count."""
    after = hash_inputs(corpora)
    for path, digest in before.items():
        if after.get(path) != digest:
            raise InputError(
                "input file changed while the job ran",
                path=path,
                field="sha256",
                value=after.get(path),
                has_value=True,
                expected=str(digest),
            )
    return sum(1 for d in before.values() if d is not None)
