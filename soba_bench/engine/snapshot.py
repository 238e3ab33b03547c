"""Context snapshots and the context meter (engine.md b.3, b.4, c).

Two sources: ``estimated`` (SOBA's estimator over the effective request) and
``provider_usage`` (the provider's input tokens at a watermark, plus the estimate of what
came after). A watermark is only valid for the request fingerprint it was recorded with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from soba_bench.engine.branch import LiveBranch

ESTIMATED = "estimated"
PROVIDER_USAGE = "provider_usage"


@dataclass(frozen=True)
class Watermark:
    measuredThroughEntryId: str | None
    requestFingerprint: str


@dataclass(frozen=True)
class ContextSnapshot:
    source: str
    providerInputTokens: float
    estimatedTrailingTokens: float
    effectiveTokens: float
    historicalTokens: int
    systemPromptTokens: float
    toolSchemaTokens: float
    contextWindow: float
    maxOutputTokens: float
    safetyReserveTokens: float
    hardLimit: float
    watermark: Watermark | None = None


class ContextMeter:
    """SOBA's ContextMeter over a :class:`LiveBranch` (O(1) per snapshot)."""

    def __init__(
        self,
        context_window: float,
        max_output_tokens: float,
        safety_reserve_tokens: float,
        compatibility_key: str | None = None,
    ) -> None:
        self.context_window = context_window
        self.max_output_tokens = max_output_tokens
        self.safety_reserve_tokens = safety_reserve_tokens
        self.compatibility_key = compatibility_key
        self.provider_input_tokens: float = 0
        self.watermark: Watermark | None = None

    @property
    def hard_limit(self) -> float:
        return self.context_window - self.max_output_tokens - self.safety_reserve_tokens

    def record_provider_usage(
        self, input_tokens: float, measured_through_entry_id: str | None, fingerprint: str
    ) -> None:
        self.provider_input_tokens = input_tokens
        self.watermark = Watermark(measured_through_entry_id, fingerprint)

    def invalidate_watermark(self) -> None:
        self.watermark = None
        self.provider_input_tokens = 0

    def update_limits(self, context_window: float, max_output_tokens: float) -> None:
        self.context_window = max(1, math.trunc(context_window))
        self.max_output_tokens = max(1, math.trunc(max_output_tokens))
        self.invalidate_watermark()

    def snapshot(
        self,
        branch: LiveBranch,
        fingerprint: str,
        system_prompt_tokens: float,
        tool_schema_tokens: float,
        additional_non_session_tokens: float = 0,
    ) -> ContextSnapshot:
        common: dict[str, Any] = dict(  # the fields both kinds of snapshot share
            historicalTokens=branch.historical_tokens,
            systemPromptTokens=system_prompt_tokens,
            toolSchemaTokens=tool_schema_tokens,
            contextWindow=self.context_window,
            maxOutputTokens=self.max_output_tokens,
            safetyReserveTokens=self.safety_reserve_tokens,
            hardLimit=self.hard_limit,
            watermark=self.watermark,
        )
        mark = self.watermark
        if mark is not None and mark.requestFingerprint == fingerprint:
            trailing = self._trailing(branch, mark.measuredThroughEntryId)
            return ContextSnapshot(
                source=PROVIDER_USAGE,
                providerInputTokens=self.provider_input_tokens,
                estimatedTrailingTokens=trailing,
                effectiveTokens=self.provider_input_tokens + trailing,
                **common,
            )
        total = (
            system_prompt_tokens
            + tool_schema_tokens
            + additional_non_session_tokens
            + branch.effective_item_tokens(self.compatibility_key)
        )
        return ContextSnapshot(
            source=ESTIMATED,
            providerInputTokens=0,
            estimatedTrailingTokens=total,
            effectiveTokens=total,
            **common,
        )

    def _trailing(self, branch: LiveBranch, entry_id: str | None) -> int:
        # After a found watermark SOBA takes raw branch items, ignoring capsule boundaries.
        index = branch.index_of(entry_id) if entry_id is not None else -1
        if index < 0:
            return branch.effective_item_tokens(self.compatibility_key)
        return branch.tokens_from(index + 1)
