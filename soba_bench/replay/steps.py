"""Replay steps beyond SOBA's recorded behaviour: the request reaching a (simulated)
provider, context-overflow recovery, and ``/compact`` command lines. A mixin of
:class:`~soba_bench.replay.simulator.Replayer`, kept apart so the core walk stays readable."""

from __future__ import annotations

import time

from soba_bench.engine.command import run_compact_command
from soba_bench.engine.controller import RecoveryResult
from soba_bench.engine.entrypoints import MANUAL_SYSTEM_PROMPT_TOKENS as MANUAL_SYS
from soba_bench.engine.entrypoints import MANUAL_TOOL_SCHEMA_TOKENS as MANUAL_TOOLS
from soba_bench.replay.provider import USAGE_RECORDED, USAGE_SIMULATED
from soba_bench.replay.records import attempt_line
from soba_bench.replay.trace import BarrierRecord
from soba_bench.session.entries import Entry


class ProviderSteps:
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
