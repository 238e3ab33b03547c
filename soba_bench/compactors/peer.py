"""What the peer strategies share: other agents' compaction policies (Codex, Claude Code,
OpenHands, Gemini CLI, pi, opencode) replayed on the same walk as ``soba``.

A peer policy differs from SOBA's in three places, and only there:

* **when** it compacts: its own trigger replaces SOBA's soft limit and ROI pre-check
  (:class:`PeerPolicy`, installed as the manager's ``policy``). SOBA's hard limit stays as the
  shared refusal rule: a request whose input is still above it after the policy's compaction
  is refused, for every strategy alike, and reaching it runs the policy's own compaction (as
  a provider's context-overflow error would make the agent compact);
* **what stays verbatim**: its own cut rule (:meth:`PeerCompactor.cut`) picks the tail kept
  after the summary, plus "pinned" items kept verbatim before the tail (Codex's recent user
  messages, OpenHands' head events);
* optional **pruning** before summarizing (opencode's tool-output prune, a masking edit).

The summary itself is written by the job's summarizer slot, exactly as SOBA's capsules are
(deterministic by default, a model when configured; SOBA's validator reports on it but does
not veto it, since no peer validates its summary): a capsule entry in SOBA's shape whose
provenance names what was summarized, with the previous capsule's state handed over so every
policy summarizes *rolling*, as all six agents do. Costs and availability therefore compare
at the same evaluation points; the agents' own prompts are named in each docstring but not
used (the slot's prompt is the one under test).

Unlike SOBA, no peer gates a compaction on reclaimed tokens (none of the six has SOBA's ROI
rule), so a triggered summary is kept whatever it saved.

The model input after a peer compaction is: the capsule prefix, the pinned items, then the
tail from the capsule's ``firstKeptEntryId`` (masked outputs masked). Attempt lines carry
``pinnedEntryIds`` beside the rival fields, so scoring rebuilds it from a run folder
(:mod:`soba_bench.compactors.inputs`). When nothing is kept verbatim the capsule's
``firstKeptEntryId`` is its own id, so items appended later count (SOBA's ``"root"`` would
send no tail at all).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from soba_bench.compactors import CompactorContext, SessionRun
from soba_bench.compactors.inputs import PINNED
from soba_bench.compactors.rival import Edit, RivalReplayer, conclude_edit, replay_rival
from soba_bench.compactors.rival_branch import RivalBranch, entry_ids, entry_items
from soba_bench.compactors.soba import summarizer_kwargs
from soba_bench.engine import outcome as O
from soba_bench.engine.compactor import Attempt
from soba_bench.engine.cutpoint import partner_within
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.engine.policy import AUTO_THRESHOLD, TriggerDecision, TriggerPolicy
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.engine.strategies.base import GenerationInput
from soba_bench.errors import ConfigError, HarnessFault
from soba_bench.jscompat import js_number
from soba_bench.session import entries as E
from soba_bench.session.model import Session
from soba_bench.summarizers import build_summarizer


class PeerBranch(RivalBranch):
    """A rival branch whose model input may hold pinned items between the capsule prefix and
    the verbatim tail."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.pinned: list[int] = []  # ascending, all before the capsule's first kept entry
        super().__init__(*args, **kwargs)

    def effective_item_tokens(self, compatibility_key: str | None) -> int:
        tokens = super().effective_item_tokens(compatibility_key)
        if self.last_capsule_index >= 0:
            tokens += sum(self.item_tokens(i) for i in self.pinned)
        return tokens

    def items_in_view(self) -> int:
        """How many items the model sees (pinned + the summary + the window's items): the
        unit of OpenHands' event-count trigger."""
        start = self.effective_window_start()
        window = sum(1 for e in self.entries[start:] if e.item is not None)
        summary = 1 if self.last_capsule_index >= 0 else 0
        return len(self.pinned) * summary + summary + window

    def item_indexes(self, start: int, end: int | None = None) -> list[int]:
        stop = len(self.entries) if end is None else end
        return [i for i in range(start, stop) if self.entries[i].item is not None]


def peer_branch(manager: ContextManager) -> PeerBranch:
    """The manager's branch as the :class:`PeerBranch` a peer policy edits (its replay builds
    the manager on one); anything else is a wiring fault, said as such."""
    branch = manager.branch
    if not isinstance(branch, PeerBranch):
        raise TypeError(f"a peer policy runs on a PeerBranch, not {type(branch).__name__}")
    return branch


def crosses(branch: RivalBranch, lo: int, boundary: int, hi: int) -> bool:
    """True when some tool call and its output sit on different sides of ``boundary``
    within ``entries[lo:hi]`` (either order, any call family)."""
    left, right = (lo, boundary), (boundary, hi)
    scan, other = (left, right) if boundary - lo <= hi - boundary else (right, left)
    for index in range(*scan):
        item = branch.entries[index].item
        if item is not None and partner_within(item, branch.tool_positions, *other):
            return True
    return False


