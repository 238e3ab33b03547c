"""claude-code importer: transcripts (parentUuid chain) and stream-json logs."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import InputError
from soba_bench.replay.provider import recorded_usage
from soba_bench.replay.simulator import ReplayOptions, replay_session
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items

TRANSCRIPT = DATA / "claude-code" / "7d3c2a91-5b1e-4f0a-9c8d-2e6f4b1a7c35.jsonl"
STREAM = DATA / "claude-code-stream" / "stream-lint-fix.jsonl"


@pytest.fixture(scope="module")
def imported():
    return import_source("claude-code", TRANSCRIPT).sessions


@pytest.fixture(scope="module")
def transcript(imported):
    return imported[0]


def source_records():
    return [json.loads(line) for line in TRANSCRIPT.read_text().splitlines()]


def test_main_chain_excludes_sidechains_and_abandoned_branches(transcript):
    check_session(transcript)
    texts = json.dumps(items(transcript))
    assert "(interrupted)" not in texts  # the abandoned branch
    assert "Only src/weather/forecast.py:14 calls it;" not in texts  # the subagent's reply
    skipped = transcript.origin["skippedRecords"]
    assert skipped["abandoned branch (not in the final conversation)"] == 1
    assert transcript.origin["variant"] == "transcript"
    assert transcript.session_id == "7d3c2a91-5b1e-4f0a-9c8d-2e6f4b1a7c35"
    assert transcript.lines[0]["cwd"] == "/home/dev/projects/weather-cli"


def test_sidechain_is_its_own_session(imported):
    main, side = imported
    assert side.name == main.name + ".sidechain-sidechain"
    assert side.origin["sidechainOf"] == main.session_id and side.session_id != main.session_id
    texts = json.dumps(items(side))
    assert "Only src/weather/forecast.py:14 calls it;" in texts  # the subagent's reply
    check_session(side)


def test_parallel_tool_result_off_the_chain_is_taken_back(transcript):
    outputs = [i["call_id"] for i in items(transcript) if i["type"] == "function_call_output"]
    assert "toolu_03Grep" in outputs and "toolu_02Read" in outputs
    assert transcript.origin["resultsTakenBack"] == 1


def test_blocks_map_to_soba_items_with_content_kept_verbatim(transcript):
    its = items(transcript)
    assert [i["type"] for i in its[:5]] == [
        "message",
        "reasoning",
        "message",
        "function_call",
        "function_call_output",
    ]
    assert its[1]["summary"][0]["text"].startswith("I should read the client first")
    read_result = next(
        b["content"]
        for r in source_records()
        if r.get("type") == "user" and isinstance(r["message"]["content"], list)
        for b in r["message"]["content"]
        if b.get("tool_use_id") == "toolu_01Read"
    )
    assert its[4]["output"] == read_result  # not truncated, not reformatted
    call = its[3]
    # Claude Code's Read is SOBA's read: its file under SOBA's key (soba_tools)
    assert call["name"] == "read" and json.loads(call["arguments"]) == {
        "path": "/home/dev/projects/weather-cli/src/weather/http_client.py"
    }
    failed = next(i for i in its if i.get("call_id") == "toolu_05Bash" and "output" in i)
    assert failed["status"] == "failed" and failed["output"].startswith("Exit code 1")


def test_usage_one_record_per_message_id_before_its_first_item(transcript):
    lines = list(transcript.lines)
    records = [(n, ln) for n, ln in enumerate(lines) if ln["type"] == "flight_record"]
    assert len(records) == 8  # msg_01A..msg_01H (the abandoned msg_01X is off the chain)
    first_index, first = records[0]
    payload = first["data"]["payload"]
    assert payload["inputTokens"] == 4 + 3120 + 11873 and payload["messageId"] == "msg_01A"
    assert lines[first_index + 1]["item"]["type"] == "reasoning"
    session = check_session(transcript)
    usage = recorded_usage(session)
    assert sorted(usage.values())[0] == 5130 and len(usage) == 8


def test_compact_boundary_is_a_recorded_compaction_with_its_summary(transcript):
    (comp,) = transcript.compactions
    assert comp.source == "claude-code" and comp.trigger == "manual"
    assert comp.pre_tokens == 21311 and comp.post_tokens is None
    assert comp.summary.startswith("This session is being continued")
    bash_output = next(
        ln["id"]
        for ln in transcript.lines
        if ln["type"] == "item"
        and ln["item"].get("call_id") == "toolu_05Bash"
        and ln["item"]["type"] == "function_call_output"
    )
    assert comp.entry_id == bash_output  # the last entry before the boundary
    assert "continued from a previous conversation" not in json.dumps(items(transcript))


def test_ground_truth(transcript):
    (goal,) = facts_of(transcript, "goal")
    assert goal.text.startswith("Add retry with exponential backoff")
    reads = {f.text for f in facts_of(transcript, "file_read")}
    assert reads == {
        "/home/dev/projects/weather-cli/src/weather/http_client.py",
        "/home/dev/projects/weather-cli/tests/test_http_client.py",
    }
    (modified,) = facts_of(transcript, "file_modified")
    assert len(modified.entry_ids) == 2
    (run,) = facts_of(transcript, "verification")
    assert [r["exitCode"] for r in run.attributes["runs"]] == [1, 0]
    assert run.status == "resolved" and run.resolved_at == run.entry_ids[3]
    (blocker,) = facts_of(transcript, "blocker")
    assert blocker.status == "resolved" and blocker.resolved_at == run.entry_ids[3]
    assert "NameError" not in blocker.text and "1 failed, 1 passed" in blocker.text
    truth = transcript.truth()
    assert "constraint" in truth.unknown_kinds and "goal" not in truth.unknown_kinds


def test_recorded_usage_replays(transcript):
    config = build_engine_config({})  # SOBA's 128k default: the recorded 15-20k fit
    trace = replay_session(check_session(transcript), config, ReplayOptions(usage="recorded"))
    assert trace.summary()["usageRecords"] == 8


def test_stream_json():
    session, *subagents = import_source("claude-code", STREAM).sessions
    check_session(session)
    assert session.origin["variant"] == "stream-json"
    assert session.origin["skippedRecords"] == {
        "system:init": 1,
        "type:result (not model context)": 1,
    }
    (subagent,) = subagents  # the Task's own conversation, apart from the main one
    assert subagent.name == "stream-lint-fix.sidechain-toolu_X"
    assert items(subagent)[0]["content"][0]["text"] == "subagent notes"
    assert session.session_id == "4f2e9b10-3c7d-4a55-8e21-9b0c6d7e8f12"
    assert session.origin["flightRecords"] == 5
    (comp,) = session.compactions
    assert comp.trigger == "auto" and comp.pre_tokens == 167040
    assert not facts_of(session, "goal")  # -p prompts are not in the stream
    (blocker,) = facts_of(session, "blocker")
    assert blocker.status == "resolved" and "1 error" in blocker.text


def test_reimport_gives_identical_bytes():
    one = import_source("claude-code", TRANSCRIPT).sessions[0]
    two = import_bytes("claude-code", TRANSCRIPT.read_bytes(), TRANSCRIPT.name)[0]
    assert one.lines == two.lines and one.truth().to_dict() == two.truth().to_dict()


def _mutated(mutate) -> bytes:
    records = [json.loads(line) for line in TRANSCRIPT.read_text().splitlines()]
    mutate(records)
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def test_result_without_call_names_file_line_and_field():
    def orphan(records):
        for r in records:
            for b in (
                r.get("message", {}).get("content", [])
                if isinstance(r.get("message", {}).get("content"), list)
                else []
            ):
                if b.get("tool_use_id") == "toolu_06Edit":
                    b["tool_use_id"] = "toolu_missing"

    with pytest.raises(InputError) as exc:
        import_bytes("claude-code", _mutated(orphan), "t.jsonl")
    err = exc.value
    assert err.path == "t.jsonl" and err.line is not None
    assert err.field == "message.content[0]" and err.value == "toolu_missing"
    assert "no matching call" in str(err)


def test_wrong_type_is_an_error_and_lenient_counts_it():
    def bad(records):
        records[2]["message"]["content"] = 42

    content = _mutated(bad)
    with pytest.raises(InputError, match=r"t\.jsonl:3: wrong type \(field 'message.content'"):
        import_bytes("claude-code", content, "t.jsonl")
    session, _ = import_bytes("claude-code", content, "t.jsonl", ImportOptions(lenient=True))
    assert session.origin["issues"]["skipped"] == 1
    assert "message.content" in session.origin["issues"]["messages"][0]
    check_session(session)


def test_truncated_last_line_is_an_error_naming_the_line():
    content = TRANSCRIPT.read_bytes()[:-40]
    lines = content.count(b"\n") + 1
    with pytest.raises(InputError, match=rf"t\.jsonl:{lines}: not valid JSON"):
        import_bytes("claude-code", content, "t.jsonl")


def test_file_starting_with_a_compact_summary_keeps_it_as_context():
    records = [
        {
            "type": "user",
            "uuid": "u1",
            "parentUuid": None,
            "sessionId": "s-2",
            "isCompactSummary": True,
            "timestamp": "2025-09-12T09:00:00.000Z",
            "message": {"role": "user", "content": "This session is being continued ..."},
        },
        {
            "type": "user",
            "uuid": "u2",
            "parentUuid": "u1",
            "sessionId": "s-2",
            "message": {"role": "user", "content": "Now add a changelog entry."},
        },
    ]
    content = "".join(json.dumps(r) + "\n" for r in records).encode()
    (session,) = import_bytes("claude-code", content, "s-2.jsonl")
    check_session(session)
    assert items(session)[0]["content"][0]["text"].startswith("This session is")
    (comp,) = session.compactions
    assert comp.entry_id is None and comp.summary.startswith("This session is")
    (goal,) = facts_of(session, "goal")
    assert goal.text == "Now add a changelog entry."
