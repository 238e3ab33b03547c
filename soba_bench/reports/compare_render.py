"""Markdown for a :class:`~soba_bench.reports.compare.Comparison`, sized for a pull-request
comment: the verdict first, then only the metrics that moved (regressions first), and one line
each for what did not move, what had no data and what did not pair."""

from __future__ import annotations

from typing import TYPE_CHECKING

from soba_bench.reports.compare_pairing import show

if TYPE_CHECKING:
    from soba_bench.reports.compare import Comparison, MetricDelta

_LIST = 8  # names listed inline before "and N more"
_UNIT_SCALE = ("ratio", "score")  # the units a forest plot shares one axis for


def _names(names: list[str] | tuple[str, ...]) -> str:
    shown = ", ".join(f"`{n}`" for n in names[:_LIST])
    more = len(names) - _LIST
    return shown + (f" and {more} more" if more > 0 else "")


def _num(value: float | None, unit: str, signed: bool = False) -> str:
    if value is None:
        return "-"
    if unit in ("tokens", "count") and abs(value) >= 100:
        text = f"{value:,.0f}" if not signed else f"{value:+,.0f}"
    else:
        text = f"{value:.3f}" if not signed else f"{value:+.3f}"
    return text


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def _row(d: MetricDelta, with_config: bool) -> str:
    if d.regression:
        mark = "❌"
    elif d.traded:
        mark = "⇄"
    elif d.improved:
        mark = "✔"
    else:
        mark = "▲" if _better(d) else "▼" if _worse(d) else ""
    arrow = "↑" if d.higher_is_better else "↓"
    cells = [mark, f"`{d.metric}` {arrow}"]
    if with_config:
        cells.append(d.config or "-")
    cells += [
        _num(d.base, d.unit),
        _num(d.cand, d.unit),
        _num(d.delta, d.unit, signed=True),
        f"[{_num(d.low, d.unit, True)}, {_num(d.high, d.unit, True)}]",
        _p(d.p_worse if _worse(d) else d.p_better) if d.gated else "not gated",
        _num(d.mde, d.unit) if d.gated else "-",
        str(d.sessions),
    ]
    return "| " + " | ".join(cells) + " |"


def _better(d: MetricDelta) -> bool:
    return d.delta is not None and (d.delta > 0) == d.higher_is_better and d.delta != 0


def _worse(d: MetricDelta) -> bool:
    return d.delta is not None and d.delta != 0 and not _better(d)


_HEADS = {
    "regression": "### ❌ soba-bench compare: {n} metric(s) regressed",
    "cannot test": "### ⚠️ soba-bench compare: cannot test",
    "improvement": "### ✅ soba-bench compare: improvement, no regression",
    "no regression": "### ✅ soba-bench compare: no regression",
}


