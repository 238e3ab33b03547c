"""Named engine variants. ``soba-0.6.14`` (the default) reproduces SOBA exactly, quirks
included; every improvement is a separate, opt-in name so a sweep can compare shipped and
fixed behaviour on the same sessions."""

from __future__ import annotations

from dataclasses import dataclass

from soba_bench.registry import Registry

DEFAULT_VARIANT = "soba-0.6.14"


@dataclass(frozen=True)
class EngineVariant:
    name: str
    description: str
    # Blocker saturation fix: SOBA keeps the 10 *oldest* blockers, while the validator
    # demands the 3 newest failures; after 10 failures every compaction fails lost_blocker.
    newest_blockers_first: bool = False
    # Capsules through the harness's extended secret scanner (AWS keys, cloud tokens, JWTs,
    # private keys...) after the strategy writes them; SOBA's sanitizer has no such rules.
    extended_redaction: bool = False


VARIANTS: Registry[EngineVariant] = Registry("engine variant")
VARIANTS.add(
    DEFAULT_VARIANT,
    EngineVariant(DEFAULT_VARIANT, "SOBA v0.6.14 as shipped, quirks included"),
)
VARIANTS.add(
    "soba-0.6.14+newest-blockers",
    EngineVariant(
        "soba-0.6.14+newest-blockers",
        "as shipped, but the deterministic capsule keeps the newest blockers first, so the "
        "blocker cap can no longer deadlock compaction (lost_blocker)",
        newest_blockers_first=True,
    ),
)

VARIANTS.add(
    "soba-0.6.14+extended-redaction",
    EngineVariant(
        "soba-0.6.14+extended-redaction",
        "as shipped, but every capsule also goes through the harness's extended secret "
        "scanner (AWS keys, GitHub/GitLab/Slack/Stripe/Google tokens, JWTs, private keys, "
        "URL passwords, .env assignments, bearer headers) before it is validated",
        extended_redaction=True,
    ),
)


def get_variant(name: str = DEFAULT_VARIANT) -> EngineVariant:
    return VARIANTS.get(name)
