"""The artifact ledger: files read and modified, verification commands and status,
checkpoint summaries (engine.md h.5). Rebuilt from the compacted span only: SOBA does not
carry the previous capsule's ledger forward."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from soba_bench.jscompat import js_json_parse, js_truthy

DETERMINISTIC_KEYWORDS = ("test", "lint", "build", "check")
PORTABLE_KEYWORDS = ("test", "lint", "build")


class OrderedSet:
    """A JavaScript Set: insertion order, SameValueZero equality (1 == 1.0, true != 1,
    objects by identity)."""

    def __init__(self) -> None:
        self._seen: set[Any] = set()
        self.values: list[Any] = []

    @staticmethod
    def _key(value: Any) -> Any:
        if isinstance(value, bool):
            return ("bool", value)
        if isinstance(value, int | float):
            return ("num", value)
        if isinstance(value, str):
            return ("str", value)
        if value is None:
            return ("null",)
        return ("obj", id(value))

    def add(self, value: Any) -> None:
        key = self._key(value)
        if key not in self._seen:
            self._seen.add(key)
            self.values.append(value)


def js_includes(haystack: Any, needle: str) -> bool:
    """``haystack.includes(needle)`` for a string or an array; other types throw in JS."""
    if isinstance(haystack, str):
        return needle in haystack
    if isinstance(haystack, list):
        return needle in [v for v in haystack if isinstance(v, str)]
    raise TypeError("includes is not a function")


def parse_checkpoint_facts(args: Any) -> dict[str, Any] | None:
    """A ``checkpoint`` call's facts when kind is milestone|plan_pivot and reason a string."""
    if not isinstance(args, dict):  # arrays pass SOBA's object test but have no kind
        return None
    kind, reason = args.get("kind"), args.get("reason")
    if kind not in ("milestone", "plan_pivot") or not isinstance(reason, str):
        return None
    next_direction = args.get("nextDirection")

    def strings(value: Any) -> list[str]:
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []

    return {
        "kind": kind,
        "reason": reason,
        "nextDirection": next_direction if isinstance(next_direction, str) else None,
        "completed": strings(args.get("completed")),
        "pending": strings(args.get("pending")),
    }


def checkpoint_summary(facts: dict[str, Any]) -> str:
    parts = [f"{facts['kind']}: {facts['reason']}"]
    if facts["nextDirection"]:
        parts.append(f"next: {facts['nextDirection']}")
    if facts["completed"]:
        parts.append("completed: " + ", ".join(facts["completed"]))
    if facts["pending"]:
        parts.append("pending: " + ", ".join(facts["pending"]))
    return "; ".join(parts)


def parse_arguments(arguments: Any) -> Any:
    """JSON.parse of a call's arguments; raises ValueError like JS throws SyntaxError.
    The result is shared between calls with the same text: treat it as read-only."""
    if not isinstance(arguments, str):
        # JSON.parse(String(x)): only strings reach here from a strict read
        raise ValueError("arguments is not a string")
    parsed = _parse_cached(arguments)
    if isinstance(parsed, ValueError):
        raise parsed
    return parsed


@lru_cache(maxsize=8192)
def _parse_cached(arguments: str) -> Any:
    # A failing compaction re-reads the same calls at every barrier; parse each text once.
    try:
        return js_json_parse(arguments)
    except (ValueError, RecursionError) as exc:
        return ValueError(str(exc))


class ArtifactScan:
    """The artifact ledger built one item at a time, so a span that only grows at its end
    (a compaction that keeps failing) is never re-read: :func:`extract_artifacts` feeds a
    whole span, the engine's span digest feeds only the entries that joined it."""

    def __init__(self, *, portable: bool = False) -> None:
        self.portable = portable
        self.keywords = PORTABLE_KEYWORDS if portable else DETERMINISTIC_KEYWORDS
        self.read, self.modified = OrderedSet(), OrderedSet()
        self.commands, self.summaries = OrderedSet(), OrderedSet()
        self.status = "unknown"

    def feed(self, item: dict[str, Any]) -> None:
        """Add one item; raises exactly where SOBA's extraction throws."""
        portable, keywords = self.portable, self.keywords
        kind = item.get("type")
        if kind == "function_call":
            try:
                args = parse_arguments(item.get("arguments"))
                name = item.get("name")
                if args is None:
                    raise TypeError("Cannot read properties of null")
                path = args.get("path") if isinstance(args, dict) else None
                if name == "read" and js_truthy(path):
                    self.read.add(path)
                if name in ("write", "edit") and js_truthy(path):
                    self.modified.add(path)
                command = args.get("command") if isinstance(args, dict) else None
                if (
                    name == "bash"
                    and js_truthy(command)
                    and any(js_includes(command, k) for k in keywords)
                ):
                    self.commands.add(command)
                if name == "checkpoint" and not portable:
                    facts = parse_checkpoint_facts(args)
                    if facts is not None:
                        self.summaries.add(checkpoint_summary(facts))
            except (ValueError, TypeError, RecursionError):
                pass  # SOBA ignores calls whose arguments do not parse
        elif kind == "local_shell_call" and not portable:
            command = item.get("command")
            if any(js_includes(command, k) for k in keywords):
                self.commands.add(command)
        elif kind == "local_shell_call_output" and "exit_code" in item:
            code = item["exit_code"]
            self.status = "passed" if (code == 0 and code is not False) else "failed"

    def ledger(self) -> dict[str, Any]:
        """The ledger so far, in fresh lists (the scan may go on growing)."""
        ledger = {
            "readFiles": list(self.read.values),
            "modifiedFiles": list(self.modified.values),
            "verificationCommands": list(self.commands.values),
            "verificationStatus": self.status,
        }
        if not self.portable:
            ledger["checkpointSummaries"] = list(self.summaries.values)
        return ledger


def extract_artifacts(items: Sequence[dict[str, Any]], *, portable: bool = False) -> dict[str, Any]:
    """The ledger of the deterministic strategy, or (``portable=True``) of portable_only,
    which drops the ``check`` keyword, shell calls and checkpoint summaries."""
    scan = ArtifactScan(portable=portable)
    for item in items:
        scan.feed(item)
    return scan.ledger()
