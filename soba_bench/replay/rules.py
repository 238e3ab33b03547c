"""Transcript rules of the replay (conformance README R2, R7) and the replay options.

How a recorded item is classified (user message, model output, input, ignored), which tool
calls schedule milestones, and which user lines are ``/compact`` commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from soba_bench.engine.command import parse_compact_command
from soba_bench.engine.variants import DEFAULT_VARIANT
from soba_bench.errors import UnknownNameError
from soba_bench.jscompat import js_json_parse
from soba_bench.meter import DEFAULT_METER
from soba_bench.replay.provider import USAGE_MODES, USAGE_NONE
from soba_bench.session import entries as E

MODEL_OUTPUT_TYPES = frozenset({E.FUNCTION_CALL, E.LOCAL_SHELL_CALL, E.REASONING})


@dataclass(frozen=True)
class ReplayOptions:
    """How to replay. The defaults are SOBA's conformance harness: estimated meter, no
    provider, ``/compact`` lines run as commands (none occur in SOBA's own transcripts)."""

    variant: str = DEFAULT_VARIANT
    meter: str = DEFAULT_METER
    seed: int = 0
    usage: str = USAGE_NONE  # none | recorded | simulated (provider-reported input tokens)
    provider_meter: str | None = None  # the simulated provider's tokenizer (default: meter)
    simulate_overflow: bool = False  # provider answers context_overflow above the window
    commands: bool = True  # a user message "/compact [instructions]" runs the command

    def __post_init__(self) -> None:
        if self.usage not in USAGE_MODES:
            raise UnknownNameError("usage mode", self.usage, list(USAGE_MODES))


def classify(item: dict[str, Any]) -> str:
    """R2: user / model output / input / ignored."""
    kind = item.get("type")
    if kind == E.MESSAGE:
        role = item.get("role")
        if role == "user":
            return "user"
        return "model" if role == "assistant" else "input"
    if kind in MODEL_OUTPUT_TYPES:
        return "model"
    if kind in E.OUTPUT_TYPES:
        return "input"
    return "ignored"


def checkpoint_event(item: dict[str, Any]) -> dict[str, Any] | None:
    """R7: a ``checkpoint`` call with kind milestone|plan_pivot -> its scheduled event."""
    if item.get("type") != E.FUNCTION_CALL or item.get("name") != "checkpoint":
        return None
    arguments = item.get("arguments")
    if not isinstance(arguments, str):  # JSON.parse of a non-string fails here too
        return None
    try:
        args = js_json_parse(arguments)
    except (ValueError, RecursionError):
        return None
    if not isinstance(args, dict) or args.get("kind") not in ("milestone", "plan_pivot"):
        return None
    completed, pending = args.get("completed"), args.get("pending")
    return {
        "kind": args["kind"],
        "reason": args.get("reason"),
        "nextDirection": args.get("nextDirection"),
        "completed": completed if completed is not None else [],
        "pending": pending if pending is not None else [],
    }


def compact_command_of(item: dict[str, Any]) -> str | bool:
    """The instructions of a ``/compact`` user message ("" when none), else False."""
    content = item.get("content")
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        text = "".join(
            b.get("text", "")
            for b in content
            if isinstance(b, dict) and isinstance(b.get("text"), str)
        )
    else:
        return False
    return parse_compact_command(text)
