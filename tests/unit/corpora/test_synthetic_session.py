"""Generated sessions: deterministic, exactly the requested size, readable by the strict
reader, and shaped like SOBA's agent loop writes them (engine.md a.2-a.4, l.2)."""

from __future__ import annotations

import gzip
import itertools
from collections import Counter

import pytest

from soba_bench.corpora.synthetic import SyntheticConfig, generate_session
from soba_bench.corpora.synthetic.generate import gzip_bytes
from soba_bench.engine.failures import tool_failure_output
from soba_bench.jsonio import encode_jsonl
from soba_bench.session import entries as E
from soba_bench.session import read_session
from soba_bench.session.jsonl import write_session
from soba_bench.session.turns import scan_turn_marks
from tests.unit.corpora.synthetic_helpers import generated, items


def lines_of(session) -> bytes:
    return encode_jsonl(e.data for e in session.lines)


def test_same_seed_same_bytes_and_different_seed_or_index_differs():
    first, truth_a = generate_session(SyntheticConfig(entries=400), 5, 0)
    again, truth_b = generate_session(SyntheticConfig(entries=400), 5, 0)
    assert lines_of(first) == lines_of(again)
    assert truth_a.to_dict() == truth_b.to_dict()
    other_seed, _ = generate_session(SyntheticConfig(entries=400), 6, 0)
    other_index, _ = generate_session(SyntheticConfig(entries=400), 5, 1)
    assert lines_of(other_seed) != lines_of(first)
    assert lines_of(other_index) != lines_of(first)
    assert first.session_id != other_seed.session_id


@pytest.mark.parametrize("entries", [60, 100, 333, 1000, 5000])
def test_exactly_the_requested_number_of_tree_entries(entries):
    session, truth = generated(entries, seed=2)
    assert len(session.tree_entries) == entries
    assert truth.origin["treeEntries"] == truth.origin["targetEntries"] == entries


def test_a_target_too_small_for_the_plan_still_writes_every_planted_fact():
    session, truth = generated(50, seed=3)
    assert len(session.tree_entries) >= 50
    assert {f.kind for f in truth.facts} >= {"goal", "decision", "blocker", "checkpoint"}


def test_entries_spread_varies_the_target_per_session():
    sizes = {
        len(generated(1000, seed=4, index=i, entries_spread=0.5)[0].tree_entries) for i in range(4)
    }
    assert len(sizes) == 4 and all(500 <= n <= 1500 for n in sizes)


def test_written_session_reads_back_in_strict_mode_unchanged(tmp_path):
    session, _ = generated(1000)
    path = tmp_path / "s.jsonl.gz"
    write_session(session, path)
    back = read_session(path)  # strict: raises on any malformed line
    assert not back.issues
    assert [e.data for e in back.lines] == [e.data for e in session.lines]
    assert back.leaf_id == session.tree_entries[-1].id
    assert back.active_branch == back.tree_entries  # linear


def test_every_call_has_exactly_one_later_output_with_the_same_call_id():
    session, _ = generated(5000, seed=2)
    calls: dict[str, int] = {}
    outputs: Counter[str] = Counter()
    for index, (_, item) in enumerate(items(session)):
        if item["type"] in E.CALL_TYPES:
            assert item["call_id"] not in calls
            calls[item["call_id"]] = index
        elif item["type"] in E.OUTPUT_TYPES:
            assert item["call_id"] in calls, "output before its call"
            outputs[item["call_id"]] += 1
    assert set(outputs) == set(calls) and set(outputs.values()) == {1}


def test_turns_open_with_a_user_message_and_close_with_a_final_answer():
    session, _ = generated(1000)
    tree = session.tree_entries
    assert tree[0].item["role"] == "user" and tree[-1].item["phase"] == "final_answer"
    for before, entry in itertools.pairwise(tree):
        if entry.item is not None and E.is_message(entry.item, "user"):
            assert before.item is not None and before.item.get("phase") == "final_answer"
    marks = scan_turn_marks(session)
    users = {e.id for e in tree if e.item is not None and E.is_message(e.item, "user")}
    assert marks.opening_ids == users  # every turn_start record sits before its user message


