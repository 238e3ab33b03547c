"""``tune.md``: the recommendation against SOBA's shipped defaults, on the search sessions and
on the held-out ones, the runner-ups and the Pareto front; and the one line per trial the CLI
prints. Reads only the recommendation document."""

from __future__ import annotations

from typing import Any

from soba_bench.tune.metrics import TUNE_METRICS
from soba_bench.tune.objective import Objective
from soba_bench.tune.runner import Trial

SHOWN = (
    "savings",
    "input_tokens",
    "availability",
    "retention",
    "capsule_retention",
    "soba_quality",
    "soba_quality_pass_rate",
    "refused",
    "overflows",
    "blocked_forever",
    "degraded_rate",
    "skip_rate",
)


def _num(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.3f}"


def _cell(metric: dict[str, Any] | None, whole: bool = False) -> str:
    if not metric or metric.get("value") is None:
        return "-"
    shown = (lambda v: f"{v:,.0f}") if whole else _num
    low, high = metric["ci"]
    if low is None or (low == high == metric["value"]):
        return shown(metric["value"])
    return f"{shown(metric['value'])} [{shown(low)}, {shown(high)}]"


def trial_line(trial: Trial, objective: Objective) -> str:
    """``[trial 3] keepRecentTokens=8000,...: feasible, availability 0.951 (1.2 s)``"""
    params = ",".join(f"{k}={v:g}" for k, v in trial.params.items())
    if trial.repeat_of is not None:
        state = f"same config as trial {trial.repeat_of}"
    elif trial.status != "complete":
        state = f"{trial.status}: {'; '.join(trial.evaluation.violations)}"
    else:
        value = trial.evaluation.value
        shown = "-" if value is None else f"{value:.4g}"
        verdict = "feasible" if trial.evaluation.feasible else "infeasible"
        state = f"{verdict}, {objective.metric} {shown}"
        if trial.evaluation.violations:
            state += " (" + "; ".join(trial.evaluation.violations) + ")"
        state += f" ({trial.seconds:.1f} s)"
    return f"[trial {trial.number}] {params}: {state}"


def _metrics_table(columns: list[tuple[str, dict[str, Any] | None]]) -> list[str]:
    lines = [
        "| metric | " + " | ".join(name for name, _ in columns) + " |",
        "|---|" + "---|" * len(columns),
    ]
    for metric in SHOWN:
        spec = TUNE_METRICS.get(metric)
        arrow = "↑" if spec.higher_is_better else "↓"
        whole = spec.unit in ("count", "tokens")
        cells = [_cell((part or {}).get("metrics", {}).get(metric), whole) for _, part in columns]
        lines.append(f"| {metric} {arrow} | " + " | ".join(cells) + " |")
    return lines


def _params(params: dict[str, Any]) -> str:
    return ", ".join(f"`{k}={v:g}`" for k, v in params.items())


def _delta_table(comparison: dict[str, Any] | None) -> list[str]:
    if not comparison:
        return []
    lines = [
        "",
        "Recommended minus SOBA defaults, paired by session (mean, 95% bootstrap interval):",
        "",
        "| metric | search sessions | held-out sessions |",
        "|---|---|---|",
    ]
    for metric, search in comparison["search"].items():
        held = (comparison.get("heldOut") or {}).get(metric)
        cells = []
        for part in (search, held):
            if not part or part["delta"] is None:
                cells.append("-")
            else:
                low, high = part["ci"]
                cells.append(f"{part['delta']:+.4g} [{low:+.4g}, {high:+.4g}]")
        lines.append(f"| {metric} | " + " | ".join(cells) + " |")
    return lines


def render(doc: dict[str, Any]) -> str:
    """The markdown section for a recommendation document."""
    s = doc["settings"]
    window = s["window"]
    search = doc["search"]
    split = doc["split"]
    lines = [
        f"## Tuning: {window.get('name') or 'custom'} window "
        f"({window['contextWindow']:,} tokens, {window.get('maxOutputTokens', 0):,} output)",
        "",
        f"Objective: **{doc['objective']['text']}** (constraints enforced: an infeasible config "
        "is never recommended).",
        f"Search: {s['search']['strategy']} (seed {s['search']['seed']}), {search['trials']} "
        f"trials, {search['distinctConfigs']} distinct configs of {s['spaceSize']} in the space "
        f"({search['feasible']} feasible, {search['invalid']} rejected by SOBA's validation, "
        f"{search['failed']} failed), {search['wallSeconds']:.0f} s.",
        f"Sessions: {len(split['search'])} searched, {len(split['heldOut'])} held out "
        f"(split seed {split['seed']}, stratified by corpus).",
        *(
            f"Left out of the search: `{key}` ({why}); it keeps the run's value."
            for key, why in (s.get("leftOut") or {}).items()
        ),
        "",
    ]
    rec, base = doc["recommended"], doc["baseline"]
    if rec is None:
        lines += ["**No config met every constraint.**"]
        near = doc.get("closest")
        if near is not None:
            lines += [
                f"Closest: trial {near['trial']} ({_params(near['params'])}), which misses "
                + "; ".join(near["violations"])
                + "."
            ]
        lines += ["", "SOBA's defaults on the same sessions:", ""]
        columns = [("SOBA defaults, search", base["search"])]
        if near is not None and near["status"] == "complete":
            columns.insert(0, ("closest, search", near))
        lines += _metrics_table(columns)
        return "\n".join(lines) + "\n"
    lines += [f"Recommended: {_params(rec['params'])}", ""]
    columns = [
        ("recommended, search", rec["search"]),
        ("SOBA defaults, search", base["search"]),
        ("recommended, held-out", rec["heldOut"]),
        ("SOBA defaults, held-out", base["heldOut"]),
    ]
    lines += _metrics_table([c for c in columns if c[1] is not None])
    held = rec["heldOut"]
    if held is not None:
        verdict = "meets" if held["feasible"] else "does not meet"
        lines += [
            "",
            f"Held-out check: the recommendation {verdict} the constraints on "
            "sessions it was not chosen on"
            + ("." if held["feasible"] else ": " + "; ".join(held["violations"]) + "."),
        ]
    lines += _delta_table(doc.get("comparison"))
    metric = doc["objective"]["metric"]
    if doc["runnerUps"]:
        lines += [
            "",
            "Runner-ups (search sessions):",
            "",
            f"| trial | params | {metric} |",
            "|---|---|---|",
        ]
        for t in doc["runnerUps"]:
            lines.append(f"| {t['trial']} | {_params(t['params'])} | {_num(t['objective'])} |")
    front = doc["pareto"]["front"]
    if front:
        lines += [
            "",
            "Pareto front, savings vs availability (search sessions):",
            "",
            "| trial | params | savings | availability | feasible |",
            "|---|---|---|---|---|",
        ]
        for t in front:
            m = t["metrics"]
            lines.append(
                f"| {t['trial']} | {_params(t['params'])} | {_num(m['savings']['value'])} | "
                f"{_num(m['availability']['value'])} | {'yes' if t['feasible'] else 'no'} |"
            )
    return "\n".join(lines) + "\n"
