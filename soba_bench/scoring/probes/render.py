"""The post-compaction model input as a probe answerer sees it: one text, item by item, with
role labels, cut to a token budget when it is longer (a 0.5B local model has a small context).
A cut keeps the head (where the capsule is) and the most recent tail, and says what it dropped,
so neither a model nor a reader of the stored prompt mistakes the cut for the session."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.meter.soba import estimate_text, item_text

CHARS_PER_TOKEN = 3.5  # SOBA's estimator: ceil(chars / 3.5)
HEAD_SHARE = 0.5  # of a cut input's budget, for its beginning (the capsule)
_HEADER_ARGS_CHARS = 120


@dataclass(frozen=True)
class Rendered:
    text: str
    tokens: int  # of ``text`` (the note included), SOBA's estimate
    full_tokens: int  # before any cut
    truncated: bool


def _label(item: dict[str, Any], calls: dict[str, str]) -> str:
    kind = item.get("type")
    if kind == "message":
        return f"[{item.get('role', 'message')}]"
    if kind == "function_call":
        return "[tool call]"
    if kind in ("function_call_output", "local_shell_call_output", "custom_tool_call_output"):
        # The call it answers, so a result can be read (and retrieved) without its call.
        call = calls.get(str(item.get("call_id")), "")
        return f"[tool result of {call}]" if call else "[tool result]"
    return f"[{kind}]"


def render_items(items: Sequence[dict[str, Any]]) -> str:
    """Every item as ``[label]`` and its text, separated by blank lines."""
    calls: dict[str, str] = {}
    blocks = []
    for item in items:
        text = item_text(item)
        if not isinstance(text, str):
            text = json.dumps(text, ensure_ascii=False, default=str)
        if item.get("type") == "function_call":
            calls[str(item.get("call_id"))] = text[:_HEADER_ARGS_CHARS]
        blocks.append(f"{_label(item, calls)}\n{text.strip()}")
    return "\n\n".join(blocks)


def truncate(text: str, budget: int | None) -> Rendered:
    """``text`` within ``budget`` tokens (None or 0: no limit), cut in the middle."""
    full = estimate_text(text)
    if not budget or full <= budget:
        return Rendered(text, full, full, False)
    # Room for the note is taken from the budget first, so the result stays within it.
    note_room = 40
    chars = max(0, int((budget - note_room) * CHARS_PER_TOKEN))
    head = int(chars * HEAD_SHARE)
    tail = chars - head
    omitted = estimate_text(text[head : len(text) - tail]) if tail else full
    note = (
        f"\n\n[... {omitted} tokens of the input omitted here to fit a {budget}-token "
        "budget ...]\n\n"
    )
    cut = text[:head] + note + (text[len(text) - tail :] if tail else "")
    return Rendered(cut, estimate_text(cut), full, True)


def render_input(items: Sequence[dict[str, Any]], budget: int | None = None) -> Rendered:
    """The model input ``items`` as one text, within ``budget`` tokens."""
    return truncate(render_items(items), budget)