def render_markdown(c: Comparison) -> str:
    """The comparison as a compact Markdown report."""
    lines = [_HEADS[c.verdict].format(n=len(c.flagged_metrics)), ""]
    if c.cannot_test is not None:
        lines += [f"Cannot test: {c.cannot_test}. Exit code 3.", ""]
    tested = "; ".join(f"`{k}` {show(b)} → {show(v)}" for k, b, v in c.tested)
    lines.append(
        f"BASE `{c.base}` vs CAND `{c.cand}`; under test: {tested or 'nothing (same config)'}"
    )
    sessions = sum(p.sessions for p in c.pairs)
    same = sum(p.same_points for p in c.pairs)
    tests = sum(1 for d in c.deltas if d.gated and d.p_worse is not None)
    alpha = 1 - c.confidence
    lines.append(
        f"{len(c.pairs)} config pair(s), {sessions} paired session(s) ({same} scored at the same "
        f"evaluation points on both sides). A metric fails when it is worse by more than its "
        f"max drop with its Holm-adjusted sign-flip p-value (over {tests} tests) at most "
        f"{alpha:.2f}; intervals: {c.confidence:.0%} paired bootstrap over sessions "
        f"(seed {c.seed}); MDE: the smallest true change detectable with 80% power at this n."
    )
    traded = [d for d in c.deltas if d.traded]
    if traded:
        lines.append(
            "Fewer refused requests with availability not lower: an improvement; "
            f"{_names(list(dict.fromkeys(d.metric for d in traded)))} got worse in exchange "
            "(⇄, not failed)."
        )
    lines.append("")
    moved = [d for d in c.deltas if d.changed or d.regression]
    moved.sort(key=lambda d: (not d.regression, not d.traded, not _worse(d), d.metric, d.config))
    with_config = len(c.pairs) > 1
    if moved:
        header = ["", "metric", *(["config"] if with_config else []), "base", "cand", "Δ"]
        header += [f"{c.confidence:.0%} CI", "p (Holm)", "MDE", "n"]
        lines.append("| " + " | ".join(header) + " |")
        lines.append("|" + "---|" * len(header))
        lines += [_row(d, with_config) for d in moved]
        lines.append("")
    moved_names = {d.metric for d in moved}
    still = [d.metric for d in c.deltas if d.delta is not None and d.metric not in moved_names]
    nodata = [d.metric for d in c.deltas if d.delta is None and d.metric not in moved_names]
    still, nodata = list(dict.fromkeys(still)), list(dict.fromkeys(nodata))
    nodata = [m for m in nodata if m not in still]
    if still:
        lines.append(f"Unchanged: {_names(still)}.")
    if nodata:
        lines.append(f"No paired values: {_names(nodata)}.")
    by_drop: dict[float, list[str]] = {}
    for d in c.regressions:
        names = by_drop.setdefault(d.max_drop, [])
        if d.metric not in names:
            names.append(d.metric)
    if len(by_drop) == 1:
        lines.append(f"Max drop: {next(iter(by_drop)):g} for every failing metric.")
    elif by_drop:
        drops = "; ".join(f"{v:g} for {_names(ms)}" for v, ms in by_drop.items())
        lines.append(f"Max drop: {drops}.")
    if c.unpaired_base_configs or c.unpaired_cand_configs:
        lines.append(
            f"Unpaired configs: BASE {_names(c.unpaired_base_configs) or 'none'}; "
            f"CAND {_names(c.unpaired_cand_configs) or 'none'}."
        )
    lost = sorted(
        {s for p in c.pairs for s in (*p.unpaired_base_sessions, *p.unpaired_cand_sessions)}
    )
    if lost:
        lines.append(f"Sessions on one side only: {_names(lost)}.")
    if c.failed_jobs:
        lines.append(f"Failed jobs (not compared): {_names(c.failed_jobs)}.")
    return "\n".join(lines).rstrip() + "\n"


def comparison_figure(c: Comparison, only_changed: bool = True):
    """A forest plot of the deltas: CAND - BASE per metric (and config pair) with its
    interval, signed so that right is better; regressions in red. One axis needs one scale,
    so it shows the 0..1 metrics (ratios, scores; counts and tokens are in the Markdown).
    None when none of them moved."""
    from soba_bench.reports.figures import new_figure

    shown = [
        d
        for d in c.deltas
        if d.delta is not None and d.unit in _UNIT_SCALE and (d.changed or not only_changed)
    ]
    if not shown:
        return None
    shown.sort(key=lambda d: (d.metric, d.config))
    fig = new_figure(8.0, 1.2 + 0.3 * len(shown))
    ax = fig.subplots()
    for y, d in enumerate(shown):
        # shown has deltas only, and the bootstrap gives every delta its interval
        assert d.delta is not None and d.low is not None and d.high is not None
        sign = 1 if d.higher_is_better else -1
        low, high = sorted((sign * d.low, sign * d.high))
        color = "#c62828" if d.regression else ("#2e7d32" if _better(d) else "#757575")
        ax.plot([low, high], [y, y], color=color, linewidth=2)
        ax.plot([sign * d.delta], [y], "o", color=color)
    ax.axvline(0, color="black", linewidth=0.8)
    labels = [f"{d.metric} [{d.config}]" if d.config else d.metric for d in shown]
    ax.set_yticks(range(len(shown)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"CAND - BASE, signed so that right is better ({c.confidence:.0%} interval)")
    ax.set_title("compare: paired deltas (red: regression)")
    return fig
