"""Shared helpers for the synthetic-generator tests: cached sessions (generation is seeded, so
a cache changes nothing but time) and the searchable text of an entry."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
from soba_bench.corpora.truth import GroundTruth
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

SMALL_WINDOW = {
    "contextWindow": 32000,
    "maxOutputTokens": 4000,
    "compaction": {
        "keepRecentTokens": 4000,
        "minTokensForAutoCompact": 8000,
        "minReclaimableTokens": 2000,
    },
}


@cache
def generated(entries: int = 1000, seed: int = 1, index: int = 0, **params: Any):
    """(Session, GroundTruth) for a config; cached per argument set."""
    session, truth = generate_session(SyntheticConfig(entries=entries, **params), seed, index)
    return session, truth


def _strings(value: Any, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _strings(v, out)


def entry_text(entry: Entry) -> str:
    """What a reader sees in an entry: message text, decoded call arguments, output text,
    or the skill name of a skill activation."""
    if entry.kind == E.SKILL_ACTIVATION:
        return f"{entry.data['skill']['name']} {entry.data['action']}"
    item = entry.item
    if item is None:
        return ""
    kind = item["type"]
    out: list[str] = []
    if kind == E.MESSAGE:
        _strings([b.get("text", "") for b in item["content"]], out)
    elif kind == E.FUNCTION_CALL:
        out.append(item["name"])
        _strings(json.loads(item["arguments"]), out)
    elif kind in E.OUTPUT_TYPES:
        output = item["output"]
        _strings(output if isinstance(output, str) else [b["text"] for b in output], out)
    return "\n".join(out)


def items(session: Session) -> list[tuple[Entry, dict[str, Any]]]:
    return [(e, e.item) for e in session.tree_entries if e.item is not None]


def fact_ids(truth: GroundTruth, *kinds: str) -> set[str]:
    return {eid for f in truth.of_kind(*kinds) for eid in f.entry_ids}
