"""Shared checks for importer tests: every imported session must be a valid SOBA session
(strict read), linear, with every tool output paired to an earlier call and every
``model_request`` record directly before an item line."""

from __future__ import annotations

import hashlib
from pathlib import Path

from soba_bench.corpora.importers.base import ImportedSession, ImportResult
from soba_bench.corpora.importers.writer import render
from soba_bench.session.jsonl import parse_lines
from soba_bench.session.model import Session
from tests.builders import REPO

DATA = REPO / "tests" / "data" / "importers"
SWE_REAL = REPO / "corpora" / "swe-agent-real"
REPLAY_CONFIG = {
    "contextWindow": 16000,
    "maxOutputTokens": 2000,
    "compaction": {
        "keepRecentTokens": 2000,
        "minTokensForAutoCompact": 4000,
        "minReclaimableTokens": 1000,
        "safetyReserveTokens": 1000,
    },
}


def as_session(imported: ImportedSession) -> Session:
    """The session as SOBA would read it back from the written bytes (strict)."""
    payload = render(ImportResult("test", (imported,), ("test",)))[0][2]
    entries, issues = parse_lines(payload, path=imported.name, strict=True)
    assert not issues, issues
    return Session(tuple(entries), path=imported.name)


def check_session(imported: ImportedSession) -> Session:
    session = as_session(imported)
    lines = session.lines
    assert lines[0].kind == "session" and lines[0].data["version"] == 2
    tree = session.tree_entries
    assert len({e.id for e in tree}) == len(tree)
    parent = None
    for entry in tree:
        assert entry.kind == "item" and entry.parent_id == parent
        parent = entry.id
    assert session.active_branch == tree  # linear: the leaf's branch is every entry
    calls: set[str] = set()
    for entry in tree:
        item = entry.item
        if item["type"] in ("function_call", "local_shell_call"):
            calls.add(item["call_id"])
        elif item["type"] in ("function_call_output", "local_shell_call_output"):
            assert item["call_id"] in calls, f"output {item['call_id']} has no earlier call"
    for index, entry in enumerate(lines):
        if entry.kind == "flight_record":
            assert entry.data["data"]["kind"] == "model_request"
            assert entry.data["data"]["payload"]["inputTokens"] > 0
            assert lines[index + 1].kind == "item", "usage must precede a response item"
    ids = {e.id for e in tree}
    for fact in imported.facts:
        assert set(fact.entry_ids) <= ids, fact
    assert imported.origin["items"] == len(tree)
    return session


def items(imported: ImportedSession) -> list[dict]:
    return [line["item"] for line in imported.lines if line["type"] == "item"]


def facts_of(imported: ImportedSession, kind: str) -> list:
    return [f for f in imported.facts if f.kind == kind]


def tree_hash(root: Path) -> dict[str, str]:
    """sha256 of every file under ``root`` (to prove inputs are never modified)."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }
