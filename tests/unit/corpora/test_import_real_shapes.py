"""The cases issue 19 found on real logs, as small inputs shaped record for record on them:
Claude Code 2.1.x chains running through progress/attachment records, Codex Desktop
rollouts whose prompts are only ``event_msg`` lines, web searches, tool calls written as
text, aider architect handoffs / prompt answers / thinking sections; strict-mode losses."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.errors import InputError
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items


def jsonl(records) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


# -- Claude Code 2.1.x ------------------------------------------------------------------

SID = "3b0c9e57-2f1d-4b6a-9d0e-7a1c5e2f8b44"


def _cc(kind, uid, parent, **extra):
    rec = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/repo",
        "sessionId": SID,
        "version": "2.1.12",
        "type": kind,
        "uuid": uid,
        "timestamp": f"2026-02-01T10:00:{len(uid):02d}.000Z",
    }
    rec.update(extra)
    return rec


def claude_21_records():
    """user -> assistant(tool_use) -> progress -> user(tool_result, parent = the progress
    record) -> system(turn_duration) -> attachment -> assistant text: the chain the old
    importer lost because it skipped progress records before walking it."""
    return [
        {"type": "file-history-snapshot", "messageId": "m0", "snapshot": {}},
        {"type": "queue-operation", "operation": "enqueue", "content": "also run lint"},
        _cc("user", "u1", None, message={"role": "user", "content": "Fix the failing test"}),
        _cc(
            "assistant",
            "a1",
            "u1",
            message={
                "id": "msg_1",
                "role": "assistant",
                "model": "claude-opus-4-5",
                "content": [
                    {"type": "thinking", "thinking": "Run the tests first.", "signature": "x"},
                    {
                        "type": "tool_use",
                        "id": "toolu_1",
                        "name": "Bash",
                        "input": {"command": "pytest -q"},
                    },
                ],
                "usage": {"input_tokens": 10, "output_tokens": 5},
            },
        ),
        _cc("progress", "p1", "a1", data={"type": "hook_progress"}, toolUseID="toolu_1"),
        _cc(
            "user",
            "u2",
            "p1",
            message={
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_1",
                        "content": "Exit code 1\n1 failed, 3 passed in 0.20s",
                        "is_error": True,
                    }
                ],
            },
        ),
        _cc("system", "s1", "u2", subtype="turn_duration", durationMs=1200),
        _cc("attachment", "t1", "s1", attachment={"type": "todo_reminder"}),
        _cc(
            "assistant",
            "a2",
            "t1",
            message={
                "id": "msg_2",
                "role": "assistant",
                "content": [{"type": "text", "text": "The test fails; fixing it."}],
            },
        ),
    ]


def test_claude_21_chain_runs_through_every_record_kind():
    session, *_ = import_bytes("claude-code", jsonl(claude_21_records()), f"{SID}.jsonl")
    check_session(session)
    kinds = [i["type"] for i in items(session)]
    assert kinds == ["message", "reasoning", "function_call", "function_call_output", "message"]
    loss = session.origin["loss"]
    assert loss["user"] == {"records": 2, "entries": 2, "skipped": {}}
    assert loss["assistant"]["records"] == 2 and loss["assistant"]["entries"] == 3
    assert loss["progress"]["skipped"] == {"type:progress (not model context)": 1}
    assert loss["file-history-snapshot"]["entries"] == 0
    (goal,) = facts_of(session, "goal")
    assert goal.text == "Fix the failing test"
    (run,) = facts_of(session, "verification")
    assert run.status == "open" and run.attributes["runs"][0]["exitCode"] == 1


def test_claude_unknown_record_with_a_message_is_a_loss_in_strict_mode():
    records = claude_21_records()
    records.insert(
        3, _cc("steering", "x1", "u1", message={"role": "user", "content": "use uv, not pip"})
    )
    with pytest.raises(InputError) as exc:
        import_bytes("claude-code", jsonl(records), "t.jsonl")
    err = exc.value
    assert err.path == "t.jsonl" and err.line == 4 and "steering record" in str(err)
    assert "lose a user message" in str(err)
    session, *_ = import_bytes(
        "claude-code", jsonl(records), "t.jsonl", ImportOptions(lenient=True)
    )
    assert session.origin["lost"] == {"user message": 1}


def test_claude_subagent_file_is_one_session():
    records = [
        {**r, "isSidechain": True, "agentId": "a7f3"} for r in claude_21_records() if "uuid" in r
    ]
    (session,) = import_bytes("claude-code", jsonl(records), "agent-a7f3.jsonl")
    assert len(items(session)) == 5 and session.name == "agent-a7f3"


# -- Codex ------------------------------------------------------------------------------


def _line(kind, payload, n=0):
    return {"timestamp": f"2026-03-01T09:00:{n:02d}.000Z", "type": kind, "payload": payload}


def desktop_rollout():
    """A Codex Desktop rollout: the prompt exists only as an event_msg; a web search."""
    return [
        _line("session_meta", {"id": "019c0000-aaaa-7bbb-8ccc-000000000001", "cwd": "/r"}),
        _line(
            "response_item",
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "<environment_context>x"}],
            },
        ),
        _line(
            "event_msg", {"type": "user_message", "message": "What changed in 3.13?", "images": []}
        ),
        _line(
            "response_item",
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "python 3.13 release notes"},
            },
        ),
        _line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "A free-threaded build, ..."}],
            },
        ),
    ]


def test_codex_desktop_user_message_events_and_web_searches():
    (session,) = import_bytes("codex", jsonl(desktop_rollout()), "rollout-d.jsonl")
    check_session(session)
    its = items(session)
    assert its[1]["role"] == "user" and its[1]["content"][0]["text"] == "What changed in 3.13?"
    assert its[2]["type"] == "function_call" and its[2]["name"] == "web_search"
    assert json.loads(its[2]["arguments"])["query"] == "python 3.13 release notes"
    assert its[3]["type"] == "function_call_output" and its[3]["call_id"] == "ws_1"
    (goal,) = facts_of(session, "goal")
    assert goal.text == "What changed in 3.13?"


def test_codex_unknown_call_item_fails_strict_and_counts_lenient():
    records = desktop_rollout()
    records.append(_line("response_item", {"type": "image_generation_call", "id": "ig1"}))
    with pytest.raises(InputError, match=r"r\.jsonl:6: response_item:image_generation_call"):
        import_bytes("codex", jsonl(records), "r.jsonl")
    (session,) = import_bytes("codex", jsonl(records), "r.jsonl", ImportOptions(lenient=True))
    assert session.origin["lost"] == {"tool call": 1}


# -- tool calls written as text ---------------------------------------------------------

SMITH = [
    {"role": "system", "content": "You are a helpful assistant that can interact with a computer."},
    {"role": "user", "content": "<uploaded_files>\n/testbed\n</uploaded_files>\nFix parse()."},
    {
        "role": "assistant",
        "content": "Let me run the tests.\n\n<function=bash>\n<parameter=command>cd /testbed"
        " && python -m pytest tests/test_parse.py -q</parameter>\n</function>",
    },
    {
        "role": "user",
        "content": "OBSERVATION:\nFAILED tests/test_parse.py::test_x\n1 failed in 0.1s",
    },
    {
        "role": "assistant",
        "content": "<function=str_replace_editor>\n<parameter=command>str_replace</parameter>\n"
        "<parameter=path>/testbed/src/parse.py</parameter>\n<parameter=old_str>a</parameter>\n"
        "<parameter=new_str>b</parameter>\n</function>",
    },
    {"role": "user", "content": "OBSERVATION:\nThe file /testbed/src/parse.py has been edited."},
    {
        "role": "assistant",
        "content": "<function=bash>\n<parameter=command>cd /testbed && python -m pytest "
        "tests/test_parse.py -q</parameter>\n</function>",
    },
    {"role": "user", "content": "OBSERVATION:\n3 passed in 0.1s"},
    {"role": "assistant", "content": "<function=submit>\n</function>"},
]


def _check_smith(session):
    check_session(session)
    calls = [i for i in items(session) if i["type"] == "function_call"]
    # the editor's str_replace is SOBA's edit (soba_tools)
    assert [c["name"] for c in calls] == ["bash", "edit", "bash", "submit"]
    assert sum(1 for i in items(session) if i["type"] == "function_call_output") == 3
    users = [i for i in items(session) if i.get("role") == "user"]
    assert len(users) == 1  # the observations are outputs, not user turns
    (run,) = facts_of(session, "verification")
    assert run.status == "resolved" and run.attributes["category"] == "test"
    assert [f.text for f in facts_of(session, "file_modified")] == ["/testbed/src/parse.py"]
    (blocker,) = facts_of(session, "blocker")
    assert blocker.status == "resolved" and "1 failed" in blocker.text


def test_text_tools_format():
    (session,) = import_bytes("text-tools", json.dumps({"messages": SMITH}).encode(), "t.json")
    _check_smith(session)


def test_text_tools_through_hf_with_messages_as_a_json_string(tmp_path):
    pytest.importorskip("datasets")
    path = tmp_path / "rows.jsonl"
    path.write_text(json.dumps({"instance_id": "x__y-1", "messages": json.dumps(SMITH)}) + "\n")
    (session,) = import_source(
        "hf", path, ImportOptions(hf_mapping="SWE-bench/SWE-smith-trajectories")
    ).sessions
    assert session.name == "x__y-1"
    _check_smith(session)


# -- aider ------------------------------------------------------------------------------

ARCHITECT = """
# aider chat started at 2025-03-02 10:00:00

