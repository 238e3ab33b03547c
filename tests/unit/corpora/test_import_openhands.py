"""openhands importer: event streams with tool_call_metadata, condensations, usage."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.errors import InputError
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items

EVENTS = DATA / "openhands" / "inventory-csv-newlines.json"


@pytest.fixture(scope="module")
def session():
    (imported,) = import_source("openhands", EVENTS).sessions
    return imported


def test_events_map_to_items(session):
    check_session(session)
    its = items(session)
    assert its[0]["role"] == "system" and its[1]["role"] == "user"
    assert its[2]["role"] == "assistant"
    assert its[2]["content"][0]["text"] == "Let me look at the export code first."
    call = its[3]
    # the editor's view of a file is SOBA's read (soba_tools), its path already under "path"
    assert call["call_id"] == "toolu_01" and call["name"] == "read"
    # the arguments the model wrote, from model_response, not OpenHands' parsed args
    assert call["arguments"] == ('{"command": "view", "path": "/workspace/inventory/export.py"}')
    assert its[-1]["name"] == "finish"
    skipped = session.origin["skippedRecords"]
    assert skipped == {"action:recall": 1, "observation:agent_state_changed": 2}


def test_usage_per_model_response(session):
    lines = list(session.lines)
    placed = [
        (ln["data"]["payload"]["responseId"], lines[n + 1]["item"]["type"])
        for n, ln in enumerate(lines)
        if ln["type"] == "flight_record"
    ]
    assert [rid for rid, _ in placed] == [f"chatcmpl-a{i}" for i in range(1, 7)]
    assert placed[0][1] == "message"  # the thought opens the response
    first = next(ln for ln in lines if ln["type"] == "flight_record")
    assert first["data"]["payload"]["inputTokens"] == 3871


def test_condensation_and_facts(session):
    (comp,) = session.compactions
    assert comp.trigger == "condenser" and comp.summary.startswith("USER_CONTEXT")
    assert [f.text for f in facts_of(session, "file_read")] == ["/workspace/inventory/export.py"]
    assert [f.text for f in facts_of(session, "file_modified")] == [
        "/workspace/inventory/export.py"
    ]
    (run,) = facts_of(session, "verification")
    assert [r["exitCode"] for r in run.attributes["runs"]] == [1, 0]
    assert run.status == "resolved"
    (blocker,) = facts_of(session, "blocker")
    assert blocker.status == "resolved" and blocker.attributes["detector"] == "exit_code"
    (goal,) = facts_of(session, "goal")
    assert goal.text.startswith("The CSV export drops rows")


def test_events_without_tool_metadata_pair_by_cause():
    events = [
        {"id": 0, "source": "user", "action": "message", "args": {"content": "list files"}},
        {"id": 1, "source": "agent", "action": "run", "args": {"command": "ls", "thought": "ok"}},
        {
            "id": 2,
            "source": "agent",
            "observation": "run",
            "cause": 1,
            "content": "a.py",
            "extras": {"metadata": {"exit_code": -1}},
        },
        {"id": 3, "source": "agent", "observation": "error", "content": "Agent got stuck"},
    ]
    (imported,) = import_bytes("openhands", json.dumps({"events": events}).encode(), "e.json")
    check_session(imported)
    its = items(imported)
    assert its[2]["call_id"] == "oh-e1" and json.loads(its[2]["arguments"]) == {"command": "ls"}
    assert its[3]["call_id"] == "oh-e1" and its[3]["output"] == "a.py"
    assert its[4]["role"] == "user" and its[4]["content"][0]["text"] == "Agent got stuck"
    assert facts_of(imported, "verification") == []  # `ls` checks nothing
    assert facts_of(imported, "blocker") == []  # OpenHands' -1 is "no exit code", not a failure


def test_errors_name_the_event_and_field():
    events = json.loads(EVENTS.read_text())
    events[5]["tool_call_metadata"]["tool_call_id"] = "toolu_unknown"
    events[5]["cause"] = 99
    with pytest.raises(InputError) as exc:
        import_bytes("openhands", json.dumps(events).encode(), "e.json")
    assert exc.value.field == "[5]" and "no matching call" in str(exc.value)
    events = json.loads(EVENTS.read_text())
    events[8]["args"] = "run it"
    with pytest.raises(InputError) as exc:
        import_bytes("openhands", json.dumps(events).encode(), "e.json")
    assert exc.value.field == "[8].args" and exc.value.expected == "object"
    (lenient,) = import_bytes(
        "openhands", json.dumps(events).encode(), "e.json", ImportOptions(lenient=True)
    )
    # the bad action is skipped, so its observation has no call: both counted
    assert lenient.origin["issues"]["skipped"] == 2
    assert "no matching call" in lenient.origin["issues"]["messages"][1]
    check_session(lenient)
    with pytest.raises(InputError, match="expected a list of events"):
        import_bytes("openhands", b'{"events": 3}', "e.json")
