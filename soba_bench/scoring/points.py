"""Fixed evaluation points: the model requests of the replay walk, and the model input a job
would send at each of them.

Every job of a session walks the same transcript, so its preflight barriers (one per model
request) fall at the same places whatever the engine config, variant, strategy or summarizer:
these requests are the questions every job is scored on. A request is keyed by the walk's
position (``entryIndex``) and the entry it precedes (``beforeEntryId``), which the barrier log
of every job records. Lines of one request are merged (a preflight, an overflow recovery, its
retry); a ``/compact`` command line is no request. A request the engine refused
(``canProceed: false`` on its last line) is an outcome at its point: nothing was sent.

The model input at a request is rebuilt in one pass over the replayed branch, with prefix
sums instead of per-point rebuilding, so a session costs O(entries + requests log capsules):

* SOBA (and ``hybrid``): the newest capsule before the request, then the retained tail from
  its ``firstKeptEntryId`` (SOBA's quirk kept: a first-kept id not on the branch sends no
  tail); ``hybrid`` masks tool outputs in the tail as its attempt lines say;
* ``observation_masking`` / ``truncation`` / ``none``: the branch from the dropped prefix on,
  tool outputs masked through ``maskedThroughEntryId`` (see
  :mod:`soba_bench.compactors.inputs`);
* a peer policy: its summary (a capsule on the branch), the items it pinned
  (``pinnedEntryIds``: Codex's newest user messages, OpenHands' head) and the tail.

With very many requests, availability is scored on a seeded sample (:func:`sample_keys`):
a request is kept when its key's hash (salted with the seed) is among the ``limit`` smallest,
so every job of a session keeps the same requests. Outcome counts always use every request.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from soba_bench.compactors.inputs import DROPPED_THROUGH, MASKED_THROUGH, PINNED
from soba_bench.compactors.rival_branch import is_output, mask_output
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_input_items
from soba_bench.session.entries import Entry

COMPLETED = "completed"
COMMAND = "/compact"
# Default most requests a session's availability is scored on (outcomes use them all).
DEFAULT_MAX_POINTS = 1000


@dataclass(frozen=True)
class Request:
    """One model request of the walk, merged from its barrier lines."""

    key: str  # "<entryIndex>:<beforeEntryId>", the same in every job of the session
    entry_index: int
    before_id: str | None
    turn: int
    refused: bool  # the last line of the request said canProceed false: nothing was sent
    lines: tuple[dict[str, Any], ...]  # its barrier lines, in order

    @property
    def attempts(self) -> tuple[dict[str, Any], ...]:
        return tuple(line for line in self.lines if line.get("kind") == "attempt")


@dataclass(frozen=True)
class PointInput:
    """The model input a job has at one request, as positions on the replayed branch:
    ``prefix`` (index of the capsule sent first, or None), the items a peer pinned after it
    (``pinned``, ascending, all before ``start``), the tail ``[start, end)``, tool outputs
    masked through ``masked`` (-1: none; pinned items too), and its token count (items
    only)."""

    request: Request | None  # None for a capsule moment (a diagnostic)
    at: int  # position in the original session: original entries before the request
    end: int
    prefix: int | None
    start: int
    masked: int
    tokens: int
    pinned: tuple[int, ...] = ()


def barrier_lines(barriers: Iterable[Any]) -> list[dict[str, Any]]:
    """A barrier log as lines (records are turned into their lines)."""
    return [b.to_line() if hasattr(b, "to_line") else b for b in barriers]


def requests_of(lines: Sequence[dict[str, Any]]) -> list[Request]:
    """The model requests of a barrier log, in walk order."""
    out: list[Request] = []
    group: list[dict[str, Any]] = []
    key: tuple[Any, Any] | None = None

    def close() -> None:
        if group:
            last = group[-1]
            index, before = key if key is not None else (0, None)
            out.append(
                Request(
                    f"{index}:{before}",
                    int(index),
                    before,
                    int(last.get("turn") or 0),
                    last.get("canProceed") is False,
                    tuple(group),
                )
            )

    for line in lines:
        if line.get("kind") not in ("check", "attempt") or line.get("command") == COMMAND:
            continue
        this = (line.get("entryIndex"), line.get("beforeEntryId"))
        if this != key:
            close()
            group, key = [], this
        group.append(line)
    close()
    return out


def sample_keys(keys: Sequence[str], limit: int | None, seed: int = 0) -> set[str]:
    """The keys availability is scored at: all of them, or the ``limit`` whose salted hash is
    smallest (the same keys for every job of a session, whatever its outcomes)."""
    if limit is None or len(keys) <= limit:
        return set(keys)

    def rank(key: str) -> bytes:
        return hashlib.blake2b(f"{seed}:{key}".encode(), digest_size=8).digest()

    return set(sorted(keys, key=rank)[:limit])


class Shown:
    """The session's entries a model input shows verbatim, as positions on the replayed
    branch: the window ``[start, end)`` and the pinned positions, tool outputs masked through
    ``masked`` (a masked output shows nothing of its own). ``entry_id in shown`` costs the
    same whatever the window's length, so asking it about a fact's entries at every moment
    stays linear in the session."""

    __slots__ = ("_end", "_masked", "_pinned", "_start", "_walk")

    def __init__(
        self, walk: PointWalk, start: int, end: int, masked: int = -1, pinned: Iterable[int] = ()
    ) -> None:
        self._walk, self._start, self._end = walk, start, end
        self._masked, self._pinned = masked, frozenset(pinned)

    def __contains__(self, entry_id: object) -> bool:
        at = self._walk.position.get(entry_id) if isinstance(entry_id, str) else None
        if at is None or not (self._start <= at < self._end or at in self._pinned):
            return False
        item = self._walk.replayed[at].item
        return item is not None and not (at <= self._masked and is_output(item))


class PointWalk:
    """Walks a job's replayed branch once and yields the model input at every request."""

    def __init__(self, replayed: Sequence[Entry], lines: Sequence[dict[str, Any]], meter) -> None:
        self.replayed = replayed
        self.lines = lines
        self.meter = meter
        self.position: dict[str, int] = {}
        for index, entry in enumerate(replayed):
            if entry.id is not None:
                self.position.setdefault(entry.id, index)
        # Original-session positions: entries before index i that are not capsules.
        self.original_before = [0] * (len(replayed) + 1)
        tokens = [0] * (len(replayed) + 1)
        for index, entry in enumerate(replayed):
            original = entry.kind != E.CONTEXT_CAPSULE
            self.original_before[index + 1] = self.original_before[index] + original
            item = entry.item
            tokens[index + 1] = tokens[index] + (meter.count_item(item) if item else 0)
        self.tokens = tokens
        self._mask_delta: list[int] | None = None
        self._capsule_tokens: dict[int, int] = {}
        self.capsules = [i for i, e in enumerate(replayed) if e.kind == E.CONTEXT_CAPSULE]

    def mask_delta(self) -> list[int]:
        """Prefix sums of (masked - sent) tokens of tool outputs, built on first use."""
        if self._mask_delta is None:
            delta = [0] * (len(self.replayed) + 1)
            for index, entry in enumerate(self.replayed):
                item = entry.item
                change = 0
                if is_output(item):
                    masked = self.meter.count_item(mask_output(item))
                    change = masked - self.meter.count_item(item)
                delta[index + 1] = delta[index] + change
            self._mask_delta = delta
        return self._mask_delta

    def capsule_tokens(self, index: int) -> int:
        if index not in self._capsule_tokens:
            items = capsule_input_items(self.replayed[index].data)
            self._capsule_tokens[index] = sum(self.meter.count_item(i) for i in items)
        return self._capsule_tokens[index]

    def walk(self, requests: Sequence[Request]) -> list[PointInput]:
        """The input at each request (the walk order makes each step O(1) amortised)."""
        out: list[PointInput] = []
        state: dict[str, Any] = {}
        for request in requests:
            for line in request.attempts:
                if line.get("outcome") == COMPLETED and (
                    MASKED_THROUGH in line or DROPPED_THROUGH in line or PINNED in line
                ):
                    state = line
            before = request.before_id
            end = self.position.get(before, len(self.replayed)) if before else len(self.replayed)
            out.append(self.locate(end, state, request))
        return out

    def locate(self, end: int, state: dict[str, Any], request: Request | None = None) -> PointInput:
        """The input of a branch cut at ``end`` (replayed entries ``[0, end)``) in the
        model-input ``state`` of the last rival compaction (``{}``: none)."""
        k = bisect_right(self.capsules, end - 1)
        newest = self.capsules[k - 1] if k else None
        through = state.get(MASKED_THROUGH)  # an entry id (ids are strings), if any
        masked = self.position.get(through, -1) if isinstance(through, str) else -1
        pinned: tuple[int, ...] = ()
        if newest is not None:
            kept = self.replayed[newest].data["provenance"]["firstKeptEntryId"]
            # SOBA's quirk: a first-kept id not on the branch sends no tail at all.
            start = min(self.position.get(kept, end), end)
            tokens = self.capsule_tokens(newest)
            # A peer's pinned items go between its summary and the tail (a SOBA or hybrid
            # attempt line names none).
            at = (self.position.get(i) for i in state.get(PINNED) or ())
            pinned = tuple(p for p in at if p is not None and p < end)
            for index in pinned:
                tokens += self.tokens[index + 1] - self.tokens[index]
                if index <= masked:  # masked like the tail (the delta is 0 but for outputs)
                    delta = self.mask_delta()
                    tokens += delta[index + 1] - delta[index]
        else:
            dropped = state.get(DROPPED_THROUGH)
            start = min(self.position[dropped] + 1 if dropped in self.position else 0, end)
            tokens = 0
        tokens += self.tokens[end] - self.tokens[start]
        if masked >= start:
            delta = self.mask_delta()
            tokens += delta[min(masked + 1, end)] - delta[start]
        return PointInput(
            request, self.original_before[end], end, newest, start, masked, tokens, pinned
        )

    def shown(self, point: PointInput) -> Shown:
        """The entries the input at ``point`` shows verbatim (its capsule aside)."""
        return Shown(self, point.start, point.end, point.masked, point.pinned)

    @cached_property
    def _tools(self) -> _ToolIndex:
        return _ToolIndex(self.replayed)

    def boundary_problems(self, point: PointInput) -> list[tuple[int, str, Any, str]]:
        """What :func:`~soba_bench.scoring.failure_modes.boundary_problems` finds in
        ``model_input(point)``, from positions: the capsule and pinned items are read as
        items (a few), the window ``[start, end)`` from the branch's call and output index,
        so a masking strategy's input (most of the history) is not copied at every moment."""
        from soba_bench.scoring.failure_modes import NO_CALL, NO_OUTPUT

        tools = self._tools
        head = (
            capsule_input_items(self.replayed[point.prefix].data)
            if point.prefix is not None
            else []
        )
        head += [i for i in (self.replayed[p].item for p in point.pinned) if i is not None]
        start, end = point.start, point.end
        first = len(head) - tools.items_before[start]  # + items_before[p]: p's index

        # The head as items; what the window holds, from its positions.
        head_calls: set[Any] = set()
        head_outputs: set[Any] = set()
        last = -1  # the last item that is not a call
        for n, item in enumerate(head):
            kind = item.get("type")
            if kind in E.CALL_TYPES:
                continue
            last = n
            if kind in E.OUTPUT_TYPES:
                head_outputs.add(item.get("call_id"))
        other = tools.last_other[end]
        if other >= start:
            last = first + tools.items_before[other]

        found: list[tuple[int, str, Any, str]] = []
        for n, item in enumerate(head):
            kind, call_id = item.get("type"), item.get("call_id")
            if kind in E.CALL_TYPES:
                head_calls.add(call_id)
                outputs = call_id in head_outputs or tools.has_output(call_id, start, end)
                if not outputs and n < last:
                    found.append((n, kind, call_id, NO_OUTPUT))
            elif kind in E.OUTPUT_TYPES and call_id not in head_calls:
                found.append((n, kind, call_id, NO_CALL))
        for at, problem in tools.window_problems(start, end):
            held = self.replayed[at].item
            assert held is not None  # the index holds items only
            kind, call_id = held["type"], held.get("call_id")
            n = first + tools.items_before[at]
            if problem == NO_OUTPUT:
                if call_id not in head_outputs and n < last:
                    found.append((n, kind, call_id, NO_OUTPUT))
            elif call_id not in head_calls:
                found.append((n, kind, call_id, NO_CALL))
        found.sort(key=lambda problem: problem[0])
        return found

    def model_input(self, point: PointInput) -> list[dict[str, Any]]:
        """The items themselves (for a check or a diagnostic; scoring uses positions)."""
        prefix = (
            capsule_input_items(self.replayed[point.prefix].data)
            if point.prefix is not None
            else []
        )
        shown = [*point.pinned, *range(point.start, point.end)]
        items = [(index, self.replayed[index].item) for index in shown]
        return prefix + [
            mask_output(item) if index <= point.masked and is_output(item) else item
            for index, item in items
            if item is not None
        ]


