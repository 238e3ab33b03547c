"""aider importer: chat history Markdown with several sessions per file."""

from __future__ import annotations

import pytest

from soba_bench.corpora.importers import import_bytes, import_source
from soba_bench.errors import InputError
from tests.unit.corpora.helpers import DATA, check_session, facts_of, items

HISTORY = DATA / "aider" / ".aider.chat.history.md"


@pytest.fixture(scope="module")
def sessions():
    return import_source("aider", DATA / "aider").sessions


def test_one_session_per_chat_start(sessions):
    assert [s.name for s in sessions] == ["aider.chat.history-001", "aider.chat.history-002"]
    assert [s.lines[0]["timestamp"] for s in sessions] == [
        "2024-08-14T16:02:51.000Z",
        "2024-08-15T09:10:04.000Z",
    ]
    for session in sessions:
        check_session(session)


def test_user_reply_and_tool_blocks(sessions):
    its = items(sessions[0])
    assert its[0]["role"] == "user" and its[0]["content"][0]["text"] == (
        "cart.total() ignores the discount code; apply `self.discount` as a percentage\n"
        "and round to 2 decimals."
    )
    reply = its[1]["content"][0]["text"]
    assert "<<<<<<< SEARCH" in reply and ">>>>>>> REPLACE\n```" in reply  # kept whole
    assert its[2]["name"] == "apply_edits" and its[3]["output"].startswith("Tokens: 1,913 sent")
    run = its[4]
    assert run["name"] == "bash" and '"python -m pytest tests/test_cart.py -q"' in run["arguments"]
    assert "1 failed, 1 passed" in its[5]["output"]
    assert sessions[0].origin["skippedRecords"] == {"command": 1, "consoleOutput": 2}


def test_exact_token_counts_only(sessions):
    usage = [ln for ln in sessions[0].lines if ln["type"] == "flight_record"]
    assert [u["data"]["payload"]["inputTokens"] for u in usage] == [1913]  # "2.4k" is rounded
    second = [ln for ln in sessions[1].lines if ln["type"] == "flight_record"]
    assert [u["data"]["payload"]["inputTokens"] for u in second] == [812]


def test_facts(sessions):
    first = sessions[0]
    assert [f.text for f in facts_of(first, "file_read")] == ["/home/lee/shop/shop/cart.py"]
    (modified,) = facts_of(first, "file_modified")
    assert modified.text == "shop/cart.py" and len(modified.entry_ids) == 2
    (run,) = facts_of(first, "verification")
    assert run.text == "python -m pytest tests/test_cart.py -q"
    assert [r["result"] for r in run.attributes["runs"]] == ["failed", "passed"]
    assert run.status == "resolved"
    (blocker,) = facts_of(first, "blocker")
    assert blocker.status == "resolved" and "1 failed, 1 passed" in blocker.text
    assert facts_of(sessions[1], "goal")[0].text.startswith("what does Cart.remove do")


def test_empty_and_invalid_input(tmp_path):
    (tmp_path / ".aider.chat.history.md").write_text("\n# aider chat started at x\n\n")
    with pytest.raises(InputError, match="nothing to import: no user or model text"):
        import_source("aider", tmp_path)
    with pytest.raises(InputError, match="source not found"):
        import_source("aider", tmp_path / "missing")
    with pytest.raises(InputError, match=r"h\.md: nothing to import"):
        import_bytes("aider", b"\n\n", "h.md")
    with pytest.raises(InputError, match=r"h\.md:2: invalid UTF-8"):
        import_bytes("aider", b"#### hi\n\xff\xfe\n", "h.md")
