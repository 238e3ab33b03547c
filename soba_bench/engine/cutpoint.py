"""Choosing the cut point: which part of the window is compacted and which is kept
(engine.md f.2-f.5, SOBA's ``findCutPoint``).

SOBA's version re-scans the window for every candidate (quadratic). Here the "does this cut
split a tool call from its output" question is answered for every index at once with a
difference array, and kept-token sums come from suffix sums, so the whole search is linear in
the window and the backwards walk stops after the kept tail.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from soba_bench.meter import get_meter
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry

# call_id key -> (sorted positions of its calls, sorted positions of its outputs)
Positions = Callable[[object], tuple[list[int], list[int]]]


class _Window:
    def __init__(
        self,
        entries: Sequence[Entry],
        tokens_of: Callable[[int], int],
        positions: Positions | None = None,
        offset: int = 0,
    ) -> None:
        self.entries = entries
        self.tokens_of = tokens_of
        self.positions = positions
        self.offset = offset
        self._splits: list[int] | None = None
        self._suffix: list[int] | None = None

    def splits_at(self, cut: int) -> bool:
        """``splits(cut)`` for one cut. With a position index only the kept side is read
        (each of its calls and outputs looks for a partner before the cut), so the common
        check costs the kept tail, not the whole window."""
        if self.positions is None or self._splits is not None:
            return self.splits(cut)
        low, middle = self.offset, self.offset + cut
        for index in range(cut, len(self.entries)):
            item = self.entries[index].item
            if item is None:
                continue
            kind = item.get("type")
            if kind in E.CALL_TYPES:
                partners = self.positions(call_key(item.get("call_id")))[1]
            elif kind in E.OUTPUT_TYPES:
                partners = self.positions(call_key(item.get("call_id")))[0]
            else:
                continue
            first = bisect_left(partners, low)
            if first < len(partners) and partners[first] < middle:
                return True
        return False

    def splits(self, cut: int) -> bool:
        """True when some call_id has a call on one side of ``cut`` and an output on the
        other (both call families, both output families, paired across them)."""
        if self._splits is None:
            self._splits = self._split_counts()
        return self._splits[cut] > 0

    def _split_counts(self) -> list[int]:
        n = len(self.entries)
        # call_id -> [min_call, max_call, min_output, max_output]
        spans: dict[object, list[int]] = {}
        for index, entry in enumerate(self.entries):
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
            n = len(self.entries)
            suffix = [0] * (n + 1)
            for index in range(n - 1, -1, -1):
                own = self.tokens_of(index) if self.entries[index].item is not None else 0
                suffix[index] = suffix[index + 1] + own
            self._suffix = suffix
        return self._suffix[cut]

    def tool_batch_cut(self, keep: float) -> int | None:
        """The newest complete tool-batch boundary that keeps at most ``keep`` tokens:
        most kept tokens wins, ties go to the later index."""
        entries = self.entries
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
) -> int:
    """Index of the first entry to keep; entries before it are compacted. ``positions``
    (optional) indexes tool calls and outputs by call id in a larger sequence that holds
    ``entries`` at ``offset``; ``sums`` (optional) are that sequence's token prefix sums and
    the sorted positions of its user/assistant messages. Both only make the search faster."""
    if not entries:
        return 0
    if tokens_of is None:
        meter = get_meter()

        def tokens_of(i: int) -> int:
            item = entries[i].item
            assert item is not None  # the search measures item entries only
            return meter.count_item(item)

    window = _Window(entries, tokens_of, positions, offset)
    if sums is not None:
        found = _walk_stop(entries, keep_recent_tokens, sums, offset)
        if found is not None:
            return _cut_at(window, keep_recent_tokens, found)
    accumulated = 0
    last_allowed = -1
    for index in range(len(entries) - 1, -1, -1):
        item = entries[index].item
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
