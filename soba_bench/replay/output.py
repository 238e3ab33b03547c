"""Writing a replay's files: all of them or none (each atomically, renamed only once every
file has been written), and the replayed session as a SOBA session file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from soba_bench.jsonio import encode_jsonl
from soba_bench.replay.trace import ReplayTrace
from soba_bench.session import entries as E
from soba_bench.session.model import Session


def replayed_session_lines(session: Session, trace: ReplayTrace) -> list[dict[str, Any]]:
    """Header, a v2 migration marker when capsules or skills are present, every replayed tree
    entry (original ids, capsules included), and a cursor naming the leaf."""
    header = (
        session.header.data
        if session.header is not None
        else {"type": "session", "version": 2, "id": session.session_id}
    )
    lines: list[dict[str, Any]] = [header]
    entries = [e.data for e in trace.entries]
    if any(e["type"] in (E.CONTEXT_CAPSULE, E.SKILL_ACTIVATION) for e in entries):
        migration = {
            "type": "session_migration",
            "timestamp": header.get("timestamp"),
            "fromVersion": 1,
            "toVersion": 2,
        }
        lines.append(migration)
        lines.extend(entries)
        if entries:
            lines.append(
                {
                    "type": "session_cursor",
                    "timestamp": entries[-1].get("timestamp"),
                    "leafId": entries[-1].get("id"),
                    "reason": "append",
                }
            )
    else:
        lines.extend(entries)
    return lines


def write_all(files: dict[Path, bytes]) -> None:
    """Write several files so that either all of them appear or none does."""
    staged: list[tuple[str, Path]] = []
    try:
        for target, payload in files.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            staged.append((tmp, target))
            with os.fdopen(fd, "wb") as fh:
                fh.write(payload)
                fh.flush()
                os.fsync(fh.fileno())
        for tmp, target in staged:
            os.replace(tmp, target)
        staged.clear()
    finally:
        for tmp, _ in staged:
            Path(tmp).unlink(missing_ok=True)


def jsonl_payload(path: Path, objects: list[dict[str, Any]]) -> bytes:
    return encode_jsonl(objects, gz=str(path).endswith(".gz"))
