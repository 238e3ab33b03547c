"""The report's content, independent of the output format: sections of text, tables and
figures (PNG bytes), each marked "not recorded" when the run records hold nothing for it."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure

from soba_bench.reports import figures as F
from soba_bench.reports import figures_scores as FS
from soba_bench.reports import tables as T
from soba_bench.reports.frames import RunSet, swept_parameters
from soba_bench.reports.labels import job_labels, job_numbers
from soba_bench.reports.skips import reason_mapping
from soba_bench.reports.verdict import leaderboards

NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class TableItem:
    caption: str
    frame: pd.DataFrame
    missing: str = NOT_RECORDED  # shown instead of an empty table


@dataclass(frozen=True)
class FigureItem:
    name: str  # file stem of the PNG
    caption: str
    png: bytes | None  # None: nothing to plot
    missing: str = NOT_RECORDED


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    text: tuple[str, ...] = ()
    items: tuple[TableItem | FigureItem, ...] = field(default_factory=tuple)


def render_png(fig: Figure | None) -> bytes | None:
    """A figure as PNG bytes (Agg), without a timestamp so equal figures give equal bytes."""
    if fig is None:
        return None
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


def _figure(
    name: str, caption: str, build: Callable[[], Figure | None], missing: str = ""
) -> FigureItem:
    return FigureItem(name, caption, render_png(build()), missing or NOT_RECORDED)


def _jobs(rs: RunSet) -> pd.DataFrame:
    jobs = rs.jobs
    frame = pd.DataFrame(
        {
            "#": job_numbers(rs).to_numpy(),
            "job": job_labels(rs).reindex(jobs["job_id"]).to_numpy(),
            "job id": jobs["job_id"],
            "strategy": jobs["strategy"],
            "summarizer": jobs["summarizer"],
            "sweep": jobs["sweep"],
            "reused": jobs["reused"],
        }
    )
    if not rs.sessions.empty:
        counts = rs.sessions.groupby("job_id").size()
        frame["sessions"] = jobs["job_id"].map(counts).fillna(0).astype(int).to_numpy()
    return frame


def verdict(rs: RunSet) -> Section:
    groups = leaderboards(rs)
    text = [
        "Ranked on state availability (the share of live facts the model can see at every "
        "model request of the walk, macro over fact kinds; refused requests count as unseen), "
        "with its 95% bootstrap interval over sessions and n = sessions with ground truth. "
        "A job that refuses requests or loops is infeasible: ranked last, never named best. "
        "Jobs are ranked only against jobs on the same corpus and window.",
    ]
    items: list[TableItem | FigureItem] = []
    for group in groups:
        text.append(f"**{group.title}**: {group.sentence}")
        items.append(TableItem(f"Leaderboard: {group.title}", group.board))
    return Section("verdict", "Verdict", tuple(text), tuple(items))


def overview(rs: RunSet) -> Section:
    swept = swept_parameters(rs)
    text = [
        f"{len(rs.jobs)} complete job(s), {len(rs.failed)} failed, "
        f"{len(rs.sessions)} job x session rows, read from the run records under `{rs.root}`.",
        "Swept settings: " + (", ".join(swept) if swept else "none (a single configuration)."),
        "Strategies: " + ", ".join(sorted(rs.jobs["strategy"].astype(str).unique())) + ".",
    ]
    items: list[TableItem | FigureItem] = [TableItem("Jobs (figures use the # numbers)", _jobs(rs))]
    if not rs.failed.empty:
        items.append(TableItem("Failed jobs (not in any other table)", rs.failed))
    if rs.notes:
        items.append(
            TableItem(
                "Notes on what was read (missing tables, mixed matchers)",
                pd.DataFrame({"note": list(rs.notes)}),
            )
        )
    return Section("overview", "Overview", tuple(text), tuple(items))


def outcomes(rs: RunSet) -> Section:
    return Section(
        "outcomes",
        "Outcomes by trigger and attempts per session",
        ("Every compaction attempt by trigger and outcome, per job.",),
        (
            TableItem("Attempts by trigger and outcome", T.outcomes_by_trigger(rs)),
            _figure(
                "outcomes_by_trigger",
                "Attempt outcomes by trigger",
                lambda: F.outcomes_by_trigger(rs),
            ),
            TableItem("Attempts per session", T.attempts_per_session(rs)),
            _figure(
                "attempts_per_session", "Attempts per session", lambda: F.attempts_per_session(rs)
            ),
        ),
    )


def reclaimed(rs: RunSet) -> Section:
    return Section(
        "reclaimed",
        "Reclaimed tokens",
        (
            "Completed compactions only. Savings ratio pooled = reclaimed / tokens before, "
            "summed over the job; after / hard limit = tokens after the compaction as a "
            "share of the hard limit (1.0 = at the limit).",
        ),
        (
            TableItem(
                "Reclaimed tokens, savings and tokens after vs limits", T.reclaimed_summary(rs)
            ),
            _figure(
                "reclaimed_distribution",
                "Tokens reclaimed per compaction",
                lambda: F.reclaimed_distribution(rs),
                "not recorded (no completed compaction)",
            ),
            _figure(
                "tokens_vs_limits",
                "Tokens before/after against the limits",
                lambda: F.tokens_vs_limits(rs),
                "not recorded (no completed compaction)",
            ),
        ),
    )


def skips(rs: RunSet) -> Section:
    text = (
        "Every barrier either compacted, or ended in a failed / stale / cancelled attempt, or "
        "was skipped for one reason. Attempts carry SOBA's reason text, mapped by pattern; "
        "a barrier that started no attempt records no reason, so SOBA's soft trigger policy is "
        "re-applied to what it recorded (effective tokens, soft limit, the job's "
        "keepRecentTokens / minReclaimableTokens / minSavingsRatio).",
        "Rates are shares of all barriers (preflight checks) of the job.",
    )
    return Section(
        "skips",
        "Skip rate by reason; failed, stale and cancelled attempts",
        text,
        (
            TableItem("Skip counts and rates by category", T.skip_rates(rs)),
            _figure("skip_rates", "Skip rate by reason category", lambda: F.skip_rates(rs)),
            TableItem(
                "Failed, stale and cancelled attempts by reason",
                T.issue_reasons(rs),
                "none recorded",
            ),
            TableItem("How reasons map to categories", pd.DataFrame(reason_mapping())),
        ),
    )


def fallbacks(rs: RunSet) -> Section:
    model = rs.provenance[
        [
            "job_id",
            "summarizer",
            "summarizer_chain",
            "summarizer_model",
            "summarizer_latency",
            "prompt_id",
        ]
    ]
    model = model.assign(job_id=model["job_id"].map(job_numbers(rs))).rename(
        columns={"job_id": "#"}
    )
    return Section(
        "fallbacks",
        "Degraded fallbacks and generation latency",
        (
            "timeout fallback: SOBA's deterministic capsule after the model missed timeoutMs "
            "(reason 'Compaction model timed out after ...'); model error fallback: a model "
            "summarizer's chain fell through to the deterministic strategy (error, unparsable "
            "or invalid answer). Rates are per attempt, whatever its outcome.",
        ),
        (
            TableItem("Fallbacks and generation latency per job", T.fallbacks(rs)),
            _figure(
                "fallback_vs_timeout",
                "Degraded fallback rate against timeoutMs",
                lambda: F.fallback_vs_timeout(rs),
                "not recorded (no model summarizer in these runs)",
            ),
            _figure(
                "generation_latency",
                "Capsule generation latency",
                lambda: F.generation_latency(rs),
                "not recorded (no generation time above 0 ms)",
            ),
            TableItem("Summarizers and their latency models", model),
        ),
    )


def retention(rs: RunSet) -> Section:
    items: list[TableItem | FigureItem] = []
    # Settings and strategies are compared on availability (the same evaluation points for
    # every job), never on retention (each job's own capsule moments): see figures_scores.
    for parameter in FS.numeric_parameters(rs):
        items.append(
            _figure(
                f"availability_vs_{parameter}",
                f"Availability against {parameter}",
                functools.partial(FS.availability_vs_parameter, rs, parameter),
                "not recorded (no availability scores)",
            )
        )
    items += [
        TableItem(
            "Pareto front: savings vs availability",
            T.pareto(rs),
            "not recorded (needs availability scores and completed compactions)",
        ),
        _figure(
            "pareto_front", "Savings vs availability", lambda: FS.pareto_front(rs), "not recorded"
        ),
        TableItem(
            "Recall per fact kind (model input at capsule moments; a diagnostic)",
            T.retention_by_kind(rs),
            "not recorded (no retention scores: scorer none, or no ground truth)",
        ),
        _figure(
            "retention_heatmap",
            "Recall per fact kind and job (capsule moments)",
            lambda: FS.retention_heatmap(rs),
            "not recorded (no retention scores)",
        ),
        TableItem(
            "soba_quality", T.quality(rs), "not recorded (soba_quality not run, or no ground truth)"
        ),
        _figure(
            "quality_pass_rate",
            "soba_quality pass rate",
            lambda: FS.quality_pass_rate(rs),
            "not recorded",
        ),
    ]
    return Section(
        "retention",
        "Settings against availability, Pareto front, retention and soba_quality",
        (
            "Availability against each swept setting and the Pareto front of savings vs "
            "availability: every job is scored at the same evaluation points, so these compare "
            "settings and strategies. Recall (retention) is the job's own replay at its own "
            "capsule moments, model-input view (capsule plus retained tail), averaged per "
            "session first; 'leak:' columns are noise carried along (lower is better). Each job "
            "compacts at other moments, so recall is a diagnostic of the capsules, not a "
            "comparison of settings.",
        ),
        tuple(items),
    )


def failure_modes(rs: RunSet) -> Section:
    return Section(
        "failure-modes",
        "Failure modes",
        ("Sessions flagged per detector (loops, growth, blocked-forever, lost constraints...).",),
        (
            TableItem(
                "Failure modes per job",
                T.failure_modes(rs),
                "not recorded (failure_modes scorer not run)",
            ),
            _figure(
                "failure_modes",
                "Sessions flagged per detector",
                lambda: FS.failure_mode_counts(rs),
                "not recorded",
            ),
        ),
    )


def drilldown(rs: RunSet) -> Section:
    return Section(
        "sessions",
        "Per-session drill-down",
        ("One row per job x session; fm.* = failure-mode flags (1 = flagged).",),
        (TableItem("Sessions", T.drilldown(rs)),),
    )


def provenance(rs: RunSet) -> Section:
    return Section(
        "provenance",
        "Provenance",
        (
            "What produced every run: package, git revision, corpora with manifest sha256, "
            "seed, summarizer.",
        ),
        (TableItem("Run provenance", rs.provenance),),
    )


SECTIONS = (
    verdict,
    overview,
    outcomes,
    reclaimed,
    skips,
    fallbacks,
    retention,
    failure_modes,
    drilldown,
    provenance,
)


def build_sections(rs: RunSet) -> list[Section]:
    """Every section of the report, in order."""
    return [make(rs) for make in SECTIONS]
