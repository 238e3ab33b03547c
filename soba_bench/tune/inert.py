"""Settings that cannot change a result under the chosen summarizer, left out of a tuning
search so a recommendation never names a value that was never tested (the deterministic
capsule is written at once on the virtual clock, so no ``timeoutMs`` ever fires)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from soba_bench.errors import InputError
from soba_bench.tune.space import Space


def inert_settings(summarizer: dict[str, Any]) -> dict[str, str]:
    """Engine key -> why it has no effect, for a job config's ``summarizer`` section."""
    from soba_bench.summarizers import build_summarizer

    name = summarizer.get("name", "deterministic")
    try:
        spec = build_summarizer(name, **dict(summarizer.get("params") or {}))
    except Exception:  # a summarizer that cannot be built here fails later, with its message
        return {}
    if all(s.name == "deterministic" for s in spec.chain):
        return {
            "timeoutMs": f"the '{name}' summarizer runs no model, so no attempt can time out",
        }
    return {}


def drop_inert(space: Space, inert: dict[str, str]) -> tuple[Space, dict[str, str]]:
    """The space without the inert keys, and which of them it had."""
    left_out = {p.name: inert[p.name] for p in space.params if p.name in inert}
    if not left_out:
        return space, {}
    kept = tuple(p for p in space.params if p.name not in inert)
    if not kept:
        raise InputError(
            "every setting of the search space is inert under this summarizer",
            field="space.params",
            value=", ".join(left_out),
            has_value=True,
            expected="a space with a key that matters, or a model summarizer",
        )
    return replace(space, params=kept), left_out
