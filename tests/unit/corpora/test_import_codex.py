"""codex importer: rollout lines, token_count placement, compactions, exit codes."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.errors import InputError
from soba_bench.replay.provider import recorded_usage
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items

ROLLOUT = next((DATA / "codex").glob("rollout-*.jsonl"))


@pytest.fixture(scope="module")
def rollout():
    (session,) = import_source("codex", DATA / "codex").sessions
    return session


def test_items_are_copied_and_mapped(rollout):
    check_session(rollout)
    its = items(rollout)
    kinds = [i["type"] for i in its]
    assert kinds.count("reasoning") == 2 and kinds.count("local_shell_call") == 1
    assert its[0]["content"][0]["text"].startswith("<environment_context>")
    reasoning = its[2]
    assert reasoning["encrypted_content"] == "gAAAAABo3z1uQ2V4Y2VycHQ="
    patch_call = next(i for i in its if i.get("name") == "apply_patch")
    assert json.loads(patch_call["arguments"])["input"].startswith("*** Begin Patch")
    shell = next(i for i in its if i["type"] == "local_shell_call")
    assert shell["command"] == "pytest -q tests/test_report.py"
    assert rollout.session_id == "0199a3c2-7b41-7d20-b3e5-5f61a2c9d804"
    assert rollout.lines[0]["cwd"] == "/Users/ana/src/ledger"
    skipped = rollout.origin["skippedRecords"]
    assert skipped["user_message (same as a response_item message)"] == 1
    assert skipped["turn_context"] == 1
    loss = rollout.origin["loss"]
    assert loss["event_msg:user_message"] == {
        "records": 1,
        "entries": 0,
        "skipped": {"user_message (same as a response_item message)": 1},
    }
    assert loss["response_item:message"]["records"] == loss["response_item:message"]["entries"]


def test_token_count_goes_before_the_first_item_of_its_response(rollout):
    lines = list(rollout.lines)
    placed = [
        (ln["data"]["payload"]["inputTokens"], lines[n + 1]["item"])
        for n, ln in enumerate(lines)
        if ln["type"] == "flight_record"
    ]
    assert [(tokens, item["type"]) for tokens, item in placed] == [
        (5123, "reasoning"),
        (5867, "reasoning"),
        (6311, "local_shell_call"),
        (3499, "function_call"),
        (3610, "message"),
    ]
    assert placed[0][1]["summary"][0]["text"].startswith("**Inspecting")
    assert rollout.origin["skippedRecords"]["token_count:noUsage"] == 1  # info: null
    assert len(recorded_usage(check_session(rollout))) == 5


def test_compacted_line_is_a_recorded_compaction(rollout):
    (comp,) = rollout.compactions
    assert comp.source == "codex" and comp.summary.startswith("Summary: fixing refund")
    sh3_output = next(
        ln["id"]
        for ln in rollout.lines
        if ln["type"] == "item"
        and ln["item"].get("call_id") == "call_Sh3"
        and ln["item"]["type"] == "function_call_output"
    )
    assert comp.entry_id == sh3_output


def test_ground_truth_from_patches_commands_and_exit_codes(rollout):
    (goal,) = facts_of(rollout, "goal")
    assert goal.text.startswith("The balance report double-counts refunds")
    assert [f.text for f in facts_of(rollout, "file_modified")] == ["ledger/report.py"]
    verifications = facts_of(rollout, "verification")
    pytest_runs = [f for f in verifications if f.text == "pytest -q tests/test_report.py"]
    (run,) = pytest_runs  # one fact per command, every run listed with its exit status
    assert [r["exitCode"] for r in run.attributes["runs"]] == [1, 0]
    assert [r["result"] for r in run.attributes["runs"]] == ["failed", "passed"]
    assert run.status == "resolved" and run.resolved_at == run.attributes["runs"][1]["entryId"]
    assert run.attributes["category"] == "test"
    (blocker,) = facts_of(rollout, "blocker")
    assert blocker.status == "resolved" and "1 failed, 1 passed" in blocker.text


def test_legacy_rollout_format():
    lines = [
        {"id": "legacy-1", "timestamp": "2025-04-18T09:00:00.000Z", "instructions": None},
        {"record_type": "state"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]},
        {
            "type": "function_call",
            "name": "shell",
            "call_id": "c1",
            "arguments": '{"command": ["ls", "-la"]}',
        },
        {
            "type": "function_call_output",
            "call_id": "c1",
            "output": '{"output": "total 0", "metadata": {"exit_code": 0}}',
        },
    ]
    content = "".join(json.dumps(x) + "\n" for x in lines).encode()
    (session,) = import_bytes("codex", content, "rollout-legacy.jsonl")
    check_session(session)
    assert session.session_id == "legacy-1"
    # `ls -la` ran (exit 0) but checks nothing: not a verification, and not a blocker.
    assert facts_of(session, "verification") == [] and facts_of(session, "blocker") == []
    call = next(i for i in items(session) if i["type"] == "function_call")
    # the legacy shell tool is SOBA's bash, whose command is one string
    assert call["name"] == "bash" and json.loads(call["arguments"])["command"] == "ls -la"


def test_output_without_call_and_bad_role_are_errors():
    lines = ROLLOUT.read_text().splitlines()
    orphan = lines[:]
    orphan[9] = orphan[9].replace("call_Qh1", "call_nope")
    with pytest.raises(InputError, match=r"r\.jsonl:10: tool output has no matching call"):
        import_bytes("codex", "\n".join(orphan).encode(), "r.jsonl")
    bad_role = lines[:]
    bad_role[2] = bad_role[2].replace('"role": "user"', '"role": "narrator"')
    with pytest.raises(InputError) as exc:
        import_bytes("codex", "\n".join(bad_role).encode(), "r.jsonl")
    assert exc.value.line == 3 and exc.value.field == "payload.role"
    assert exc.value.value == "narrator" and "developer" in exc.value.expected
    (session,) = import_bytes(
        "codex", "\n".join(bad_role).encode(), "r.jsonl", ImportOptions(lenient=True)
    )
    assert session.origin["issues"]["skipped"] == 1
    # The bad line is skipped; the prompt survives through its event_msg user_message line,
    # which is then no longer a duplicate.
    (goal,) = facts_of(session, "goal")
    assert goal.text.startswith("The balance report double-counts refunds. Fix `summarize()`")


def test_truncation_option_cuts_and_counts(rollout):
    options = ImportOptions(max_output_chars=40)
    (cut,) = import_source("codex", ROLLOUT, options).sessions
    outputs = [i["output"] for i in items(cut) if i["type"] == "function_call_output"]
    assert all("characters cut by soba-bench import --max-output-chars" in o for o in outputs)
    truncated = cut.origin["truncated"]
    assert truncated["maxOutputChars"] == 40 and truncated["outputs"] == len(outputs)
    full = [i["output"] for i in items(rollout) if i["type"] == "function_call_output"]
    assert truncated["chars"] == sum(len(o) - 40 for o in full)
    assert "truncated" not in rollout.origin
