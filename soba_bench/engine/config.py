"""Engine configuration: SOBA's ``CompactionConfig`` keys one to one, SOBA's defaults, SOBA's
resolution (``backgroundTimeoutMs`` alias, keepRecentTokens auto-adapt) and SOBA's validation
messages (engine.md n).

Field names are SOBA's camelCase on purpose: a SOBA user's config values, Hydra overrides
(``engine.keepRecentTokens=8000``) and the conformance CASE.json files all use them verbatim.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from soba_bench.errors import ConfigError, InputError
from soba_bench.jsonio import read_json

BOOL_KEYS = ("auto", "compactOnTurnComplete", "compactOnMilestone")
NUMBER_KEYS = (
    "minTokensForAutoCompact",
    "minReclaimableTokens",
    "minSavingsRatio",
    "keepRecentTokens",
    "safetyReserveTokens",
    "autoCompactThresholdRatio",
    "timeoutMs",
)
TOP_LEVEL_KEYS = ("contextWindow", "maxOutputTokens", "systemPromptTokens", "toolSchemaTokens")
LEGACY_TIMEOUT_KEY = "backgroundTimeoutMs"


@dataclass(frozen=True)
class CompactionConfig:
    """SOBA's ``DEFAULT_COMPACTION_CONFIG`` (v0.6.14)."""

    auto: bool = True
    compactOnTurnComplete: bool = True
    compactOnMilestone: bool = True
    minTokensForAutoCompact: float = 32_000
    minReclaimableTokens: float = 12_000
    minSavingsRatio: float = 0.25
    keepRecentTokens: float = 20_000
    safetyReserveTokens: float = 8_192
    autoCompactThresholdRatio: float = 0.8
    timeoutMs: float = 15_000
    backgroundTimeoutMs: float | None = None  # deprecated alias, used only without timeoutMs

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if data[LEGACY_TIMEOUT_KEY] is None:
            del data[LEGACY_TIMEOUT_KEY]
        return data


DEFAULT_COMPACTION = CompactionConfig()


@dataclass(frozen=True)
class EngineConfig:
    """Everything the engine needs besides the session. Defaults are the conformance
    harness's (128000/32768 window/output, 4000/6000 non-session tokens)."""

    contextWindow: float = 128_000
    maxOutputTokens: float = 32_768
    systemPromptTokens: float = 4_000
    toolSchemaTokens: float = 6_000
    compaction: CompactionConfig = field(default_factory=CompactionConfig)
    # The merged block before resolution (auto-adapt), kept for run records.
    compactionRequested: CompactionConfig = field(default_factory=CompactionConfig)

    @property
    def hardLimit(self) -> float:
        return self.contextWindow - self.maxOutputTokens - self.compaction.safetyReserveTokens

    def adaptations(self) -> tuple[str, ...]:
        """What SOBA changed in the requested config while resolving it, one sentence each.
        SOBA adapts silently; callers (the CLI, the job runner) tell the user once per run."""
        asked = self.compactionRequested.keepRecentTokens
        used = self.compaction.keepRecentTokens
        if asked == used:
            return ()
        return (
            f"keepRecentTokens={asked:g} is not below the hard limit {self.hardLimit:g} "
            "(contextWindow - maxOutputTokens - safetyReserveTokens), so SOBA lowers it to "
            f"{used:g} (85% of the hard limit), as SOBA does without saying so",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "contextWindow": self.contextWindow,
            "maxOutputTokens": self.maxOutputTokens,
            "systemPromptTokens": self.systemPromptTokens,
            "toolSchemaTokens": self.toolSchemaTokens,
            "compaction": self.compaction.to_dict(),
        }


def validate_compaction_config(
    config: CompactionConfig, context_window: float, max_output_tokens: float
) -> list[str]:
    """SOBA's ``validateCompactionConfig``: every violation, in SOBA's order and words."""
    errors: list[str] = []
    if context_window <= 0:
        errors.append("contextWindow must be > 0")
    if max_output_tokens <= 0:
        errors.append("maxOutputTokens must be > 0")
    if config.safetyReserveTokens < 0:
        errors.append("safetyReserveTokens must be >= 0")
    if not (0 < config.autoCompactThresholdRatio < 1):
        errors.append("autoCompactThresholdRatio must be > 0 and < 1")
    if not (config.timeoutMs > 0):  # NaN fails too, as in JS
        errors.append("timeoutMs must be > 0")
    if (
        context_window > 0
        and max_output_tokens > 0
        and max_output_tokens + config.safetyReserveTokens >= context_window
    ):
        errors.append("maxOutputTokens + safetyReserveTokens must be < contextWindow")
    hard_limit = context_window - max_output_tokens - config.safetyReserveTokens
    if hard_limit > 0 and config.keepRecentTokens >= hard_limit:
        errors.append(
            "keepRecentTokens must be < hardLimit "
            "(contextWindow - maxOutputTokens - safetyReserveTokens)"
        )
    return errors


