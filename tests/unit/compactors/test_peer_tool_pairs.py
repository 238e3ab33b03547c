"""Property: no peer policy ever parts a tool call from its output. At every compaction moment
of every peer, on generated sessions (parallel calls, outputs arriving out of order, a message
between a call and its output, large and small items), the model input holds no tool output
without its call, and no call whose output was already on the branch without that output."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from soba_bench.engine.config import build_engine_config
from soba_bench.session import entries as E
from tests.builders import assistant, chain, function_call, function_output, session_of, user
from tests.unit.compactors.helpers import moment_inputs, run

ENGINE = build_engine_config(
    {
        "contextWindow": 24_000,
        "maxOutputTokens": 2_000,
        "systemPromptTokens": 500,
        "toolSchemaTokens": 500,
        "compaction": {"safetyReserveTokens": 1_000, "keepRecentTokens": 3_000},
    }
)
# Small parameters, so that every policy compacts several times on a short session.
PEERS = {
    "codex": {"auto_compact_ratio": 0.5, "user_message_max_tokens": 600},
    "claude_code": {"autocompact_buffer_tokens": 12_000},
    "openhands": {"max_size": 24, "keep_first": 3},
    "gemini_cli": {"compression_threshold": 0.3},
    "pi": {"reserve_tokens": 14_000, "keep_recent_tokens": 2_500},
    "opencode": {"prune_minimum": 500, "prune_protect": 1_500, "preserve_recent_tokens": 2_000},
}

turn = st.fixed_dictionaries(
    {
        "user": st.integers(5, 600),
        "calls": st.lists(st.integers(10, 4_000), min_size=0, max_size=3),
        "shuffle": st.booleans(),  # outputs in reverse order of their calls
        "between": st.booleans(),  # an assistant note between the calls and their outputs
        "answer": st.integers(0, 300),
    }
)


def build(turns: list[dict]):
    items = []
    for t, spec in enumerate(turns):
        items.append(user(f"t{t} " + "u" * spec["user"]))
        ids = [f"c{t}_{k}" for k in range(len(spec["calls"]))]
        items += [function_call(cid, "read_file", "{}") for cid in ids]
        if spec["between"] and ids:
            items.append(assistant("checking " + "n" * 20))
        pairs = list(zip(ids, spec["calls"], strict=True))
        for cid, size in reversed(pairs) if spec["shuffle"] else pairs:
            items.append(function_output(cid, f"OUT {cid} " + "x" * size))
        if spec["answer"]:
            items.append(assistant(f"done {t} " + "z" * spec["answer"]))
    return session_of(chain(items))


def broken_pairs(items: list[dict], on_branch: set[object]) -> list[object]:
    calls = {i["call_id"] for i in items if i.get("type") in E.CALL_TYPES}
    outputs = {i["call_id"] for i in items if i.get("type") in E.OUTPUT_TYPES}
    orphans = outputs - calls
    missing = {c for c in calls - outputs if c in on_branch}
    return sorted(orphans | missing)


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(turns=st.lists(turn, min_size=8, max_size=30))
def test_no_peer_splits_a_tool_call_from_its_output(turns):
    session = build(turns)
    for name, params in PEERS.items():
        trace = run(name, session, ENGINE, **params)
        positions = {e.id: n for n, e in enumerate(trace.entries) if e.id is not None}
        for line, items in moment_inputs(trace):
            upto = positions[line["inputThroughEntryId"]]
            answered = {
                e.item["call_id"]
                for e in trace.entries[: upto + 1]
                if e.item is not None and e.item.get("type") in E.OUTPUT_TYPES
            }
            assert broken_pairs(items, answered) == [], (name, line["seq"])


def test_the_property_sees_compactions_of_every_peer():
    """The generated sessions do exercise every policy's cut (the property is not vacuous)."""
    spec = {"user": 200, "calls": [1_500, 800], "shuffle": True, "between": True, "answer": 100}
    session = build([spec] * 30)
    for name, params in PEERS.items():
        assert len(moment_inputs(run(name, session, ENGINE, **params))) >= 2, name
