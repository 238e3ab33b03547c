"""openai-messages importer: message arrays, {messages}, fine-tuning JSONL."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.errors import InputError
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items

FILE = DATA / "openai-messages" / "slugify-accents.json"


def test_messages_tool_calls_and_tool_results():
    (session,) = import_source("openai-messages", FILE).sessions
    check_session(session)
    its = items(session)
    assert [i["type"] for i in its] == [
        "message",
        "message",
        "function_call",
        "function_call_output",
        "message",
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
        "message",
    ]
    assert its[1]["content"][0]["text"].startswith("`slugify('Crème Brûlée')`")
    assert its[2]["arguments"] == '{"path": "text/slug.py"}'  # as written
    assert its[8]["output"] == "...\n3 passed in 0.01s"  # text parts joined
    usage = [ln for ln in session.lines if ln["type"] == "flight_record"]
    assert [u["data"]["payload"]["inputTokens"] for u in usage] == [612]
    assert [f.text for f in facts_of(session, "file_read")] == ["text/slug.py"]
    assert [f.text for f in facts_of(session, "file_modified")] == ["text/slug.py"]
    assert [f.text for f in facts_of(session, "verification")] == [
        "python -m pytest tests/test_slug.py -q"
    ]


def test_finetune_jsonl_is_one_session_per_line_with_legacy_function_calls():
    sessions = import_source(
        "openai-messages", DATA / "openai-messages" / "finetune.jsonl"
    ).sessions
    assert [s.name for s in sessions] == ["finetune-001", "finetune-002"]
    for session in sessions:
        check_session(session)
    assert items(sessions[0])[0]["role"] == "system"  # developer -> system
    legacy = items(sessions[1])
    assert legacy[1]["call_id"] == "fn-1" and legacy[2]["call_id"] == "fn-1"
    (blocker,) = facts_of(sessions[1], "blocker")
    # No later success of the same call: the blocker stays open (not "unknown").
    assert blocker.status == "open" and blocker.attributes["detector"] == "shell error"
    assert blocker.text == "`lsof -i :8080` failed: Error: lsof: command not found"


def test_plain_array_and_jsonl_of_messages():
    messages = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "describe"},
                {"type": "image_url", "image_url": {"url": "data:x"}},
            ],
        },
        {"role": "assistant", "content": "a cat"},
    ]
    (from_array,) = import_bytes("openai-messages", json.dumps(messages).encode(), "a.json")
    jsonl = "".join(json.dumps(m) + "\n" for m in messages).encode()
    (from_jsonl,) = import_bytes("openai-messages", jsonl, "a.jsonl")
    assert items(from_array) == items(from_jsonl)
    assert items(from_array)[0]["content"][1] == {"type": "input_image", "image_url": "data:x"}


def test_errors():
    bad = [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "c9", "content": "y"}]
    with pytest.raises(InputError) as exc:
        import_bytes("openai-messages", json.dumps(bad).encode(), "m.json")
    assert exc.value.field == "[1]" and exc.value.value == "c9"
    missing = [{"role": "tool", "content": "y"}]
    with pytest.raises(InputError) as exc:
        import_bytes("openai-messages", json.dumps(missing).encode(), "m.json")
    assert exc.value.field == "[0].tool_call_id" and "missing" in str(exc.value)
    (lenient,) = import_bytes(
        "openai-messages", json.dumps(bad).encode(), "m.json", ImportOptions(lenient=True)
    )
    assert lenient.origin["issues"]["skipped"] == 1 and lenient.origin["items"] == 1
    with pytest.raises(InputError, match="expected a message list"):
        import_bytes("openai-messages", b"7", "m.json")
    with pytest.raises(InputError, match=r"m\.jsonl:2: not valid JSON"):
        import_bytes("openai-messages", b'{"role": "user", "content": "a"}\n{"role"\n', "m.jsonl")
