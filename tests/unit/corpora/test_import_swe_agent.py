"""swe-agent importer on the three real SWE-agent trajectories, plus edge cases."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import ImportOptions, import_bytes, import_source
from soba_bench.corpora.importers.writer import write_corpus
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import InputError
from soba_bench.replay.simulator import replay_session
from soba_bench.session import read_session
from tests.unit.corpora.helpers import (
    REPLAY_CONFIG,
    SWE_REAL,
    check_session,
    facts_of,
    items,
    tree_hash,
)

REAL = sorted(SWE_REAL.glob("*.traj"))


@pytest.fixture(scope="module")
def imported():
    result = import_source("swe-agent", SWE_REAL)
    return {s.name: s for s in result.sessions}


def test_all_three_real_files_import(imported):
    assert sorted(imported) == [
        "ctf-crypto-katy",
        "marshmallow-1867.function_calling",
        "pydicom-1458.gpt4",
    ]
    for session in imported.values():
        check_session(session)
        assert session.origin["exitStatus"] == "submitted"


def test_history_content_is_kept(imported):
    data = json.loads((SWE_REAL / "pydicom-1458.gpt4.traj").read_text())
    its = items(imported["pydicom-1458.gpt4"])
    assert (
        its[0]["role"] == "system" and its[0]["content"][0]["text"] == data["history"][0]["content"]
    )
    demo = data["history"][1]
    assert demo["is_demo"] is True and its[1]["content"][0]["text"] == demo["content"]
    call = its[4]
    assert call["type"] == "function_call" and call["name"] == "bash"
    assert json.loads(call["arguments"]) == {"command": "create reproduce_bug.py"}
    assert its[5]["output"] == data["history"][4]["content"]
    # the last action's observation is only in the trajectory
    assert its[-1]["output"] == data["trajectory"][-1]["observation"]
    assert imported["pydicom-1458.gpt4"].origin["observationFromTrajectory"] == 1


def test_goal_is_the_task_not_the_demonstration(imported):
    (goal,) = facts_of(imported["pydicom-1458.gpt4"], "goal")
    # the task's issue title, not the demonstration's (which comes first in the history)
    assert goal.text == "Pixel Representation attribute should be optional for pixel data handler"
    assert goal.attributes["states"] == "problem"


def test_function_calling_variant_keeps_ids_and_pairs_reused_ids(imported):
    session = imported["marshmallow-1867.function_calling"]
    its = items(session)
    calls = [i for i in its if i["type"] == "function_call"]
    # create names its file: SOBA's write; edit works on the open file, named nowhere in
    # its arguments, so it keeps its name (soba_tools moves a path, never adds one)
    assert [c["name"] for c in calls][:3] == ["write", "edit", "bash"]
    assert json.loads(calls[0]["arguments"]) == {"path": "reproduce.py"}
    assert session.origin["toolNames"] == {"create -> write": 1, "open -> read": 1}
    assert calls[0]["call_id"] == "call_cyI71DYnRdoLHWwtZgIaW2wr"
    assert session.origin["renamedCallIds"] == 5  # the demo reuses ids; each made unique
    assert len({c["call_id"] for c in calls}) == len(calls) == 11
    last_call = None
    for item in its:  # every output answers the call just before it
        if item["type"] == "function_call":
            last_call = item["call_id"]
        elif item["type"] == "function_call_output":
            assert item["call_id"] == last_call


def test_files_and_commands(imported):
    session = imported["marshmallow-1867.function_calling"]
    assert {f.text for f in facts_of(session, "file_read")} == {
        "/testbed/src/marshmallow/fields.py"
    }
    assert {f.text for f in facts_of(session, "file_modified")} == {
        "/testbed/reproduce.py",
        "/testbed/src/marshmallow/fields.py",
    }
    # `rm reproduce.py` takes the script out of the modified set.
    (script,) = [f for f in facts_of(session, "file_modified") if f.text == "/testbed/reproduce.py"]
    assert script.status == "superseded" and script.attributes["deletedAt"]
    # Reproduction scripts, `ls` and `rm` run commands but verify nothing.
    assert facts_of(session, "verification") == []
    ctf = imported["ctf-crypto-katy"]
    assert facts_of(ctf, "verification") == []


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.stem)
def test_real_sessions_replay_and_compact(path, tmp_path):
    before = tree_hash(SWE_REAL)
    corpus = write_corpus(import_source("swe-agent", path), tmp_path)
    assert tree_hash(SWE_REAL) == before  # inputs never modified
    (written,) = corpus.sessions
    session = read_session(tmp_path / written.file)
    trace = replay_session(session, build_engine_config(REPLAY_CONFIG))
    summary = trace.summary()
    assert summary["capsules"] > 0 and summary["reclaimedTokens"] > 0


def test_trajectory_only_file():
    data = {
        "trajectory": [
            {
                "action": "ls\n",
                "observation": "setup.py\nsrc\n",
                "thought": "Look around.",
                "response": "Look around.\n```\nls\n```",
            },
            {
                "action": "open src/app.py\n",
                "observation": "(Open file: /repo/src/app.py)",
                "thought": "",
                "response": "",
            },
        ],
        "info": {"exit_status": "early_exit"},
    }
    (session,) = import_bytes("swe-agent", json.dumps(data).encode(), "x.traj")
    check_session(session)
    assert [i["type"] for i in items(session)] == [
        "message",
        "function_call",
        "function_call_output",
        "function_call",
        "function_call_output",
    ]
    assert [f.text for f in facts_of(session, "file_read")] == ["src/app.py"]


def test_malformed_history_names_the_field():
    data = json.loads((SWE_REAL / "pydicom-1458.gpt4.traj").read_text())
    data["history"][3]["role"] = 7
    with pytest.raises(InputError) as exc:
        import_bytes("swe-agent", json.dumps(data).encode(), "p.traj")
    assert exc.value.path == "p.traj" and exc.value.field == "history[3].role"
    assert exc.value.value == 7 and exc.value.expected == "string"
    (session,) = import_bytes(
        "swe-agent", json.dumps(data).encode(), "p.traj", ImportOptions(lenient=True)
    )
    assert session.origin["issues"]["skipped"] == 1
    with pytest.raises(InputError, match="history"):
        import_bytes("swe-agent", b'{"info": {}}', "e.traj")
    with pytest.raises(InputError, match=r"p\.traj:1: not valid JSON"):
        import_bytes("swe-agent", b'{"history": [', "p.traj")
