"""The capsule generator: the strategy chain, metrics and validation (engine.md i.1, i.2, g.2).

Each strategy's draft is measured exactly as ``buildInput`` would send it, then validated;
the first valid draft wins, otherwise the chain moves on. When every slot is used up the last
draft is returned with its (invalid) validation, and the caller fails the attempt.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from soba_bench.engine.attempt import AttemptContext, Interrupted
from soba_bench.engine.strategies.base import Draft, GenerationInput, Strategy
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.validator import EntryIndex, ValidationResult, validate_draft
from soba_bench.engine.variants import EngineVariant
from soba_bench.errors import HarnessFault
from soba_bench.meter.base import Meter
from soba_bench.secrets_scan import scrub_value
from soba_bench.session.capsule_text import capsule_input_items

log = logging.getLogger("soba_bench.engine.generator")


class GenerationAborted(Exception):
    """SOBA's "Capsule generation aborted": the attempt was aborted between strategies."""


class NoStrategiesError(Exception):
    pass


@dataclass
class GenerationResult:
    draft: Draft
    validation: ValidationResult
    strategy_used: str
    fallback_chain: list[str]


def measure(draft: Draft, gen: GenerationInput, meter: Meter, kept_tokens: int) -> None:
    """SOBA's ``_calculateMetrics``: after = sys + tools + capsule prefix + kept items."""
    memo = gen.span.memo if gen.span is not None else None
    # the memo answers only for the draft it just built (the same text, measured once)
    capsule_tokens = memo.capsule_tokens(draft, meter) if memo is not None else None
    if capsule_tokens is None:
        capsule = {
            "portableState": draft.portableState,
            "artifacts": draft.artifacts,
            "activatedSkills": draft.activatedSkills,
            "nativeContinuation": draft.nativeContinuation,
        }
        capsule_tokens = sum(
            meter.count_item(i) for i in capsule_input_items(capsule, gen.compatibility_key)
        )
    snap = gen.snapshot
    after = snap.systemPromptTokens + snap.toolSchemaTokens + capsule_tokens + kept_tokens
    reclaimed = max(0, snap.effectiveTokens - after)
    draft.metrics["estimatedTokensAfter"] = after
    draft.metrics["reclaimedTokens"] = reclaimed
    draft.metrics["savingsRatio"] = (
        reclaimed / snap.effectiveTokens if snap.effectiveTokens > 0 else 0
    )


class CapsuleGenerator:
    def __init__(self, chain: Sequence[Strategy], variant: EngineVariant, meter: Meter) -> None:
        if not chain:
            raise ValueError("the strategy chain needs at least one strategy")
        self.chain = list(chain)
        self.variant = variant
        self.meter = meter

    def _finish(
        self,
        strategy: Strategy,
        gen: GenerationInput,
        ctx: AttemptContext,
        branch: EntryIndex,
        blocking: bool,
        kept_tokens: int,
    ) -> tuple[Draft, ValidationResult]:
        draft = strategy.generate(gen, ctx, self.variant)
        if self.variant.extended_redaction:  # before measuring: the markers cost tokens too
            draft.portableState = scrub_value(draft.portableState)
            draft.artifacts = scrub_value(draft.artifacts)
            if draft.nativeContinuation is not None:
                draft.nativeContinuation = scrub_value(draft.nativeContinuation)
        measure(draft, gen, self.meter, kept_tokens)
        validation = validate_draft(
            draft,
            branch,
            gen.source_items,
            gen.kept_items,
            gen.snapshot.hardLimit,
            blocking,
            gen.activated_skills,
            gen.span,
        )
        return draft, validation

    def generate(
        self,
        gen: GenerationInput,
        ctx: AttemptContext,
        branch: EntryIndex,
        blocking: bool,
        kept_tokens: int,
    ) -> GenerationResult:
        chain: list[str] = []
        last: tuple[Draft, ValidationResult] | None = None
        for strategy in self.chain:
            if ctx.aborted:
                raise GenerationAborted("Capsule generation aborted")
            chain.append(strategy.name)
            try:
                last = self._finish(strategy, gen, ctx, branch, blocking, kept_tokens)
            except (Interrupted, HarnessFault):
                raise  # HarnessFault: the harness's own setup, not a strategy failure
            except Exception as exc:  # a failing strategy hands over to the next slot
                log.warning("strategy %s failed: %s", strategy.name, exc)
                continue
            if last[1].valid:
                return GenerationResult(last[0], last[1], strategy.name, chain)
        if last is None:
            raise NoStrategiesError("No capsule generation strategies available")
        return GenerationResult(last[0], last[1], chain[-1], chain)

    def generate_deterministic(
        self,
        gen: GenerationInput,
        ctx: AttemptContext,
        branch: EntryIndex,
        blocking: bool,
        kept_tokens: int,
    ) -> GenerationResult:
        """The timeout fallback: one deterministic run, not raced."""
        strategy = DeterministicStrategy()
        draft, validation = self._finish(strategy, gen, ctx, branch, blocking, kept_tokens)
        return GenerationResult(draft, validation, strategy.name, [strategy.name])
