"""The live branch of a rival strategy: SOBA's :class:`LiveBranch` whose model input the
strategy edits in place, so the engine's meter, triggers and limits see what the rival would
send.

Two edits, both monotone (they only ever grow), which is what lets a run's barrier log name
the whole model-input state with two entry ids:

* masking: every tool output up to ``masked_through`` has its output replaced by a short
  placeholder (same entry id, so positions and tool pairs are unchanged);
* truncation: every entry up to ``dropped_through`` leaves the model input.

The original entries are kept, so a replay still writes the transcript as recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from soba_bench.engine.branch import LiveBranch
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry

if TYPE_CHECKING:
    from soba_bench.engine.manager import ContextManager

MASK_TEXT = "[Old tool output omitted]"


def mask_output(item: dict[str, Any]) -> dict[str, Any]:
    """A tool output as masking sends it: the placeholder, no exit code."""
    item = {**item, "output": MASK_TEXT}
    item.pop("exit_code", None)
    return item


def is_output(item: dict[str, Any] | None) -> TypeGuard[dict[str, Any]]:
    return item is not None and item.get("type") in E.OUTPUT_TYPES


class RivalBranch(LiveBranch):
    """A :class:`LiveBranch` with in-place masking and a dropped prefix."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Set before the base class appends any initial entries through append().
        self.output_indexes: list[int] = []
        self.originals: dict[int, Entry] = {}
        self.masked_through = -1  # index of the last masked tool output
        self.dropped_through = -1  # index of the last entry dropped from the model input
        super().__init__(*args, **kwargs)

    def append(self, entry: Entry) -> Entry:
        if is_output(entry.item):
            self.output_indexes.append(len(self.entries))
        return super().append(entry)

    # ── what the engine measures ────────────────────────────────────────────────
    def effective_item_tokens(self, compatibility_key: str | None) -> int:
        if self.last_capsule_index < 0:
            return self.tokens_from(self.dropped_through + 1)
        return super().effective_item_tokens(compatibility_key)

    def effective_window_start(self) -> int:
        return max(super().effective_window_start(), self.dropped_through + 1)

    # ── edits ───────────────────────────────────────────────────────────────────
    def mask(self, indexes: list[int], through: int) -> None:
        """Replace the tool outputs at ``indexes`` (ascending) by their masked form; every
        output up to ``through`` now counts as masked."""
        deltas: dict[int, int] = {}
        for index in indexes:
            old = self.entries[index]
            item = mask_output(self._output_item(index))
            self.originals.setdefault(index, old)
            self.entries[index] = Entry(old.kind, {**old.data, "item": item}, old.line)
            deltas[index] = self.meter.count_item(item) - self.item_tokens(index)
        self._shift(deltas)
        self.masked_through = max(self.masked_through, through)

    def drop_through(self, index: int) -> None:
        self.dropped_through = max(self.dropped_through, index)

    def _shift(self, deltas: dict[int, int]) -> None:
        # One pass over the prefix sums for a whole batch (an edit runs once per compaction,
        # so this stays linear per attempt).
        if not deltas:
            return
        running = 0
        first = min(deltas)
        for position in range(first + 1, len(self._prefix)):
            running += deltas.get(position - 1, 0)
            self._prefix[position] += running

    def _output_item(self, index: int) -> dict[str, Any]:
        item = self.entries[index].item
        assert item is not None  # masking is asked only of tool outputs, which are items
        return item

    def masked_saving(self, indexes: list[int]) -> int:
        """Tokens masking ``indexes`` would save (without masking them)."""
        return sum(
            self.item_tokens(i) - self.meter.count_item(mask_output(self._output_item(i)))
            for i in indexes
        )

    def id_at(self, index: int) -> str | None:
        return self.entries[index].id if index >= 0 else None

    def original_entries(self) -> list[Entry]:
        """The branch as recorded (masked outputs restored), capsules included."""
        return [self.originals.get(i, e) for i, e in enumerate(self.entries)]


def rival_branch(manager: ContextManager) -> RivalBranch:
    """The manager's branch as the :class:`RivalBranch` a rival compactor edits (its replay
    builds the manager on one); anything else is a wiring fault, said as such."""
    branch = manager.branch
    if not isinstance(branch, RivalBranch):
        raise TypeError(f"a rival compactor runs on a RivalBranch, not {type(branch).__name__}")
    return branch


def entry_ids(entries: list[Entry]) -> list[str]:
    """The ids of replayed entries (every entry the walk appends has one)."""
    ids = [e.id for e in entries]
    if any(i is None for i in ids):
        raise ValueError("a replayed entry without an id")
    return [i for i in ids if i is not None]


def entry_items(entries: list[Entry]) -> list[dict[str, Any]]:
    """The items of entries chosen because they carry one."""
    return [e.item for e in entries if e.item is not None]
