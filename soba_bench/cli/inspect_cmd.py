"""Show what a session holds: entries, turns, tool calls, capsules, tokens by item kind.

With --json, prints one JSON object (entries, branchEntries, turns, branchItemTokens,
tokensByKind, ...). Tokens are counted over the item entries of the active branch with the
chosen meter (default: SOBA's estimator).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from soba_bench.corpora.sniff import read_session_or_hint
from soba_bench.meter import DEFAULT_METER, get_meter
from soba_bench.session import entries as E
from soba_bench.session.model import Session
from soba_bench.session.turns import scan_turn_marks


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", help="SOBA session file (.jsonl or .jsonl.gz)")
    parser.add_argument(
        "--meter", default=DEFAULT_METER, help="token meter: soba (default) or tiktoken:<encoding>"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="skip unreadable lines (counted and reported) instead of failing",
    )


def item_kind(item: dict[str, Any]) -> str:
    kind = str(item.get("type"))
    return f"message:{item.get('role')}" if kind == E.MESSAGE else kind


def summarize(session: Session, meter_name: str = DEFAULT_METER) -> dict[str, Any]:
    """The inspect summary as a plain dict (also used by other commands)."""
    meter = get_meter(meter_name)
    branch = session.active_branch
    marks = scan_turn_marks(session)
    tokens: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    turns = 0
    for entry in branch:
        item = entry.item
        if item is None:
            continue
        kind = item_kind(item)
        counts[kind] += 1
        tokens[kind] += meter.count_item(item)
        if kind == "message:user" and (marks.opening_ids is None or entry.id in marks.opening_ids):
            turns += 1
    return {
        "session": session.path,
        "sessionId": session.session_id,
        "entries": len(session.lines),
        "treeEntries": len(session.tree_entries),
        "branchEntries": len(branch),
        "leafId": session.leaf_id,
        "turns": turns,
        "turnSource": marks.turn_source,
        "toolCalls": sum(counts[k] for k in E.CALL_TYPES),
        "toolOutputs": sum(counts[k] for k in E.OUTPUT_TYPES),
        "capsules": sum(1 for e in branch if e.kind == E.CONTEXT_CAPSULE),
        "legacyCompactions": sum(1 for e in branch if e.kind == E.COMPACTION),
        "skillActivations": sum(1 for e in branch if e.kind == E.SKILL_ACTIVATION),
        "linesByKind": dict(sorted(Counter(e.kind for e in session.lines).items())),
        "itemsByKind": dict(sorted(counts.items())),
        "meter": meter.name,
        "branchItemTokens": sum(tokens.values()),
        "tokensByKind": dict(sorted(tokens.items())),
        "warnings": [i.message for i in session.warnings],
        "skippedLines": len(session.skipped),
    }


def run(args: argparse.Namespace) -> int:
    session = read_session_or_hint(args.session, strict=not args.lenient)
    summary = summarize(session, args.meter)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"session   {summary['session']}  (id {summary['sessionId']})")
    print(
        f"entries   {summary['entries']} lines, {summary['treeEntries']} tree entries, "
        f"{summary['branchEntries']} on the active branch (leaf {summary['leafId']})"
    )
    print(f"turns     {summary['turns']} ({summary['turnSource']})")
    print(f"tools     {summary['toolCalls']} calls, {summary['toolOutputs']} outputs")
    print(
        f"capsules  {summary['capsules']} context capsules, "
        f"{summary['legacyCompactions']} legacy compactions"
    )
    print(f"tokens    {summary['branchItemTokens']} on the branch ({summary['meter']})")
    width = max((len(k) for k in summary["tokensByKind"]), default=0)
    for kind, value in summary["tokensByKind"].items():
        print(f"  {kind:<{width}}  {value:>10}  ({summary['itemsByKind'][kind]} items)")
    for warning in summary["warnings"]:
        print(f"warning   {warning}")
    if summary["skippedLines"]:
        print(f"skipped   {summary['skippedLines']} unreadable lines (lenient mode)")
    return 0
