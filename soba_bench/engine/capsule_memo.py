"""The deterministic capsule of a growing span, remembered between attempts (issue 18).

Once SOBA's compaction deadlocks (blocker saturation, lost failed verification), every
barrier runs an attempt over a span that only gained a few entries at its end, and those
entries rarely change what the capsule says: on a generated failure-heavy session of 20k
entries the rolled state's lists and the artifact ledger each change in under 5 % of
consecutive attempts. Rebuilding the state, reconciling it, serializing the capsule text
(tens of kilobytes once the span holds many checkpoints and files) and measuring it at every
attempt made each attempt cost proportional to the capsule, so replay time grew faster than
the entries.

A :class:`CapsuleMemo` belongs to one :class:`~soba_bench.engine.span.SpanDigest` (one
window start, one previous capsule) and keeps, for the latest inputs only:

* the rolled, reconciled state without its goal. Every field but ``goal`` is a function of
  the previous capsule's state, the blocker order variant, the span's answers (completed,
  pending, next steps, blockers, decisions) and its answered clarifications, which only
  accumulate (so their count identifies them). The span's answers are lists of strings and
  dicts of strings, so ``==`` on them is exact; the previous state is compared by identity
  (a capsule entry is never changed once appended, and a new capsule starts a new digest).
  The goal is recomputed at every attempt (:func:`rolled_goal`): it changes far more often.
* the artifact ledger: its four ordered sets only grow, so their lengths and the status
  identify it.
* the text of the state's sections after the goal, of the artifacts section, and the token
  count of the whole capsule message for the last (goal, skills, meter).

Every attempt still runs: the strategy returns fresh copies (nothing handed out can alter
the memo), the generator measures and validates each draft, and the outcome is SOBA's. A
miss calls exactly the reference functions. ``ContextManager.memoize_capsules = False``
turns the memo off; property tests replay both ways and compare every line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from soba_bench.engine.reducer import reconcile_structured_state
from soba_bench.engine.strategies.deterministic import deterministic_state, rolled_goal
from soba_bench.session.capsule_text import (
    CAPSULE_TITLE,
    artifacts_section,
    capsule_message,
    goal_section,
    skills_section,
    state_sections_after_goal,
)

if TYPE_CHECKING:
    from soba_bench.engine.span import SpanDigest
    from soba_bench.engine.strategies.base import Draft
    from soba_bench.meter.base import Meter

_UNSET = object()


class CapsuleMemo:
    """The deterministic strategy's state, ledger and capsule size for one span digest."""

    def __init__(self, span: SpanDigest) -> None:
        self.span = span
        self.hits = 0  # attempts whose rolled state was reused (for tests and benchmarks)
        self.misses = 0
        self._previous: Any = _UNSET
        self._state_key: Any = None
        self._rest: dict[str, Any] = {}  # the state without its goal, never handed out
        self._rest_text: str | None = None
        self._ledger_key: Any = None
        self._ledger: dict[str, Any] = {}  # never handed out
        self._ledger_text: str | None = None
        self._count_key: Any = None
        self._count = 0
        # the copies given to the latest draft: measuring may use the memo only for them
        self._handed_state: Any = None
        self._handed_ledger: Any = None

    def portable_state(
        self, previous: dict[str, Any] | None, custom_instructions: str | None, newest_first: bool
    ) -> dict[str, Any]:
        """What ``reconcile_structured_state(deterministic_state(...))`` returns for the
        span, in fresh containers."""
        span = self.span
        key = (
            newest_first,
            len(span.clarifications.facts),
            span.completed(),
            span.pending(),
            span.next_steps(),
            span.blockers(),
            span.decisions(),
        )
        if previous is self._previous and key == self._state_key:
            self.hits += 1
            goal = rolled_goal(custom_instructions, span.goal, previous or {})
        else:
            self.misses += 1
            full = reconcile_structured_state(
                deterministic_state(
                    span.items,
                    custom_instructions,
                    previous,
                    newest_blockers_first=newest_first,
                    span=span,
                ),
                span.items,
                facts=span.clarifications.facts,
                superseded=span.superseded,
            )
            goal = full["goal"]
            # set only once both calls returned: a throwing input is never remembered
            self._previous, self._state_key = previous, key
            self._rest = {k: v for k, v in full.items() if k != "goal"}
            self._rest_text = None
            self._count_key = None
        state = {"goal": goal}
        for name, values in self._rest.items():
            if name == "decisions":
                state[name] = list(map(dict, values))  # decisions are dicts (a miss checked)
            else:
                state[name] = list(values)
        self._handed_state = state
        return state

    def ledger(self) -> dict[str, Any]:
        """The span's artifact ledger, in fresh lists."""
        scan = self.span.artifacts
        key = (
            len(scan.read.values),
            len(scan.modified.values),
            len(scan.commands.values),
            len(scan.summaries.values),
            scan.status,
        )
        if key != self._ledger_key:
            self._ledger_key, self._ledger = key, scan.ledger()
            self._ledger_text = None
            self._count_key = None
        ledger = {k: list(v) if isinstance(v, list) else v for k, v in self._ledger.items()}
        self._handed_ledger = ledger
        return ledger

    def capsule_tokens(self, draft: Draft, meter: Meter) -> int | None:
        """The capsule message's tokens for ``draft``, or None when the draft is not the one
        this memo just built (another strategy's, or replaced since, e.g. by redaction)."""
        if (
            draft.portableState is not self._handed_state
            or draft.artifacts is not self._handed_ledger
            or draft.nativeContinuation is not None
        ):
            return None
        skills = draft.activatedSkills or []
        goal = goal_section(draft.portableState)
        skills_text = skills_section(skills) if skills else None
        key = (goal, skills_text, meter)
        if key == self._count_key:
            return self._count
        if self._rest_text is None:
            self._rest_text = "".join(
                "\n\n" + section for section in state_sections_after_goal(self._rest)
            )
        if self._ledger_text is None:
            self._ledger_text = artifacts_section(self._ledger)
        # capsule_text(): title, blank line, then the sections joined by blank lines
        text = f"{CAPSULE_TITLE}\n\n{goal}{self._rest_text}\n\n{self._ledger_text}"
        if skills_text is not None:
            text += "\n\n" + skills_text
        count = meter.count_item(capsule_message(text))
        self._count_key, self._count = key, count
        return count
