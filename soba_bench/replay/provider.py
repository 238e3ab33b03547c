"""The provider side of a replay, beyond what SOBA's recorded decisions cover:

* recorded usage: the input tokens a transcript carries per model request (``model_request``
  flight records just before the response's items, as SOBA writes them);
* a simulated provider that counts the request it would receive with its own tokenizer,
  reports that as usage, and answers ``context_overflow`` when the input plus the requested
  output reserve exceeds the window (as real providers do). SOBA's estimate can be below the
  provider's count; when the gap eats the safety reserve, this is where overflow comes from.

Counting uses running sums over the replayed branch, so a request costs O(1).
"""

from __future__ import annotations

from typing import Any

from soba_bench.engine.branch import LiveBranch
from soba_bench.meter import Meter
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_input_items
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

USAGE_NONE = "none"
USAGE_RECORDED = "recorded"
USAGE_SIMULATED = "simulated"
USAGE_MODES = (USAGE_NONE, USAGE_RECORDED, USAGE_SIMULATED)


def recorded_usage(session: Session) -> dict[str | None, float]:
    """Entry id of a response's first tree line -> the request's recorded input tokens."""
    # Keyed by Entry.id, a non-empty string for every tree line the reader admits.
    usage: dict[str | None, float] = {}
    pending: float | None = None
    for entry in session.lines:
        data = entry.data.get("data") if entry.kind == E.FLIGHT_RECORD else None
        if isinstance(data, dict) and data.get("kind") == "model_request":
            tokens: Any = (data.get("payload") or {}).get("inputTokens")
            valid = isinstance(tokens, int | float) and not isinstance(tokens, bool)
            pending = tokens if valid and tokens > 0 else None
        elif entry.is_tree and pending is not None:
            usage[entry.id] = pending
            pending = None
    return usage


class SimulatedProvider:
    """Counts what ``buildInput`` would send (capsule prefix + retained tail, or every item)
    with the provider's tokenizer, kept up to date as the branch grows."""

    def __init__(
        self,
        branch: LiveBranch,
        meter: Meter,
        context_window: float,
        max_output_tokens: float,
        non_session_tokens: float,
    ) -> None:
        self.branch = branch
        self.meter = meter
        self.context_window = context_window
        self.max_output_tokens = max_output_tokens
        self.non_session_tokens = non_session_tokens
        self._prefix = [0]
        self._capsule_tokens = 0
        self.overflows = 0
        for entry in branch.entries:
            self._on_append(entry)
        branch.listeners.append(self._on_append)

    def _on_append(self, entry: Entry) -> None:
        item = entry.item
        self._prefix.append(self._prefix[-1] + (self.meter.count_item(item) if item else 0))
        if entry.kind == E.CONTEXT_CAPSULE:
            self._capsule_tokens = sum(
                self.meter.count_item(i) for i in capsule_input_items(entry.data)
            )

    def request_tokens(self) -> float:
        """Input tokens of the request the provider would receive now."""
        branch = self.branch
        capsule_index = branch.last_capsule_index
        if capsule_index < 0:
            items = self._prefix[-1]
        else:
            first_kept = branch.entries[capsule_index].data["provenance"]["firstKeptEntryId"]
            kept_index = branch.index_of(first_kept)
            # buildInput's quirk: a first-kept id not on the branch sends no tail at all.
            tail = self._prefix[-1] - self._prefix[kept_index] if kept_index >= 0 else 0
            items = self._capsule_tokens + tail
        return self.non_session_tokens + items

    def overflows_now(self) -> bool:
        return self.request_tokens() + self.max_output_tokens > self.context_window

    def describe(self) -> dict[str, Any]:
        return {"providerMeter": self.meter.name, "overflows": self.overflows}
