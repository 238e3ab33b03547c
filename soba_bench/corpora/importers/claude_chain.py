"""Which Claude Code records form the conversation, in order.

Transcripts: the main chain is the ``parentUuid`` path from the last non-sidechain record
back to the root, crossing compactions through ``logicalParentUuid`` (a compact boundary
starts a new root). Sidechain (subagent) records and records off the chain (abandoned
branches, retries) are left out and counted. With parallel tool calls Claude Code can hang a
``tool_result`` record off the chain; such a record is taken back in right after the
assistant records of its call. Stream-json logs are already linear: only subagent messages
(``parent_tool_use_id`` set) and non-message lines are left out.
"""

from __future__ import annotations

from typing import Any

CHAIN_TYPES = ("user", "assistant", "system")
Record = tuple[int, dict[str, Any]]  # (line number, record)


def stream_order(records: list[Record], b) -> list[Record]:
    out = []
    for lineno, rec in records:
        if rec.get("parent_tool_use_id") is not None:
            b.skip("sidechain")
        elif rec.get("type") in CHAIN_TYPES:
            out.append((lineno, rec))
        else:
            b.skip(f"type:{rec.get('type')}")
    return out


def chain_order(records: list[Record], b) -> list[Record]:
    by_uuid: dict[str, Record] = {}
    main: list[Record] = []
    for lineno, rec in records:
        uid = rec.get("uuid")
        if rec.get("type") not in CHAIN_TYPES or not isinstance(uid, str):
            b.skip(f"type:{rec.get('type')}")
        elif rec.get("isSidechain") is True:
            b.skip("sidechain")
        elif uid in by_uuid:
            b.skip("duplicateUuid")
        else:
            by_uuid[uid] = (lineno, rec)
            main.append((lineno, rec))
    chain: list[Record] = []
    seen: set[str] = set()
    cur = main[-1][1]["uuid"] if main else None
    while isinstance(cur, str) and cur in by_uuid and cur not in seen:
        seen.add(cur)
        chain.append(by_uuid[cur])
        rec = by_uuid[cur][1]
        parent = rec.get("parentUuid")
        if parent is None and rec.get("subtype") == "compact_boundary":
            parent = rec.get("logicalParentUuid")
        cur = parent
    chain.reverse()
    return _take_back_results(chain, [m for m in main if m[1]["uuid"] not in seen], b)


def blocks_of(rec: dict[str, Any]) -> list[dict[str, Any]]:
    message = rec.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _take_back_results(chain: list[Record], off_chain: list[Record], b) -> list[Record]:
    uses: dict[str, int] = {}
    for index, (_, rec) in enumerate(chain):
        for block in blocks_of(rec):
            if block.get("type") == "tool_use" and isinstance(block.get("id"), str):
                uses[block["id"]] = index
    answered = {
        block["tool_use_id"]
        for _, rec in chain
        for block in blocks_of(rec)
        if isinstance(block.get("tool_use_id"), str)
    }
    ordered = [(item, False) for item in chain]  # (record, taken back)
    for item in off_chain:
        blocks = blocks_of(item[1])
        ids = [block.get("tool_use_id") for block in blocks]
        if (
            item[1].get("type") != "user"
            or not blocks
            or not all(block.get("type") == "tool_result" for block in blocks)
            or not all(isinstance(i, str) and i in uses and i not in answered for i in ids)
        ):
            b.skip("offChain")
            continue
        j = next(k for k, (it, _) in enumerate(ordered) if it is chain[uses[ids[0]]]) + 1
        while j < len(ordered) and (ordered[j][1] or ordered[j][0][1].get("type") == "assistant"):
            j += 1
        ordered.insert(j, (item, True))
        answered.update(ids)
        b.notes["resultsTakenBack"] = b.notes.get("resultsTakenBack", 0) + 1
    return [item for item, _ in ordered]