def test_iterations_record_reasoning_commentary_parallel_calls_and_both_output_kinds():
    session, _ = generated(1000)
    kinds = Counter(item["type"] for _, item in items(session))
    phases = Counter(item.get("phase") for _, item in items(session) if item["type"] == "message")
    assert kinds["reasoning"] > 0 and kinds["local_shell_call_output"] > 0
    assert kinds["function_call_output"] > 0 and phases["commentary"] > 0
    runs, longest = 0, 0
    for _, item in items(session):
        runs = runs + 1 if item["type"] == "function_call" else 0
        longest = max(longest, runs)
    assert longest >= 2  # a parallel batch: several calls, then their outputs
    bash_calls = {i["call_id"] for _, i in items(session) if i.get("name") == "bash"}
    for _, item in items(session):
        if item["type"] == "local_shell_call_output":
            assert item["call_id"] in bash_calls and item["status"] in ("completed", "failed")
        elif item["type"] == "function_call_output":
            assert item["call_id"] not in bash_calls


def test_exit_codes_and_legacy_outputs_appear_and_agree_with_status():
    session, _ = generated(5000, seed=2)
    shell = [i for _, i in items(session) if i["type"] == "local_shell_call_output"]
    with_code = [i for i in shell if "exit_code" in i]
    assert with_code and len(with_code) < len(shell)
    for item in with_code:
        assert item["exit_code"] == (1 if item["status"] == "failed" else 0)
    legacy = [
        i for _, i in items(session) if i["type"] == "function_call_output" and "status" not in i
    ]
    assert legacy
    for item in legacy:  # no status: SOBA's first-line heuristic must read them right
        failed = str(item["output"]).startswith("Error: ")
        assert (tool_failure_output(item) is not None) == failed


def test_skill_activation_migrates_the_session_and_cursors_follow_every_append():
    session, _ = generated(1000)
    kinds = [e.kind for e in session.lines]
    first_skill = kinds.index(E.SKILL_ACTIVATION)
    assert kinds.index(E.SESSION_MIGRATION) == first_skill - 1
    after = session.lines[first_skill:]
    tree_after = [e for e in after if e.is_tree]
    cursors = [e for e in after if e.kind == E.SESSION_CURSOR]
    assert [c.data["leafId"] for c in cursors] == [e.id for e in tree_after]
    assert all(e.parent_id == p.id for p, e in itertools.pairwise(session.tree_entries))


def test_flight_records_mark_failures_and_never_hold_a_planted_secret():
    session, truth = generated(5000, seed=2)
    marks = scan_turn_marks(session)
    failing = {i["call_id"] for _, i in items(session) if tool_failure_output(i) is not None}
    assert marks.failed_call_ids == failing and failing
    secrets = [f.text for f in truth.of_kind("secret")]
    flights = encode_jsonl(e.data for e in session.lines if e.kind == E.FLIGHT_RECORD)
    assert secrets and not any(s.encode() in flights for s in secrets)
    assert b"[REDACTED]" in flights


def test_flight_records_can_be_switched_off():
    session, _ = generated(300, flight_records=False)
    assert not any(e.kind == E.FLIGHT_RECORD for e in session.lines)
    assert scan_turn_marks(session).opening_ids is None


def test_timestamps_are_fixed_per_seed_and_increase():
    session, _ = generated(1000)
    stamps = [e.timestamp for e in session.lines]
    assert stamps == sorted(stamps)
    assert stamps[0].startswith("2026-01-06T09:00:00")  # seed 1 -> one day after the epoch


def test_gzip_framing_is_fixed_and_round_trips():
    payload = lines_of(generated(300)[0])
    packed = gzip_bytes(payload)
    assert packed[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"
    assert gzip.decompress(packed) == payload
