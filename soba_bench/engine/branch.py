"""The engine's view of the active branch: append-only, with running token sums.

SOBA re-walks and re-estimates the whole branch at every barrier, which makes long replays
quadratic. Here each item is measured once, on append, and prefix sums answer every
"tokens from entry i to the leaf" question in O(1). The numbers are identical to SOBA's
because the estimate is a plain per-item sum with no cross-item terms.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from soba_bench.engine.cutpoint import call_key
from soba_bench.meter import Meter, get_meter
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_input_items
from soba_bench.session.entries import Entry

CAPSULE_PLACEHOLDER = "[Context Capsule {}]"
_NO_POSITIONS: tuple[list[int], list[int]] = ([], [])


def iso_now() -> str:
    """An ISO timestamp with milliseconds, as JavaScript's Date.toISOString prints it."""
    now = datetime.now(UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


class LiveBranch:
    """A linear branch the engine measures and appends capsules to.

    ``reserved_ids`` are ids that new entries must never take (e.g. every id of a session
    being replayed, so a capsule id cannot collide with an entry appended later).
    """

    def __init__(
        self,
        session_id: str = "session",
        *,
        meter: Meter | None = None,
        entries: list[Entry] | None = None,
        reserved_ids: set[str] | None = None,
        id_factory: Callable[[], str] | None = None,
        clock_iso: Callable[[], str] = iso_now,
    ) -> None:
        self.session_id = session_id
        self.meter = meter or get_meter()
        self.entries: list[Entry] = []
        self._index: dict[str, int] = {}
        self._prefix: list[int] = [0]  # item tokens of entries[:i]
        self._historical = 0
        self.last_capsule_index = -1
        self.capsule_count = 0
        self.checkpoint_ids: set[str | None] = set()  # as capsules carry them
        self._capsule_prefix_cache: dict[tuple[int, str | None], int] = {}
        self._reserved = set(reserved_ids or ())
        # SOBA draws entry ids at random; any id is faithful, so they are drawn from a
        # generator seeded by the session id: the same replay writes the same ids every run
        # (DESIGN: every random draw has an explicit seed), and tables reproduce exactly.
        self._id_rng = random.Random(f"entry-ids:{session_id}")
        self._id_factory = id_factory or (lambda: f"{self._id_rng.getrandbits(32):08x}")
        self._clock_iso = clock_iso
        self.listeners: list[Callable[[Entry], None]] = []
        self._skills: dict[Any, dict[str, Any]] = {}
        # call_id -> (call positions, output positions), both ascending: the cut point asks
        # "does this cut separate a call from its output" without re-reading the window.
        self._tool_positions: dict[object, tuple[list[int], list[int]]] = {}
        # positions of user/assistant messages, ascending: cut points can only fall there
        self.message_positions: list[int] = []
        for entry in entries or []:
            self.append(entry)

    # ── appending ───────────────────────────────────────────────────────────────
    def new_entry_id(self) -> str:
        for _ in range(100):
            candidate = self._id_factory()
            if candidate not in self._index and candidate not in self._reserved:
                return candidate
        return f"{self._id_rng.getrandbits(128):032x}"

    def append(self, entry: Entry) -> Entry:
        """Append a tree entry as the new leaf (its parentId is taken as given)."""
        index = len(self.entries)
        self.entries.append(entry)
        if entry.id is not None:
            self._index.setdefault(entry.id, index)
        tokens = 0
        item = entry.item
        if item is not None:
            tokens = self.meter.count_item(item)
            self._historical += tokens
            kind = item.get("type")
            if E.is_user_or_assistant_message(item):
                self.message_positions.append(index)
            if kind in E.CALL_TYPES or kind in E.OUTPUT_TYPES:
                slot = self._tool_positions.setdefault(call_key(item.get("call_id")), ([], []))
                slot[0 if kind in E.CALL_TYPES else 1].append(index)
        elif entry.kind == E.CONTEXT_CAPSULE:
            self.last_capsule_index = index
            self.capsule_count += 1
            checkpoint = entry.data.get("checkpointId")
            self.checkpoint_ids.add(checkpoint)
            self._historical += self.meter.count_item(_placeholder_item(checkpoint))
            self._skills = {ref.get("name"): ref for ref in entry.data.get("activatedSkills") or []}
        elif entry.kind == E.SKILL_ACTIVATION:
            skill = entry.data.get("skill") or {}
            if entry.data.get("action") == "activate":
                self._skills[skill.get("name")] = skill
            else:  # SOBA treats any other action as a deactivation
                self._skills.pop(skill.get("name"), None)
        self._prefix.append(self._prefix[-1] + tokens)
        for listener in self.listeners:
            listener(entry)
        return entry

    def append_item(self, item: dict[str, Any], entry_id: str | None = None) -> Entry:
        """Append a model item as a child of the leaf (a new id unless one is given)."""
        return self.append(
            E.make_item_entry(
                entry_id or self.new_entry_id(), self.leaf_id, self._clock_iso(), item
            )
        )

    def append_capsule(self, fields: dict[str, Any]) -> Entry:
        """Append a context_capsule entry in SOBA's key order; returns it."""
        data = {
            "type": E.CONTEXT_CAPSULE,
            "id": self.new_entry_id(),
            "parentId": self.leaf_id,
            "timestamp": self._clock_iso(),
            **fields,
        }
        return self.append(Entry(E.CONTEXT_CAPSULE, data))

    # ── queries ─────────────────────────────────────────────────────────────────
    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    @property
    def leaf_id(self) -> str | None:
        return self.entries[-1].id if self.entries else None

    def index_of(self, entry_id: str | None) -> int:
        """First index of an id on the branch (JS ``findIndex``), or -1."""
        if entry_id is None:
            return -1
        return self._index.get(entry_id, -1)

    def tool_positions(self, key: object) -> tuple[list[int], list[int]]:
        return self._tool_positions.get(key, _NO_POSITIONS)

    @property
    def token_sums(self) -> tuple[list[int], list[int]]:
        """Item-token prefix sums and message positions, for :func:`find_cut_point`."""
        return self._prefix, self.message_positions

    def item_tokens(self, index: int) -> int:
        return self._prefix[index + 1] - self._prefix[index]

    def tokens_from(self, start: int, end: int | None = None) -> int:
        """Item tokens of entries[start:end]."""
        stop = len(self.entries) if end is None else end
        return self._prefix[stop] - self._prefix[max(0, start)] if start < stop else 0

    @property
    def historical_tokens(self) -> int:
        return self._historical

    @property
    def last_capsule(self) -> Entry | None:
        return self.entries[self.last_capsule_index] if self.last_capsule_index >= 0 else None

    def capsule_prefix_tokens(self, compatibility_key: str | None) -> int:
        """Tokens of the last capsule's model-input prefix (cached per capsule and key)."""
        key = (self.last_capsule_index, compatibility_key)
        cached = self._capsule_prefix_cache.get(key)
        if cached is None:
            capsule = self.entries[self.last_capsule_index].data
            cached = sum(
                self.meter.count_item(i) for i in capsule_input_items(capsule, compatibility_key)
            )
            self._capsule_prefix_cache[key] = cached
        return cached

    def effective_item_tokens(self, compatibility_key: str | None) -> int:
        """The meter's effective items (engine.md b.3), measured: no capsule -> all items;
        otherwise the capsule prefix plus the tail from firstKeptEntryId ("root" or empty ->
        nothing; not on the branch -> items after the capsule entry)."""
        if self.last_capsule_index < 0:
            return self._prefix[-1]
        capsule = self.entries[self.last_capsule_index].data
        prefix = self.capsule_prefix_tokens(compatibility_key)
        first_kept = (capsule.get("provenance") or {}).get("firstKeptEntryId")
        if not first_kept or first_kept == "root":
            return prefix
        kept_index = self.index_of(first_kept)
        if kept_index < 0:
            return prefix + self.tokens_from(self.last_capsule_index + 1)
        return prefix + self.tokens_from(kept_index)

    def effective_window_start(self) -> int:
        """engine.md f.1: where the compaction window starts (the previous capsule's first
        kept entry if it is on the branch, else right after the capsule)."""
        if self.last_capsule_index < 0:
            return 0
        capsule = self.entries[self.last_capsule_index].data
        first_kept = (capsule.get("provenance") or {}).get("firstKeptEntryId")
        if first_kept and first_kept != "root":
            kept_index = self.index_of(first_kept)
            if kept_index >= 0:
                return kept_index
        return self.last_capsule_index + 1

    def active_skill_refs(self) -> list[dict[str, Any]]:
        """engine.md a.7: the last capsule's skills, then later (de)activations by name
        (kept up to date on append)."""
        return list(self._skills.values())


def _placeholder_item(checkpoint_id: Any) -> dict[str, Any]:
    from soba_bench.jscompat import js_string

    return {
        "type": "message",
        "role": "system",
        "content": [
            {"type": "input_text", "text": CAPSULE_PLACEHOLDER.format(js_string(checkpoint_id))}
        ],
    }