def item_chars(item: dict[str, Any]) -> int:
    """An item's size in characters as JSON (Gemini CLI's unit for its split point)."""
    return len(json.dumps(item, ensure_ascii=False, separators=(",", ":")))


def is_user_message(item: dict[str, Any] | None) -> bool:
    return item is not None and item.get("type") == E.MESSAGE and item.get("role") == "user"


@dataclass(frozen=True)
class PeerCut:
    """What one peer compaction keeps: the tail from ``kept_from`` (an index into the
    branch; ``len(branch)`` keeps no tail), the ``pinned`` items kept verbatim before it,
    and the ``summarized`` items handed to the summarizer."""

    kept_from: int
    pinned: list[int] = field(default_factory=list)
    summarized: list[int] = field(default_factory=list)


class PeerPolicy(TriggerPolicy):
    """SOBA's trigger policy with the soft triggers replaced by the peer's own: the
    threshold is evaluated at every barrier (``turn_complete`` and milestone intents are
    SOBA's, so a peer ignores them unless it defines its own use, see opencode), while the
    hard limit, ``/compact`` and overflow keep SOBA's rules (the shared refusal rule)."""

    def __init__(self, config, peer: PeerCompactor, branch: PeerBranch) -> None:
        super().__init__(config)
        self.peer = peer
        self.branch = branch

    def soft_limit_for(self, hard: float) -> float:
        threshold = self.peer.threshold_tokens(hard)
        return hard if threshold is None else min(hard, threshold)

    def _peer(self, snapshot: ContextSnapshot, trigger: str) -> TriggerDecision:
        if not self.config.auto:
            return TriggerDecision(False, None, "Auto-compact disabled")
        reason = self.peer.triggered(snapshot, self.branch)
        if reason is None:
            return TriggerDecision(
                False, None, f"{self.peer.name} threshold not reached ({self.peer.describe()})"
            )
        effective = snapshot.effectiveTokens
        return TriggerDecision(True, trigger, reason, effective, 1.0 if effective > 0 else 0)

    def evaluate_auto_threshold(self, snapshot: ContextSnapshot) -> TriggerDecision:
        return self._peer(snapshot, AUTO_THRESHOLD)

    def evaluate_turn_complete(self, snapshot: ContextSnapshot) -> TriggerDecision:
        return self.peer.on_turn_complete(snapshot, self.branch)

    def evaluate_milestone(self, snapshot: ContextSnapshot) -> TriggerDecision:
        return TriggerDecision(False, None, f"{self.peer.name} has no milestone trigger")


class PeerCompactor:
    """One peer policy: its trigger, its cut, optionally a prune. Subclasses set ``name`` and
    override :meth:`threshold_tokens` (or :meth:`triggered`) and :meth:`cut`."""

    name = "peer"

    def threshold_tokens(self, hard: float) -> float | None:
        """The effective-token count at which the policy compacts (None: not token-based)."""
        return None

    def describe(self) -> str:
        return "no token threshold"

    def triggered(self, snapshot: ContextSnapshot, branch: PeerBranch) -> str | None:
        """Why the policy compacts now, or None. Default: at or above the threshold."""
        threshold = self.threshold_tokens(snapshot.hardLimit)
        if threshold is None or snapshot.effectiveTokens < threshold:
            return None
        return (
            f"Effective tokens ({js_number(snapshot.effectiveTokens)}) reached the "
            f"{self.name} threshold ({js_number(threshold)})"
        )

    def on_turn_complete(self, snapshot: ContextSnapshot, branch: PeerBranch) -> TriggerDecision:
        return TriggerDecision(False, None, f"{self.name} has no turn-complete trigger")

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        """The policy's cut on the branch as it is now, or why there is nothing to do."""
        raise NotImplementedError

    def prune(self, manager: ContextManager, plan: CompactionPlan) -> Edit | None:
        """A masking edit to run before summarizing (None: the policy does not prune)."""
        return None

    def wants_summary(self, manager: ContextManager, plan: CompactionPlan, after: float) -> bool:
        """After a prune that left ``after`` effective tokens: whether the summary step
        still runs (always, by default)."""
        return True

    def compact(self, attempt: Attempt) -> CompactionOutcome:
        manager, plan = attempt.manager, attempt.plan
        pruned = None
        edit = self.prune(manager, plan)
        if edit is not None:
            pruned = conclude_edit(attempt, edit, roi=False)
            if not self.wants_summary(manager, plan, edit.tokens_after):
                return pruned
        cut = self.cut(manager, plan)
        if isinstance(cut, str):
            if pruned is not None:
                return pruned
            return attempt.outcome(O.SKIPPED, cut, strategy=self.name)
        return summarize(attempt, cut, self.name)


