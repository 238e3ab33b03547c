"""Probe scores per session and across sessions, like the retention tables: sessions are the
unit of resampling (each contributes its mean over capsule moments, the final moment apart),
with percentile-bootstrap intervals."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from statistics import fmean
from typing import Any

from soba_bench.errors import InputError
from soba_bench.scoring.probes.scorer import PROBE_METRICS, PROBE_VIEW, TYPE_METRICS
from soba_bench.scoring.stats import bootstrap_ci

FINAL = "final"


def _mean(values: Iterable[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return fmean(kept) if kept else None


def probe_session_table(session: str, moments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (strategy, capsule moments | final) for one session's moment rows."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in moments:
        moment = FINAL if row["generation"] == FINAL else "capsules"
        groups[(row["strategy"], moment)].append(row)
    return [
        {
            "session": session,
            "strategy": strategy,
            "view": PROBE_VIEW,
            "moment": moment,
            "points": len(rows),
            **{m: _mean(r[m] for r in rows) for m in PROBE_METRICS},
            "probes": sum(r["probes"] for r in rows),
            "errors": sum(len(r["errors"]) for r in rows),
        }
        for (strategy, moment), rows in sorted(groups.items())
    ]


def probe_corpus_table(rows: list[dict[str, Any]], *, seed: int = 0) -> list[dict[str, Any]]:
    """Mean and 95% bootstrap interval across sessions, per (strategy, moment)."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row.get("view") == PROBE_VIEW:
            groups[(row["strategy"], row["moment"])].append(row)
    out = []
    for (strategy, moment), group in sorted(groups.items()):
        entry: dict[str, Any] = {
            "strategy": strategy,
            "view": PROBE_VIEW,
            "moment": moment,
            "sessions": len(group),
        }
        for metric in PROBE_METRICS:
            estimate, low, high = bootstrap_ci([r.get(metric) for r in group], seed=seed)
            entry[metric] = estimate
            entry[f"{metric}CI"] = [low, high]
        entry["errors"] = sum(r["errors"] for r in group)
        out.append(entry)
    return out


def format_probes(corpus: list[dict[str, Any]]) -> str:
    """The probe rows of a corpus table as console lines (mean over sessions)."""
    kinds = list(TYPE_METRICS)
    header = f"{'strategy':<22}{'moment':<10}{'score':>8}" + "".join(f"{k:>14}" for k in kinds)
    lines = ["", "probes (mean over sessions; score = share of expected items answered)", header]
    for row in corpus:
        if row.get("view") != PROBE_VIEW:
            continue
        cells = [row.get("probeScore"), *(row.get(TYPE_METRICS[k]) for k in kinds)]
        shown = ["-" if v is None else f"{v:.3f}" for v in cells]
        line = f"{row['strategy']:<22}{row['moment']:<10}{shown[0]:>8}"
        line += "".join(f"{c:>14}" for c in shown[1:])
        if row.get("errors"):
            line += f"  ({row['errors']} unscored: answer or judge errors)"
        lines.append(line)
    return "\n".join(lines)


def parse_params(pairs: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings (``--param``) as a mapping; a pair without ``=`` is an error."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError("expected KEY=VALUE", field="--param", value=pair, has_value=True)
        out[key.strip()] = value.strip()
    return out


def describe_probers(settings: dict[str, Any]) -> str:
    """One console line: the answerer and judge, and their model calls and cache hits."""
    parts = []
    for role in ("answererInfo", "judgeInfo"):
        info = settings.get(role) or {}
        name = str(info.get("answerer") or info.get("judge"))
        if "backend" in info:
            name += f" ({info['model']}: {info['calls']} calls, {info['hits']} from the cache)"
        parts.append(name)
    return f"probes answered by {parts[0]}, judged by {parts[1]}"
