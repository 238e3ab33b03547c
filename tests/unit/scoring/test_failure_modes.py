"""Failure-mode detectors on constructed barrier logs and model inputs, and on real replays of
the conformance corpus (cc4-failures under C2 saturates on blockers at the hard limit)."""

from __future__ import annotations

from functools import cache

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.engine.config import load_engine_config
from soba_bench.errors import UnknownNameError
from soba_bench.jsonio import read_jsonl
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring.failure_modes import (
    DETECTORS,
    DetectorConfig,
    Evidence,
    FailureFinding,
    blocked_forever,
    compaction_loop,
    context_growth,
    detect_all,
    lost_constraint,
    tool_boundary_violation,
)
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import input_view
from soba_bench.session import read_session
from tests.builders import CONFORMANCE, assistant, function_call, function_output, user

HARD = 30000
BARRIER_NAMES = ("compaction_loop", "context_growth", "blocked_forever")


def check(tokens: float, turn: int = 1, can_proceed: bool = True) -> dict:
    return {
        "kind": "check",
        "beforeEntryId": f"c{turn}",
        "turn": turn,
        "effectiveTokens": tokens,
        "hardLimit": HARD,
        "canProceed": can_proceed,
    }


def attempt(
    before: float,
    after: float,
    outcome: str = "completed",
    turn: int = 1,
    can_proceed: bool = True,
) -> dict:
    return {
        "kind": "attempt",
        "beforeEntryId": f"a{turn}",
        "turn": turn,
        "trigger": "hard_limit" if before > HARD else "auto_threshold",
        "outcome": outcome,
        "tokensBefore": before,
        "tokensAfter": after,
        "reclaimed": before - after,
        "hardLimit": HARD,
        "canProceed": can_proceed,
    }


CONFIG_LINE = {"kind": "config", "session": "made-up.jsonl"}
SUMMARY_LINE = {"kind": "summary", "blockedRequests": 0}
CLEAN = [
    CONFIG_LINE,
    check(10000, 1),
    check(20000, 2),
    attempt(26000, 9000, turn=3),
    check(12000, 3),
    attempt(25000, 15000, outcome="skipped", turn=4),
    check(16000, 5),
    SUMMARY_LINE,
]


@pytest.mark.parametrize("name", BARRIER_NAMES)
def test_barrier_detectors_silent_on_clean_log(name):
    assert DETECTORS.get(name).run(Evidence(barriers=CLEAN), DetectorConfig()) == []


def test_loop_of_tiny_compactions():
    log = [
        CONFIG_LINE,
        attempt(26000, 25800, turn=1),
        check(25900, 1),  # checks in between do not break the run
        attempt(26100, 25700, turn=2),
        attempt(26000, 25950, turn=3),
        attempt(26000, 25999, turn=4),
        attempt(26000, 20000, turn=5),  # a real reclaim ends the run
        attempt(21000, 20900, turn=6),
        attempt(21000, 20900, turn=7),  # a run of 2 stays below N=3
    ]
    findings = compaction_loop(log)
    assert findings == [
        FailureFinding(
            "compaction_loop",
            "made-up.jsonl",
            "barrier 1 (turn 1, before a1) .. barrier 5 (turn 4, before a4)",
            "4 completed compactions in a row each reclaimed fewer than 500 tokens (651 in total)",
        )
    ]
    assert compaction_loop(log, config=DetectorConfig(loop_run=2))[-1].where.startswith(
        "barrier 7 (turn 6"
    )
    assert compaction_loop(log, config=DetectorConfig(loop_epsilon=100)) == []


def test_loop_when_next_barrier_still_over_hard_limit():
    log = [attempt(34000, 29000, turn=1), check(31000, 2), attempt(31000, 20000, turn=2)]
    findings = compaction_loop(log, session="s")
    assert len(findings) == 1
    assert findings[0].where == "barrier 1 (turn 1, before a1)"
    assert "still over the hard limit (31000 > 30000)" in findings[0].detail
    # Exactly at the hard limit is not over it (SOBA's hard trigger is ">").
    assert compaction_loop([attempt(34000, 29000), check(HARD)]) == []


def test_context_growth():
    log = [attempt(20000, 21000, turn=2), attempt(20000, 25000, outcome="skipped", turn=3)]
    findings = context_growth(log, session="s")
    assert [f.where for f in findings] == ["barrier 1 (turn 2, before a2)"]
    assert findings[0].detail == "completed compaction grew the context: 20000 -> 21000 tokens"


def test_blocked_forever():
    refused = [attempt(40000 + t, 35000, "failed", t, can_proceed=False) for t in range(3, 7)]
    log = [
        check(10000, 1),
        attempt(40000, 35000, "failed", 2, can_proceed=False),  # one refusal, then recovery
        check(20000, 2),
        *refused,
    ]
    findings = blocked_forever(log, session="s")
    assert len(findings) == 1
    assert findings[0].where == "barrier 4 (turn 3, before a3) .. barrier 7 (turn 6, before a6)"
    assert findings[0].detail == "4 refused barriers in a row, until the end of the session"
    recovered = blocked_forever([*refused, check(1000, 7)])
    assert recovered[0].detail.endswith("then recovered")
    assert blocked_forever(log, config=DetectorConfig(blocked_run=5)) == []


