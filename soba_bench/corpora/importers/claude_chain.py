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

CHAIN_TYPES = ("user", "assistant", "system", "attachment")
Record = tuple[int, dict[str, Any]]  # (line number, record)


def stream_order(records: list[Record], b) -> list[Record]:
    out = []
    for lineno, rec in records:
        if rec.get("type") in CHAIN_TYPES:
            out.append((lineno, rec))
        else:
            b.at(str(rec.get("type")), lineno)
            b.skip(f"type:{rec.get('type')} (not model context)", lost=_carries(rec))
    return out


def chain_order(records: list[Record], b) -> list[Record]:
    """The conversation records of a transcript, in order (see the module docstring).
    Every record kind is walked through (``progress``, ``attachment`` and ``system`` records
    sit inside the ``parentUuid`` chain); only user/assistant/system records are returned."""
    by_uuid: dict[str, Record] = {}
    index_of: dict[str, int] = {}
    for position, (lineno, rec) in enumerate(records):
        uid = rec.get("uuid")
        if not isinstance(uid, str):
            b.at(str(rec.get("type")), lineno)
            b.skip(f"type:{rec.get('type')} (not model context)")
        elif uid in by_uuid:
            b.at(str(rec.get("type")), lineno)
            b.skip("duplicateUuid")
        else:
            by_uuid[uid] = (lineno, rec)
            index_of[uid] = position
    ordered_uuids = sorted(by_uuid, key=index_of.__getitem__)
    rank = {u: n for n, u in enumerate(ordered_uuids)}
    chain: list[Record] = []
    seen: set[str] = set()
    cur = ordered_uuids[-1] if ordered_uuids else None
    broken = 0
    while isinstance(cur, str) and cur in by_uuid and cur not in seen:
        seen.add(cur)
        chain.append(by_uuid[cur])
        rec = by_uuid[cur][1]
        parent = rec.get("parentUuid")
        if parent is None and rec.get("subtype") == "compact_boundary":
            parent = rec.get("logicalParentUuid")
        if isinstance(parent, str) and parent not in by_uuid:
            # The parent is not in this file (a resumed or pruned session): carry on from
            # the record written just before, so earlier history is not dropped.
            broken += 1
            parent = next((u for u in reversed(ordered_uuids[: rank[cur]]) if u not in seen), None)
        cur = parent
    if broken:
        b.notes["chainGaps"] = broken
    chain.reverse()
    messages: list[Record] = []
    for lineno, rec in chain:
        if rec.get("type") in CHAIN_TYPES:
            messages.append((lineno, rec))
        else:
            b.at(str(rec.get("type")), lineno)
            b.skip(f"type:{rec.get('type')} (not model context)", lost=_carries(rec))
    off = [
        by_uuid[u]
        for u in ordered_uuids
        if u not in seen and by_uuid[u][1].get("type") in CHAIN_TYPES
    ]
    for u in ordered_uuids:
        if u not in seen and by_uuid[u][1].get("type") not in CHAIN_TYPES:
            b.at(str(by_uuid[u][1].get("type")), by_uuid[u][0])
            b.skip(
                f"type:{by_uuid[u][1].get('type')} (not model context)",
                lost=_carries(by_uuid[u][1]),
            )
    return _take_back_results(messages, off, b)


def split_sidechains(records: list[Record]) -> tuple[list[Record], dict[str, list[Record]]]:
    """(main records, sidechain records by agent). A file whose records are all sidechain
    records (a subagent transcript of its own) is all main. Stream-json subagent lines
    (``parent_tool_use_id``) are grouped by the Task call that started them."""

    inline = [r for _, r in records if r.get("isSidechain") is True]
    # Older transcripts put agentId on some sidechain records only: group by it only when
    # every sidechain record has one, else they are one subagent conversation.
    by_agent = bool(inline) and all(isinstance(r.get("agentId"), str) for r in inline)

    def side_key(rec: dict[str, Any]) -> str | None:
        if rec.get("isSidechain") is True:
            return rec["agentId"] if by_agent and rec.get("agentId") else "sidechain"
        parent = rec.get("parent_tool_use_id")
        return parent if isinstance(parent, str) and parent else None

    keyed = [(side_key(rec), (lineno, rec)) for lineno, rec in records]
    talk = [k for k, (_, rec) in keyed if rec.get("type") in CHAIN_TYPES]
    if talk and all(k is not None for k in talk):
        return records, {}
    main: list[Record] = []
    sides: dict[str, list[Record]] = {}
    for key, item in keyed:
        if key is None:
            main.append(item)
        else:
            sides.setdefault(key, []).append(item)
    return main, sides


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
        ids: list[Any] = [block.get("tool_use_id") for block in blocks]  # checked below
        if (
            item[1].get("type") != "user"
            or not blocks
            or not all(block.get("type") == "tool_result" for block in blocks)
            or not all(isinstance(i, str) and i in uses and i not in answered for i in ids)
        ):
            b.at(str(item[1].get("type")), item[0])
            b.skip("abandoned branch (not in the final conversation)")
            continue
        j = next(k for k, (it, _) in enumerate(ordered) if it is chain[uses[ids[0]]]) + 1
        while j < len(ordered) and (ordered[j][1] or ordered[j][0][1].get("type") == "assistant"):
            j += 1
        ordered.insert(j, (item, True))
        answered.update(ids)
        b.notes["resultsTakenBack"] = b.notes.get("resultsTakenBack", 0) + 1
    return [item for item, _ in ordered]


def _carries(rec: dict[str, Any]) -> str | None:
    """What a record of a kind the importer does not convert would take with it: a
    top-level user/assistant ``message`` is conversation (an unknown record kind holding
    one is a loss); housekeeping records (progress, snapshots, queue operations) hold none."""
    message = rec.get("message")
    if isinstance(message, dict) and message.get("role") in ("user", "assistant"):
        return f"{message['role']} message"
    return None
