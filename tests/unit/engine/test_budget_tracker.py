"""SOBA's token-spend budget tracker (engine.md b.5), ported from test-scenarios.md section 7
(SOBA's ``tests/budget-tracker.test.ts``)."""

from __future__ import annotations

import math

import pytest

from soba_bench.engine.budget import BudgetTracker, format_tokens


def test_budget_1_format_tokens() -> None:
    assert format_tokens(0) == "0"
    assert format_tokens(500) == "500"
    assert format_tokens(1500) == "1.5K"
    assert format_tokens(1_000_000) == "1.0M"
    assert format_tokens(42_000) == "42.0K"


@pytest.mark.parametrize(
    ("tokens", "text"),
    [
        (999, "999"),
        (1000, "1.0K"),
        # toFixed rounds an exact half up; Python's format would give 1.2K / 1.2M.
        (1250, "1.3K"),
        (1_250_000, "1.3M"),
        (2450, "2.5K"),
        (999_999, "1000.0K"),
        # String(number) below 1000: floats print like JavaScript numbers.
        (500.0, "500"),
        (0.5, "0.5"),
    ],
)
def test_format_tokens_uses_javascript_to_fixed(tokens: int, text: str) -> None:
    assert format_tokens(tokens) == text


def test_budget_2_no_budget_is_unlimited() -> None:
    status = BudgetTracker().status()
    assert status.totalBudget == 0
    assert status.isExceeded is False
    assert status.isWarning is False
    assert status.percentage == 0
    assert status.remainingTokens == math.inf


def test_budget_3_add_usage_accumulates() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(500, 200)
    status = tracker.status()
    assert (status.usedTokens, status.percentage) == (700, 7)
    tracker = BudgetTracker(10_000)
    tracker.add_usage(500, 200)
    tracker.add_usage(300, 100)
    tracker.add_usage(200, 200)
    assert tracker.status().usedTokens == 1500


def test_budget_4_reset_and_set_budget() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(5000, 3000)
    tracker.reset()
    assert tracker.status().usedTokens == 0
    tracker.set_budget(50_000)
    assert tracker.status().totalBudget == 50_000


@pytest.mark.parametrize(("used", "percentage"), [(8000, 80), (9000, 90)])
def test_budget_5_warnings(used: int, percentage: int) -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(used, 0)
    status = tracker.status()
    assert status.isWarning is True
    assert status.percentage == percentage
    assert status.isExceeded is False


def test_budget_6_exceeded() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(10_000, 500)
    status = tracker.status()
    assert status.isExceeded is True
    assert status.percentage >= 100
    assert status.percentage == 105


def test_budget_6b_exactly_the_budget_is_exceeded() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(10_000, 0)
    assert tracker.status().isExceeded is True


def test_budget_7_remaining_tokens() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(3000, 0)
    assert tracker.status().remainingTokens == 7000
    tracker = BudgetTracker(10_000)
    tracker.add_usage(12_000, 0)
    assert tracker.status().remainingTokens == 0


def test_budget_8_messages() -> None:
    normal = BudgetTracker(100_000)
    normal.add_usage(5000, 2000)
    assert "7.0K" in normal.message() and "100.0K" in normal.message()
    assert normal.message() == "7.0K/100.0K (7%)"

    for used, text in [
        (8000, "🔵 8.0K/10.0K (80%)"),
        (9000, "🟡 9.0K/10.0K (90%) — nearing limit"),
        (9500, "🔴 9.5K/10.0K (95%) — critical!"),
        (10_500, "⚠️  Budget exceeded: 10.5K/10.0K (105%)"),
    ]:
        tracker = BudgetTracker(10_000)
        tracker.add_usage(used, 0)
        assert tracker.message() == text
    exceeded = BudgetTracker(10_000)
    exceeded.add_usage(10_500, 0)
    assert "⚠️" in exceeded.message() and "exceeded" in exceeded.message()

    unlimited = BudgetTracker()
    unlimited.add_usage(5000, 2000)
    assert "tokens used" in unlimited.message()
    assert unlimited.message() == "7.0K tokens used"


def test_budget_9_custom_thresholds() -> None:
    tracker = BudgetTracker(10_000, warning_thresholds=(50, 75))
    tracker.add_usage(6000, 0)
    assert tracker.status().isWarning is True
    tracker.reset()
    tracker.add_usage(4000, 0)
    assert tracker.status().isWarning is False


def test_warning_level_is_reported_once_per_new_higher_level() -> None:
    tracker = BudgetTracker(10_000)
    tracker.add_usage(8000, 0)
    assert tracker.status().warningLevel == 0
    assert tracker.status().warningLevel is None  # same level: not reported again
    tracker.add_usage(1500, 0)  # 95%
    assert tracker.status().warningLevel == 2
    tracker.set_budget(100_000)  # 9.5%: below every threshold resets the level
    status = tracker.status()
    assert (status.isWarning, status.warningLevel) == (False, None)
    tracker.set_budget(10_000)
    assert tracker.status().warningLevel == 2


def test_percentage_rounds_halves_up() -> None:
    tracker = BudgetTracker(200)
    tracker.add_usage(1, 0)  # 0.5% -> Math.round -> 1
    assert tracker.status().percentage == 1
