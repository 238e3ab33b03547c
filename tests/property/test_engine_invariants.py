"""Engine invariants on generated sessions, replayed as SOBA's agent loop would: a preflight
barrier before every model output, turn_complete after a clean turn, milestones after a
``checkpoint`` tool batch.

* a completed capsule never separates a tool call from its output;
* only the latest capsule is in the model input;
* nothing is appended unless the outcome is completed;
* a barrier that lets the request through leaves it within the hard limit (a required
  compaction either fits or fails closed);
* the same input gives the same decisions.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soba_bench.engine.attempt import SimulatedReply, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.config import CompactionConfig, EngineConfig, validate_compaction_config
from soba_bench.engine.controller import RequestMetrics
from soba_bench.engine.events import ALLOWED_FIELDS
from soba_bench.engine.facade import Engine
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.engine.strategies.portable_only import PortableOnlyStrategy
from soba_bench.session import entries as E
from soba_bench.session.build_input import build_input
from soba_bench.session.capsule_text import capsule_text

PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PHRASES = ["", "done: ", "next: ", "we decided ", "TODO ", "finished "]
FAILURES = [
    "none",
    "none",
    "status_failed",
    "status_ok_error_text",
    "exit_1",
    "exit_0",
    "error_text",
]


# ── generated sessions ───────────────────────────────────────────────────────────
@st.composite
def tool_batch(draw) -> dict[str, Any]:
    calls = []
    for _ in range(draw(st.integers(1, 3))):
        calls.append(
            {
                "shell_call": draw(st.booleans()),  # local_shell_call vs function_call
                "shell_output": draw(st.booleans()),  # the two output families pair freely
                "name": draw(st.sampled_from(["read", "bash", "write", "edit", "checkpoint"])),
                "size": draw(st.integers(0, 2_500)),
                "failure": draw(st.sampled_from(FAILURES)),
            }
        )
    order = draw(st.permutations(range(len(calls))))  # parallel tools finish in any order
    return {"calls": calls, "order": list(order)}


@st.composite
def iteration(draw) -> dict[str, Any]:
    text = draw(st.one_of(st.none(), st.tuples(st.sampled_from(PHRASES), st.integers(1, 1_500))))
    batch = draw(st.one_of(st.none(), tool_batch()))
    if text is None and batch is None:
        text = ("", draw(st.integers(1, 400)))
    return {"text": text, "batch": batch, "final": draw(st.booleans())}


@st.composite
def sessions(draw) -> list[dict[str, Any]]:
    return [
        {
            "user": draw(st.integers(1, 1_500)),
            "iterations": draw(st.lists(iteration(), min_size=1, max_size=4)),
            "clean": draw(st.booleans()),
        }
        for _ in range(draw(st.integers(1, 5)))
    ]


@st.composite
def configs(draw) -> dict[str, Any]:
    window = draw(st.integers(1_500, 9_000))
    out = draw(st.integers(50, 800))
    reserve = draw(st.integers(0, 300))
    hard = window - out - reserve
    compaction = CompactionConfig(
        auto=draw(st.booleans()),
        minTokensForAutoCompact=draw(st.integers(1, 3_000)),
        minReclaimableTokens=draw(st.integers(0, 800)),
        minSavingsRatio=draw(st.sampled_from([0, 0.1, 0.25, 0.5])),
        keepRecentTokens=draw(st.integers(20, min(hard - 1, 2_500))),
        safetyReserveTokens=reserve,
        autoCompactThresholdRatio=draw(st.sampled_from([0.3, 0.5, 0.8, 0.95])),
        timeoutMs=draw(st.sampled_from([100, 15_000])),
    )
    assert validate_compaction_config(compaction, window, out) == []
    return {
        "config": EngineConfig(contextWindow=window, maxOutputTokens=out, compaction=compaction),
        "sys": draw(st.integers(0, 300)),
        "tools": draw(st.integers(0, 300)),
        "model": draw(
            st.one_of(
                st.none(),  # the conformance chain: deterministic only
                st.lists(
                    st.sampled_from(
                        ["json", "json_blockers", "not-json", "empty-goal", "error", "slow"]
                    ),
                    min_size=1,
                    max_size=4,
                ),
            )
        ),
        "variant": draw(st.sampled_from(["soba-0.6.14", "soba-0.6.14+newest-blockers"])),
    }


# ── the replay ───────────────────────────────────────────────────────────────────
class ScriptedModel:
    """A deterministic virtual-clock model cycling through scripted behaviours."""

    def __init__(self, script: list[str]) -> None:
        self.script = itertools.cycle(script)

    def __call__(self, prompt: str, ctx) -> str:
        kind = next(self.script)
        state = {"goal": "Keep going", "pending": ["more"], "nextSteps": ["continue"]}
        if kind == "json_blockers":
            # Quote every failing line of the prompt so lost_blocker cannot fire.
            state["blockers"] = [line for line in prompt.split("\n") if "Error" in line]
        text = {
            "json": json.dumps(state),
            "json_blockers": json.dumps(state),
            "not-json": "not-json",
            "empty-goal": json.dumps({"goal": ""}),
        }.get(kind, json.dumps(state))
        reply = SimulatedReply(
            text=text,
            latency_ms=60_000 if kind == "slow" else 25,
            error="provider error" if kind == "error" else None,
        )
        return ctx.call_model(reply)


def prompt_builder(gen) -> str:
    from soba_bench.engine.serializer import serialize_items

    return serialize_items(gen.source_items)


def output_item(call_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    body = "o" * spec["size"]
    failure = spec["failure"]
    text = {"error_text": "Error: it broke\n", "status_ok_error_text": "Error: looks bad\n"}.get(
        failure, ""
    ) + body
    item: dict[str, Any] = {
        "type": "local_shell_call_output" if spec["shell_output"] else "function_call_output",
        "call_id": call_id,
        "output": text,
    }
    if failure == "status_failed":
        item["status"] = "failed"
    elif failure == "status_ok_error_text":
        item["status"] = "completed"
    elif failure in ("exit_1", "exit_0") and spec["shell_output"]:
        item["exit_code"] = 1 if failure == "exit_1" else 0
    return item


def call_item(call_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    if spec["shell_call"]:
        return {"type": "local_shell_call", "call_id": call_id, "command": "bun test"}
    args = {
        "read": {"path": f"src/{call_id}.py"},
        "write": {"path": f"src/{call_id}.py"},
        "edit": {"path": f"src/{call_id}.py"},
        "bash": {"command": "bun run build"},
        "checkpoint": {"kind": "milestone", "reason": f"reached {call_id}"},
    }[spec["name"]]
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": spec["name"],
        "arguments": json.dumps(args),
    }


def message(role: str, text: str) -> dict[str, Any]:
    block = "input_text" if role == "user" else "output_text"
    return {"type": "message", "role": role, "content": [{"type": block, "text": text}]}


@dataclass
class Step:
    result: Any
    entries_before: int
    entries_after: int
    input_items: tuple


@dataclass
class Replay:
    engine: Engine
    steps: list[Step] = field(default_factory=list)


def replay(session: list[dict[str, Any]], setup: dict[str, Any]) -> Replay:
    ids = itertools.count()
    branch = LiveBranch(
        "prop",
        id_factory=lambda: f"id{next(ids):05d}",
        clock_iso=lambda: "2025-01-01T00:00:00.000Z",
    )
    chain = [DeterministicStrategy()]
    if setup["model"] is not None:
        chain.insert(0, PortableOnlyStrategy(ScriptedModel(setup["model"]), prompt_builder))
    engine = Engine.create(
        setup["config"], branch=branch, chain=chain, variant=setup["variant"], clock=VirtualClock()
    )
    run = Replay(engine)
    calls = itertools.count()
    for turn_index, turn in enumerate(session, start=1):
        branch.append_item(message("user", f"request {turn_index} " + "u" * turn["user"]))
        ok = True
        for it in turn["iterations"]:
            before = len(branch)
            metrics = RequestMetrics(setup["sys"], setup["tools"], f"turn_{turn_index}", turn_index)
            result = engine.controller.preflight(metrics)
            run.steps.append(Step(result, before, len(branch), build_input(branch.entries).items))
            if not result.canProceed:
                ok = False  # the loop stops the turn; the request is never sent
                break
            if it["text"] is not None:
                phrase, size = it["text"]
                extra = {"phase": "final_answer"} if it["final"] else {}
                branch.append_item({**message("assistant", phrase + "a" * size), **extra})
            batch = it["batch"]
            if batch is not None:
                call_ids = [f"call_{next(calls)}" for _ in batch["calls"]]
                for call_id, spec in zip(call_ids, batch["calls"], strict=True):
                    branch.append_item(call_item(call_id, spec))
                for index in batch["order"]:
                    branch.append_item(output_item(call_ids[index], batch["calls"][index]))
                checkpoints = [
                    {"kind": "milestone", "reason": "reached"}
                    for spec in batch["calls"]
                    if spec["name"] == "checkpoint" and not spec["shell_call"]
                ]
                if checkpoints:
                    engine.controller.schedule_latest_milestone(checkpoints)
        if ok and turn["clean"]:
            engine.controller.schedule_turn_complete("completed", 0)
    return run


# ── invariants ───────────────────────────────────────────────────────────────────
def _call_ids(items, kinds) -> set:
    return {i.get("call_id") for i in items if i.get("type") in kinds}


def check_capsule_boundaries(branch: LiveBranch) -> None:
    entries = branch.entries
    for position, entry in enumerate(entries):
        if entry.kind != E.CONTEXT_CAPSULE:
            continue
        provenance = entry.data["provenance"]
        source_ids = set(provenance["sourceEntryIds"])
        first_kept = provenance["firstKeptEntryId"]
        start = branch.index_of(first_kept) if first_kept != "root" else position
        assert first_kept == "root" or 0 <= start < position
        source = [e.item for e in entries if e.id in source_ids]
        kept = [e.item for e in entries[start:position] if e.item is not None]
        assert len(source) == len(source_ids) > 0
        assert not _call_ids(source, E.CALL_TYPES) & _call_ids(kept, E.OUTPUT_TYPES)
        assert not _call_ids(kept, E.CALL_TYPES) & _call_ids(source, E.OUTPUT_TYPES)


def check_model_input(items: tuple, branch_entries: list) -> None:
    capsule_messages = [
        i
        for i in items
        if i.get("type") == "message"
        and i.get("role") == "system"
        and i["content"][0]["text"].startswith("SOBA Context Capsule")
    ]
    capsules = [e for e in branch_entries if e.kind == E.CONTEXT_CAPSULE]
    if not capsules:
        assert capsule_messages == []
        return
    # Exactly one capsule, the latest, first in the input.
    assert capsule_messages == [items[0]]
    assert items[0]["content"][0]["text"] == capsule_text(capsules[-1].data)
    # Every retained call still has its output and vice versa.
    assert _call_ids(items, E.CALL_TYPES) == _call_ids(items, E.OUTPUT_TYPES)


@PROPERTY_SETTINGS
@given(session=sessions(), setup=configs())
def test_replay_invariants(session: list[dict], setup: dict) -> None:
    run = replay(session, setup)
    branch = run.engine.branch
    completed = 0
    for step in run.steps:
        result = step.result
        outcome = result.outcome
        appended = step.entries_after - step.entries_before
        # Nothing is appended unless the outcome is completed (then exactly one capsule).
        if outcome is not None and outcome.status == "completed":
            completed += 1
            assert appended == 1
            assert branch.entries[step.entries_after - 1].kind == E.CONTEXT_CAPSULE
            assert (
                outcome.checkpointId == branch.entries[step.entries_after - 1].data["checkpointId"]
            )
        else:
            assert appended == 0
            assert result.compactionPerformed is False
        # Letting a request through means it fits; a required failure fails closed.
        measured = result.post_snapshot or result.snapshot
        if result.canProceed:
            assert measured.effectiveTokens <= measured.hardLimit
        if result.plan is not None and result.plan.required and outcome.status != "completed":
            assert result.canProceed is False
        if result.compactionPerformed:
            assert outcome.status == "completed" and result.canProceed
        prefix = branch.entries[: step.entries_after]
        check_model_input(step.input_items, prefix)
    assert completed == branch.capsule_count
    completed_events = run.engine.events.of_type("compaction_done")
    assert len(completed_events) == completed
    check_capsule_boundaries(branch)
    check_model_input(build_input(branch.entries).items, branch.entries)
    check_events_carry_no_capsule_content(run.engine)


def check_events_carry_no_capsule_content(engine: Engine) -> None:
    """l.3: ids, labels, numbers and reasons only - never state or capsule text."""
    for event in engine.events.events:
        assert set(event) <= ALLOWED_FIELDS
    dumped = json.dumps(engine.events.events)
    assert "SOBA Context Capsule" not in dumped and "## Goal" not in dumped
    for entry in engine.branch.entries:
        if entry.kind == E.CONTEXT_CAPSULE:
            assert json.dumps(entry.data["portableState"]["goal"]) not in dumped


def decisions(run: Replay) -> list:
    out = []
    for step in run.steps:
        result = step.result
        outcome = result.outcome
        out.append(
            (
                result.canProceed,
                result.compactionPerformed,
                result.error,
                None if outcome is None else outcome.to_dict(),
            )
        )
    return out


@PROPERTY_SETTINGS
@given(session=sessions(), setup=configs())
def test_same_input_same_decisions(session: list[dict], setup: dict) -> None:
    first, second = replay(session, setup), replay(session, setup)
    assert decisions(first) == decisions(second)
    assert [e.data for e in first.engine.branch.entries] == [
        e.data for e in second.engine.branch.entries
    ]
    assert first.engine.events.events == second.engine.events.events
