"""The model input of a rival replay at each of its compaction moments, rebuilt from what a
run folder stores: the replayed branch (original entries, plus capsules for ``hybrid``) and
the barrier log, whose config line names the strategy (``replayStrategy``) and whose
completed attempt lines give the model-input state after each compaction:

* ``inputThroughEntryId``: the branch's leaf then (the moment's last entry);
* ``maskedThroughEntryId``: every tool output up to this entry is masked;
* ``droppedThroughEntryId``: every entry up to this one left the input (truncation).

With a capsule on the branch, the input is SOBA's (capsule prefix + retained tail), with the
masking applied to the tail; a peer policy's attempt lines add ``pinnedEntryIds``, items kept
verbatim between the capsule prefix and the tail (:mod:`soba_bench.compactors.peer`).
This module only reads entries: scoring uses it, no replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.compactors.rival_branch import is_output, mask_output
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_input_items
from soba_bench.session.entries import Entry

COMPLETED = "completed"
SOBA = "soba"
# Attempt-line fields of a rival replay (written by soba_bench.compactors.rival).
MASKED_THROUGH = "maskedThroughEntryId"
DROPPED_THROUGH = "droppedThroughEntryId"
INPUT_THROUGH = "inputThroughEntryId"  # the branch's leaf after the attempt
PINNED = "pinnedEntryIds"  # peers: items kept verbatim between the capsule and the tail


@dataclass(frozen=True)
class Moment:
    """One compaction moment: ``index`` into the replayed branch and the state after it."""

    generation: int | str
    index: int
    state: dict[str, Any]


@dataclass(frozen=True)
class ReplayedInputs:
    """A rival replay's compaction moments and model inputs."""

    strategy: str
    attempts: tuple[dict[str, Any], ...]  # completed attempt lines, in order

    @classmethod
    def of(cls, barriers: Iterable[Any]) -> ReplayedInputs | None:
        """From a barrier log (lines or records); None for a ``soba`` replay (or a log that
        names no strategy), whose moments are its capsules."""
        strategy = None
        attempts = []
        for entry in barriers:
            line = entry.to_line() if hasattr(entry, "to_line") else entry
            if line.get("kind") == "config":
                strategy = line.get("replayStrategy")
            elif line.get("kind") == "attempt" and line.get("outcome") == COMPLETED:
                attempts.append(line)
        if strategy is None or strategy == SOBA:
            return None
        return cls(strategy, tuple(attempts))

    def moments(self, replayed: Sequence[Entry], final: str) -> list[Moment]:
        """Every completed compaction (numbered from 1), then the final state."""
        position: dict[str, int] = {}
        for index, entry in enumerate(replayed):
            if entry.id is not None:
                position.setdefault(entry.id, index)
        out = []
        for number, line in enumerate(self.attempts, start=1):
            through = line.get(INPUT_THROUGH)  # an entry id (ids are strings), if any
            at = position.get(through) if isinstance(through, str) else None
            if at is not None:
                out.append(Moment(number, at, line))
        last = self.attempts[-1] if self.attempts else {}
        out.append(Moment(final, len(replayed) - 1, last))
        return out

    def model_input(self, replayed: Sequence[Entry], moment: Moment) -> list[dict[str, Any]]:
        return rival_input(replayed[: moment.index + 1], moment.state)


def rival_input(branch: Sequence[Entry], state: dict[str, Any]) -> list[dict[str, Any]]:
    """What the rival sends for ``branch`` (the replayed entries up to the moment) in the
    model-input ``state`` of its last compaction. The straightforward definition: scoring
    builds the same input for every request in one pass (``scoring.points.PointWalk``), and
    the tests hold the two to each other for every strategy, the peers' pins included."""
    position: dict[str, int] = {}
    for index, entry in enumerate(branch):
        if entry.id is not None:
            position.setdefault(entry.id, index)
    through = state.get(MASKED_THROUGH)  # an entry id (ids are strings), if any
    masked = position.get(through, -1) if isinstance(through, str) else -1
    capsule = next(
        (i for i in range(len(branch) - 1, -1, -1) if branch[i].kind == E.CONTEXT_CAPSULE), None
    )
    prefix: list[dict[str, Any]] = []
    if capsule is not None:
        data = branch[capsule].data
        prefix = capsule_input_items(data)
        pinned = [position[i] for i in state.get(PINNED) or () if i in position]
        for i in pinned:
            item = branch[i].item
            assert item is not None  # peers pin items only
            prefix.append(mask_output(item) if i <= masked and is_output(item) else item)
        # SOBA's buildInput quirk: a first-kept id not on the branch sends no tail at all.
        start = position.get(data["provenance"]["firstKeptEntryId"], len(branch))
    else:
        dropped = state.get(DROPPED_THROUGH)
        start = position[dropped] + 1 if dropped in position else 0
    tail = [
        mask_output(e.item) if index <= masked and is_output(e.item) else e.item
        for index, e in enumerate(branch[start:], start=start)
        if e.item is not None
    ]
    return prefix + tail