def summarize(attempt: Attempt, cut: PeerCut, name: str) -> CompactionOutcome:
    """Write the capsule for ``cut`` with the job's summarizer chain and append it (the
    policy's summary step), through the manager's own generation, fallback and capsule
    fields. No ROI gate: a peer keeps what it triggered."""
    manager, plan, ctx = attempt.manager, attempt.plan, attempt.ctx
    branch = peer_branch(manager)
    entries = branch.entries
    summarized = [entries[i] for i in cut.summarized if entries[i].item is not None]
    if not summarized:
        return attempt.outcome(O.SKIPPED, f"{name}: nothing before the kept items to summarize")
    tail = [entries[i] for i in branch.item_indexes(cut.kept_from)]
    pinned = [entries[i] for i in cut.pinned]
    first_kept = tail[0].id if tail else "root"
    previous = branch.last_capsule
    gen = GenerationInput(
        session_id=branch.session_id,
        branch_index=branch,
        source_entry_ids=entry_ids(summarized),
        source_items=entry_items(summarized),
        kept_items=entry_items(pinned + tail),
        first_compacted_entry_id=entry_ids(summarized)[0],
        first_kept_entry_id=first_kept,
        trigger=plan.trigger,
        snapshot=plan.snapshot,
        activated_skills=branch.active_skill_refs(),
        previous_state=previous.data.get("portableState") if previous else None,
        custom_instructions=plan.customInstructions,
        compatibility_key=manager.meter.compatibility_key,
    )
    kept_tokens = branch.tokens_from(cut.kept_from) + sum(branch.item_tokens(i) for i in cut.pinned)
    if branch.leaf_id != plan.expectedLeafId:
        return attempt.outcome(O.STALE, "Session leaf changed before summarizing")
    try:
        # As in SOBA: a model deadline falls back to the deterministic slot.
        result, fallback = manager.generate(gen, ctx, plan.required, kept_tokens)
    except HarnessFault:
        raise
    except Exception as exc:
        return manager.failure(plan, ctx, exc, f"{name}: summary failed")
    draft, validation = result.draft, result.validation
    common = dict(
        strategy=result.strategy_used,
        metrics=draft.metrics,
        validation=validation,
        draft=draft,
        timeout_fallback=fallback,
        quality=draft.quality,
    )
    # None of the six agents validates its summary, so SOBA's validator only reports here
    # (its findings stay on the attempt line): a draft it rejects, e.g. for its
    # "failed verification lost" rule on a fail-then-pass history, is still what the peer
    # would have sent. The chain's own fallback (a rejected model draft hands over to the
    # next slot) is the slot's behaviour and stays.
    rejected = (
        ""
        if validation.valid
        else f"; SOBA's validator would reject it ({len(validation.errors)} errors)"
    )
    provenance = dict(draft.provenance)
    fields: dict[str, Any] = {}
    if not tail:
        # Keeps no tail: the capsule itself is the first kept entry, so later items count.
        capsule_id = branch.new_entry_id()
        fields["id"] = capsule_id
        provenance["firstKeptEntryId"] = capsule_id
    fields.update(manager.capsule_fields(plan, result, provenance))
    capsule = branch.append_capsule(fields)
    branch.pinned = list(cut.pinned)
    manager.meter.invalidate_watermark()
    kept = f"kept {len(pinned)} pinned and {len(tail)} tail items verbatim"
    return attempt.outcome(
        O.COMPLETED,
        f"{name}: summarized {len(summarized)} items, {kept}{rejected}",
        checkpointId=fields["checkpointId"],
        capsule=capsule,
        **common,
    )


class PeerReplayer(RivalReplayer):
    """The rival walk on a :class:`PeerBranch` with the peer's trigger policy."""

    branch_type = PeerBranch
    live: PeerBranch

    def __init__(self, session, config, options, compactor, **kwargs) -> None:
        super().__init__(session, config, options, compactor, **kwargs)
        manager = self.engine.manager
        manager.policy = PeerPolicy(config.compaction, compactor, self.live)

    def _state(self) -> dict[str, Any]:
        state = super()._state()
        live = self.live
        pinned = live.pinned if live.last_capsule_index >= 0 else []
        state[PINNED] = [live.entries[i].id for i in pinned]
        return state


def replay_peer(
    session: Session,
    ctx: CompactorContext,
    compactor: PeerCompactor,
    name: str,
    params: Mapping[str, Any],
) -> SessionRun:
    """Replay ``session`` under a peer policy, its summaries written by the job's
    summarizer slot (a fresh summarizer per session, as ``soba`` builds it)."""
    kwargs = summarizer_kwargs(ctx.summarizer, dict(ctx.summarizer_params))
    spec = build_summarizer(ctx.summarizer, **kwargs)
    trace = replay_rival(
        session,
        ctx,
        compactor,
        name,
        params,
        chain=spec.chain,
        clock=spec.clock,
        replayer=PeerReplayer,
    )
    return SessionRun(trace, spec.record())


def ratio_param(strategy: str, params: Mapping[str, Any], key: str) -> float:
    """A number in (0, 1] (booleans are not numbers here)."""
    value = params[key]
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 < value <= 1:
        raise ConfigError(
            f"strategy {strategy!r}: strategy.params.{key} must be a number in (0, 1], "
            f"got {value!r}"
        )
    return float(value)