> Aider v0.80.0
> Main model: o3-mini with architect edit format
> Editor model: gpt-4o with editor-diff edit format

#### make greet() take a name

<thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>

The user wants a parameter.

</thinking-content-7bbeb8e1441453ad999a0bbba8a46d4b>

Change `greet()` in app.py to accept `name` and print it.

> Tokens: 1,200 sent, 80 received.
> Edit the files? (Y)es/(N)o [Yes]: y

#### Change `greet()` in app.py to accept `name` and print it.

app.py
```python
<<<<<<< SEARCH
def greet():
=======
def greet(name):
>>>>>>> REPLACE
```

> Tokens: 900 sent, 40 received.
> Applied edit to app.py
> app2.py
> Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: s

#### s

#### now add a test

I'll add one.

#### why is the old page gone?
> /home/u/proj/app2.py: file not found error
> Dropping app2.py from the chat.

It was deleted.
"""


def test_aider_architect_handoff_prompt_answers_and_thinking():
    (session,) = import_bytes("aider", ARCHITECT.encode(), ".aider.chat.history.md")
    check_session(session)
    its = items(session)
    users = [i["content"][0]["text"] for i in its if i.get("role") == "user"]
    assert users == ["make greet() take a name", "now add a test", "why is the old page gone?"]
    reasoning = [i for i in its if i["type"] == "reasoning"]
    assert reasoning[0]["summary"][0]["text"] == "The user wants a parameter."
    replies = [i["content"][0]["text"] for i in its if i.get("role") == "assistant"]
    assert "thinking-content" not in replies[0] and replies[0].startswith("Change `greet()`")
    skipped = session.origin["skippedRecords"]
    assert skipped["architect handoff to the editor (repeats the reply)"] == 1
    assert skipped["answer to an aider prompt (not model input)"] == 1
    assert [f.text for f in facts_of(session, "file_modified")] == ["app.py"]


def test_aider_file_not_found_takes_a_file_out_of_the_modified_set():
    history = (
        "\n# aider chat started at 2025-12-03 14:43:45\n\n#### make a page\n\nHere.\n\n"
        "> Applied edit to frontend/display.ts\n\n#### debug the labels\n"
        "> /Users/a/proj/frontend/display.ts: file not found error\n"
        "> Dropping frontend/display.ts from the chat.\n\nLet me look.\n"
    )
    (session,) = import_bytes("aider", history.encode(), ".aider.chat.history.md")
    (fact,) = facts_of(session, "file_modified")
    assert fact.text == "frontend/display.ts" and fact.status == "superseded"
    assert fact.attributes["deletedAt"]


def test_claude_document_and_other_user_blocks_are_kept_as_text():
    records = claude_21_records()
    records[2]["message"]["content"] = [
        {"type": "text", "text": "Summarise the spec"},
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "SPEC"},
        },
        {"type": "tool_reference", "tool_name": "Grep"},
    ]
    session, *_ = import_bytes("claude-code", jsonl(records), "d.jsonl")
    texts = [b["text"] for b in items(session)[0]["content"]]
    assert texts[:2] == ["Summarise the spec", "SPEC"] and "tool_reference" in texts[2]


def test_claude_queued_command_attachment_is_a_user_message():
    records = claude_21_records()
    records[7]["attachment"] = {"type": "queued_command", "prompt": "also run lint"}
    session, *_ = import_bytes("claude-code", jsonl(records), "q.jsonl")
    users = [i["content"][0]["text"] for i in items(session) if i.get("role") == "user"]
    assert users == ["Fix the failing test", "also run lint"]
    assert session.origin["loss"]["attachment"] == {"records": 1, "entries": 1, "skipped": {}}


def test_claude_chain_gap_continues_from_the_record_before():
    """A parent that is not in the file (a resumed or pruned session) must not cut the
    history before it off."""
    records = claude_21_records()
    records[5]["parentUuid"] = "not-in-this-file"  # the tool_result's parent
    session, *_ = import_bytes("claude-code", jsonl(records), "g.jsonl")
    assert [i["type"] for i in items(session)][:3] == ["message", "reasoning", "function_call"]
    assert session.origin["chainGaps"] == 1


def test_codex_cli_077_rollout_prompt_is_kept_once_and_is_the_goal():
    """Shaped on a Codex CLI 0.77 rollout: AGENTS.md instructions and the environment
    context as user items, the prompt as a response_item and again as an event_msg."""
    prompt = "can you check whether the notes are clear enough to plan the migration?"
    records = [
        _line("session_meta", {"id": "019b0000-0000-7000-8000-000000000077", "cwd": "/w",
                               "originator": "codex_cli_rs", "cli_version": "0.77.0"}),
        _line("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>x"}]}),
        _line("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "<environment_context>\n  <cwd>/w</cwd>"}]}),
        _line("response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": prompt}]}),
        _line("event_msg", {"type": "user_message", "message": prompt, "images": []}),
        _line("turn_context", {"cwd": "/w", "model": "gpt-5.2-codex"}),
        _line("response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": "Mostly; two gaps."}]}),
    ]  # fmt: skip
    (session,) = import_bytes("codex", jsonl(records), "rollout-077.jsonl")
    users = [i for i in items(session) if i.get("role") == "user"]
    assert len(users) == 3 and users[2]["content"][0]["text"] == prompt
    (goal,) = facts_of(session, "goal")
    assert goal.text == prompt
    assert session.origin["loss"]["event_msg:user_message"]["entries"] == 0


def test_real_claude_2_0_46_excerpt_with_an_inline_subagent():
    path = DATA / "claude-code-real" / "sidechain_integrated.jsonl"
    with pytest.raises(InputError) as exc:
        import_source("claude-code", path)
    assert exc.value.line == 5 and exc.value.value == "toolu_011V1hetiJ3pC79EoLTY53Ni"
    main, side = import_source("claude-code", path, ImportOptions(lenient=True)).sessions
    check_session(main)
    assert [i["type"] for i in items(main)] == ["function_call", "function_call_output", "message"]
    assert main.origin["chainGaps"] == 1  # its first parent is outside the excerpt
    assert side.name == "sidechain_integrated.sidechain-sidechain"
    assert [i.get("name") for i in items(side)] == [None, "Grep"]
    assert side.origin["loss"]["user"]["skipped"] == {"invalid": 1}
