"""The agent-loop simulator: walks a recorded transcript and calls the engine exactly where
SOBA's agent loop would (conformance README section 5, rules R1-R8).

Turns open at user messages (or at ``turn_start`` flight records), a preflight barrier runs
before the first model output after new inputs, flush barriers stand in for requests whose
response is not in the transcript, ``turn_complete`` is scheduled after a clean turn and
milestones after ``checkpoint`` results. The transcript's own capsules and legacy compactions
are dropped so the engine decides afresh; every other entry keeps its original id.

Beyond SOBA's recorded behaviour, the walk can also send each request the barrier lets through
to a (simulated) provider, recover from its context overflows, and run ``/compact`` command
lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from soba_bench.engine import events as ev
from soba_bench.engine.attempt import RealClock, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.command import run_compact_command
from soba_bench.engine.config import EngineConfig
from soba_bench.engine.controller import BarrierResult, RecoveryResult, RequestMetrics
from soba_bench.engine.facade import Engine
from soba_bench.engine.failures import tool_failure_output
from soba_bench.engine.manager import MANUAL_SYSTEM_PROMPT_TOKENS as MANUAL_SYS
from soba_bench.engine.manager import MANUAL_TOOL_SCHEMA_TOKENS as MANUAL_TOOLS
from soba_bench.engine.strategies.base import Strategy
from soba_bench.gc_pause import frozen_heap
from soba_bench.jscompat import js_round
from soba_bench.meter import get_meter
from soba_bench.replay.provider import (
    USAGE_NONE,
    USAGE_RECORDED,
    USAGE_SIMULATED,
    SimulatedProvider,
    recorded_usage,
)
from soba_bench.replay.records import attempt_line
from soba_bench.replay.rules import ReplayOptions, checkpoint_event, classify, compact_command_of
from soba_bench.replay.trace import BarrierRecord, ReplayTrace
from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session
from soba_bench.session.turns import scan_turn_marks


def _no_settle() -> None:
    return None


class Replayer:
    """One replay of one session under one config. Use :func:`replay_session`."""

    SETTLE_ENTRIES = 2048  # how often the walk calls settle_heap()

    def __init__(
        self,
        session: Session,
        config: EngineConfig,
        options: ReplayOptions,
        chain: Sequence[Strategy] | None = None,
        clock: VirtualClock | RealClock | None = None,
    ) -> None:
        self.session = session
        # gc_pause.frozen_heap's settle() (replay_session sets it): what the replay keeps
        # only grows, so collections need not walk it again and again
        self.settle_heap: Callable[[], None] = _no_settle
        self.config = config
        self.options = options
        self.marks = scan_turn_marks(session)
        self.source_branch = session.active_branch
        reserved = {e.id for e in session.tree_entries if e.id}
        self.live = LiveBranch(
            session.session_id or "session", meter=get_meter(options.meter), reserved_ids=reserved
        )
        self.engine = Engine.create(
            config,
            branch=self.live,
            chain=chain,
            variant=options.variant,
            clock=clock,
            seed=options.seed,
        )
        self.trace = ReplayTrace(config_line={})
        self.turn = 0
        self.inputs_pending = False
        self.turn_has_output = False
        self.turn_errors = 0
        self.checkpoint_calls: dict[Any, dict[str, Any]] = {}
        self.queued_events: list[dict[str, Any]] = []
        self.seq = 0
        self.counts = {
            "droppedCapsules": 0,
            "droppedLegacyCompactions": 0,
            "inTurnUserItems": 0,
            "failedToolOutputs": 0,
            "ignoredItems": 0,
        }
        self.max_effective = 0
        self.preflight_ms = 0.0
        self.used_tokens: float = 0  # cumulative provider-reported input tokens (budget_update)
        self.usage = recorded_usage(session) if options.usage == USAGE_RECORDED else {}
        self.provider: SimulatedProvider | None = None
        if options.usage == USAGE_SIMULATED or options.simulate_overflow:
            self.provider = SimulatedProvider(
                self.live,
                get_meter(options.provider_meter or options.meter),
                config.contextWindow,
                config.maxOutputTokens,
                config.systemPromptTokens + config.toolSchemaTokens,
            )
        self.counts.update({"compactCommands": 0, "overflowErrors": 0, "usageRecords": 0})

    # ── helpers ─────────────────────────────────────────────────────────────────
    def _metrics(self, fingerprint: str) -> RequestMetrics:
        return RequestMetrics(
            self.config.systemPromptTokens, self.config.toolSchemaTokens, fingerprint, self.turn
        )

    def _append(self, entry: Entry) -> None:
        # Original id and content; the parent becomes the replayed leaf.
        data = dict(entry.data)
        data["parentId"] = self.live.leaf_id
        self.live.append(Entry(entry.kind, data, entry.line))

    def _failed(self, item: dict[str, Any]) -> bool:
        failed_ids = self.marks.failed_call_ids
        if failed_ids is not None:
            return item.get("call_id") in failed_ids
        return tool_failure_output(item) is not None

    # ── the barrier (R5) ────────────────────────────────────────────────────────
    def barrier(self, index: int, before_id: str | None, flush: bool) -> BarrierResult:
        controller = self.engine.controller
        if self.queued_events:
            controller.schedule_latest_milestone(self.queued_events)
            self.queued_events = []
        pending = controller.pending_trigger
        events_before = len(self.engine.events.events)
        started = time.perf_counter()
        result = controller.preflight(self._metrics(f"turn_{self.turn}"))
        wall_ms = (time.perf_counter() - started) * 1000
        self.preflight_ms += wall_ms
        self.inputs_pending = False
        if not result.canProceed:
            self.turn_errors += 1
        self._record(index, before_id, flush, pending, result, events_before, wall_ms)
        self._budget_update()
        return result

    def _budget_update(self) -> None:
        """The loop's budget_update after each preflight (engine.md l.1): context fill is
        measured with its own fingerprint, so it is always an estimate."""
        effective = self.engine.controller.effective_context_tokens(
            self._metrics(f"turn_{self.turn}_ctx")
        )
        window = self.config.contextWindow
        self.engine.events(
            {
                "type": ev.BUDGET_UPDATE,
                "timestamp": self.engine.manager.clock.epoch_ms(),
                "usedTokens": self.used_tokens,
                "totalBudget": 0,
                "contextWindow": window,
                "percentage": js_round(100 * effective / window) if effective is not None else 0,
                "effectiveContextTokens": effective,
            }
        )

    def _record(
        self,
        index: int,
        before_id: str | None,
        flush: bool,
        pending: str | None,
        result: BarrierResult | RecoveryResult,
        events_before: int,
        wall_ms: float,
        overflow: bool = False,
    ) -> None:
        snap = result.snapshot
        soft = self.engine.manager.policy.soft_limit(snap)
        self.max_effective = max(self.max_effective, snap.effectiveTokens)
        # Only overflow recoveries return a RecoveryResult; its "may proceed" is shouldRetry.
        can_proceed = (
            result.shouldRetry if isinstance(result, RecoveryResult) else result.canProceed
        )
        attempt = None
        if result.plan is not None:
            assert result.outcome is not None  # the controller ends every plan in an outcome
            self.seq += 1
            attempt = attempt_line(
                seq=self.seq,
                index=index,
                before_id=before_id,
                flush=flush,
                turn=self.turn,
                pending=pending,
                outcome=result.outcome,
                required=result.plan.required,
                source=snap.source,
                tokens_before=snap.effectiveTokens,
                measured_after=result.post_snapshot.effectiveTokens,
                can_proceed=can_proceed,
                new_events=self.engine.events.events[events_before:],
                wall_ms=wall_ms,
            )
            self.trace.keep_outcome(result.outcome)
        self.trace.barriers.append(
            BarrierRecord(
                index,
                before_id,
                flush,
                self.turn,
                pending,
                snap.effectiveTokens,
                snap.source,
                snap.hardLimit,
                soft,
                can_proceed,
                attempt,
                overflow,
            )
        )

    # ── the walk (R2-R7) ────────────────────────────────────────────────────────
    def run(self) -> ReplayTrace:
        started = time.perf_counter()
        branch = self.source_branch
        opening = self.marks.opening_ids
        for index, entry in enumerate(branch):
            if not index % self.SETTLE_ENTRIES:
                self.settle_heap()
            if entry.kind == E.CONTEXT_CAPSULE:
                self.counts["droppedCapsules"] += 1
                continue
            if entry.kind == E.COMPACTION:
                self.counts["droppedLegacyCompactions"] += 1
                continue
            item = entry.item
            if item is None:  # skill activations and other tree entries, unchanged
                self._append(entry)
                continue
            role = classify(item)
            command = (
                compact_command_of(item) if role == "user" and self.options.commands else False
            )
            if isinstance(command, str):  # compact_command_of: the instructions, or False
                self.compact_command(index, entry, command)
            elif role == "user":
                if self.turn == 0 or opening is None or entry.id in opening:
                    self._open_turn(index, entry)
                else:  # an injected nudge: an input that opens no turn
                    self.counts["inTurnUserItems"] += 1
                    if self.inputs_pending:
                        self.barrier(index, entry.id, flush=True)
                    self._append(entry)
                    self.inputs_pending = True
            elif role == "model":
                if self.inputs_pending and self.barrier(index, entry.id, flush=False).canProceed:
                    self.send(index, entry)
                self._append(entry)
                self.turn_has_output = True
                event = checkpoint_event(item)
                if event is not None:
                    self.checkpoint_calls[item.get("call_id")] = event
            elif role == "input":
                self._append(entry)
                self.inputs_pending = True
                if item.get("type") in E.OUTPUT_TYPES:
                    if self._failed(item):
                        self.turn_errors += 1
                        self.counts["failedToolOutputs"] += 1
                    event = self.checkpoint_calls.pop(item.get("call_id"), None)
                    if event is not None:
                        self.queued_events.append(event)
            else:
                self.counts["ignoredItems"] += 1
        if self.inputs_pending and self.turn >= 1:
            self.barrier(len(branch), None, flush=True)
        return self._finish((time.perf_counter() - started) * 1000)

    def _open_turn(self, index: int, entry: Entry) -> None:
        if self.inputs_pending and self.turn >= 1:
            self.barrier(index, entry.id, flush=True)
        if self.turn >= 1 and self.turn_has_output:
            self.engine.controller.schedule_turn_complete("completed", self.turn_errors)
        self.turn += 1
        self.turn_has_output = False
        self.turn_errors = 0
        self._append(entry)
        self.inputs_pending = True

    def _finish(self, replay_ms: float) -> ReplayTrace:
        session, trace = self.session, self.trace
        final = self.engine.manager.get_snapshot(
            self.config.systemPromptTokens, self.config.toolSchemaTokens, f"turn_{self.turn}"
        )
        trace.capsules = [e.data for e in self.live.entries if e.kind == E.CONTEXT_CAPSULE]
        trace.entries = list(self.live.entries)
        trace.events = list(self.engine.events.events)
        trace.stats = {
            "entriesInFile": len(session.lines),
            "branchEntries": len(self.source_branch),
            "replayedEntries": len(self.source_branch)
            - self.counts["droppedCapsules"]
            - self.counts["droppedLegacyCompactions"],
            **{k: v for k, v in self.counts.items() if k != "ignoredItems"},
            "turns": self.turn,
            "turnSource": self.marks.turn_source,
            "toolErrorSource": self.marks.error_source,
        }
        trace.final_state = {
            "finalEffectiveTokens": final.effectiveTokens,
            "maxEffectiveTokens": self.max_effective,
            "ignoredItems": self.counts["ignoredItems"],
            "usage": self.options.usage,
            **(self.provider.describe() if self.provider else {}),
            "replayMs": round(replay_ms, 2),
            "preflightMs": round(self.preflight_ms, 2),
            "entriesPerSec": round(len(self.source_branch) / (replay_ms / 1000), 1)
            if replay_ms > 0
            else None,
        }
        return trace

    # ── the provider and /compact lines (beyond SOBA's record) ─────────────────────
    def send(self, index: int, entry: Entry) -> None:
        """The request the barrier let through reaches the provider: it may overflow (one
        recovery per turn, then the iteration re-runs), and it may report usage."""
        provider = self.provider
        if provider is not None and self.options.simulate_overflow:
            while provider.overflows_now():
                provider.overflows += 1
                if not self._recover(index, entry.id):
                    self.counts["overflowErrors"] += 1
                    self.turn_errors += 1  # the loop records an api_error; nothing is sent
                    return
                retry = self.barrier(index, entry.id, flush=False)
                if not retry.canProceed:
                    return
        tokens = None
        if self.options.usage == USAGE_RECORDED:
            tokens = self.usage.get(entry.id)
        elif self.options.usage == USAGE_SIMULATED and provider is not None:
            tokens = provider.request_tokens()
        if tokens is not None:
            # Measured through the leaf before the response's own items, as SOBA records it.
            self.used_tokens += tokens
            self.engine.manager.record_provider_usage(
                tokens, self.live.leaf_id, f"turn_{self.turn}"
            )
            self.counts["usageRecords"] += 1

    def _recover(self, index: int, before_id: str | None) -> bool:
        events_before = len(self.engine.events.events)
        started = time.perf_counter()
        result: RecoveryResult = self.engine.controller.recover_context_overflow(
            self._metrics(f"turn_{self.turn}_overflow")
        )
        wall_ms = (time.perf_counter() - started) * 1000
        if result.plan is not None:
            self._record(
                index,
                before_id,
                False,
                self.engine.controller.pending_trigger,
                result,
                events_before,
                wall_ms,
                overflow=True,
            )
        return result.shouldRetry

    def compact_command(self, index: int, entry: Entry, instructions: str) -> None:
        """A ``/compact`` line: the command runs; the line itself is not conversation."""
        self.counts["compactCommands"] += 1
        events_before = len(self.engine.events.events)
        started = time.perf_counter()
        before = self.engine.manager.get_snapshot(
            MANUAL_SYS, MANUAL_TOOLS, f"manual_compact_{index}"
        )
        outcome, _ = run_compact_command(
            self.engine, instructions, fingerprint=f"manual_compact_{index}"
        )
        wall_ms = (time.perf_counter() - started) * 1000
        post = self.engine.manager.get_snapshot(MANUAL_SYS, MANUAL_TOOLS, f"manual_compact_{index}")
        self.seq += 1
        attempt = attempt_line(
            seq=self.seq,
            index=index,
            before_id=entry.id,
            flush=False,
            turn=self.turn,
            pending=self.engine.controller.pending_trigger,
            outcome=outcome,
            required=False,
            source=before.source,
            tokens_before=before.effectiveTokens,
            measured_after=post.effectiveTokens,
            can_proceed=True,
            new_events=self.engine.events.events[events_before:],
            wall_ms=wall_ms,
        )
        attempt["command"] = "/compact"
        self.trace.keep_outcome(outcome)
        self.trace.barriers.append(
            BarrierRecord(
                index,
                entry.id,
                False,
                self.turn,
                attempt["pendingTrigger"],
                before.effectiveTokens,
                before.source,
                before.hardLimit,
                attempt["softLimit"],
                True,
                attempt,
                overflow=True,
            )
        )


def replay_session(
    session: Session,
    config: EngineConfig,
    options: ReplayOptions | None = None,
    *,
    chain: Sequence[Strategy] | None = None,
    clock: VirtualClock | RealClock | None = None,
) -> ReplayTrace:
    """Replay one session under one engine config and return the trace."""
    options = options or ReplayOptions()
    # the session outlives the replay, and what the replay keeps only grows: collections
    # need not walk either
    with frozen_heap() as settle:
        replayer = Replayer(session, config, options, chain=chain, clock=clock)
        replayer.settle_heap = settle
        replayer.trace.config_line = config_line(session, config, replayer, options, chain)
        return replayer.run()


def config_line(
    session: Session,
    config: EngineConfig,
    replayer: Replayer,
    options: ReplayOptions,
    chain: Sequence[Strategy] | None = None,
) -> dict[str, Any]:
    meter = replayer.live.meter
    branch_tokens = sum(
        meter.count_item(e.item) for e in replayer.source_branch if e.item is not None
    )
    return {
        "kind": "config",
        "session": session.path.rsplit("/", 1)[-1] if session.path else None,
        "sessionId": session.session_id,
        "contextWindow": config.contextWindow,
        "maxOutputTokens": config.maxOutputTokens,
        "systemPromptTokens": config.systemPromptTokens,
        "toolSchemaTokens": config.toolSchemaTokens,
        "compactionRequested": config.compactionRequested.to_dict(),
        "compaction": config.compaction.to_dict(),
        "hardLimit": config.hardLimit,
        "fileLines": len(session.lines),
        "branchEntries": len(replayer.source_branch),
        "branchItemTokens": branch_tokens,
        "meterSource": "estimated" if options.usage == USAGE_NONE else "provider_usage",
        "meter": meter.name,
        "strategy": "deterministic-only" if chain is None else "+".join(s.name for s in chain),
        "engine": f"soba-bench {options.variant}",
        "variant": options.variant,
    }
