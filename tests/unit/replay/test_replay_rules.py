"""The replay rules (conformance README R1-R8) on small hand-built transcripts, where each
rule's effect can be seen in isolation."""

from __future__ import annotations

import json

from soba_bench.engine.config import build_engine_config
from soba_bench.replay.simulator import ReplayOptions, replay_session
from tests.builders import (
    assistant,
    capsule_line,
    chain,
    function_call,
    function_output,
    header,
    session_of,
    user,
)

SMALL = {
    "contextWindow": 4000,
    "maxOutputTokens": 500,
    "systemPromptTokens": 10,
    "toolSchemaTokens": 5,
    "compaction": {
        "safetyReserveTokens": 100,
        "keepRecentTokens": 300,
        "minTokensForAutoCompact": 100,
        "minReclaimableTokens": 50,
        "minSavingsRatio": 0.1,
    },
}


def replay(lines, config=None, **options):
    session = session_of([header(), *lines])
    return replay_session(session, build_engine_config(config or SMALL), ReplayOptions(**options))


def flight(kind: str, payload: dict) -> dict:
    return {
        "type": "flight_record",
        "timestamp": "t",
        "data": {"version": 1, "kind": kind, "payload": payload},
    }


def test_barrier_runs_once_per_model_request_before_the_first_output():
    lines = chain(
        [
            user("do it"),
            assistant("a"),
            function_call("c1", "read", '{"path":"x"}'),
            function_output("c1", "data"),
            assistant("b"),
            assistant("c"),
        ]
    )
    trace = replay(lines)
    # inputs (user) -> barrier before e1; output (e3) -> barrier before e4; e5 follows e4.
    assert [(b.beforeEntryId, b.flush, b.turn) for b in trace.barriers] == [
        ("e1", False, 1),
        ("e4", False, 1),
    ]


def test_flush_barriers_before_a_new_turn_and_at_end_of_file():
    lines = chain(
        [
            user("one"),
            assistant("a"),
            function_call("c1", "bash", '{"command":"ls"}'),
            function_output("c1", "out"),
            user("two"),
            assistant("b"),
            user("three"),
        ]
    )
    trace = replay(lines)
    assert [(b.beforeEntryId, b.flush, b.turn) for b in trace.barriers] == [
        ("e1", False, 1),
        ("e4", True, 1),
        ("e5", False, 2),
        (None, True, 3),
    ]
    assert trace.summary()["flushPreflights"] == 2


def test_turn_start_records_decide_turns_and_other_user_messages_are_nudges():
    items = chain(
        [
            user("task"),
            assistant("a"),
            user("Active tool errors must be resolved"),
            assistant("b"),
            user("next task"),
            assistant("c"),
        ]
    )
    lines = [
        flight("runtime_event", {"type": "turn_start"}),
        items[0],
        items[1],
        items[2],
        items[3],
        flight("runtime_event", {"type": "turn_start"}),
        items[4],
        items[5],
    ]
    trace = replay(lines)
    summary = trace.summary()
    assert summary["turns"] == 2 and summary["inTurnUserItems"] == 1
    assert summary["turnSource"] == "flight_record turn_start"
    # The nudge is an input: its own barrier comes before the next model output.
    assert [(b.beforeEntryId, b.turn) for b in trace.barriers] == [("e1", 1), ("e3", 1), ("e5", 2)]


def test_turn_complete_is_scheduled_only_after_a_clean_turn():
    clean = chain([user("one"), assistant("a"), user("two"), assistant("b")])
    trace = replay(clean)
    assert trace.barriers[1].pendingTrigger == "turn_complete"
    failing = chain(
        [
            user("one"),
            function_call("c1", "bash", '{"command":"x"}'),
            function_output("c1", "Error: boom"),
            assistant("a"),
            user("two"),
            assistant("b"),
        ]
    )
    trace = replay(failing)
    assert trace.summary()["failedToolOutputs"] == 1
    assert all(b.pendingTrigger is None for b in trace.barriers)


def test_tool_result_flight_records_decide_failures():
    lines = chain(
        [
            user("one"),
            function_call("c1", "read", '{"path":"a"}'),
            function_output("c1", "Error: looks like a failure"),
            assistant("a"),
            user("two"),
            assistant("b"),
        ]
    )
    records = [flight("tool_result", {"toolCallId": "c1", "result": {"isError": False}})]
    trace = replay(records + lines)
    assert trace.summary()["toolErrorSource"] == "flight_record tool_result.isError"
    assert trace.summary()["failedToolOutputs"] == 0
    assert trace.barriers[-1].pendingTrigger == "turn_complete"


