"""One object wiring branch, manager, controller and event log together."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.engine.attempt import RealClock, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import EngineConfig
from soba_bench.engine.controller import ContextController
from soba_bench.engine.events import EventLog
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.strategies.base import Strategy
from soba_bench.engine.variants import DEFAULT_VARIANT
from soba_bench.meter import Meter


@dataclass
class Engine:
    branch: LiveBranch
    manager: ContextManager
    controller: ContextController
    events: EventLog

    @classmethod
    def create(
        cls,
        config: EngineConfig | None = None,
        *,
        session_id: str = "session",
        branch: LiveBranch | None = None,
        chain: Sequence[Strategy] | None = None,
        variant: str = DEFAULT_VARIANT,
        clock: VirtualClock | RealClock | None = None,
        meter: Meter | None = None,
        compatibility_key: str | None = None,
        seed: int = 0,
        memory_sink: Callable[[dict[str, Any]], Any] | None = None,
    ) -> Engine:
        config = config or EngineConfig()
        if branch is None:
            branch = LiveBranch(session_id, meter=meter)
        events = EventLog()
        manager = ContextManager(
            branch,
            config,
            chain=chain,
            variant=variant,
            clock=clock,
            compatibility_key=compatibility_key,
            seed=seed,
            memory_sink=memory_sink,
        )
        controller = ContextController(manager, emit=events)
        return cls(branch, manager, controller, events)
