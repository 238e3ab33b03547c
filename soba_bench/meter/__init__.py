"""Meter stage: token counting. One registry of meters, keyed by name.

* ``soba``: SOBA's estimator, exactly (the default: SOBA's decisions depend on it).
* ``tiktoken:<encoding>``: real BPE counts, offline (e.g. ``tiktoken:cl100k_base``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from soba_bench.errors import UnknownNameError
from soba_bench.meter import soba
from soba_bench.meter.base import CachedMeter, Meter, count_items
from soba_bench.meter.count_store import CountStore
from soba_bench.registry import Registry

DEFAULT_METER = "soba"


class SobaMeter:
    """SOBA's estimator. Not cached: estimating is cheaper than hashing the item."""

    name = "soba"

    def count_item(self, item: dict[str, Any]) -> int:
        return soba.estimate_item(item)

    def count_text(self, text: str) -> int:
        return soba.estimate_text(text)

    def count_non_session(self, text: str) -> int:
        return soba.estimate_non_session(text)


def _tiktoken(encoding: str) -> Meter:
    from soba_bench.meter.tiktoken_meter import TiktokenMeter

    return CachedMeter(TiktokenMeter(encoding))


# Factories: a meter family's name -> (its parameter, if it takes one) -> a meter.
METERS: Registry[Callable[..., Meter]] = Registry("meter")
METERS.add("soba", lambda param=None: SobaMeter())
METERS.add("tiktoken", _tiktoken)

_INSTANCES: dict[str, Meter] = {}


def get_meter(name: str = DEFAULT_METER) -> Meter:
    """A meter by name (``soba``, ``tiktoken:cl100k_base``...), shared per process so its
    per-item cache is shared across a sweep."""
    if name in _INSTANCES:
        return _INSTANCES[name]
    family, _, param = name.partition(":")
    # "soba" takes no parameter; "tiktoken" needs one.
    if family not in METERS or (family == "tiktoken") != bool(param):
        valid = ["soba", "tiktoken:<encoding> (e.g. tiktoken:cl100k_base)"]
        raise UnknownNameError("meter", name, valid)
    meter = METERS.get(family)(param) if param else METERS.get(family)()
    _INSTANCES[name] = meter
    return meter


def share_counts(name: str, path: str | Path) -> CachedMeter | None:
    """Attach a cross-process count store (SQLite file ``path``) to the shared meter ``name``
    and return it; None for meters that keep no per-item cache (SOBA's estimator)."""
    meter = get_meter(name)
    if not isinstance(meter, CachedMeter):
        return None
    meter.attach_store(CountStore(path, meter.name))
    return meter


__all__ = [
    "DEFAULT_METER",
    "METERS",
    "CachedMeter",
    "CountStore",
    "Meter",
    "count_items",
    "get_meter",
    "share_counts",
]