class _ToolIndex:
    """The branch's tool calls and outputs, indexed once per walk for
    :meth:`PointWalk.boundary_problems`: for each call, the nearest outputs of its call id
    before and after it; for each output, the nearest call of its id before it; the items
    before each position (an input's index of an item), and the last item that is not a call
    before each position. A window's problems are then a vectorised test over its calls and
    outputs."""

    def __init__(self, replayed: Sequence[Entry]) -> None:
        import numpy as np

        self._np = np
        count = len(replayed)
        self.items_before = [0] * (count + 1)
        self.last_other = [-1] * (count + 1)
        calls: list[int] = []
        call_ids: list[Any] = []
        outputs: list[int] = []
        output_at: dict[Any, list[int]] = {}
        latest_call: dict[Any, int] = {}
        call_before: list[int] = []  # per output: the nearest call of its id before it
        for index, entry in enumerate(replayed):
            item = entry.item
            self.items_before[index + 1] = self.items_before[index] + (item is not None)
            kind = item.get("type") if item is not None else None
            self.last_other[index + 1] = (
                index if item is not None and kind not in E.CALL_TYPES else self.last_other[index]
            )
            if item is None:
                continue
            if kind in E.CALL_TYPES:
                calls.append(index)
                call_ids.append(item.get("call_id"))
                latest_call[item.get("call_id")] = index
            elif kind in E.OUTPUT_TYPES:
                call_id = item.get("call_id")
                outputs.append(index)
                output_at.setdefault(call_id, []).append(index)
                call_before.append(latest_call.get(call_id, -1))
        self._output_at = output_at
        output_before, output_after = [], []
        for index, call_id in zip(calls, call_ids, strict=True):
            at = output_at.get(call_id, [])
            k = bisect_right(at, index)
            output_before.append(at[k - 1] if k else -1)
            output_after.append(at[k] if k < len(at) else count)
        self._calls = np.asarray(calls, dtype=np.int64)
        self._output_before = np.asarray(output_before, dtype=np.int64)
        self._output_after = np.asarray(output_after, dtype=np.int64)
        self._outputs = np.asarray(outputs, dtype=np.int64)
        self._call_before = np.asarray(call_before, dtype=np.int64)

    def has_output(self, call_id: Any, start: int, end: int) -> bool:
        """Is an output of this call id among the positions ``[start, end)``?"""
        at = self._output_at.get(call_id, ())
        k = bisect_left(at, start)
        return k < len(at) and at[k] < end

    def window_problems(self, start: int, end: int) -> list[tuple[int, str]]:
        """(position, NO_OUTPUT) of each call in ``[start, end)`` with no output of its id
        there, and (position, NO_CALL) of each output there with no call of its id before it
        there: what the window alone shows (the caller adds the head's items)."""
        from soba_bench.scoring.failure_modes import NO_CALL, NO_OUTPUT

        np = self._np
        out: list[tuple[int, str]] = []
        lo, hi = np.searchsorted(self._calls, [start, end])
        lone = (self._output_before[lo:hi] < start) & (self._output_after[lo:hi] >= end)
        out += [(int(i), NO_OUTPUT) for i in self._calls[lo:hi][lone]]
        lo, hi = np.searchsorted(self._outputs, [start, end])
        orphan = self._call_before[lo:hi] < start
        out += [(int(i), NO_CALL) for i in self._outputs[lo:hi][orphan]]
        return out
