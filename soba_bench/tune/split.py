"""Search / held-out split of a corpus's sessions, by session id, seeded and stable.

Within each corpus, a session goes to the held-out side when its rank by
``sha256(seed:corpus/name)`` is among the lowest ``round(fraction * n)``: the split depends
only on the seed and the session ids, never on file order.

Each side is materialised as corpus folders (one per source corpus) with their own
``manifest.json`` listing that side's sessions, the session files linked (or copied where
links are not possible) at the same relative paths, ground-truth sidecars included, so a
job replays them like any corpus and the source folders are never touched.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.corpora.manifest import MANIFEST_NAME, Corpus
from soba_bench.corpora.truth import truth_path
from soba_bench.errors import InputError
from soba_bench.runs.layout import write_json

SIDES = ("search", "held_out")


@dataclass(frozen=True)
class Split:
    search: tuple[str, ...]
    held_out: tuple[str, ...]
    seed: int
    fraction: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "heldOutFraction": self.fraction,
            "search": list(self.search),
            "heldOut": list(self.held_out),
        }


def _rank(seed: int, session_id: str) -> str:
    return hashlib.sha256(f"{seed}:{session_id}".encode()).hexdigest()


def split_sessions(session_ids: list[str], fraction: float, seed: int) -> Split:
    """Deterministic split, stratified by corpus (the part of an id before its first ``/``),
    so a corpus with ground truth always lands on both sides. Within a corpus of two or more
    sessions both sides keep at least one (a held-out check on nothing would check nothing)."""
    if isinstance(fraction, bool) or not isinstance(fraction, int | float) or not 0 <= fraction < 1:
        raise InputError(
            "held-out fraction must be >= 0 and < 1",
            field="split.held_out",
            value=fraction,
            has_value=True,
        )
    ids = sorted(set(session_ids))
    groups: dict[str, list[str]] = {}
    for sid in ids:
        groups.setdefault(sid.split("/", 1)[0], []).append(sid)
    held: set[str] = set()
    for members in groups.values():
        n_held = round(fraction * len(members))
        if fraction > 0 and len(members) >= 2:
            n_held = min(max(n_held, 1), len(members) - 1)
        ranked = sorted(members, key=lambda s: _rank(seed, s))
        held.update(ranked[:n_held])
    return Split(
        search=tuple(s for s in ids if s not in held),
        held_out=tuple(s for s in ids if s in held),
        seed=seed,
        fraction=float(fraction),
    )


def _link(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if dst.exists() or dst.is_symlink():
        dst.unlink()
    try:
        os.symlink(src.resolve(), dst)
    except OSError:
        shutil.copy2(src, dst)


def write_side(corpora: tuple[Corpus, ...], sessions: tuple[str, ...], root: Path) -> list[Path]:
    """Corpus folders under ``root`` holding only ``sessions`` (``corpus/name`` ids); returns
    the folders that hold at least one session."""
    wanted = set(sessions)
    folders = []
    for corpus in corpora:
        items = [s for s in corpus.sessions if f"{corpus.name}/{s.name}" in wanted]
        if not items:
            continue
        folder = root / corpus.name
        by_file = {s.file for s in items}
        entries = [e for e in corpus.data["sessions"] if e["file"] in by_file]
        for item in items:
            _link(item.path, folder / item.file)
            truth = truth_path(item.path)
            if truth.is_file():
                _link(truth, truth_path(folder / item.file))
        manifest = {
            **{k: v for k, v in corpus.data.items() if k != "sessions"},
            "splitOf": {"root": str(corpus.root), "manifestSha256": corpus.manifest_sha256},
            "sessions": entries,
        }
        write_json(folder / MANIFEST_NAME, manifest)
        folders.append(folder)
    return folders


def session_ids(corpora: tuple[Corpus, ...]) -> list[str]:
    ids = [f"{c.name}/{s.name}" for c in corpora for s in c.sessions]
    duplicates = sorted(i for i, n in Counter(ids).items() if n > 1)
    if duplicates:
        raise InputError(
            "two corpora give the same session id",
            field="corpus.paths",
            value=duplicates[0],
            has_value=True,
            expected="corpora with distinct names",
        )
    return ids
