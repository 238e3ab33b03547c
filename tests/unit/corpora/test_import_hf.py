"""hf importer through datasets.load_dataset on local parquet / JSON files (no network)."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.corpora.importers.hf import HF_MAPPINGS, MissingExtraError, split_action
from soba_bench.errors import InputError, UnknownNameError
from tests.unit.corpora.helpers import check_session, facts_of, items, tree_hash

SYSTEM = "SETTING: You are an autonomous programmer, and you're working directly in the command line with a special interface."  # noqa: E501
ISSUE = (
    "We're currently solving the following issue within our repository. Here's the issue "
    "text:\nISSUE:\n`chunked([1, 2, 3], 2)` drops the last element.\n\nINSTRUCTIONS: ..."
)


def step(role: str, text: str, system_prompt: str = "") -> dict:
    return {
        "cutoff_date": "2024-06-01",
        "mask": role != "ai",
        "role": role,
        "system_prompt": system_prompt,
        "text": text,
    }


STATE = "\n(Open file: /iterkit/iterkit/core.py)\n(Current directory: /iterkit)\nbash-$"
EDIT = "edit 12:12\n    for i in range(0, len(xs), size):\nend_of_edit"


def nebius_rows() -> list[dict]:
    trajectory = [
        step("system", SYSTEM, SYSTEM),
        step("user", ISSUE + "\n(Open file: n/a)\n(Current directory: /iterkit)\nbash-$"),
        step("ai", "Let me open the implementation.\n```\nopen iterkit/core.py\n```"),
        step(
            "user",
            "[File: /iterkit/iterkit/core.py (40 lines total)]\n"
            "12:    for i in range(0, len(xs) - size, size):" + STATE,
        ),
        step("ai", f"The range stops one chunk early.\n```\n{EDIT}\n```"),
        step("user", "File updated." + STATE),
        step("ai", "Now run the tests.\n```\npytest tests/test_core.py -q\n```"),
        step("user", "Error: 1 failed, 4 passed" + STATE),
        step("ai", "Done.\n```\nsubmit\n```"),
    ]
    return [
        {
            "instance_id": "iterkit__iterkit-17",
            "model_name": "swe-agent-llama-70b",
            "target": False,
            "trajectory": trajectory,
            "exit_status": "submitted",
            "generated_patch": "diff --git ...",
            "eval_logs": "",
        },
        {
            "instance_id": "iterkit__iterkit-18",
            "model_name": "swe-agent-llama-70b",
            "target": True,
            "trajectory": trajectory[:3],
            "exit_status": "exit_cost",
            "generated_patch": "",
            "eval_logs": "",
        },
    ]


@pytest.fixture()
def nebius_parquet(tmp_path):
    path = tmp_path / "data" / "train-00000-of-00001.parquet"
    path.parent.mkdir()
    pq.write_table(pa.Table.from_pylist(nebius_rows()), path)
    return path


def test_nebius_mapping_on_local_parquet(nebius_parquet):
    (nebius_parquet.parent / "dataset_info.json").write_text("{}")  # ignored next to parquet
    before = tree_hash(nebius_parquet.parent)
    options = ImportOptions(hf_mapping="nebius/SWE-agent-trajectories")
    result = import_source("hf", nebius_parquet.parent, options)
    assert tree_hash(nebius_parquet.parent) == before
    assert [s.name for s in result.sessions] == [
        "iterkit__iterkit-17__swe-agent-llama-70b",
        "iterkit__iterkit-18__swe-agent-llama-70b",
    ]
    assert "mapping nebius/SWE-agent-trajectories" in result.description
    first = result.sessions[0]
    check_session(first)
    its = items(first)
    assert its[0]["role"] == "system" and its[0]["content"][0]["text"] == SYSTEM
    assert its[2] == {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "Let me open the implementation."}],
    }
    assert json.loads(its[3]["arguments"]) == {"command": "open iterkit/core.py"}
    assert its[4]["output"].startswith("[File: /iterkit/iterkit/core.py")
    assert first.origin["columns"]["exit_status"] == "submitted"
    assert first.origin["mapping"] == "nebius/SWE-agent-trajectories"
    assert [f.text for f in facts_of(first, "file_read")] == ["/iterkit/iterkit/core.py"]
    assert [f.text for f in facts_of(first, "file_modified")] == ["/iterkit/iterkit/core.py"]
    (blocker,) = facts_of(first, "blocker")
    assert blocker.text.startswith("`pytest tests/test_core.py -q` failed")
    assert facts_of(first, "goal")[0].text == "`chunked([1, 2, 3], 2)` drops the last element."
    limited = import_source(
        "hf", nebius_parquet, ImportOptions(hf_mapping="nebius/SWE-agent-trajectories", hf_limit=1)
    )
    assert len(limited.sessions) == 1
    again = import_source("hf", nebius_parquet.parent, options)
    assert [s.lines for s in again.sessions] == [s.lines for s in result.sessions]


def test_openai_messages_jsonl_rows(tmp_path):
    rows = [
        {
            "id": "conv-1",
            "messages": [
                {"role": "user", "content": "Run the linter."},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "t1",
                            "type": "function",
                            "function": {
                                "name": "bash",
                                "arguments": '{"command": "ruff check ."}',
                            },
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "t1", "content": "All checks passed!"},
                {"role": "assistant", "content": "Clean."},
            ],
        },
    ]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    (session,) = import_source("hf", path).sessions  # default mapping: openai-messages
    check_session(session)
    assert session.name == "conv-1"
    assert [i["type"] for i in items(session)] == [
        "message",
        "function_call",
        "function_call_output",
        "message",
    ]
    assert [f.text for f in facts_of(session, "verification")] == ["ruff check ."]


def test_sharegpt_with_column_override(tmp_path):
    rows = [
        {
            "conv": [
                {"from": "system", "value": "Be brief."},
                {"from": "human", "value": "2+2?"},
                {"from": "gpt", "value": "4"},
            ],
            "uid": "q1",
        }
    ]
    path = tmp_path / "share.json"
    path.write_text(json.dumps(rows))
    options = ImportOptions(hf_mapping="sharegpt", hf_columns=(("messages", "conv"), ("id", "uid")))
    (session,) = import_source("hf", path, options).sessions
    assert session.name == "q1"
    assert [i["role"] for i in items(session)] == ["system", "user", "assistant"]
    with pytest.raises(InputError, match="unknown column mapping key"):
        import_source("hf", path, ImportOptions(hf_columns=(("speaker", "x"),)))
    with pytest.raises(UnknownNameError, match="sharegpt"):
        import_source("hf", path, ImportOptions(hf_mapping="alpaca"))


def test_bad_rows_are_errors_or_counted(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text(
        json.dumps({"id": "a", "messages": "not a list"})
        + "\n"
        + json.dumps({"id": "b", "messages": [{"role": "user", "content": "ok"}]})
        + "\n"
    )
    with pytest.raises(InputError) as exc:
        import_source("hf", path)
    assert exc.value.field == "rows[0].messages" and exc.value.expected == "list"
    (session,) = import_source("hf", path, ImportOptions(lenient=True)).sessions
    assert session.name == "b" and session.origin["issues"]["skipped"] == 1
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 this is not parquet")
    with pytest.raises(InputError, match="cannot load dataset"):
        import_source("hf", broken)


def test_split_action_takes_the_last_code_block():
    text = "Thought.\n```python\nprint(1)\n```\nMore.\n```\nls -la\n```\n"
    assert split_action(text) == ("Thought.\n```python\nprint(1)\n```\nMore.", "ls -la")
    assert split_action("no block") == ("no block", None)
    assert "nebius/SWE-agent-trajectories" in HF_MAPPINGS


def test_without_datasets_the_error_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "datasets", None)
    path = tmp_path / "rows.jsonl"
    path.write_text("{}\n")
    with pytest.raises(MissingExtraError, match=r"pip install 'soba-bench\[hf\]'"):
        import_source("hf", path)


def test_importing_soba_bench_does_not_import_datasets():
    code = (
        "import sys, soba_bench, soba_bench.corpora.importers, soba_bench.cli.main\n"
        "soba_bench.cli.main.build_parser()\n"
        "assert 'datasets' not in sys.modules and 'pyarrow' not in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
