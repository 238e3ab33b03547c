"""SOBA's production chain ``[portable_only, deterministic]`` against a scripted
OpenAI-compatible endpoint on 127.0.0.1, through ``replay_session``, on both clocks.

The session is the conformance session ``cc4-failures`` under config C0 with ``timeoutMs``
2000: one compaction, whose span holds five failing tool outputs (blockers). Each scenario
is one way an endpoint answers; the expected decisions are what SOBA v0.6.14 decides for
that answer (its adapter strips ``<think>`` blocks before the strategy parses JSON; its
provider client retries 429/5xx 3 times after 1 s, 2 s, 4 s; the engine's 2000 ms timer
aborts the strategy wherever it waits, a backoff included, and completes with the
deterministic capsule). The virtual clock must reach the same decisions without sleeping
through backoffs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from soba_bench.engine.config import EngineConfig, build_engine_config
from soba_bench.replay.simulator import replay_session
from soba_bench.session import Session, read_session
from soba_bench.summarizers import build_summarizer
from tests.unit.models.fake_openai import FakeOpenAI, Step

ROOT = Path(__file__).resolve().parents[2] / "corpora" / "soba-conformance"
TIMEOUT_MS = 2000
PORTABLE = "Compaction completed using portable_only strategy"
DETERMINISTIC = "Compaction completed using deterministic strategy"
TIMED_OUT = (
    f"Compaction model timed out after {TIMEOUT_MS}ms; completed using deterministic fallback"
)
# SOBA's validator warns on every capsule of this span: no passing verification seen, no
# activated skills.
WARNINGS = ["unknown_verification", "no_activated_skills"]


def engine_config(timeout_ms: int = TIMEOUT_MS) -> EngineConfig:
    data = json.loads((ROOT / "configs" / "C0.json").read_text())
    data["compaction"]["timeoutMs"] = timeout_ms
    return build_engine_config(data)


@pytest.fixture(scope="module")
def session() -> Session:
    return read_session(ROOT / "sessions" / "cc4-failures.jsonl.gz")


@pytest.fixture(scope="module")
def state(session: Session) -> dict[str, Any]:
    """A portable state that keeps the span's blockers verbatim: the one SOBA's
    deterministic strategy writes for it (the answer a faithful model would give)."""
    [capsule] = replay_session(session, engine_config()).capsules
    assert len(capsule["portableState"]["blockers"]) == 5
    return capsule["portableState"]


def scenarios(state: dict[str, Any]) -> dict[str, tuple[list[Step], Step]]:
    """scenario -> (scripted first answers, then the default answer)."""
    valid = json.dumps(state)
    dropped = json.dumps({**state, "goal": "decoy", "blockers": []})
    return {
        "valid": ([], Step(text=valid)),
        "fenced": ([], Step(text=f"Here is the state:\n```json\n{valid}\n```\nDone.")),
        "malformed": ([], Step(text=valid[: len(valid) // 2])),
        "wrong-types": (
            [],
            Step(
                text=json.dumps({"goal": 5, "constraints": "x", "decisions": [1], "blockers": {}})
            ),
        ),
        "drops-blockers": ([], Step(text=dropped)),
        "think-wrapped": ([], Step(text=f"<think>\nDraft: {dropped}\n</think>\n\n{valid}")),
        "think-only": ([], Step(text=f"<think>{valid}</think>")),
        "slow": ([], Step(text=valid, delay_s=TIMEOUT_MS / 1000 + 0.6)),
        "http-500-once": ([Step(500)], Step(text=valid)),
        "http-400": ([], Step(400)),
        "http-500-persistent": ([], Step(500)),
    }


# scenario -> (outcome, strategy, quality, validation errors, validation warnings, reason)
EXPECTED: dict[str, tuple[str, str, str, list[str], list[str], str]] = {
    "valid": ("completed", "portable_only", "portable", [], WARNINGS, PORTABLE),
    "fenced": ("completed", "portable_only", "portable", [], WARNINGS, PORTABLE),
    "malformed": ("completed", "portable_only", "degraded", [], WARNINGS, PORTABLE),
    "wrong-types": ("completed", "deterministic", "degraded", [], WARNINGS, DETERMINISTIC),
    "drops-blockers": ("completed", "deterministic", "degraded", [], WARNINGS, DETERMINISTIC),
    "think-wrapped": (
        "completed",
        "portable_only",
        "portable",
        [],
        WARNINGS,
        PORTABLE,
    ),
    "think-only": ("completed", "portable_only", "degraded", [], WARNINGS, PORTABLE),
    "slow": ("completed", "deterministic", "degraded", [], WARNINGS, TIMED_OUT),
    "http-500-once": (
        "completed",
        "portable_only",
        "portable",
        [],
        WARNINGS,
        PORTABLE,
    ),
    "http-400": ("completed", "portable_only", "degraded", [], WARNINGS, PORTABLE),
    "http-500-persistent": ("completed", "deterministic", "degraded", [], WARNINGS, TIMED_OUT),
}
# How many requests SOBA's client sends before the attempt is decided.
REQUESTS = {"http-500-once": 2, "http-500-persistent": 2}  # tries at ~0 s and ~1 s; deadline 2 s


def run(session: Session, script: list[Step], default: Step, clock: str, timeout_ms: int):
    with FakeOpenAI(list(script), default) as srv:
        spec = build_summarizer(
            "model", base_url=srv.base_url, model="scripted", cache="off", clock=clock
        )
        trace = replay_session(
            session, engine_config(timeout_ms), chain=spec.chain, clock=spec.clock
        )
        assert spec.chain[0].invoker.wait_idle(10)  # abandoned real-clock calls have ended
        return trace, srv.requests


def decision(attempt: dict[str, Any]) -> tuple[Any, ...]:
    return (
        attempt["outcome"],
        attempt["strategy"],
        attempt["quality"],
        attempt["validationErrors"],
        attempt["validationWarnings"],
        attempt["reason"],
    )


@pytest.mark.parametrize("clock", ["virtual", "real"])
@pytest.mark.parametrize("name", list(EXPECTED))
def test_each_endpoint_answer_gives_soba_decision(session, state, name, clock):
    script, default = scenarios(state)[name]
    trace, requests = run(session, script, default, clock, TIMEOUT_MS)
    [attempt] = trace.attempts
    assert decision(attempt) == EXPECTED[name]
    assert len(requests) == REQUESTS.get(name, 1)
    body = requests[0]
    assert {k: v for k, v in body.items() if k != "messages"} == {
        "model": "scripted",
        "stream": False,
        "max_tokens": 4096,
    }
    [capsule] = trace.capsules
    if EXPECTED[name][2] == "portable":
        assert capsule["portableState"]["goal"] == state["goal"]  # the real state, not a decoy
        assert capsule["portableState"]["blockers"] == state["blockers"]
    if EXPECTED[name][5] == TIMED_OUT:
        assert attempt["durationMs"] >= TIMEOUT_MS
        if clock == "virtual":
            assert attempt["durationMs"] == TIMEOUT_MS  # the simulated deadline, exactly


def test_http_500_once_waits_soba_first_backoff_on_both_clocks(session, state):
    script, default = scenarios(state)["http-500-once"]
    for clock in ("virtual", "real"):
        trace, _ = run(session, script, default, clock, TIMEOUT_MS)
        [attempt] = trace.attempts
        # SOBA's 1000 ms backoff sits between the failed try and the answer
        assert 1000 <= attempt["durationMs"] < TIMEOUT_MS


def test_persistent_500_without_a_near_deadline_fails_after_four_tries(session, state):
    """With a 15 s deadline SOBA's client spends its 3 retries (1 s + 2 s + 4 s), then the
    error reply fails to parse inside portable_only: the in-slot deterministic capsule.
    Simulated, so the 7 s of backoff cost no wall time."""
    script, default = scenarios(state)["http-500-persistent"]
    trace, requests = run(session, script, default, "virtual", 15_000)
    [attempt] = trace.attempts
    assert decision(attempt) == EXPECTED["malformed"]
    assert len(requests) == 4
    assert 7000 <= attempt["durationMs"] < 15_000
