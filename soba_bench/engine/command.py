"""The ``/compact [instructions]`` command (engine.md d.4, l.1): straight to the manager,
with the command's own events (its own operation id, soft limit 0.8 x window, hard limit =
window, not the real limits)."""

from __future__ import annotations

import math
from typing import Any

from soba_bench.engine import events as ev
from soba_bench.engine.facade import Engine
from soba_bench.engine.outcome import CANCELLED, COMPLETED, FAILED, CompactionOutcome
from soba_bench.engine.policy import USER_REQUEST
from soba_bench.jscompat import js_to_fixed
from soba_bench.session.build_input import build_input

COMMAND = "/compact"


def parse_compact_command(text: str) -> str | bool:
    """Instructions of a ``/compact`` line ("" when none), or False if it is not one."""
    stripped = text.strip()
    if (
        stripped != COMMAND
        and not stripped.startswith(COMMAND + " ")
        and not stripped.startswith(COMMAND + "\n")
    ):
        return False
    return " ".join(stripped[len(COMMAND) :].split())


def run_compact_command(
    engine: Engine, instructions: str | None, *, fingerprint: str | None = None
) -> tuple[CompactionOutcome, list[dict[str, Any]]]:
    """Run ``/compact`` as SOBA's command layer does; returns the outcome and its events."""
    branch, manager = engine.branch, engine.manager
    window = manager.config.contextWindow
    meter = branch.meter

    def request_tokens() -> int:
        return sum(meter.count_item(i) for i in build_input(branch.entries).items)

    tokens = request_tokens()
    now = manager.clock.epoch_ms
    operation = f"manual-compact:{now()}"
    limits = {"softLimit": math.floor(window * 0.8), "hardLimit": window, "required": False}
    published: list[dict[str, Any]] = []

    def publish(event: dict[str, Any]) -> None:
        published.append(event)
        engine.events(event)

    if tokens <= window * 0.7:
        publish(
            {
                "type": "info",
                "timestamp": now(),
                "message": f"Context is {tokens} tokens, at most 70% of the {window}-token "
                "window; compacting anyway.",
            }
        )
    publish(
        {
            "type": ev.COMPACTION_START,
            "timestamp": now(),
            "operationId": operation,
            "trigger": USER_REQUEST,
            "tokensBefore": tokens,
            "effectiveTokens": tokens,
            **limits,
            "source": "estimated",
            "checkpointId": None,
            "quality": None,
            "strategy": None,
            "durationMs": 0,
            "reclaimedTokens": 0,
        }
    )
    outcome = manager.manual_compact(instructions or None, fingerprint=fingerprint)
    metrics = outcome.metrics or {}
    before = metrics.get("effectiveTokensBefore", tokens)
    if outcome.status == COMPLETED:
        after = metrics.get("estimatedTokensAfter", request_tokens())
        reclaimed = metrics.get("reclaimedTokens", max(0, tokens - after))
        publish(
            {
                "type": ev.COMPACTION_DONE,
                "timestamp": now(),
                "operationId": operation,
                "trigger": USER_REQUEST,
                "tokensBefore": before,
                "tokensAfter": after,
                "tokensSaved": reclaimed,
                "reclaimedTokens": reclaimed,
                "strategy": outcome.strategy or "unknown",
                "quality": outcome.quality,
                "checkpointId": outcome.checkpointId,
                "durationMs": outcome.durationMs,
                **limits,
            }
        )
        savings = js_to_fixed(metrics.get("savingsRatio", 0) * 100, 1)
        publish(
            {
                "type": "info",
                "timestamp": now(),
                "message": f"Context capsule created: {outcome.checkpointId}, strategy: "
                f"{outcome.strategy}, quality: {outcome.quality}, savings: {savings}%",
            }
        )
        return outcome, published
    kind = {CANCELLED: ev.COMPACTION_CANCELLED, FAILED: ev.COMPACTION_FAILED}.get(
        outcome.status, ev.COMPACTION_SKIPPED
    )
    publish(
        {
            "type": kind,
            "timestamp": now(),
            "operationId": operation,
            "trigger": USER_REQUEST,
            "reason": outcome.reason or "no reclaimable context",
            "tokensBefore": before,
            "tokensAfter": metrics.get("estimatedTokensAfter", request_tokens()),
            "reclaimedTokens": metrics.get("reclaimedTokens", 0),
            "durationMs": 0,
            **limits,
            "checkpointId": None,
            "quality": None,
            "strategy": outcome.strategy,
        }
    )
    publish(
        {
            "type": "info",
            "timestamp": now(),
            "message": f"Manual compaction skipped: {outcome.reason or 'no reclaimable context'}",
        }
    )
    return outcome, published
