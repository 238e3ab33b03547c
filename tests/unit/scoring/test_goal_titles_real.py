"""An imported session's goal, as an instrument with known answers.

The 12 real sessions in tests/data/importers/real and corpora/swe-agent-real whose first
message hands the agent an issue or PR text (OpenHands, SWE-agent, SWE-Gym, SWE-smith) get the
text's title as their goal (soba_bench.corpora.importers.facts.task_title). Against it, for
each session, three capsule goals written by hand for this test without running the matcher:
the task stated as a summary would state it (its fix, in other words); another session's task
(the next row's); and a change to the same component that is not the task. Through the
scorers' own reading (retention.label_of on a capsule view) the default matcher keeps all 12
stated tasks and neither kind of wrong one but 1 of 12 same-component changes; the whole
message, the goal before, was kept for none of the 12 stated tasks. An issue title states the
problem and a summary its fix, so without ``attributes.states = "problem"`` 3 of the 12 read
as contradicted. Pinned as measured (stop 49)."""

from __future__ import annotations

from pathlib import Path

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.corpora.truth import Fact
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.matchers import DEFAULT_MATCHER
from soba_bench.scoring.retention import label_of
from soba_bench.scoring.views import capsule_view
from tests.unit.scoring.test_retention import capsule

ROOT = Path(__file__).parents[3]
REAL = ROOT / "tests" / "data" / "importers" / "real"
SOURCES = (
    ("openai-messages", REAL / "openai-messages", None),
    ("openhands", REAL / "openhands", None),
    ("text-tools", REAL / "text-tools", None),
    ("hf", REAL / "hf", ImportOptions(hf_mapping="SWE-bench/SWE-smith-trajectories")),
    ("swe-agent", ROOT / "corpora" / "swe-agent-real", None),
)
# title the importer derives -> (the task as a summary states it, a change to the same
# component that is not the task)
TASKS = {
    "attrs & dataclasses false positive error with slots=True when subclassing from non-slots "
    "base class": (
        "Fix the false positive mypy reports for attrs and dataclasses with slots=True that "
        "subclass a non-slots base class",
        "Add support for frozen=True to mypy's attrs plugin",
    ),
    "SSIMLoss result does not have gradient": (
        "Make SSIMLoss return a result that has a gradient",
        "Add a reduction parameter to SSIMLoss",
    ),
    "`convert_to_contiguous` converts tuple to list, leading to expansion in `list_data_collate`": (
        "Stop convert_to_contiguous from converting tuples to lists, which causes "
        "list_data_collate to expand them",
        "Make list_data_collate handle dictionaries of tensors",
    ),
    "ponyc segfaults when trying to match using a single element tuple form": (
        "Fix the ponyc segfault when matching with a single-element tuple form",
        "Speed up ponyc's compilation of match expressions",
    ),
    "CommandParser ignores parent default options when parsing leaf command": (
        "Make CommandParser apply the parent command's default options when parsing a leaf command",
        "Add a help option to every leaf command of CommandParser",
    ),
    "f-string formatting with empty format string doesn't match str() representation": (
        "Make an f-string with an empty format string match the str() representation of an "
        "Arrow object",
        "Add a humanize format option to Arrow's f-string formatting",
    ),
    "String formatting issue in chunked update operations": (
        "Fix the string formatting TypeError in chunked update operations with multiple rows",
        "Add logging of the rows written by chunked update operations",
    ),
    "Unexpected Behavior in IntermediateFileSlice Trimming": (
        "Fix the unexpected trimming behaviour of IntermediateFileSlice",
        "Document the IntermediateFileSlice class and its trimming",
    ),
    "`is_coroutine` function incorrectly identifies generator functions as coroutine functions": (
        "Fix is_coroutine so generator functions are not identified as coroutine functions",
        "Make is_coroutine faster when profiling large modules",
    ),
    "Missing primary workgroup and prepared statements functionality in Athena": (
        "Add the default primary workgroup and prepared statements support to moto's Athena mock",
        "Add pagination to list_work_groups in moto's Athena mock",
    ),
    "TimeDelta serialization precision": (
        "Fix the precision of TimeDelta serialization (345 ms serialized as 344)",
        "Add a TimeDelta field option that serializes to ISO 8601 strings",
    ),
    "Pixel Representation attribute should be optional for pixel data handler": (
        "Make the Pixel Representation attribute optional in the pixel data handler",
        "Add support for JPEG 2000 compressed pixel data to the pixel data handler",
    ),
}


@pytest.fixture(scope="module")
def goals() -> list[tuple[Fact, str]]:
    """(the goal fact, the whole first message) of every session that hands over a task."""
    out = []
    for fmt, folder, options in SOURCES:
        for imported in import_source(fmt, str(folder), options).sessions:
            (goal,) = [f for f in imported.facts if f.kind == "goal"]
            if goal.attributes.get("states") == "problem":
                (line,) = [x for x in imported.lines if x.get("id") == goal.introduced_at]
                message = "".join(b.get("text", "") for b in line["item"]["content"])
                out.append((goal, message))
    return out


def _labels(facts: list[Fact], said: list[str], matcher: str) -> dict[str, int]:
    config = MatchConfig(prose_matcher=matcher)
    labels = [
        label_of(fact, capsule_view(capsule(goal=goal), config))
        for fact, goal in zip(facts, said, strict=True)
    ]
    return {label: labels.count(label) for label in sorted(set(labels))}


def test_every_wrapped_task_gets_its_title_as_the_goal(goals):
    assert sorted(goal.text for goal, _ in goals) == sorted(TASKS)


@pytest.mark.parametrize(
    ("matcher", "stated", "another_task", "same_component"),
    [
        (DEFAULT_MATCHER, {"entailed": 12}, {"absent": 12}, {"absent": 11, "entailed": 1}),
        ("verdict", {"absent": 1, "entailed": 11}, {"absent": 12}, {"absent": 12}),
    ],
)
def test_a_stated_task_is_kept_and_another_is_not(goals, matcher, stated, another_task,
                                                  same_component):  # fmt: skip
    facts = [goal for goal, _ in goals]
    tasks = [TASKS[f.text] for f in facts]
    assert _labels(facts, [t[0] for t in tasks], matcher) == stated
    shifted = [t[0] for t in tasks[1:] + tasks[:1]]  # the next session's task
    assert _labels(facts, shifted, matcher) == another_task
    assert _labels(facts, [t[1] for t in tasks], matcher) == same_component


def test_the_whole_message_as_the_goal_was_kept_for_no_stated_task(goals):
    messages = [Fact(g.id, "goal", message) for g, message in goals]
    stated = [TASKS[g.text][0] for g, _ in goals]
    assert all(len(m.text) > 1500 for m in messages)
    assert _labels(messages, stated, DEFAULT_MATCHER) == {"absent": 12}


def test_a_fix_stated_against_a_problem_title_is_no_contradiction(goals):
    unflagged = [Fact(g.id, "goal", g.text) for g, _ in goals]
    stated = [TASKS[g.text][0] for g, _ in goals]
    # "SSIMLoss result does not have gradient" -> "... return a result that has a gradient"
    assert _labels(unflagged, stated, DEFAULT_MATCHER) == {"contradicted": 3, "entailed": 9}
