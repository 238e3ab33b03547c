"""SOBA's item estimator (engine.md b.1, b.2) and the numbers test-scenarios.md derives from it."""

from __future__ import annotations

import json

import pytest

from soba_bench.meter import get_meter
from soba_bench.meter.soba import (
    estimate_item,
    estimate_items,
    estimate_non_session,
    estimate_text,
    item_text,
)
from soba_bench.session.build_input import build_input
from soba_bench.session.capsule_text import capsule_input_items, capsule_text
from tests.builders import (
    assistant,
    capsule_line,
    chain,
    function_call,
    function_output,
    item_line,
    session_of,
    system,
    user,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Hello", 2),
        ("Hello world", 4),
        ("Hi", 1),
        ("x" * 1200, 343),
        ("x" * 4000, 1143),
        ("x" * 8000, 2286),
        ("x" * 10000, 2858),
        ("", 0),
        ("x" * 7, 2),  # exactly 2 * 3.5: no rounding up
        ("x" * 8, 3),
    ],
)
def test_constants(text: str, tokens: int) -> None:
    assert estimate_text(text) == tokens
    assert estimate_item(user(text)) == tokens
    assert estimate_item(assistant(text)) == tokens


def test_non_bmp_characters_count_two_utf16_units() -> None:
    emoji = "😀" * 7
    assert len(emoji) == 7
    assert item_text(user(emoji)) == emoji
    assert estimate_item(user(emoji)) == 4  # 14 units / 3.5
    assert estimate_text("😀") == 1
    assert estimate_text("é" * 7) == 2  # BMP: one unit each
    assert estimate_non_session("😀" * 2) == 1  # 4 units / 4


def test_message_concatenates_text_blocks_and_reasoning_and_ignores_images() -> None:
    item = {
        "type": "message",
        "role": "user",
        "content": [
            {"type": "input_text", "text": "abc"},
            {"type": "input_image", "image_url": "data:image/png;base64," + "A" * 5000},
            {"type": "input_text", "text": "def"},
        ],
        "reasoning_content": "g",
    }
    assert item_text(item) == "abcdefg"
    assert estimate_item(item) == 2


def test_image_only_message_is_zero() -> None:
    item = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_image", "image_url": "https://x/y.png", "detail": "high"}],
    }
    assert estimate_item(item) == 0


def test_string_content_is_counted_as_is() -> None:
    assert estimate_item({"type": "message", "role": "user", "content": "Hello world"}) == 4


def test_reasoning_item_is_zero_in_the_engine_estimator() -> None:
    item = {"type": "reasoning", "encrypted_content": "x" * 4000, "summary": [{"text": "y"}]}
    assert estimate_item(item) == 0


def test_unknown_item_type_is_zero() -> None:
    assert estimate_item({"type": "web_search_call", "query": "x" * 100}) == 0


def test_function_call_is_name_colon_arguments_plus_reasoning() -> None:
    call = function_call("c1", "read", '{"path":"old_batch.ts"}')
    assert item_text(call) == 'read: {"path":"old_batch.ts"}'
    assert estimate_item(call) == 9  # 29 chars (test-scenarios 4.5, entry e2)
    assert estimate_item(function_call("c2", "read", '{"path":"batch_1.ts"}')) == 8
    with_reasoning = function_call("c3", "a", "b", reasoning_content="xyz")
    assert item_text(with_reasoning) == "a: bxyz"


def test_function_call_output_string() -> None:
    assert estimate_item(function_output("c1", "x" * 4000)) == 1143
    assert estimate_item(function_output("c1", "x" * 1200)) == 343


