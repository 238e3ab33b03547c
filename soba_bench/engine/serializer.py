"""The transcript-as-text form a summarizer model reads (engine.md j.4): one line per item,
tool and shell outputs cut at 2000 characters."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from soba_bench.jscompat import js_join, js_slice, js_string, utf16_len

MAX_TOOL_OUTPUT_CHARS = 2000
TRUNCATION_MARK = "... [truncated]"


def _cut(text: str) -> str:
    if utf16_len(text) > MAX_TOOL_OUTPUT_CHARS:
        return js_slice(text, 0, MAX_TOOL_OUTPUT_CHARS) + TRUNCATION_MARK
    return text


def serialize_item(item: dict[str, Any]) -> str:
    kind = item.get("type")
    if kind == "message":
        role: Any = item.get("role")  # any JSON value: unknown roles print as themselves
        prefix = {"user": "[User]", "assistant": "[Assistant]"}.get(role, f"[{js_string(role)}]")
        content = item.get("content")
        if isinstance(content, list):
            text = js_join(
                (
                    b["text"] if isinstance(b, dict) and "text" in b else "[non-text content]"
                    for b in content
                ),
                "\n",
            )
            return f"{prefix}: {text}"
        return f"{prefix}: {js_string(content)}"
    if kind == "function_call":
        return f"[Tool: {js_string(item.get('name'))}]: args={js_string(item.get('arguments'))}"
    if kind == "function_call_output":
        output = item.get("output")
        if not isinstance(output, str):
            output = js_join(
                (b["text"] if isinstance(b, dict) and "text" in b else "" for b in output or []),
                "\n",
            )
        return f"[Tool Result: {js_string(item.get('call_id'))}]: {_cut(output)}"
    if kind == "local_shell_call":
        return f"[Shell: {js_string(item.get('command'))}]"
    if kind == "local_shell_call_output":
        return f"[Shell Output]: {_cut(js_string(item.get('output')))}"
    if kind == "compaction":
        return f"[Compaction Summary]: {js_string(item.get('encrypted_content'))}"
    return "[unknown]"


def serialize_items(items: Sequence[dict[str, Any]]) -> str:
    return "\n".join(serialize_item(item) for item in items)
