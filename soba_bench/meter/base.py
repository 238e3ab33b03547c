"""The meter interface and the per-item count cache."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, Protocol


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


class CachedMeter:
    """Wraps a tokenizer-backed meter so each distinct item is tokenized once per process,
    however many configs a sweep replays it under."""

    def __init__(self, inner: Meter) -> None:
        self.inner = inner
        self.name = inner.name
        self._cache: dict[bytes, int] = {}
        self.hits = 0
        self.misses = 0

    def count_item(self, item: dict[str, Any]) -> int:
        key = content_key(item)
        cached = self._cache.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        self.misses += 1
        value = self.inner.count_item(item)
        self._cache[key] = value
        return value

    def count_text(self, text: str) -> int:
        return self.inner.count_text(text)

    def count_non_session(self, text: str) -> int:
        return self.inner.count_non_session(text)
