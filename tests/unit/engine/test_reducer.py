"""The structured-state reducer (engine.md h.3): answered ``ask_user`` calls become decisions
and supersede stale "waiting for the user" entries. Covers test-scenarios.md 5.1 item 12 and
5.2 item 21 at the reducer level, plus the pattern semantics (ASCII ``\\b`` quirk included)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from soba_bench.engine.reducer import (
    Lexicon,
    answered_clarifications,
    is_superseded_wait,
    reconcile_structured_state,
)
from tests.builders import function_call, function_output

RATIONALE = "Structured ask_user response"


def state(**values: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "goal": "Map the engine",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    return {**base, **values}


def ask(
    question: Any, options: Any, output: Any, call_id: str = "call_ask"
) -> list[dict[str, Any]]:
    args = json.dumps({"question": question, "options": options}, ensure_ascii=False)
    return [function_call(call_id, "ask_user", args), function_output(call_id, output)]


SUBDIR_QUESTION = "Какую поддиректорию src/engine/ изучаем досконально?"
SUBDIR_OPTIONS = [
    {"id": "turn", "label": "turn/"},
    {"id": "verification", "label": "verification/"},
]
SCOPE_OPTIONS = [{"id": "turn", "label": "turn/"}, {"id": "all", "label": "all engine"}]


def test_no_answered_clarification_leaves_the_state_unchanged() -> None:
    before = state(pending=["Awaiting user selection"])
    assert reconcile_structured_state(before, []) is before
    unanswered = [function_call("c", "ask_user", json.dumps({"question": "q", "options": []}))]
    assert reconcile_structured_state(before, unanswered) is before


def test_5_1_item_12_ask_user_supersedes_stale_waits() -> None:
    before = state(
        inProgress=["Awaiting user selection of the subdirectory"],
        pending=["User must specify which subdirectory to inspect", "Survey other directories"],
        blockers=[
            "The specific subdirectory has not yet been provided by the user",
            "Network unavailable",
        ],
        nextSteps=["Ask the user to name the subdirectory", "Survey other directories"],
        completed=["Awaiting user input was handled"],
        constraints=["Wait for the user before writing"],
    )
    items = ask(
        SUBDIR_QUESTION, SUBDIR_OPTIONS, "User selected: turn/ (turn)", call_id="call_choose_subdir"
    )
    after = reconcile_structured_state(before, items)
    assert after["inProgress"] == []
    assert after["pending"] == ["Survey other directories"]
    assert after["blockers"] == ["Network unavailable"]
    assert after["nextSteps"] == ["Survey other directories"]
    assert after["decisions"] == [
        {
            "decision": f"Clarification answered: {SUBDIR_QUESTION} → turn/ (turn)",
            "rationale": RATIONALE,
        }
    ]
    # completed, constraints and goal are never touched.
    assert after["completed"] == before["completed"]
    assert after["constraints"] == before["constraints"]
    assert after["goal"] == "Map the engine"
    assert before["decisions"] == []  # the input state is not mutated


def test_5_2_item_21_model_state_is_reconciled_too() -> None:
    model_state = state(
        goal="Review",
        inProgress=["Awaiting user selection"],
        pending=["User must select a scope"],
        blockers=["Confirmation is required from the user"],
        nextSteps=["Ask the user to select a scope"],
    )
    after = reconcile_structured_state(
        model_state, ask("Choose the scope", SCOPE_OPTIONS, "User selected: turn/ (turn)")
    )
    assert (after["inProgress"], after["pending"], after["blockers"], after["nextSteps"]) == (
        [],
        [],
        [],
        [],
    )
    assert "Choose the scope → turn/ (turn)" in after["decisions"][0]["decision"]
    assert (
        after["decisions"][0]["decision"]
        == "Clarification answered: Choose the scope → turn/ (turn)"
    )


# ── answers ───────────────────────────────────────────────────────────────────────


@pytest.mark.parametrize(
    ("output", "answer"),
    [
        ("User selected: turn/ (turn)", "turn/ (turn)"),
        ("  user SELECTED:   turn/  \n", "turn/"),
        (
            "User selected: turn/\nOther details: only the loop\nand retries",
            "turn/; only the loop\nand retries",
        ),
        ("User selected: turn/\nOther details: \n x", "turn/; x"),
    ],
)
def test_answer_formats(output: str, answer: str) -> None:
    facts = answered_clarifications(ask("  Choose the scope  ", SCOPE_OPTIONS, output))
    assert [(f.question, f.answer) for f in facts] == [("Choose the scope", answer)]


@pytest.mark.parametrize(
    "output",
    [
        "The user cancelled",
        "User selected:",
        "User selected: turn/\nsomething else",
        # The output is trimmed first, so empty details leave a line the answer cannot span.
        "User selected: turn/\nOther details:   ",
        "Selected by user: turn/",
        ["User selected: turn/"],
    ],
)
def test_outputs_that_are_not_answers(output: Any) -> None:
    assert answered_clarifications(ask("Choose", SCOPE_OPTIONS, output)) == []


@pytest.mark.parametrize(
    "arguments",
    [
        "not json",
        json.dumps({"question": 7, "options": []}),
        json.dumps({"question": "q", "options": "turn"}),
        json.dumps({"options": []}),
        json.dumps(["q", []]),
        "null",
    ],
)
def test_unusable_ask_user_calls_are_ignored(arguments: str) -> None:
    items = [
        function_call("c", "ask_user", arguments),
        function_output("c", "User selected: turn/"),
    ]
    assert answered_clarifications(items) == []


def test_only_ask_user_calls_and_matching_call_ids_count() -> None:
    other = [
        function_call("c", "question", json.dumps({"question": "q", "options": []})),
        function_output("c", "User selected: x"),
    ]
    assert answered_clarifications(other) == []
    mismatched = [*ask("q", [], "User selected: a", call_id="c1")[:1]]
    mismatched.append(function_output("c2", "User selected: a"))
    assert answered_clarifications(mismatched) == []


def test_options_keep_only_objects_with_string_id_and_label() -> None:
    options = [{"id": "ok", "label": "Kept"}, {"id": 1, "label": "x"}, "raw", None, {"id": "no"}]
    facts = answered_clarifications(ask("q", options, "User selected: Kept"))
    assert facts[0].options == (("ok", "Kept"),)


def test_decisions_are_deduplicated_by_text_and_not_capped() -> None:
    existing = [{"decision": f"d{i}"} for i in range(12)]
    existing.append({"decision": "Clarification answered: Choose → turn/", "rationale": "old"})
    items = [
        *ask("Choose", SCOPE_OPTIONS, "User selected: turn/", call_id="a"),
        *ask("Choose", SCOPE_OPTIONS, "User selected: turn/", call_id="b"),
        *ask("Other question", SCOPE_OPTIONS, "User selected: all engine", call_id="c"),
    ]
    after = reconcile_structured_state(state(decisions=existing), items)
    assert len(after["decisions"]) == 14
    assert after["decisions"][12]["rationale"] == "old"
    assert after["decisions"][13] == {
        "decision": "Clarification answered: Other question → all engine",
        "rationale": RATIONALE,
    }


# ── superseded waits ──────────────────────────────────────────────────────────────


def facts_for(question: str, options: list[dict[str, str]], answer: str):
    return answered_clarifications(ask(question, options, f"User selected: {answer}"))


@pytest.mark.parametrize(
    "value",
    [
        "Awaiting user selection",
        "await the user",
        "Waiting for user feedback",
        "The user needs to decide",
        "User must confirm the plan",
        "Ask user which file",
        "Prompt the user for a name",
        "Confirmation needed",
        "Scope has not been selected",
        "The path hasn't been provided yet",
        "Not yet specified by anyone",
        "Continue once the scope is named",
        "Proceed after selection",
        "Ожидаем ответа пользователя",
        "Пользователь должен выбрать каталог",
        "Уточнить у пользователя каталог",
    ],
)
def test_explicit_user_waits_are_superseded(value: str) -> None:
    facts = facts_for("Unrelated", [], "something")
    assert is_superseded_wait(value, facts, Lexicon()) is True


@pytest.mark.parametrize(
    "value",
    [
        "Survey other directories",
        "awaitinguser",  # \b needs a word boundary
        "Awaiting\nuser input",  # '.' does not cross a line break
        "Specify the deadline",  # a clarification verb but no topic overlap
        "Select turn",  # overlap needs tokens of at least 5 characters
    ],
)
def test_values_that_are_kept(value: str) -> None:
    facts = facts_for("Which directory?", [{"id": "turn", "label": "turn/"}], "turn/")
    assert is_superseded_wait(value, facts, Lexicon()) is False


def test_clarification_verb_with_topic_overlap_is_superseded() -> None:
    facts = facts_for("Which subdirectory should we inspect?", [], "turn/")
    assert is_superseded_wait("Specify the subdirectory", facts, Lexicon()) is True
    # Prefix overlap: "subdir" is a prefix of "subdirectory".
    assert is_superseded_wait("Clarify subdir", facts, Lexicon()) is True
    # Overlap with an option label or id (underscores become spaces).
    options = [{"id": "engine_loop", "label": "Loop"}]
    facts = facts_for("Pick one", options, "Loop")
    assert is_superseded_wait("Choose engine module", facts, Lexicon()) is True
    assert is_superseded_wait("Выбрать модуль engine", facts, Lexicon()) is True


def test_last_russian_pattern_needs_an_ascii_word_boundary_js_quirk() -> None:
    """``(после|когда).*\\b(выбор|ответ|...)``: JavaScript's ``\\b`` is ASCII-only even with
    the u flag, so it only matches when an ASCII word character precedes the Cyrillic word."""
    facts = facts_for("Which scope?", [], "turn/")
    assert is_superseded_wait("Продолжить после ответа", facts, Lexicon()) is False
    assert is_superseded_wait("Продолжить когда будет ответ", facts, Lexicon()) is False
    assert is_superseded_wait("Продолжить после 1ответа", facts, Lexicon()) is True
    assert is_superseded_wait("после step_выбора", facts, Lexicon()) is True


def test_lexicon_extension_adds_patterns() -> None:
    facts = facts_for("Which scope?", [], "turn/")
    default = Lexicon()
    extended = Lexicon(
        explicit_user_wait=(*default.explicit_user_wait, re.compile(r"blocked on human")),
        clarification_verb=(*default.clarification_verb, re.compile(r"\bpick\b")),
    )
    assert is_superseded_wait("Blocked on human review", facts, default) is False
    assert is_superseded_wait("Blocked on human review", facts, extended) is True
    scope_facts = facts_for("Which scope to analyse?", [], "turn/")
    assert is_superseded_wait("Pick the scope", scope_facts, default) is False
    assert is_superseded_wait("Pick the scope", scope_facts, extended) is True
    after = reconcile_structured_state(
        state(blockers=["Blocked on human review"]),
        ask("Which scope?", [], "User selected: turn/"),
        extended,
    )
    assert after["blockers"] == []
