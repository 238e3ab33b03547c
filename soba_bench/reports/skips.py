"""Why the engine did not compact: every barrier and attempt put in one of SOBA's skip
categories, and degraded (fallback) capsules recognised, from the recorded rows alone.

Two sources, because SOBA records them differently:

* an attempt row (``kind == "attempt"``) carries SOBA's reason text; :func:`skip_category`
  maps it by that text (engine.md d.1, e.2, g.2);
* a check row (a barrier that started no attempt) carries no reason, so the soft trigger
  policy (engine.md d.1, d.3) is re-applied to what it recorded: ``effectiveTokens``,
  ``softLimit`` and the job's ``keepRecentTokens`` / ``minReclaimableTokens`` /
  ``minSavingsRatio``. A check that would have passed the ROI check was held back by the
  once-per-turn rule when an earlier soft attempt ran in the same turn.
"""

from __future__ import annotations

import re

import pandas as pd

from soba_bench.scoring.scorers.outcomes import TIMEOUT_FALLBACK

BELOW_SOFT = "below_soft_limit"
RECLAIMABLE_MIN = "reclaimable_below_minimum"
RATIO_MIN = "ratio_below_minimum"
POST_ROI = "post_generation_roi_miss"
NOTHING_BEFORE = "nothing_before_boundary"
ONCE_PER_TURN = "once_per_turn"
AUTO_DISABLED = "auto_disabled"
NO_COMPACTION = "strategy_never_compacts"
OTHER = "other"
SKIP_CATEGORIES = (BELOW_SOFT, RECLAIMABLE_MIN, RATIO_MIN, POST_ROI, NOTHING_BEFORE, ONCE_PER_TURN)
ALL_CATEGORIES = (*SKIP_CATEGORIES, AUTO_DISABLED, NO_COMPACTION, OTHER)
LABELS = {
    BELOW_SOFT: "below soft limit",
    RECLAIMABLE_MIN: "reclaimable below minimum",
    RATIO_MIN: "ratio below minimum",
    POST_ROI: "post-generation ROI miss",
    NOTHING_BEFORE: "nothing before the boundary",
    ONCE_PER_TURN: "once-per-turn",
    AUTO_DISABLED: "auto-compact disabled",
    NO_COMPACTION: "strategy never compacts",
    OTHER: "other",
}

# SOBA's reason texts (engine.md) -> category. Order matters: "Actual ..." before the
# pre-generation texts they contain.
REASON_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"^Actual reclaimed tokens \(.*\) below minReclaimableTokens", POST_ROI),
    (r"^Actual savings ratio \(.*\) below minSavingsRatio", POST_ROI),
    (r"^Effective tokens \(.*\) below soft limit", BELOW_SOFT),
    (r"^Reclaimable tokens \(.*\) below minReclaimableTokens", RECLAIMABLE_MIN),
    (r"^No reclaimable context \(estimatedTokensAfter >= effectiveTokensBefore\)", RECLAIMABLE_MIN),
    (r"^Savings ratio \(.*\) below minSavingsRatio", RATIO_MIN),
    (r"^No reclaimable session history before a safe compaction boundary", NOTHING_BEFORE),
    (r"^No items to compact", NOTHING_BEFORE),
    (r"^Empty session", NOTHING_BEFORE),
    # observation_masking's equivalents: no unmasked tool output is left before the kept ones.
    (r"^At most \d+ tool outputs: nothing to mask", NOTHING_BEFORE),
    (r"^Every tool output but the newest \d+ is already masked", NOTHING_BEFORE),
    (r"already attempted for this turn", ONCE_PER_TURN),
    (r"^(Auto-compact|Milestone compact) disabled", AUTO_DISABLED),
)
_COMPILED = tuple((re.compile(p), c) for p, c in REASON_PATTERNS)


# How a check row (no reason recorded) is categorised, in the order the rules apply.
CHECK_RULES = (
    ("check: effectiveTokens < softLimit", BELOW_SOFT),
    ("check: effectiveTokens - keepRecentTokens < minReclaimableTokens", RECLAIMABLE_MIN),
    ("check: (effectiveTokens - keepRecentTokens) / effectiveTokens < minSavingsRatio", RATIO_MIN),
    ("check: auto is false", AUTO_DISABLED),
    ("check: ROI passes (or over the hard limit), the job's strategy is none", NO_COMPACTION),
    ("check: ROI passes, an earlier soft attempt ran in the same turn", ONCE_PER_TURN),
)


def reason_mapping() -> list[dict[str, str]]:
    """Every rule that puts a barrier or attempt in a category, for the report."""
    rules = [*((f"attempt reason: {p}", c) for p, c in REASON_PATTERNS), *CHECK_RULES]
    return [{"rule": rule, "category": LABELS[c]} for rule, c in rules]


def skip_category(reason: object) -> str:
    """The skip category of one of SOBA's reason texts (``other`` when none matches)."""
    if not isinstance(reason, str):
        return OTHER
    for pattern, category in _COMPILED:
        if pattern.search(reason):
            return category
    return OTHER


