"""Constructed sessions and small engine configs for the rival-strategy tests, plus the
model input a rival sent at each of its compaction moments (rebuilt from the trace)."""

from __future__ import annotations

from typing import Any

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.compactors.inputs import ReplayedInputs
from soba_bench.engine.config import EngineConfig, build_engine_config
from soba_bench.meter import get_meter
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.trace import ReplayTrace
from soba_bench.session.model import Session
from tests.builders import assistant, chain, function_call, function_output, session_of, user

METER = get_meter()


def small_engine(**compaction: Any) -> EngineConfig:
    """A 24k window: hard limit 21000, soft limit 16800 (sys + tools = 1000)."""
    settings = {
        "minTokensForAutoCompact": 6000,
        "keepRecentTokens": 3000,
        "minReclaimableTokens": 1000,
        "minSavingsRatio": 0.1,
        "safetyReserveTokens": 1000,
        **compaction,
    }
    return build_engine_config(
        {
            "contextWindow": 24000,
            "maxOutputTokens": 2000,
            "systemPromptTokens": 500,
            "toolSchemaTokens": 500,
            "compaction": settings,
        }
    )


def tool_session(turns: int, output_chars: int, user_chars: int = 40) -> Session:
    """``turns`` turns of: user message, tool call, its output (``OUT-<turn>`` + padding),
    assistant answer."""
    items = []
    for t in range(turns):
        items += [
            user(f"task {t} " + "u" * user_chars),
            function_call(f"call_{t}", "read_file", f'{{"path": "src/f{t}.py"}}'),
            function_output(f"call_{t}", f"OUT-{t} " + "x" * output_chars),
            assistant(f"done {t}"),
        ]
    return session_of(chain(items))


def run(name: str, session: Session, engine: EngineConfig, **params: Any) -> ReplayTrace:
    ctx = CompactorContext(engine=engine, options=ReplayOptions(), params=params)
    return get_compactor(name)(session, ctx).trace


def moment_inputs(trace: ReplayTrace) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(attempt line, model input) at every completed compaction of a rival replay."""
    rival = ReplayedInputs.of(trace.check_lines())
    assert rival is not None
    moments = [m for m in rival.moments(trace.entries, "final") if m.generation != "final"]
    return [(m.state, rival.model_input(trace.entries, m)) for m in moments]


def tokens(items: list[dict[str, Any]]) -> int:
    return sum(METER.count_item(i) for i in items)


def outputs(items: list[dict[str, Any]]) -> list[str]:
    return [i["output"] for i in items if i.get("type") == "function_call_output"]
