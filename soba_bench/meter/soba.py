"""SOBA's own token estimator, exactly (engine.md b.1, b.2).

``ceil(utf16_len(text) / 3.5)`` per item over the item's text, no per-item overhead; reasoning
items, images and unknown item types count 0. Non-session text (system prompt, tool schemas)
is ``ceil(chars / 4)``. SOBA's decisions depend on these numbers, so this is the default meter.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from soba_bench.jscompat import UNDEFINED, js_json_stringify, js_string, utf16_len

CHARS_PER_TOKEN = 3.5
NON_SESSION_CHARS_PER_TOKEN = 4


def _text_len(value: Any) -> int:
    """``text.length`` for whatever SOBA assigned to ``text``."""
    if isinstance(value, str):
        return utf16_len(value)
    if isinstance(value, list):  # JS quirk: an array's .length is its element count
        return len(value)
    return 0  # JS would produce NaN here; a strict read never lets such an item through


def item_text(item: dict[str, Any]) -> Any:
    """The text SOBA's estimator measures for one model item (a string, or the raw value
    for the odd shapes whose JS ``.length`` is not a string length)."""
    kind = item.get("type")
    if kind == "message":
        content = item.get("content", UNDEFINED)
        if isinstance(content, list):
            text = "".join(
                js_string(block["text"])
                for block in content
                if isinstance(block, dict) and "text" in block
            )
        else:
            text = js_string(content)
        reasoning = item.get("reasoning_content")
        if isinstance(reasoning, str):
            text += reasoning
        return text
    if kind == "function_call":
        text = (
            f"{js_string(item.get('name', UNDEFINED))}: "
            f"{js_string(item.get('arguments', UNDEFINED))}"
        )
        reasoning = item.get("reasoning_content")
        if isinstance(reasoning, str):
            text += reasoning
        return text
    if kind == "function_call_output":
        output = item.get("output", UNDEFINED)
        return output if isinstance(output, str) else js_json_stringify(output)
    if kind == "local_shell_call":
        return f"shell: {js_string(item.get('command', UNDEFINED))}"
    if kind == "local_shell_call_output":
        return item.get("output")
    if kind == "compaction":
        return item.get("encrypted_content")
    return ""


def estimate_item(item: dict[str, Any]) -> int:
    """Tokens of one model item under SOBA's estimator."""
    # Integer form of ceil(n / 3.5): identical to the float form for every length.
    n = _text_len(item_text(item))
    return -(-2 * n // 7)


def estimate_items(items: Iterable[dict[str, Any]]) -> int:
    return sum(estimate_item(item) for item in items)


def estimate_text(text: str) -> int:
    """ceil(len/3.5) of a bare string (the capsule text is measured this way)."""
    return -(-2 * utf16_len(text) // 7)


def estimate_non_session(text: str) -> int:
    """System prompt / tool schema estimate: ceil(chars / 4)."""
    return math.ceil(utf16_len(text) / NON_SESSION_CHARS_PER_TOKEN)
