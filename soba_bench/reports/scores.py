"""A job's score tables (``scores/*.jsonl``) as one long, tidy frame.

Columns: session, scorer, strategy (the scored strategy: ``soba`` is the job's own replay,
the others the comparison views), view, moment (``capsules``: mean over capsule moments;
``final``; ``points``: the fixed evaluation points of ``availability``; ``session``: a
per-session figure such as the ``outcomes``), kind (a fact kind, a quality dimension, a
failure-mode detector, or ``all``),
metric, value, higher_is_better (False for the recall of noise kinds: secrets, injected
instructions and distractors carried along are leaks).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from soba_bench.runs.layout import RunLayout
from soba_bench.runs.record import ScoredTables, load_scored
from soba_bench.runs.tables import check_row, load_table
from soba_bench.scoring.retention import NOISE_KINDS

SCORE_COLUMNS = (
    "session",
    "scorer",
    "strategy",
    "view",
    "moment",
    "kind",
    "metric",
    "value",
    "higher_is_better",
)
HIGHER_IS_BETTER = {
    "recall": True,
    "precision": True,
    "staleness": False,
    "leaks": False,
    "hallucinatedPaths": False,
    "score": True,
    "passed": True,
    "findings": False,
    "flag": False,
    "survival": True,
    "availability": True,
    "contradiction": False,
    "invented_paths": False,
    # outcomes: fewer is better, except nothing (tokens and peak are costs)
    "requests": False,
    "refused_requests": False,
    "blocked_turns": False,
    "overflows": False,
    "attempts": False,
    "degraded_rate": False,
    "input_tokens_billed": False,
    "peak_context_tokens": False,
}
# outcomes.jsonl field -> metric name in the tidy frame (and a session_metrics column).
OUTCOME_METRICS = {
    "requests": "requests",
    "refusedRequests": "refused_requests",
    "blockedTurns": "blocked_turns",
    "overflows": "overflows",
    "attempts": "attempts",
    "degradedRate": "degraded_rate",
    "inputTokensBilled": "input_tokens_billed",
    "peakContextTokens": "peak_context_tokens",
}
RETENTION_ROW_METRICS = ("recall", "precision", "staleness")
RETENTION_SESSION_METRICS = ("recall", "staleness", "leaks", "hallucinatedPaths")
# What this module reads from each table, by JSON kind (checked when the table is loaded).
_WHERE = {"session": "string!", "strategy": "string", "view": "string", "kind": "string"}
TABLE_FIELDS = {
    "availability": {"session": "string!", "strategy": "string", "availability": "number"},
    "outcomes": {
        "session": "string!",
        "strategy": "string",
        **dict.fromkeys(OUTCOME_METRICS, "number"),
    },
    "rows": {**_WHERE, "generation": "label", **dict.fromkeys(RETENTION_ROW_METRICS, "number")},
    "sessions": {
        **_WHERE,
        "moment": "string",
        **dict.fromkeys(RETENTION_SESSION_METRICS, "number"),
    },
    "quality": {
        **_WHERE,
        "score": "number",
        "passed": "boolean",
        "dimensions": "records",
        "dimensions.name": "string",
        "dimensions.score": "number",
    },
    "findings": {"session": "string!", "detector": "string!"},
    "drift": {"session": "string!", "age": "label", "survival": "number"},
}


def _read(path: Path) -> list[dict[str, Any]]:
    return load_table(path, TABLE_FIELDS[path.name.removesuffix(".jsonl")])


def _read_availability(path: Path) -> list[dict[str, Any]]:
    """availability.jsonl rows; its per-kind columns (``availability.<kind>``) vary with the
    truth, so they are checked here (a dot would read as a nested field to check_row)."""
    rows = _read(path)
    for number, row in enumerate(rows, 1):
        kinds = {k.replace(".", ":"): v for k, v in row.items() if k.startswith("availability.")}
        check_row(kinds, dict.fromkeys(kinds, "number"), path, number)
    return rows


def empty_scores() -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(dtype=object) for c in SCORE_COLUMNS})


def _tidy(rows: list[dict[str, Any]]) -> pd.DataFrame:
    if not rows:
        return empty_scores()
    frame = pd.DataFrame(rows)
    frame = frame.dropna(subset=["value"])
    grouped = frame.groupby(list(SCORE_COLUMNS[:7]), sort=True, dropna=False)["value"].mean()
    out = grouped.reset_index()
    out["higher_is_better"] = out["metric"].map(HIGHER_IS_BETTER)
    # Noise (secrets, injected instructions, distractors) is scored by how much was carried
    # along: there recall is a leak rate.
    out.loc[out["kind"].isin(NOISE_KINDS), "higher_is_better"] = False
    return out[list(SCORE_COLUMNS)]


def _moment(row: dict[str, Any]) -> str:
    return "final" if row.get("generation") == "final" else "capsules"


def _retention(scores_dir: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    rows_path = scores_dir / "rows.jsonl"
    if rows_path.is_file():
        for row in _read(rows_path):
            base = {
                "session": row.get("session"),
                "scorer": "retention",
                "strategy": row.get("strategy"),
                "view": row.get("view"),
                "moment": _moment(row),
                "kind": row.get("kind"),
            }
            for metric in RETENTION_ROW_METRICS:
                out.append({**base, "metric": metric, "value": row.get(metric)})
    sessions_path = scores_dir / "sessions.jsonl"
    if sessions_path.is_file():
        for row in _read(sessions_path):
            if row.get("view") == "soba_quality":
                continue  # read from quality.jsonl, with its dimensions
            base = {
                "session": row.get("session"),
                "scorer": "retention",
                "strategy": row.get("strategy"),
                "view": row.get("view"),
                "moment": row.get("moment"),
                "kind": "all",
            }
            for metric in RETENTION_SESSION_METRICS:
                out.append({**base, "metric": metric, "value": row.get(metric)})
    return out


def _quality(scores_dir: Path) -> list[dict[str, Any]]:
    path = scores_dir / "quality.jsonl"
    if not path.is_file():
        return []
    out: list[dict[str, Any]] = []
    for row in _read(path):
        base = {
            "session": row.get("session"),
            "scorer": "soba_quality",
            "strategy": row.get("strategy", "soba"),  # the hybrid writes SOBA capsules too
            "view": "capsule",
            "moment": "capsules",
        }
        out.append({**base, "kind": "all", "metric": "score", "value": row.get("score")})
        passed = row.get("passed")
        value = float(passed) if isinstance(passed, bool) else None
        out.append({**base, "kind": "all", "metric": "passed", "value": value})
        for dim in row.get("dimensions") or []:
            out.append(
                {**base, "kind": dim.get("name"), "metric": "score", "value": dim.get("score")}
            )
    return out


def _failure_modes(
    scores_dir: Path, sessions: list[str], detectors: list[str], label: str
) -> list[dict]:
    """One row per session x detector: the finding count and a 0/1 flag (zeros included, so
    a session without findings counts as clean rather than missing)."""
    path = scores_dir / "findings.jsonl"
    counts: dict[tuple[Any, Any], int] = {}  # (session, detector) as the rows give them
    if path.is_file():
        for row in _read(path):
            key = (row.get("session"), row.get("detector"))
            counts[key] = counts.get(key, 0) + 1
    names = sorted(set(detectors) | {d for _, d in counts})
    out = []
    for session in sessions:
        for detector in names:
            n = counts.get((session, detector), 0)
            base = {
                "session": session,
                "scorer": "failure_modes",
                "strategy": label,
                "view": "replay",
                "moment": "session",
                "kind": detector,
            }
            out.append({**base, "metric": "findings", "value": float(n)})
            out.append({**base, "metric": "flag", "value": float(n > 0)})
    return out


def _drift(scores_dir: Path) -> list[dict[str, Any]]:
    path = scores_dir / "drift.jsonl"
    if not path.is_file():
        return []
    return [
        {
            "session": row.get("session"),
            "scorer": "retention",
            "strategy": "soba",
            "view": "capsule",
            "moment": f"age {row.get('age')}",
            "kind": "drift",
            "metric": "survival",
            "value": row.get("survival"),
        }
        for row in _read(path)
    ]


def _availability(scores_dir: Path) -> list[dict[str, Any]]:
    """State availability per session: kind ``all`` is the headline (macro over kinds)."""
    path = scores_dir / "availability.jsonl"
    if not path.is_file():
        return []
    out: list[dict[str, Any]] = []
    for row in _read_availability(path):
        base = {
            "session": row.get("session"),
            "scorer": "availability",
            "strategy": row.get("strategy"),
            "view": "input",
            "moment": "points",
            "metric": "availability",
        }
        out.append({**base, "kind": "all", "value": row.get("availability")})
        for key, metric in (
            ("contradiction", "contradiction"),
            ("inventedPaths", "invented_paths"),
        ):
            if isinstance(row.get(key), int | float):  # rows scored before these existed
                out.append({**base, "metric": metric, "kind": "all", "value": row[key]})
        for key, value in row.items():
            if key.startswith("availability."):
                out.append({**base, "kind": key.split(".", 1)[1], "value": value})
    return out


def _outcomes(scores_dir: Path) -> list[dict[str, Any]]:
    path = scores_dir / "outcomes.jsonl"
    if not path.is_file():
        return []
    out: list[dict[str, Any]] = []
    for row in _read(path):
        base = {
            "session": row.get("session"),
            "scorer": "outcomes",
            "strategy": row.get("strategy"),
            "view": "replay",
            "moment": "session",
            "kind": "all",
        }
        for field, metric in OUTCOME_METRICS.items():
            value = row.get(field)
            out.append({**base, "metric": metric, "value": None if value is None else float(value)})
    return out


def scored_by(folder: Path) -> ScoredTables | None:
    """What scored a job's tables: its ``scores/scored.json`` (the matcher, its model files,
    the scorers' revision), or None when the job was not scored. The tables themselves are
    checked where the metrics read them (``read_scores``)."""
    path = RunLayout(folder).scored()
    return load_scored(path, check_tables=False) if path.exists() else None


def read_scores(
    folder: Path, record: dict[str, Any], sessions: list[str]
) -> tuple[pd.DataFrame, list[str]]:
    """The tidy score frame of one job folder, and the scorers its tables hold ([] when none).

    ``scores/scored.json`` says which scorers wrote the tables (the job's, or a later
    ``soba-bench score``'s); a folder without one (written before it existed, or by a write
    cut short) falls back to the scorers and detectors the run record lists."""
    scores_dir = folder / "scores"
    if not scores_dir.is_dir():
        return empty_scores(), []
    scored_path = RunLayout(folder).scored()
    if scored_path.exists():
        scored = load_scored(scored_path)
        scorers, detectors = list(scored.scorers), list(scored.detectors)
    else:
        scorer_cfg = (record.get("resolvedConfig") or {}).get("scorer") or {}
        scorers = list(scorer_cfg.get("scorers") or [])
        detectors = list(((record.get("scoring") or {}).get("findings") or {}).keys())
    if not scorers:  # an older record: what the files show
        scorers = [
            name
            for name, file in (
                ("availability", "availability.jsonl"),
                ("outcomes", "outcomes.jsonl"),
                ("retention", "rows.jsonl"),
                ("soba_quality", "quality.jsonl"),
                ("failure_modes", "findings.jsonl"),
            )
            if (scores_dir / file).is_file()
        ]
    rows = _retention(scores_dir) + _drift(scores_dir) if "retention" in scorers else []
    if "availability" in scorers:
        rows += _availability(scores_dir)
    if "outcomes" in scorers:
        rows += _outcomes(scores_dir)
    if "soba_quality" in scorers:
        rows += _quality(scores_dir)
    if "failure_modes" in scorers:
        label = record.get("strategy") or "soba"  # the detectors look at the job's replay
        rows += _failure_modes(scores_dir, sessions, detectors, label)
    return _tidy(rows), scorers
