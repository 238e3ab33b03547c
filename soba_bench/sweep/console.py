"""What a run prints: the per-session table, the score summary, one line per sweep job."""

from __future__ import annotations

from typing import Any

COLUMNS = [
    ("session", 44),
    ("entries", 8),
    ("turns", 6),
    ("barriers", 9),
    ("attempts", 9),
    ("completed", 10),
    ("skipped", 8),
    ("failed", 7),
    ("blocked", 8),
    ("reclaimed", 10),
]
TOTAL_COLUMNS = [name for name, _ in COLUMNS if name != "session"]


def session_row(name: str, trace) -> dict[str, Any]:
    s = trace.summary()
    outcomes = s["byOutcome"]
    return {
        "session": name,
        "entries": s["branchEntries"],
        "turns": s["turns"],
        "barriers": s["preflights"],
        "attempts": s["attempts"],
        "completed": outcomes.get("completed", 0),
        "skipped": outcomes.get("skipped", 0),
        "failed": outcomes.get("failed", 0),
        "blocked": s["blockedRequests"],
        "reclaimed": s["reclaimedTokens"],
        "byTrigger": s["byTrigger"],
        "finalEffectiveTokens": s["finalEffectiveTokens"],
        "maxEffectiveTokens": s["maxEffectiveTokens"],
        "replayMs": s["replayMs"],
    }


def format_row(row: dict[str, Any]) -> str:
    cells = []
    for name, width in COLUMNS:
        value = row[name]
        cells.append(f"{value:<{width}}" if name == "session" else f"{value:>{width}}")
    return " ".join(cells)


def header_row() -> str:
    return format_row({name: name for name, _ in COLUMNS})


def format_scores(scoring: dict[str, Any]) -> str:
    """State availability (the headline) and outcomes, then retention by strategy (mean over
    sessions, capsule moments: a diagnostic) and detector counts."""
    lines = [""]
    avail = scoring.get("availability")
    if avail and avail.get("mean") is not None:
        low, high = avail["ci"]
        kinds = ", ".join(f"{k} {v['mean']:.2f}" for k, v in avail["kinds"].items())
        lines.append(
            f"state availability {avail['mean']:.3f} [{low:.3f}, {high:.3f}] over "
            f"{avail['sessions']} sessions, {avail['points']} requests ({kinds})"
        )
    outcomes = scoring.get("outcomes")
    if outcomes:
        rate = outcomes["degradedRate"]
        lines.append(
            f"outcomes: {outcomes['requests']} requests, {outcomes['refusedRequests']} refused, "
            f"{outcomes['blockedTurns']} blocked turns, {outcomes['overflows']} overflows, "
            f"{outcomes['attempts']} attempts, degraded rate "
            f"{'-' if rate is None else f'{rate:.2f}'}, {outcomes['inputTokensBilled']} input "
            f"tokens billed, peak context {outcomes['peakContextTokens']}"
        )
    lines += [
        "retention (capsule moments, mean over sessions with ground truth)",
        f"{'strategy':<22}{'view':<14}{'recall':>8}{'staleness':>11}{'leaks':>7}",
    ]
    for row in scoring["corpus"]:
        if row["moment"] != "capsules" or row["view"] == "soba_quality":
            continue
        cells = [row.get(m) for m in ("recall", "staleness", "leaks")]
        shown = [
            "-" if v is None else f"{v:.3f}" if i < 2 else f"{v:.1f}" for i, v in enumerate(cells)
        ]
        lines.append(
            f"{row['strategy']:<22}{row['view']:<14}{shown[0]:>8}{shown[1]:>11}{shown[2]:>7}"
        )
    quality = [r for r in scoring["corpus"] if r["view"] == "soba_quality"]
    for row in quality:
        lines.append(
            f"soba_quality: mean score {row['score']:.3f}, pass rate {row['passRate']:.2f}"
        )
    fired = ", ".join(f"{k} {v['sessions']}" for k, v in scoring["findings"].items())
    lines.append(f"failure modes (sessions): {fired or 'none checked'}")
    return "\n".join(lines)