def _constraint_setup():
    facts = (
        Fact("c1", "constraint", "Never edit the generated protobuf files", introduced_at="e0"),
        Fact(
            "c2",
            "constraint",
            "Support Python 3.9",
            status="superseded",
            introduced_at="e0",
            superseded_by="c3",
        ),  # superseded by c3 at e6
        Fact("c3", "constraint", "Support Python 3.11 and newer", introduced_at="e6"),
    )
    truth = GroundTruth(session="s", session_id="s", origin={}, facts=facts)
    return facts, Lifecycle(truth, Timeline({f"e{i}": i for i in range(10)}, 10))


def test_lost_constraint():
    facts, lifecycle = _constraint_setup()
    both_old = input_view([user("Never edit the generated protobuf files. Support Python 3.9")])
    neither = input_view([user("Carry on with the refactor"), assistant("Renamed the module")])
    newest = input_view([assistant("Reminder: Support Python 3.11 and newer")])
    inputs = [(2, both_old), (5, neither), (8, newest)]
    assert lost_constraint(inputs, facts, lifecycle) == []  # each was present while live
    findings = lost_constraint(lambda: inputs, facts, lifecycle, after=5, session="s")
    assert [(f.detector, f.session, f.where) for f in findings] == [
        ("lost_constraint", "s", "2 model inputs at points 5..8"),  # c1, live throughout
        ("lost_constraint", "s", "1 model inputs at points 5..5"),  # c2, superseded at 6
    ]
    assert findings[0].detail == (
        "constraint c1 missing from every input: 'Never edit the generated protobuf files'"
    )
    evidence = Evidence(views=inputs, facts=facts, lifecycle=lifecycle, after=5)
    assert len(detect_all(evidence, names=["lost_constraint"])["lost_constraint"]) == 2


def test_tool_boundary_violation():
    call_a = function_call("call_a", "read", '{"path": "x"}')
    call_b = function_call("call_b", "bash", '{"command": "ls"}')
    call_c = call_a | {"call_id": "call_c"}
    outputs = [function_output("call_a", "x"), function_output("call_b", "ok")]
    clean = [user("hi"), call_a, call_b, *outputs, assistant("done"), call_c]
    assert tool_boundary_violation(clean) == []  # a trailing call is still in flight
    orphan_output = [user("hi"), function_output("call_a", "x"), assistant("done")]
    findings = tool_boundary_violation(orphan_output, label="input@12", session="s")
    assert [(f.where, f.detail) for f in findings] == [
        ("input@12 item 1", "function_call_output 'call_a' has no call before it")
    ]
    dangling = [user("hi"), call_a, call_b, function_output("call_b", "ok"), assistant("go")]
    findings = tool_boundary_violation(dangling)
    assert [f.where for f in findings] == ["input item 1"]
    assert "no output but later items follow" in findings[0].detail
    evidence = Evidence(session="s", model_inputs=[("p3", dangling), ("p9", clean)])
    assert (
        len(detect_all(evidence, names=["tool_boundary_violation"])["tool_boundary_violation"]) == 1
    )


def test_registry_and_detect_all():
    assert DETECTORS.names() == sorted(
        [*BARRIER_NAMES, "lost_constraint", "tool_boundary_violation"]
    )
    assert all(DETECTORS.get(name).description for name in DETECTORS)
    with pytest.raises(UnknownNameError):
        DETECTORS.get("nope")
    result = detect_all(Evidence(barriers=CLEAN))
    # Detectors without their evidence report None ("not checked"), never [] ("clean").
    assert result == {
        "blocked_forever": [],
        "compaction_loop": [],
        "context_growth": [],
        "lost_constraint": None,
        "tool_boundary_violation": None,
    }
    with pytest.raises(ValueError, match="loop_run"):
        DetectorConfig(loop_run=0)


# ── real replays ─────────────────────────────────────────────────────────────────────────


@cache
def replay(name: str, config: str):
    session = read_session(CONFORMANCE / "sessions" / f"{name}.jsonl.gz")
    return replay_session(session, load_engine_config(CONFORMANCE / "configs" / f"{config}.json"))


def test_blocker_saturation_is_blocked_forever():
    trace = replay("cc4-failures", "C2")
    lines = trace.check_lines()
    refused = sum(1 for line in lines if line.get("canProceed") is False)
    assert refused == trace.summary()["blockedRequests"] == 49
    findings = detect_all(Evidence(barriers=lines))["blocked_forever"]
    assert findings is not None and len(findings) == 1
    # One isolated refusal at turn 12, then every barrier from turn 13 to the end is refused.
    assert findings[0].detail == "48 refused barriers in a row, until the end of the session"
    assert findings[0].session == "cc4-failures.jsonl.gz"
    assert findings[0].where.startswith("barrier 57 (turn 13,")


def test_recorded_soba_log_is_blocked_forever():
    # SOBA's own recorded barrier log for the same case (its config variant), read from disk.
    lines = read_jsonl(CONFORMANCE / "expected" / "cc4-failures.C2.checks.jsonl.gz")
    findings = blocked_forever(lines)
    assert [f.detail for f in findings] == [
        "48 refused barriers in a row, until the end of the session"
    ]


def test_default_config_session_is_clean():
    lines = replay("cc1-default", "C0").check_lines()
    results = detect_all(Evidence(barriers=lines))
    assert {name: results[name] for name in BARRIER_NAMES} == {name: [] for name in BARRIER_NAMES}
    attempts = [line for line in lines if line.get("kind") == "attempt"]
    assert attempts and all(a["outcome"] == "completed" for a in attempts)
