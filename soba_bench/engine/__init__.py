"""Engine stage: a faithful Python re-implementation of SOBA v0.6.14's compaction engine.

Typical use::

    from soba_bench.engine import Engine, EngineConfig, RequestMetrics

    engine = Engine.create(EngineConfig(contextWindow=64_000, maxOutputTokens=8_192))
    engine.branch.append_item({"type": "message", "role": "user", "content": [...]})
    result = engine.controller.preflight(RequestMetrics(4000, 6000, "turn_1", 1))
"""

from soba_bench.engine.attempt import AbortSignal, RealClock, SimulatedReply, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.compactor import SOBA_CAPSULES, Attempt, Compactor
from soba_bench.engine.config import (
    CompactionConfig,
    EngineConfig,
    build_engine_config,
    load_engine_config,
    validate_compaction_config,
)
from soba_bench.engine.controller import BarrierResult, ContextController, RequestMetrics
from soba_bench.engine.cutpoint import find_cut_point
from soba_bench.engine.events import EventLog
from soba_bench.engine.facade import Engine
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionOutcome, CompactionPlan
from soba_bench.engine.policy import TriggerDecision, TriggerPolicy
from soba_bench.engine.snapshot import ContextMeter, ContextSnapshot
from soba_bench.engine.variants import DEFAULT_VARIANT, VARIANTS, EngineVariant, get_variant

__all__ = [
    "DEFAULT_VARIANT",
    "SOBA_CAPSULES",
    "VARIANTS",
    "AbortSignal",
    "Attempt",
    "BarrierResult",
    "CompactionConfig",
    "CompactionOutcome",
    "CompactionPlan",
    "Compactor",
    "ContextController",
    "ContextManager",
    "ContextMeter",
    "ContextSnapshot",
    "Engine",
    "EngineConfig",
    "EngineVariant",
    "EventLog",
    "LiveBranch",
    "RealClock",
    "RequestMetrics",
    "SimulatedReply",
    "TriggerDecision",
    "TriggerPolicy",
    "VirtualClock",
    "build_engine_config",
    "find_cut_point",
    "get_variant",
    "load_engine_config",
    "validate_compaction_config",
]
