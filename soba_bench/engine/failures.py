"""What counts as a failed tool output (engine.md h.4, SOBA's ``toolFailureOutput``).

Shared by the deterministic blockers and the validator's ``lost_blocker`` check, so the two
always agree. Only explicit failure signals count; source code that merely contains the word
"error" does not.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from soba_bench.jscompat import JS_WS_CLASS, js_join, js_trim
from soba_bench.session import entries as E

# JS regex without the u flag: \b and /i are ASCII-only, \s is Unicode whitespace.
_FAILURE_LINE = re.compile(
    rf"^(?:error\b|failed\b|failure\b|exception\b|fatal\b|panic\b|✖{JS_WS_CLASS}*error\b)",
    re.IGNORECASE | re.ASCII,
)
_ANSI_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def output_text(item: dict[str, Any]) -> Any:
    """The output as SOBA reads it: a string, or the text blocks joined with newlines."""
    output = item.get("output")
    if item.get("type") == E.FUNCTION_CALL_OUTPUT and isinstance(output, list):
        return js_join(
            (block["text"] for block in output if isinstance(block, dict) and "text" in block),
            "\n",
        )
    return output


def tool_failure_output(item: dict[str, Any]) -> str | None:
    """The failure text of a failed tool output, else None."""
    kind = item.get("type")
    if kind not in E.OUTPUT_TYPES:
        return None
    output = output_text(item)
    status = item.get("status")
    if status is not None:
        return output if status == "failed" else None
    if kind == E.LOCAL_SHELL_CALL_OUTPUT and "exit_code" in item:
        # JS quirk kept: exit_code null is "defined and not 0", so it counts as a failure.
        return None if item["exit_code"] == 0 and item["exit_code"] is not False else output
    if not isinstance(output, str):
        return None
    return output if _first_line_fails(output) else None


@lru_cache(maxsize=16384)
def _first_line_fails(output: str) -> bool:
    """The legacy heuristic on the first non-blank line (colour codes removed). Lines are
    taken one at a time: only the first meaningful one matters, however long the output.
    Cached because a failing compaction re-reads the same outputs at every barrier."""
    start = 0
    while start <= len(output):
        end = output.find("\n", start)
        end = len(output) if end < 0 else end
        line = js_trim(_ANSI_COLOUR.sub("", output[start:end]))
        if line:
            return bool(_FAILURE_LINE.match(line))
        start = end + 1
    return False