def _check_categories(checks: pd.DataFrame, attempts: pd.DataFrame) -> pd.Series:
    needed = {"effectiveTokens", "softLimit", "keepRecentTokens", "minReclaimableTokens"}
    if checks.empty or not needed.issubset(checks.columns) or "minSavingsRatio" not in checks:
        return pd.Series(OTHER, index=checks.index, dtype=object)
    effective = pd.to_numeric(checks["effectiveTokens"], errors="coerce")
    reclaimable = effective - pd.to_numeric(checks["keepRecentTokens"], errors="coerce")
    ratio = (reclaimable / effective).where(effective > 0, 0.0)
    out = pd.Series(OTHER, index=checks.index, dtype=object)
    passed = pd.Series(True, index=checks.index)

    def num(column: str) -> pd.Series:
        return pd.to_numeric(checks[column], errors="coerce")

    rules = (
        (effective < num("softLimit"), BELOW_SOFT),
        (reclaimable < num("minReclaimableTokens"), RECLAIMABLE_MIN),
        (ratio < num("minSavingsRatio"), RATIO_MIN),
    )
    for mask, category in rules:
        hit = passed & mask.fillna(False)
        out[hit] = category
        passed &= ~hit
    if "auto" in checks.columns:
        off = passed & (checks["auto"] == False)  # noqa: E712 (a column, not a bool)
        out[off] = AUTO_DISABLED
        passed &= ~off
    if "job_strategy" in checks.columns:
        # The "none" strategy replays SOBA's barriers but never compacts at all.
        never = passed & (checks["job_strategy"] == "none")
        out[never] = NO_COMPACTION
        passed &= ~never
    if passed.any() and not attempts.empty and {"turn", "entryIndex"}.issubset(attempts):
        required = attempts.get("required")
        soft = attempts if required is None else attempts[required.fillna(False) != True]  # noqa: E712
        first = soft.groupby(["job_id", "session", "turn"])["entryIndex"].min()
        keys = pd.MultiIndex.from_frame(checks.loc[passed, ["job_id", "session", "turn"]])
        earlier = first.reindex(keys).to_numpy()
        held = pd.Series(
            pd.notna(earlier) & (earlier < checks.loc[passed, "entryIndex"].to_numpy()),
            index=checks.index[passed],
        )
        out[held[held].index] = ONCE_PER_TURN
    return out


POLICY_KEYS = ("keepRecentTokens", "minReclaimableTokens", "minSavingsRatio", "auto")


def barrier_decisions(barriers: pd.DataFrame, jobs: pd.DataFrame | None = None) -> pd.DataFrame:
    """The barriers with a ``decision`` column: ``compacted`` for a completed attempt, the
    outcome (``failed``, ``stale``, ``cancelled``) for those, else the skip category.

    ``jobs`` (one row per job_id): the engine keys the engine actually ran with (run.json
    ``config``, after SOBA's auto-adaptation), preferred over the table's columns, which
    repeat the requested settings."""
    if barriers.empty or "kind" not in barriers.columns:
        return barriers.assign(decision=pd.Series(dtype=object))
    frame = barriers.copy()
    if jobs is not None and not jobs.empty:
        keys = [k for k in POLICY_KEYS if k in jobs.columns]
        resolved = jobs.set_index("job_id")[keys]
        for key in keys:
            mapped = frame["job_id"].map(resolved[key])
            frame[key] = mapped.where(mapped.notna(), frame.get(key))
        if "strategy" in jobs.columns:
            frame["job_strategy"] = frame["job_id"].map(jobs.set_index("job_id")["strategy"])
    elif "jobStrategy" in frame.columns:
        frame["job_strategy"] = frame["jobStrategy"]
    attempts = frame[frame["kind"] == "attempt"]
    decision = pd.Series(OTHER, index=frame.index, dtype=object)
    checks = frame["kind"] == "check"
    decision[checks] = _check_categories(frame[checks], attempts)
    none = pd.Series(None, index=attempts.index, dtype=object)
    outcome = attempts.get("outcome", none)
    reason = attempts.get("reason", none)
    skipped = outcome == "skipped"
    decision[attempts.index[skipped]] = reason[skipped].map(skip_category)
    decision[attempts.index[outcome == "completed"]] = "compacted"
    for status in ("failed", "stale", "cancelled"):
        decision[attempts.index[outcome == status]] = status
    frame["decision"] = decision
    return frame


def fallback_kind(attempts: pd.DataFrame) -> pd.Series:
    """Per attempt: ``timeout`` (SOBA's deterministic timeout fallback), ``model_error``
    (a model summarizer's chain fell through to the deterministic strategy: the model failed,
    its answer did not parse or did not validate) or None. Counted whatever the outcome."""
    out = pd.Series(None, index=attempts.index, dtype=object)
    if attempts.empty or "reason" not in attempts.columns:
        return out
    reason = attempts["reason"].astype(str)
    timeout = reason.str.contains(TIMEOUT_FALLBACK)
    out[timeout] = "timeout"
    if {"summarizer", "strategy"}.issubset(attempts.columns):
        # Every summarizer but "deterministic" puts a model first in the chain, so a draft
        # written by the deterministic strategy means the model's answer was unusable.
        model = attempts["summarizer"].notna() & (attempts["summarizer"] != "deterministic")
        fell = attempts["strategy"] == "deterministic"
        out[model & fell & ~timeout] = "model_error"
    return out.astype(object).where(out.notna(), None)