def test_function_call_output_list_is_counted_via_json_stringify() -> None:
    output = [{"type": "input_text", "text": 'é\n"q"'}, {"type": "input_image", "image_url": "u"}]
    item = function_output("c1", output)
    expected = json.dumps(output, ensure_ascii=False, separators=(",", ":"))
    assert item_text(item) == expected
    assert expected.startswith('[{"type":"input_text","text":"é\\n\\"q\\""}')
    assert estimate_item(item) == -(-len(expected) * 2 // 7)


def test_shell_items() -> None:
    call = {"type": "local_shell_call", "call_id": "s1", "command": "bun test"}
    assert item_text(call) == "shell: bun test"
    assert estimate_item(call) == 5  # 15 chars
    out = {"type": "local_shell_call_output", "call_id": "s1", "output": "x" * 7, "exit_code": 1}
    assert estimate_item(out) == 2


def test_compaction_item_counts_encrypted_content() -> None:
    assert estimate_item({"type": "compaction", "encrypted_content": "x" * 8000}) == 2286


def test_no_per_item_overhead() -> None:
    items = [user("Hi"), assistant("Hi"), user("Hi")]
    assert estimate_items(items) == 3
    assert estimate_items([]) == 0


@pytest.mark.parametrize(
    ("text", "tokens"),
    [("", 0), ("x", 1), ("x" * 4, 1), ("x" * 5, 2), ("x" * 4000, 1000), ("x" * 4001, 1001)],
)
def test_non_session_text_is_chars_over_four(text: str, tokens: int) -> None:
    assert estimate_non_session(text) == tokens
    assert get_meter("soba").count_non_session(text) == tokens


def test_soba_meter_matches_module_functions() -> None:
    meter = get_meter("soba")
    assert meter.name == "soba"
    assert meter.count_item(user("Hello world")) == 4
    assert meter.count_text("x" * 1200) == 343


def test_fill_session_pairs_from_context_manager_tests() -> None:
    # test-scenarios.md header: 336/337-char user and 332/333-char assistant messages.
    def pairs(n: int) -> list[dict]:
        out = []
        for i in range(-(-n // 100)):
            out.append(user(f"User message {i}: " + "x" * 320))
            out.append(assistant(f"Assistant response {i}: " + "y" * 310))
        return out

    assert estimate_item(pairs(100)[0]) == 96
    assert estimate_item(pairs(100)[1]) == 95
    assert estimate_item(pairs(1100)[20]) == 97
    assert estimate_item(pairs(1100)[21]) == 96
    assert estimate_items(pairs(500)) == 955
    assert estimate_items(pairs(600)) == 1146
    assert estimate_items(pairs(1000)) == 1910


# Context-meter numbers that depend only on the estimator (test-scenarios.md section 1).


def scenario_1_5_lines(native: dict | None = None) -> list[dict]:
    capsule = capsule_line(
        "cap",
        "k",
        first_kept="k",
        first_compacted="c",
        goal="Continue the compacted task",
        constraints=["Keep the capsule in the measured request"],
        completed=["Read the old request"],
        pending=["Finish the task"],
        nextSteps=["Use recent context"],
        readFiles=["src/example.ts"],
        native=native,
    )
    return [
        item_line("c", None, user("Old request that is now compacted")),
        item_line("k", "c", assistant("Recent retained context")),
        capsule,
        item_line("t", "cap", assistant("Fresh tail after the capsule")),
    ]


def test_scenario_1_3_and_1_4_sys_tools_and_additional_tokens() -> None:
    assert 1000 + 500 + estimate_items([user("Hello world")]) == 1504
    assert estimate_items([user("Hi")]) == 1
    assert estimate_items([user(c) for c in "ABC"]) == 3  # 1.10 / 1.15


def test_scenario_1_5_capsule_item_is_82_tokens_and_effective_1597() -> None:
    session = session_of(scenario_1_5_lines())
    capsule = session.by_id["cap"].data
    assert estimate_items(capsule_input_items(capsule)) == 82
    items = build_input(session.active_branch).items
    assert [estimate_item(i) for i in items] == [82, 7, 8]
    assert 1000 + 500 + estimate_items(items) == 1597


def test_scenario_1_6_native_item_is_11_tokens() -> None:
    native = {
        "provider": {"adapterId": "a", "endpointOrigin": "o", "model": "m"},
        "compatibilityKey": "native-key",
        "items": [system("Opaque compatible native continuation")],
    }
    session = session_of(scenario_1_5_lines(native))
    items = build_input(session.active_branch, "native-key").items
    assert estimate_item(items[0]) == 11


def test_scenario_1_9_trailing_more_text_here() -> None:
    assert estimate_item(user("More text here")) == 4


def test_default_model_capsule_text_is_193_chars_56_tokens() -> None:
    capsule = capsule_line(
        "cap",
        None,
        first_kept="root",
        goal="Continue working on the task",
        completed=["Updated config"],
        pending=["Run tests"],
        nextSteps=["Deploy to staging"],
    )
    text = capsule_text(capsule)
    assert len(text) == 193
    assert estimate_text(text) == 56
    assert estimate_items(capsule_input_items(capsule)) == 56


def test_scenario_4_5_branch_tokens() -> None:
    lines = chain(
        [
            user("Inspect the engine"),
            assistant("Continuing engine inspection"),
            function_call("old", "read", '{"path":"old_batch.ts"}'),
            function_output("old", "x" * 4000),
        ]
    )
    assert [estimate_item(line["item"]) for line in lines] == [6, 8, 9, 1143]
