"""What counts as a failed tool output (engine.md h.4, SOBA's ``toolFailureOutput``), shared by
the deterministic blockers and the validator's ``lost_blocker`` check."""

from __future__ import annotations

from typing import Any

import pytest

from soba_bench.engine.failures import tool_failure_output
from tests.builders import assistant, function_call, function_output


def shell_output(output: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "local_shell_call_output", "call_id": "s1", "output": output, **extra}


def test_only_tool_outputs_can_fail() -> None:
    assert tool_failure_output(assistant("Error: not a tool output")) is None
    assert tool_failure_output(function_call("c", "bash", '{"command":"false"}')) is None
    assert tool_failure_output({"type": "local_shell_call", "command": "Error"}) is None


# ── 1. status wins ────────────────────────────────────────────────────────────────


def test_status_failed_returns_the_whole_output() -> None:
    item = function_output("c", "permission denied\nsecond line", status="failed")
    assert tool_failure_output(item) == "permission denied\nsecond line"


@pytest.mark.parametrize("status", ["completed", "in_progress", ""])
def test_any_other_status_is_not_a_failure_even_with_error_text(status: str) -> None:
    assert tool_failure_output(function_output("c", "Error: string;", status=status)) is None


def test_status_wins_over_exit_code() -> None:
    assert tool_failure_output(shell_output("boom", status="completed", exit_code=1)) is None
    assert tool_failure_output(shell_output("fine", status="failed", exit_code=0)) == "fine"


def test_null_status_falls_through_to_the_heuristic() -> None:
    assert tool_failure_output(function_output("c", "Error: x", status=None)) == "Error: x"
    assert tool_failure_output(function_output("c", "all good", status=None)) is None


# ── 2. exit codes (local_shell_call_output only) ──────────────────────────────────


def test_exit_code_zero_is_success_even_with_error_text() -> None:
    assert tool_failure_output(shell_output("Error: only a warning", exit_code=0)) is None
    assert tool_failure_output(shell_output("Error: only a warning", exit_code=0.0)) is None


@pytest.mark.parametrize("code", [1, 2, -1, 127])
def test_non_zero_exit_code_is_a_failure(code: int) -> None:
    assert tool_failure_output(shell_output("3 passed", exit_code=code)) == "3 passed"


def test_exit_code_null_counts_as_a_failure_js_quirk() -> None:
    # ``null !== undefined`` and ``null === 0`` is false: SOBA reports a failure.
    assert tool_failure_output(shell_output("looks fine", exit_code=None)) == "looks fine"
    assert tool_failure_output(shell_output("looks fine", exit_code=False)) == "looks fine"


def test_exit_code_on_a_function_output_is_ignored() -> None:
    assert tool_failure_output(function_output("c", "fine", exit_code=1)) is None


def test_shell_output_without_exit_code_uses_the_heuristic() -> None:
    assert tool_failure_output(shell_output("fatal: not a git repository")) is not None
    assert tool_failure_output(shell_output("On branch main")) is None


# ── 3. legacy first-line heuristic ────────────────────────────────────────────────


@pytest.mark.parametrize(
    "text",
    [
        "Error: TypeScript compilation failed",
        "error",
        "ERROR in ./src/index.ts",
        "failed to compile",
        "Failed: 3 tests",
        "FAILURE: build failed",
        "Exception in thread main",
        "fatal: not a git repository",
        "panic: runtime error",
        "✖ error  Unexpected token",
        "✖error",
        "✖   Error: lint",
        "\x1b[31mError: boom\x1b[0m",
        "\x1b[1;31mFAILED\x1b[0m 2 tests",
        "  \n  FATAL thing",
        "\n\n\t\nError after blank lines",
        "\u00a0Error: NBSP is trimmed",
        "\ufeffError: BOM is JavaScript whitespace",
        "\u3000Error: ideographic space too",
        "Error\r\nwith CRLF",
    ],
)
def test_failure_first_lines(text: str) -> None:
    assert tool_failure_output(function_output("c", text)) == text


@pytest.mark.parametrize(
    "text",
    [
        "errors: 0",
        "error_code=0",
        "Errors found: none",
        "failedChecks: []",
        "Exceptional result",
        "import { AgentTurnError } from './errors';\nerror: string;",
        "interface Result {\n  error: string;\n}",
        "ok\nError: on the second line",
        "✖ errors",
        "✔ error handling works",
        "  warning: Error mentioned later",
        "\x1b[2KError: not a colour code, so it is not stripped",
        "",
        "   \n  \n",
    ],
)
def test_not_failure_first_lines(text: str) -> None:
    assert tool_failure_output(function_output("c", text)) is None


def test_block_list_output_joins_text_blocks() -> None:
    blocks = [
        {"type": "input_text", "text": "Error: from a block"},
        {"type": "input_image", "image_url": "data:"},
        {"type": "input_text", "text": "more"},
    ]
    assert tool_failure_output(function_output("c", blocks)) == "Error: from a block\nmore"
    failed = function_output("c", [{"type": "input_text", "text": "x"}], status="failed")
    assert tool_failure_output(failed) == "x"
    assert tool_failure_output(function_output("c", [{"type": "input_text", "text": "ok"}])) is None


def test_only_ascii_letters_fold_case() -> None:
    # No Unicode case folding (JavaScript regex without the u flag): a dotless/long-s
    # spelling is not "error"/"failure".
    assert tool_failure_output(function_output("c", "faıled: dotless i")) is None
    assert tool_failure_output(function_output("c", "ſatal: long s")) is None


def test_null_text_blocks_join_as_empty_strings() -> None:
    blocks = [{"type": "input_text", "text": None}, {"type": "input_text", "text": "Error: x"}]
    # "" then "Error: x": the first meaningful line is the error (not "null").
    assert tool_failure_output(function_output("c", blocks)) == "\nError: x"