def resolve_compaction(
    requested: CompactionConfig, context_window: float, max_output_tokens: float
) -> CompactionConfig:
    """SOBA's ``resolveCompactionConfig`` after the merge: the keepRecentTokens auto-adapt,
    then validation (raises ConfigError with SOBA's message). The ``backgroundTimeoutMs``
    alias is applied while merging (:func:`build_engine_config`): a CompactionConfig cannot
    tell an absent ``timeoutMs`` from the default one."""
    resolved = requested
    hard_limit = context_window - max_output_tokens - resolved.safetyReserveTokens
    if hard_limit > 0 and resolved.keepRecentTokens >= hard_limit:
        resolved = replace(resolved, keepRecentTokens=max(1, math.floor(hard_limit * 0.85)))
    errors = validate_compaction_config(resolved, context_window, max_output_tokens)
    if errors:
        raise ConfigError("Invalid compaction config: " + "; ".join(errors))
    return resolved


def _check_value(key: str, value: Any, source: str | None) -> Any:
    is_number = isinstance(value, int | float) and not isinstance(value, bool)
    if key in BOOL_KEYS and not isinstance(value, bool):
        raise InputError(
            "config value has the wrong type",
            path=source,
            field=key,
            value=value,
            has_value=True,
            expected="true or false",
        )
    if key not in BOOL_KEYS and not is_number:
        raise InputError(
            "config value has the wrong type",
            path=source,
            field=key,
            value=value,
            has_value=True,
            expected="a number",
        )
    if is_number and not math.isfinite(value):
        raise InputError(
            "config value is not finite",
            path=source,
            field=key,
            value=value,
            has_value=True,
            expected="a finite number",
        )
    return value


def build_engine_config(data: dict[str, Any], *, source: str | None = None) -> EngineConfig:
    """An EngineConfig from a CASE.json-shaped dict (top-level keys + ``compaction`` block).
    Unknown keys and wrong types are errors that name the key."""
    if not isinstance(data, dict):
        raise InputError(
            "config must be a JSON object",
            path=source,
            value=data,
            has_value=True,
            expected='{"contextWindow": ..., "compaction": {...}}',
        )
    valid_top = (*TOP_LEVEL_KEYS, "compaction")
    top: dict[str, Any] = {}
    for key, value in data.items():
        if key not in valid_top:
            raise InputError(
                "unknown config key",
                path=source,
                field=key,
                expected="one of " + ", ".join(valid_top),
            )
        if key != "compaction":
            top[key] = _check_value(key, value, source)
    block = data.get("compaction", {})
    if not isinstance(block, dict):
        raise InputError(
            "'compaction' must be an object",
            path=source,
            field="compaction",
            value=block,
            has_value=True,
            expected="a JSON object",
        )
    valid_block = {f.name for f in fields(CompactionConfig)}
    merged: dict[str, Any] = {}
    for key, value in block.items():
        if key not in valid_block:
            raise InputError(
                "unknown compaction key",
                path=source,
                field=f"compaction.{key}",
                expected="one of " + ", ".join(sorted(valid_block)),
            )
        merged[key] = _check_value(key, value, source)
    if "timeoutMs" not in merged and merged.get(LEGACY_TIMEOUT_KEY) is not None:
        merged["timeoutMs"] = merged[LEGACY_TIMEOUT_KEY]
    requested = replace(DEFAULT_COMPACTION, **merged)
    base = EngineConfig(**top)
    resolved = resolve_compaction(requested, base.contextWindow, base.maxOutputTokens)
    return replace(base, compaction=resolved, compactionRequested=requested)


def read_config_data(path: str | Path) -> dict[str, Any]:
    """The JSON object of a CASE.json config file (not yet validated)."""
    p = Path(path)
    data = read_json(p, "config file")
    if not isinstance(data, dict):
        raise InputError(
            "config must be a JSON object",
            path=str(p),
            value=data,
            has_value=True,
            expected='{"contextWindow": ..., "compaction": {...}}',
        )
    return data


def load_engine_config(path: str | Path) -> EngineConfig:
    """Read and resolve a CASE.json config file."""
    return build_engine_config(read_config_data(path), source=str(path))


def parse_override(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with a SOBA key name (top-level or compaction); VALUE is JSON-ish."""
    key, sep, raw = text.partition("=")
    key = key.strip().removeprefix("compaction.").removeprefix("engine.")
    if not sep or not key:
        raise InputError(
            "override must look like KEY=VALUE",
            value=text,
            has_value=True,
            expected="e.g. keepRecentTokens=8000",
        )
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def with_overrides(data: dict[str, Any], overrides: list[str]) -> dict[str, Any]:
    """Apply KEY=VALUE overrides to a CASE.json-shaped dict (a new dict is returned)."""
    out = dict(data)
    block = dict(out.get("compaction") or {})
    valid_block = {f.name for f in fields(CompactionConfig)}
    for text in overrides:
        key, value = parse_override(text)
        if key in TOP_LEVEL_KEYS:
            out[key] = value
        elif key in valid_block:
            block[key] = value
        else:
            raise InputError(
                "unknown override key",
                field=key,
                value=value,
                has_value=True,
                expected="one of " + ", ".join((*TOP_LEVEL_KEYS, *sorted(valid_block))),
            )
    out["compaction"] = block
    return out
