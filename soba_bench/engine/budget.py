"""SOBA's token-spend budget tracker (engine.md b.5): spend, not context size."""

from __future__ import annotations

import math
from dataclasses import dataclass

from soba_bench.jscompat import js_number, js_round, js_to_fixed


@dataclass(frozen=True)
class BudgetStatus:
    usedTokens: int
    totalBudget: int
    percentage: int
    isExceeded: bool
    isWarning: bool
    remainingTokens: float
    warningLevel: int | None = None


def format_tokens(tokens: float) -> str:
    # toFixed, not Python's format: an exact half rounds up (1250 -> "1.3K", not "1.2K").
    if tokens >= 1_000_000:
        return f"{js_to_fixed(tokens / 1_000_000, 1)}M"
    if tokens >= 1_000:
        return f"{js_to_fixed(tokens / 1_000, 1)}K"
    return js_number(tokens)


class BudgetTracker:
    def __init__(
        self, total_budget: int = 0, warning_thresholds: tuple[int, ...] = (80, 90, 95)
    ) -> None:
        self.total_budget = total_budget
        self.thresholds = tuple(warning_thresholds)
        self.used = 0
        self._level: int | None = None

    def add_usage(self, input_tokens: int, output_tokens: int) -> None:
        self.used += input_tokens + output_tokens

    def reset(self) -> None:
        self.used = 0
        self._level = None

    def set_budget(self, total: int) -> None:
        self.total_budget = total

    def status(self) -> BudgetStatus:
        if self.total_budget <= 0:
            return BudgetStatus(self.used, 0, 0, False, False, math.inf)
        percentage = js_round(100 * self.used / self.total_budget)
        warning, level = False, None
        for index in range(len(self.thresholds) - 1, -1, -1):
            if percentage >= self.thresholds[index]:
                warning = True
                # The level is reported once, when a new higher level is first crossed.
                if self._level is None or index > self._level:
                    level = index
                    self._level = index
                break
        else:
            self._level = None
        return BudgetStatus(
            self.used,
            self.total_budget,
            percentage,
            self.used >= self.total_budget,
            warning,
            max(0, self.total_budget - self.used),
            level,
        )

    def message(self) -> str:
        s = self.status()
        used = format_tokens(s.usedTokens)
        if s.totalBudget == 0:
            return f"{used} tokens used"
        base = f"{used}/{format_tokens(s.totalBudget)} ({s.percentage}%)"
        if s.isExceeded:
            return f"⚠️  Budget exceeded: {base}"
        if s.percentage >= 95:
            return f"🔴 {base} — critical!"
        if s.percentage >= 90:
            return f"🟡 {base} — nearing limit"
        if s.percentage >= 80:
            return f"🔵 {base}"
        return base
