"""Choosing the cut point: which part of the window is compacted and which is kept
(engine.md f.2-f.5, SOBA's ``findCutPoint``).

SOBA's version re-scans the window for every candidate (quadratic). Here the "does this cut
split a tool call from its output" question is answered for every index at once with a
difference array, and kept-token sums come from suffix sums, so the whole search is linear in
the window and the backwards walk stops after the kept tail.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, overload

from soba_bench.meter import get_meter
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry

T = TypeVar("T")

# call_id key -> (sorted positions of its calls, sorted positions of its outputs)
Positions = Callable[[object], tuple[list[int], list[int]]]


class ListSlice(Sequence[T]):
    """A read-only view of ``base[start:stop]`` that copies nothing until it is sliced.

    A failing compaction runs one attempt per barrier over a window that keeps growing;
    copying the window (or the span's ids and items) for each attempt is linear in the span
    and so quadratic over the replay (issue 18). The view stays valid while ``base`` is only
    appended to, which holds for the branch and for a span digest's lists.
    """

    __slots__ = ("base", "start", "stop")

    def __init__(self, base: list[T], start: int = 0, stop: int | None = None) -> None:
        self.base = base
        self.start = start
        self.stop = len(base) if stop is None else stop

    def __len__(self) -> int:
        return self.stop - self.start

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> list[T]: ...
    def __getitem__(self, index: int | slice) -> T | list[T]:
        if isinstance(index, slice):  # a real list, as slicing a list gives
            lo, hi, step = index.indices(self.stop - self.start)
            return (
                self.base[self.start + lo : self.start + max(lo, hi) : step]
                if step == 1
                else [self.base[self.start + i] for i in range(lo, hi, step)]
            )
        n = self.stop - self.start
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("ListSlice index out of range")
        return self.base[self.start + index]

    def __iter__(self) -> Iterator[T]:
        # not islice: it would step over the first ``start`` items one by one
        return map(self.base.__getitem__, range(self.start, self.stop))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ListSlice | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return f"ListSlice({list(self)!r})"


class SplitIndex:
    """Which cuts of a growing window separate a tool call from its output, kept as entries
    join (issue 18: a failing compaction asks at every barrier, for a cut near the end).

    The window is ``entries[low:end]`` of an append-only list; ``end`` only grows. A cut at
    absolute position ``c`` splits when some call id has a call before ``c`` (and at or after
    ``low``) and an output at or after it, or the other way round: ``c`` lies in
    ``(first call, last output]`` or ``(first output, last call]`` of that id. A new entry
    only ever moves a "last" to the newest position, so each new pair marks the range from
    its partner's first position to the newest entry; the marked positions are kept as
    disjoint ranges, and a new mark swallows the ranges at the tail it overlaps. The answer
    is the same as :meth:`_Window.splits` over the window (a property test compares them).
    """

    def __init__(self, entries: list[Entry], low: int) -> None:
        self.entries = entries
        self.low = low
        self.end = low
        # call key -> [first call position, first output position] (-1: none yet)
        self._first: dict[object, list[int]] = {}
        self._starts: list[int] = []  # marked ranges [start, stop], disjoint, ascending
        self._stops: list[int] = []
        # every call id seen so far was a string, None or a non-bool number: then a Python
        # dict keyed by the raw ids (the validator's) pairs exactly what call_key pairs
        self.plain_ids = True

    def extend_to(self, stop: int) -> None:
        entries, first = self.entries, self._first
        for position in range(self.end, stop):
            item = entries[position].item
            if item is None:
                continue
            kind = item.get("type")
            if kind in E.CALL_TYPES:
                own, partner = 0, 1
            elif kind in E.OUTPUT_TYPES:
                own, partner = 1, 0
            else:
                continue
            call_id = item.get("call_id")
            if call_id is not None and (
                type(call_id) is bool or not isinstance(call_id, str | int | float)
            ):
                self.plain_ids = False
            slot = first.get(call_key(call_id))
            if slot is None:
                slot = first[call_key(call_id)] = [-1, -1]
            if slot[own] < 0:
                slot[own] = position
            if 0 <= slot[partner] < position:
                self._mark(slot[partner] + 1, position)
        self.end = stop

    def _mark(self, start: int, stop: int) -> None:
        starts, stops = self._starts, self._stops
        while stops and stops[-1] >= start - 1:  # overlapping or touching: merge
            start = min(start, starts.pop())
            stops.pop()
        starts.append(start)
        stops.append(stop)

    def splits(self, cut: int) -> bool:
        """Whether cutting before absolute position ``cut`` splits a call from its output
        (positions at or past ``end`` are never marked)."""
        at = bisect_right(self._starts, cut) - 1
        return at >= 0 and self._stops[at] >= cut


def as_list(values: Sequence[Any]) -> list[Any]:
    """``values`` as a real list (a :class:`ListSlice` is copied once, here)."""
    return values if isinstance(values, list) else list(values)


def partner_within(item: dict[str, Any], positions: Positions, low: int, high: int) -> bool:
    """True when ``item`` is a tool call whose output, or an output whose call, sits at a
    position in ``[low, high)`` (any call family; ``positions`` is the branch's index)."""
    kind = item.get("type")
    if kind in E.CALL_TYPES:
        partners = positions(call_key(item.get("call_id")))[1]
    elif kind in E.OUTPUT_TYPES:
        partners = positions(call_key(item.get("call_id")))[0]
    else:
        return False
    first = bisect_left(partners, low)
    return first < len(partners) and partners[first] < high


class _Window:
    def __init__(
        self,
        entries: Sequence[Entry],
        tokens_of: Callable[[int], int],
        positions: Positions | None = None,
        offset: int = 0,
        split_index: SplitIndex | None = None,
    ) -> None:
        self.entries = entries
        self.split_index = split_index
        self._whole: list[Entry] | None = None
        self.tokens_of = tokens_of
        self.positions = positions
        self.offset = offset
        self._splits: list[int] | None = None
        self._suffix: list[int] | None = None

    def splits_at(self, cut: int) -> bool:
        """``splits(cut)`` for one cut. With a position index only the kept side is read
        (each of its calls and outputs looks for a partner before the cut), so the common
        check costs the kept tail, not the whole window."""
        if self.split_index is not None and self._splits is None:
            return self.split_index.splits(self.offset + cut)
        if self.positions is None or self._splits is not None:
            return self.splits(cut)
        low, middle = self.offset, self.offset + cut
        for entry in self.entries[cut:]:  # the kept tail only (a view slices cheaply)
            item = entry.item
            if item is not None and partner_within(item, self.positions, low, middle):
                return True
        return False

    def splits(self, cut: int) -> bool:
        """True when some call_id has a call on one side of ``cut`` and an output on the
        other (both call families, both output families, paired across them)."""
        if self._splits is None:
            self._splits = self._split_counts()
        return self._splits[cut] > 0

    def whole(self) -> list[Entry]:
        """The window as a list, for the scans that read all of it (rare: only when the
        newest message boundary splits a tool call)."""
        if self._whole is None:
            self._whole = as_list(self.entries)
        return self._whole

    def _split_counts(self) -> list[int]:
        n = len(self.entries)
        # call_id -> [min_call, max_call, min_output, max_output]
        spans: dict[object, list[int]] = {}
        for index, entry in enumerate(self.whole()):
            item = entry.item
            if item is None:
                continue
            kind = item.get("type")
            if kind in E.CALL_TYPES:
                slot = 0
            elif kind in E.OUTPUT_TYPES:
                slot = 2
            else:
                continue
            span = spans.setdefault(call_key(item.get("call_id")), [n, -1, n, -1])
            span[slot] = min(span[slot], index)
            span[slot + 1] = max(span[slot + 1], index)
        diff = [0] * (n + 2)
        for min_call, max_call, min_out, max_out in spans.values():
            if max_call < 0 or max_out < 0:
                continue
            # Call compacted (< cut) while an output is kept (>= cut): cut in (min_call, max_out].
            if min_call < max_out:
                diff[min_call + 1] += 1
                diff[max_out + 1] -= 1
            # Call kept while an output is compacted: cut in (min_out, max_call].
            if min_out < max_call:
                diff[min_out + 1] += 1
                diff[max_call + 1] -= 1
        counts, running = [], 0
        for cut in range(n + 1):
            running += diff[cut]
            counts.append(running)
        return counts

    def kept_tokens(self, cut: int) -> int:
        if self._suffix is None:
            entries = self.whole()
            n = len(entries)
            suffix = [0] * (n + 1)
            for index in range(n - 1, -1, -1):
                own = self.tokens_of(index) if entries[index].item is not None else 0
                suffix[index] = suffix[index + 1] + own
            self._suffix = suffix
        return self._suffix[cut]

    def tool_batch_cut(self, keep: float) -> int | None:
        """The newest complete tool-batch boundary that keeps at most ``keep`` tokens:
        most kept tokens wins, ties go to the later index."""
        entries = self.whole()
        n = len(entries)
        first_item = next((i for i, e in enumerate(entries) if e.item is not None), n)
        best: tuple[int, int] | None = None  # (kept tokens, index)
        for index in range(1, n + 1):
            item = entries[index].item if index < n else None
            batch_start = item is not None and item.get("type") in E.CALL_TYPES
            rollover = entries[index - 1].kind == E.CONTEXT_CAPSULE
            if not (batch_start or rollover or index == n):
                continue
            if first_item >= index or self.splits(index):
                continue
            kept = self.kept_tokens(index)
            if kept <= keep and (best is None or kept >= best[0]):
                best = (kept, index)
        return best[1] if best is not None else None


def call_key(call_id: object) -> object:
    # JS Set semantics: a number and a string are different keys, 1 and 1.0 are not.
    if type(call_id) is str:
        return call_id
    if isinstance(call_id, int | float):
        return (type(call_id) is bool, call_id)
    return id(call_id)


def find_cut_point(
    entries: Sequence[Entry],
    keep_recent_tokens: float,
    tokens_of: Callable[[int], int] | None = None,
    positions: Positions | None = None,
    offset: int = 0,
    sums: tuple[list[int], list[int]] | None = None,
    split_index: SplitIndex | None = None,
) -> int:
    """Index of the first entry to keep; entries before it are compacted. ``positions``
    (optional) indexes tool calls and outputs by call id in a larger sequence that holds
    ``entries`` at ``offset``; ``sums`` (optional) are that sequence's token prefix sums and
    the sorted positions of its user/assistant messages; ``split_index`` (optional) is a
    :class:`SplitIndex` of that sequence from ``offset``, extended to the window's end. They
    only make the search faster."""
    if not entries:
        return 0
    if tokens_of is None:
        meter = get_meter()

        def tokens_of(i: int) -> int:
            item = entries[i].item
            assert item is not None  # the search measures item entries only
            return meter.count_item(item)

    window = _Window(entries, tokens_of, positions, offset, split_index)
    if sums is not None:
        found = _walk_stop(entries, keep_recent_tokens, sums, offset)
        if found is not None:
            return _cut_at(window, keep_recent_tokens, found)
    accumulated = 0
    last_allowed = -1
    whole = window.whole()
    for index in range(len(whole) - 1, -1, -1):
        item = whole[index].item
        if item is None:  # legacy compactions are skipped; capsules/skills add nothing
            continue
        if E.is_user_or_assistant_message(item):
            last_allowed = index
        accumulated += tokens_of(index)
        if accumulated >= keep_recent_tokens and last_allowed >= 0:
            return _cut_at(window, keep_recent_tokens, last_allowed)
    if last_allowed >= 0:
        return last_allowed
    if accumulated >= keep_recent_tokens:
        batch = window.tool_batch_cut(keep_recent_tokens)
        if batch is not None:
            return batch
    return len(entries)


def _cut_at(window: _Window, keep_recent_tokens: float, last_allowed: int) -> int:
    if last_allowed > 0 and not window.splits_at(last_allowed):
        return last_allowed
    batch = window.tool_batch_cut(keep_recent_tokens)
    return batch if batch is not None else last_allowed


def _walk_stop(
    entries: Sequence[Entry],
    keep_recent_tokens: float,
    sums: tuple[list[int], list[int]],
    offset: int,
) -> int | None:
    """Where the backwards walk of :func:`find_cut_point` stops (its ``last_allowed``),
    found by bisection instead of walking the kept tail; None when the walk would not stop
    early (the caller walks instead). Item tokens are never negative, so the tokens from
    an index to the end only shrink as the index grows."""
    prefix, messages = sums
    n = len(entries)
    end = offset + n
    target = prefix[end] - keep_recent_tokens
    # the largest index whose tokens-to-the-end reach keepRecentTokens
    stop = bisect_right(prefix, target, offset, end) - 1 - offset
    if stop < 0 or entries[stop].item is None:
        return None  # the window never reaches the budget (or an edge): walk it
    first = bisect_left(messages, offset + stop)
    if first < len(messages) and messages[first] < end:
        return messages[first] - offset  # the oldest message already walked past
    if first == 0 or messages[first - 1] < offset:
        return None  # no message in the window: the walk runs to its end
    return messages[first - 1] - offset  # the walk goes on to the next older message
