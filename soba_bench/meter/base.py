"""The meter interface and the per-item count cache."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from soba_bench.meter.count_store import CountStore


class Meter(Protocol):
    """Counts tokens of model items and of non-session text (system prompt, tool schemas)."""

    name: str

    def count_item(self, item: dict[str, Any]) -> int: ...

    def count_text(self, text: str) -> int: ...

    def count_non_session(self, text: str) -> int: ...


def count_items(meter: Meter, items: Iterable[dict[str, Any]]) -> int:
    return sum(meter.count_item(item) for item in items)


def content_key(item: dict[str, Any]) -> bytes:
    """A content hash of one item: equal items share a key whatever object holds them.

    Key order is part of the key: a block-list output is counted as its JSON.stringify text,
    whose key order changes the BPE count."""
    canonical = json.dumps(item, ensure_ascii=True, separators=(",", ":"))
    return hashlib.blake2b(canonical.encode("ascii"), digest_size=16).digest()


MAX_IDENTITY_MEMO = 200_000


class CachedMeter:
    """Wraps a tokenizer-backed meter so each distinct item is tokenized once per process,
    however many configs a sweep replays it under. With a :class:`CountStore` attached
    (:meth:`attach_store`) counts are also shared across processes and runs."""

    def __init__(self, inner: Meter) -> None:
        self.inner = inner
        self.name = inner.name
        self._cache: dict[bytes, int] = {}
        self.hits = 0
        self.misses = 0
        self.store: CountStore | None = None
        self._store_loaded = False
        # The same item object is counted again and again (the branch, every compaction
        # attempt's tail, every config of a sweep over a cached session): remember it by
        # identity before hashing its content. Holding the item keeps its id from being
        # reused; items are never modified once they are part of a transcript.
        self._by_id: dict[int, tuple[dict[str, Any], int]] = {}

    def attach_store(self, store: CountStore) -> None:
        """Share counts through ``store``: loaded on the next miss, written on :meth:`flush`."""
        if self.store is not None and self.store.path == store.path:
            return
        self.flush()
        self.store = store
        self._store_loaded = False

    def flush(self) -> int:
        """Write the counts computed since the last flush to the attached store, if any."""
        return self.store.flush() if self.store is not None else 0

    def count_item(self, item: dict[str, Any]) -> int:
        known = self._by_id.get(id(item))
        if known is not None and known[0] is item:
            self.hits += 1
            return known[1]
        value = self._count_by_content(item)
        if len(self._by_id) >= MAX_IDENTITY_MEMO:
            self._by_id.clear()
        self._by_id[id(item)] = (item, value)
        return value

    def _count_by_content(self, item: dict[str, Any]) -> int:
        key = content_key(item)
        cached = self._cache.get(key)
        if cached is None and self.store is not None and not self._store_loaded:
            # One bulk read on the first miss: a lookup per item would cost more than BPE.
            self._store_loaded = True
            for stored_key, count in self.store.load().items():
                self._cache.setdefault(stored_key, count)
            cached = self._cache.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        value = self.inner.count_item(item)
        self._cache[key] = value
        if self.store is not None:
            self.store.add(key, value)
        return value

    def count_text(self, text: str) -> int:
        return self.inner.count_text(text)

    def count_non_session(self, text: str) -> int:
        return self.inner.count_non_session(text)