def _corpus_recall(scoring: dict[str, Any] | None, key: tuple[str, str, str]) -> float | None:
    for row in (scoring or {}).get("corpus", ()):
        if (row["strategy"], row["view"], row["moment"]) == key:
            return row.get("recall")
    return None


def soba_recall(scoring: dict[str, Any] | None) -> float | None:
    """The corpus mean recall of SOBA's capsules (capsule moments), if scored."""
    return _corpus_recall(scoring, ("soba", "capsule", "capsules"))


def input_recall(record: dict[str, Any]) -> float | None:
    """The corpus mean recall of the job's own post-compaction model input (capsule moments):
    the number that compares across strategies, capsule-free ones included."""
    strategy = record.get("strategy") or "soba"
    return _corpus_recall(record.get("scoring"), (strategy, "input", "capsules"))


# Outcome columns of jobs.parquet (record["scoring"]["outcomes"] key -> column).
OUTCOME_COLUMNS = {
    "refusedRequests": "refusedRequests",
    "blockedTurns": "blockedTurns",
    "overflows": "overflows",
    "attempts": "outcomeAttempts",
    "degradedRate": "degradedRate",
    "inputTokensBilled": "inputTokensBilled",
    "peakContextTokens": "peakContextTokens",
}


def headline(record: dict[str, Any] | None) -> dict[str, Any]:
    """The job's headline and outcome figures for jobs.parquet: state availability (mean
    over sessions, with its interval) and per kind, then the outcome totals. Absent scorers
    give None, never 0."""
    scoring = (record or {}).get("scoring") or {}
    avail = scoring.get("availability") or {}
    outcomes = scoring.get("outcomes") or {}
    row: dict[str, Any] = {
        "availability": avail.get("mean"),
        "availabilityLow": (avail.get("ci") or [None, None])[0],
        "availabilityHigh": (avail.get("ci") or [None, None])[1],
    }
    for kind, value in (avail.get("kinds") or {}).items():
        row[f"availability.{kind}"] = value.get("mean")
    for key, column in OUTCOME_COLUMNS.items():
        row[column] = outcomes.get(key)
    return row


def job_line(job_id: str, status: str, record: dict[str, Any] | None, note: str = "") -> str:
    """One line per sweep job: id, status, the varied outcome numbers, wall time."""
    if record is None or status == "failed":
        error = (record or {}).get("error") or note
        return f"[{status}] {job_id}: {error}"
    t = record.get("totals", {})
    recall = soba_recall(record.get("scoring"))
    parts = [
        f"{t.get('attempts', 0)} attempts ({t.get('completed', 0)} completed, "
        f"{t.get('failed', 0)} failed, {t.get('skipped', 0)} skipped)",
        f"{t.get('blocked', 0)} blocked",
        f"{t.get('reclaimed', 0)} reclaimed",
    ]
    figures = headline(record)
    if figures["availability"] is not None:
        parts.append(f"availability {figures['availability']:.3f}")
    if figures["refusedRequests"] is not None:
        parts.append(
            f"{figures['refusedRequests']} refused, {figures['blockedTurns']} blocked turns, "
            f"{figures['overflows'] or 0} overflows"
        )
    if figures["degradedRate"] is not None:
        parts.append(f"degraded {figures['degradedRate']:.2f}")
    if figures["inputTokensBilled"] is not None:
        parts.append(f"{figures['inputTokensBilled']} input tokens billed")
    if recall is not None:
        parts.append(f"recall {recall:.3f}")
    own = input_recall(record)
    if own is not None:
        parts.append(f"input recall {own:.3f}")
    wall = record.get("timings", {}).get("wallSeconds")
    if status == "complete" and wall is not None:
        parts.append(f"{wall:.1f} s")
    suffix = f" ({note})" if note else ""
    return f"[{status}] {job_id}: " + ", ".join(parts) + suffix