def test_checkpoint_results_schedule_the_latest_milestone():
    args = json.dumps({"kind": "plan_pivot", "reason": "tests failed", "nextDirection": "fix"})
    lines = chain(
        [
            user("one"),
            function_call("c1", "checkpoint", args),
            function_output("c1", "ok"),
            assistant("a"),
        ]
    )
    trace = replay(lines)
    assert [b.pendingTrigger for b in trace.barriers] == [None, "plan_pivot"]


def test_original_capsules_are_dropped_and_ids_kept():
    items = chain([user("x" * 5000), assistant("y" * 5000), user("z" * 5000), assistant("w")])
    lines = [*items[:2], capsule_line("old", "e1", first_kept="e1"), *items[2:]]
    lines[3]["parentId"] = "old"
    trace = replay(lines)
    summary = trace.summary()
    assert summary["droppedCapsules"] == 1
    replayed_ids = [e.id for e in trace.entries if e.kind == "item"]
    assert replayed_ids == ["e0", "e1", "e2", "e3"]
    assert all(c["checkpointId"] != "ck_123456789abc" for c in trace.capsules)
    assert trace.capsules, "the small window forces a fresh compaction"
    # An entry that follows a new capsule has the capsule as its parent.
    for index, entry in enumerate(trace.entries[1:], start=1):
        assert entry.parent_id == trace.entries[index - 1].id


def test_compact_command_lines_run_the_command_and_are_not_appended():
    lines = chain(
        [
            user("task " + "x" * 1400),
            assistant("a " + "y" * 1400),
            user("/compact focus on the API"),
            user("next"),
            assistant("b"),
        ]
    )
    trace = replay(lines)
    command = [a for a in trace.attempts if a.get("command") == "/compact"]
    assert len(command) == 1 and command[0]["trigger"] == "user_request"
    assert command[0]["outcome"] == "completed"
    assert trace.capsules[0]["portableState"]["goal"] == "focus on the API"
    assert "e2" not in [e.id for e in trace.entries]
    as_text = replay(lines, commands=False)
    assert "e2" in [e.id for e in as_text.entries]
    assert not [a for a in as_text.attempts if a.get("command")]


def test_recorded_usage_feeds_the_watermark_for_later_requests_of_the_turn():
    items = chain(
        [
            user("task"),
            assistant("a"),
            function_call("c1", "read", '{"path":"p"}'),
            function_output("c1", "data"),
            assistant("b"),
        ]
    )
    usage = flight("model_request", {"inputTokens": 3000})
    # model_request records precede the response's first item, as SOBA writes them.
    lines = [
        items[0],
        usage,
        items[1],
        items[2],
        items[3],
        flight("model_request", {"inputTokens": 3100}),
        items[4],
    ]
    trace = replay(lines, usage="recorded")
    first, second = trace.barriers
    assert first.source == "estimated"
    assert second.source == "provider_usage"
    # Provider count + the items after the watermark: the response's own items are trailing
    # (assistant "a" 1, 'read: {"path":"p"}' 6, "data" 2).
    assert second.effectiveTokens == 3000 + 1 + 6 + 2
    assert trace.summary()["usageRecords"] == 2


def test_simulated_overflow_drives_one_recovery_per_turn():
    big = "お誕生日おめでとう" * 200  # the estimator counts 1 token per 3.5 chars; BPE far more
    lines = chain([user(big), assistant("a"), user(big), assistant("b"), user(big), assistant("c")])
    config = {**SMALL, "contextWindow": 5000, "maxOutputTokens": 500}
    trace = replay(lines, config, simulate_overflow=True, provider_meter="tiktoken:cl100k_base")
    overflow = [a for a in trace.attempts if a["trigger"] == "context_overflow"]
    assert overflow, "the provider's count exceeds the window although SOBA's estimate does not"
    assert all(a["required"] for a in overflow)
    turns = [a["turn"] for a in overflow]
    assert len(turns) == len(set(turns)), "at most one recovery per turn"
    without = replay(lines, config)
    assert not [a for a in without.attempts if a["trigger"] == "context_overflow"]
