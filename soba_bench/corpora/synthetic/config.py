"""Parameters of the synthetic session generator: one frozen dataclass with explicit fields,
validated once when it is built, so a Hydra ``corpus`` group can map onto it field by field.

Sizes are in SOBA estimator tokens (``ceil(chars / 3.5)``, engine.md b.1); every drawn size
varies uniformly between half and one and a half times its mean. Fixed counts plant that many
facts whatever the session length; ``*_per_1k`` rates scale with the entry target (at least one
fact when the rate is above zero), so a 20,000-entry session carries twenty times the decisions,
blockers and milestones of a 1,000-entry one.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, fields
from typing import Any

from soba_bench.errors import ConfigError, InputError

CHARS_PER_TOKEN = 3.5
MIN_ENTRIES = 50
MAX_ENTRIES = 2_000_000


@dataclass(frozen=True)
class SyntheticConfig:
    # Size. ``entries`` counts tree entries (items + skill activations), not sidecar lines.
    entries: int = 1000
    entries_spread: float = 0.0  # per-session target drawn from entries * (1 +/- spread)
    # Turn shape: model iterations per turn, parallel tool calls, optional items.
    min_iterations: int = 2
    max_iterations: int = 10
    max_parallel_calls: int = 3
    parallel_share: float = 0.25  # iterations with 2..max_parallel_calls calls
    reasoning_share: float = 0.3  # iterations that start with a reasoning item
    commentary_share: float = 0.6  # iterations with a visible assistant message
    # Mean sizes per kind (estimator tokens; reasoning is opaque, so characters).
    user_tokens: int = 80
    assistant_tokens: int = 40
    final_answer_tokens: int = 120
    reasoning_chars: int = 600
    tool_output_tokens: int = 250
    file_read_tokens: int = 700
    edit_tokens: int = 120
    large_output_tokens: int = 12000
    # Planted facts with fixed counts.
    goal_refinements: int = 2
    constraints: int = 3
    open_blockers: int = 1
    plan_pivots: int = 1
    renames: int = 1
    skills: int = 2
    # Planted facts per 1,000 entries.
    decisions_per_1k: float = 5.0
    superseded_decision_share: float = 0.3
    # A revision names the decision it replaces ("instead of the earlier decision to X, I
    # decided to Y"), as agents often do; off by default (the bundled corpora predate it).
    revisions_name_replaced: bool = False
    blockers_per_1k: float = 4.0
    next_steps_per_1k: float = 5.0
    clarifications_per_1k: float = 1.5
    milestones_per_1k: float = 4.0
    distractors_per_1k: float = 3.0
    secrets_per_1k: float = 1.5
    injections_per_1k: float = 1.5
    large_outputs_per_1k: float = 2.0
    # Output shapes: bash results carrying exit_code; function outputs without status.
    exit_code_share: float = 0.05
    legacy_output_share: float = 0.1
    flight_records: bool = True

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_type(f.name, getattr(self, f.name), f.type)
        problems = list(_range_problems(self))
        if problems:
            raise ConfigError("Invalid synthetic generator config: " + "; ".join(problems))

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        # Added after corpora were bundled: written only when on, so their records (and the
        # tests that regenerate them byte for byte) are unchanged.
        for name in _LATER_FLAGS:
            if not out[name]:
                del out[name]
        return out

    def count(self, rate: float, entries: int) -> int:
        """Facts of a ``*_per_1k`` rate for a session of ``entries`` entries."""
        return 0 if rate <= 0 else max(1, round(rate * entries / 1000))

    def non_defaults(self) -> dict[str, Any]:
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.default is not MISSING and getattr(self, f.name) != f.default
        }


_LATER_FLAGS = ("revisions_name_replaced",)
_TYPE_NAMES = {"int": "an integer", "float": "a number", "bool": "true or false"}


def _check_type(name: str, value: Any, annotation: Any) -> None:
    kind = annotation if isinstance(annotation, str) else annotation.__name__
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok:
        raise InputError(
            "synthetic generator parameter has the wrong type",
            field=name,
            value=value,
            has_value=True,
            expected=_TYPE_NAMES[kind],
        )


_SHARES = (
    "parallel_share",
    "reasoning_share",
    "commentary_share",
    "superseded_decision_share",
    "exit_code_share",
    "legacy_output_share",
)
_COUNTS = ("goal_refinements", "constraints", "open_blockers", "plan_pivots", "renames", "skills")
_POSITIVE = (
    "user_tokens",
    "assistant_tokens",
    "final_answer_tokens",
    "tool_output_tokens",
    "file_read_tokens",
    "edit_tokens",
    "large_output_tokens",
)


def _range_problems(c: SyntheticConfig):
    if not MIN_ENTRIES <= c.entries <= MAX_ENTRIES:
        yield f"entries must be between {MIN_ENTRIES} and {MAX_ENTRIES} (got {c.entries})"
    if not 0 <= c.entries_spread <= 0.9:
        yield f"entries_spread must be between 0 and 0.9 (got {c.entries_spread})"
    if c.min_iterations < 1:
        yield f"min_iterations must be >= 1 (got {c.min_iterations})"
    if c.max_iterations < c.min_iterations:
        yield (
            f"max_iterations must be >= min_iterations "
            f"(got {c.max_iterations} < {c.min_iterations})"
        )
    if not 1 <= c.max_parallel_calls <= 8:
        yield f"max_parallel_calls must be between 1 and 8 (got {c.max_parallel_calls})"
    for name in _SHARES:
        value = getattr(c, name)
        if not 0 <= value <= 1:
            yield f"{name} must be between 0 and 1 (got {value})"
    for name in _POSITIVE:
        if getattr(c, name) < 1:
            yield f"{name} must be >= 1 (got {getattr(c, name)})"
    if c.reasoning_chars < 0:
        yield f"reasoning_chars must be >= 0 (got {c.reasoning_chars})"
    for f in fields(c):
        if (f.name.endswith("_per_1k") or f.name in _COUNTS) and getattr(c, f.name) < 0:
            yield f"{f.name} must be >= 0 (got {getattr(c, f.name)})"
    if c.skills > 8:
        yield f"skills must be <= 8 (got {c.skills})"
    if c.constraints > 6:
        yield f"constraints must be <= 6 (got {c.constraints})"
    if c.renames > 4:
        yield f"renames must be <= 4 (got {c.renames})"


def field_names() -> list[str]:
    return [f.name for f in fields(SyntheticConfig)]


def config_from_dict(data: dict[str, Any], base: SyntheticConfig | None = None) -> SyntheticConfig:
    """A config from a dict of field values (unknown keys are errors that list valid ones)."""
    values = asdict(base or SyntheticConfig())
    valid = field_names()
    for key, value in data.items():
        if key not in values:
            raise InputError(
                "unknown synthetic generator parameter",
                field=key,
                value=value,
                has_value=True,
                expected="one of " + ", ".join(valid),
            )
        if isinstance(value, float) and value.is_integer() and isinstance(values[key], int):
            value = int(value)  # 1e3 or 1000.0 for an integer field
        values[key] = value
    return SyntheticConfig(**values)


def parse_overrides(overrides: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` strings -> a dict; VALUE is read as JSON when it parses, else a string."""
    out: dict[str, Any] = {}
    for text in overrides:
        key, sep, raw = text.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InputError(
                "override must look like KEY=VALUE",
                value=text,
                has_value=True,
                expected="e.g. entries=5000 or decisions_per_1k=8",
            )
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out
