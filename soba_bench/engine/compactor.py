"""The compactor seam: the one step of a compaction attempt that may differ between
job-level compactors (:mod:`soba_bench.compactors`).

The context manager runs every attempt the same way (plans strictly one at a time, the
cancelled-before-generation and empty-session guards, the deadline, the outcome record) and
hands the step that changes the model input to its :class:`Compactor`. The default,
:class:`SobaCapsules`, is SOBA's own step: cut point, capsule from the strategy chain,
validation, ROI, append. A rival passes another compactor to the manager's constructor
instead of overriding the manager: it reads the branch and the plan through the
:class:`Attempt` it is given and returns the attempt's outcome, built with
:meth:`Attempt.outcome` so every outcome carries the same bookkeeping.

"Strategy" keeps SOBA's meaning (the capsule-writing slot inside the step, see
:mod:`soba_bench.engine.strategies`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.engine.attempt import AttemptContext
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan

if TYPE_CHECKING:
    from soba_bench.engine.manager import ContextManager


@dataclass(frozen=True)
class Attempt:
    """One compaction attempt as a compactor sees it: the manager (branch, meter, policy,
    generator, config), the plan and the attempt's clock/abort context."""

    manager: ContextManager
    plan: CompactionPlan
    ctx: AttemptContext

    @property
    def branch(self) -> Any:
        """The live branch the attempt edits (the manager's)."""
        return self.manager.branch

    def outcome(self, status: str, reason: str, **values: Any) -> CompactionOutcome:
        """The attempt's outcome with the plan's trigger, id and duration filled in."""
        return self.manager.outcome(self.plan, status, self.ctx, reason, **values)

    def capsule(self) -> CompactionOutcome:
        """SOBA's own step on the branch as it now is (a capsule, or why not)."""
        return self.manager.capsule_attempt(self.plan, self.ctx)

    def roi_failure(self, metrics: dict[str, Any]) -> str | None:
        """SOBA's reason to skip a soft attempt whose actual reclaim is too small, or None."""
        return self.manager.soft_roi_failure(self.plan, metrics)


class Compactor(Protocol):
    """The step of an attempt that changes the model input. Called by the manager once per
    attempt that passed its guards; returns that attempt's outcome."""

    def compact(self, attempt: Attempt) -> CompactionOutcome: ...


class SobaCapsules:
    """SOBA's step: a Context Capsule from the manager's strategy chain (the default)."""

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        return attempt.capsule()


SOBA_CAPSULES = SobaCapsules()

__all__ = ["SOBA_CAPSULES", "Attempt", "Compactor", "SobaCapsules"]
