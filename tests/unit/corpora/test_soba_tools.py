"""Imported calls in SOBA's own tool vocabulary (soba_bench.corpora.importers.soba_tools): the
rules on hand-made calls, and on the real logs in tests/data/importers/real what they are for,
SOBA's engine listing an imported session's files and checks in its capsules' artifacts (it
lists none when the source's names are kept)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.corpora.importers.facts import ToolUse
from soba_bench.corpora.importers.soba_tools import as_soba_call
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import InputError
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"
# A window small enough that SOBA compacts the real logs (the longest hold 30-60k tokens).
COMPACTING = {
    "contextWindow": 32000,
    "maxOutputTokens": 1024,
    "compaction": {
        "keepRecentTokens": 1500,
        "minTokensForAutoCompact": 2000,
        "minReclaimableTokens": 500,
    },
}


@pytest.mark.parametrize(
    ("name", "arguments", "use", "expected"),
    [
        # Claude Code: the path moves under SOBA's key, the rest is kept
        ("Read", {"file_path": "/r/a.py", "limit": 5}, ToolUse(reads=("/r/a.py",)),
         ("read", {"path": "/r/a.py", "limit": 5})),
        ("Edit", '{"file_path":"a.py","old_string":"x"}', ToolUse(modifies=("a.py",)),
         ("edit", {"path": "a.py", "old_string": "x"})),
        ("Write", {"file_path": "a.py", "content": ""}, ToolUse(modifies=("a.py",)),
         ("write", {"path": "a.py", "content": ""})),
        ("Bash", {"command": "pytest -q", "description": "run"}, ToolUse(command="pytest -q"),
         ("bash", {"command": "pytest -q", "description": "run"})),
        # an editor: view reads, create writes, str_replace edits; "path" is kept as written
        ("str_replace_editor", '{"command": "view", "path": "a.py"}', ToolUse(reads=("a.py",)),
         ("read", '{"command": "view", "path": "a.py"}')),
        ("str_replace_editor", {"command": "create", "path": "a.py"}, ToolUse(modifies=("a.py",)),
         ("write", {"command": "create", "path": "a.py"})),
        # Codex: an argv list is SOBA's one command string
        ("exec_command", {"cmd": ["bash", "-lc", "npm test"], "workdir": "/r"},
         ToolUse(command="npm test"), ("bash", {"command": "npm test", "workdir": "/r"})),
        # a path the importer resolved: the key is renamed, the agent's own value kept
        ("create", {"filename": "reproduce.py"}, ToolUse(modifies=("/repo/reproduce.py",)),
         ("write", {"path": "reproduce.py"})),
        # already SOBA's
        ("read", {"path": "a.py"}, ToolUse(reads=("a.py",)), None),
        ("bash", '{"command":"ls"}', ToolUse(command="ls"), None),
        # nothing SOBA has a tool for, or nothing to move: kept as the source wrote it
        ("apply_patch", {"input": "*** Update File: a.py"}, ToolUse(modifies=("a.py",)), None),
        ("apply_patch", {"input": "..."}, ToolUse(modifies=("a.py", "b.py")), None),
        ("write_stdin", {"session_id": 3, "chars": ""}, ToolUse(command="npm test"), None),
        ("Grep", {"pattern": "x", "path": "src"}, ToolUse(), None),
        ("Read", "not json", ToolUse(reads=("a.py",)), None),
        ("rm_tool", {"path": "a.py"}, ToolUse(deletes=("a.py",)), None),
    ],
)  # fmt: skip
def test_calls_that_are_sobas_tools_are_written_as_them(name, arguments, use, expected):
    assert as_soba_call(name, arguments, use) == expected


def test_an_unknown_choice_is_refused_naming_the_field():
    with pytest.raises(InputError) as raised:
        ImportOptions(tool_names="claude")
    assert "tool_names" in str(raised.value) and "soba or source" in str(raised.value)


def _ledgers(fmt: str, tool_names: str) -> tuple[set[str], set[str], dict]:
    """(files and checks SOBA's capsules list, files the truth names, the origins' renames)
    over the format's real logs, each replayed in a window small enough to compact them."""
    engine = build_engine_config(COMPACTING)
    listed: set[str] = set()
    truth: set[str] = set()
    renamed: dict[str, int] = {}
    for imported in import_source(
        fmt, str(REAL / fmt), ImportOptions(tool_names=tool_names)
    ).sessions:
        lines = tuple(Entry(line["type"], line) for line in imported.lines)
        trace = replay_session(Session(lines), engine, ReplayOptions())
        for capsule in trace.capsules:
            artifacts = capsule["artifacts"]
            listed |= set(artifacts["readFiles"]) | set(artifacts["modifiedFiles"])
            listed |= {f"$ {c}" for c in artifacts["verificationCommands"]}
        truth |= {f.attributes["path"] for f in imported.facts if f.kind.startswith("file_")}
        for label, n in imported.origin.get("toolNames", {}).items():
            renamed[label] = renamed.get(label, 0) + n
        for line in imported.lines:
            item = line.get("item") or {}
            if item.get("type") == "function_call" and item["name"] in ("read", "write", "edit"):
                assert isinstance(json.loads(item["arguments"]).get("path"), str)
    return listed, truth, renamed


@pytest.mark.parametrize("fmt", ["claude-code", "codex", "openhands", "openai-messages"])
def test_sobas_capsules_list_a_real_sessions_files_only_in_its_vocabulary(fmt):
    listed, truth, renamed = _ledgers(fmt, "soba")
    assert renamed  # the origin says what was renamed
    if fmt == "codex":
        # Codex reads with its shell (sed, cat) and edits with patches, which SOBA has no
        # tool for: what its capsules list is its checks
        assert any(c.startswith("$ ") for c in listed)
    else:
        # SOBA also lists what the truth leaves out (a folder viewed, a read that failed)
        assert len(listed & truth) >= max(2, len(truth) // 3), (listed, truth)
    kept, _, none = _ledgers(fmt, "source")
    assert kept == set() and none == {}
