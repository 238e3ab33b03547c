"""Failure-mode detectors: patterns in a replay that no average score shows, such as an engine
that compacts over and over for nothing, a request refused until the session ends, or a
constraint that silently drops out of every model input.

Barrier detectors read the replay's barrier log in the conformance format (``attempt`` and
``check`` lines, conformance README section 4.2; config and summary lines are ignored). The
others read model inputs, optionally with the ground truth. Each returns a list of findings;
an empty list means the session is clean for that detector.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from soba_bench.corpora.truth import Fact
from soba_bench.registry import Registry
from soba_bench.scoring.retention import present
from soba_bench.scoring.timeline import Lifecycle
from soba_bench.scoring.views import View
from soba_bench.session import entries as E

COMPLETED = "completed"
BARRIER_KINDS = ("attempt", "check")

# Model inputs to check, as (point, View) pairs, or a callable producing them lazily (views
# are costly to build, and a caller may not need them unless this detector runs).
InputViews = Iterable[tuple[int, View]] | Callable[[], Iterable[tuple[int, View]]]


@dataclass(frozen=True)
class DetectorConfig:
    """Thresholds: a loop is ``loop_run`` completed compactions in a row that each reclaim
    fewer than ``loop_epsilon`` tokens; blocked is ``blocked_run`` refused barriers in a row."""

    loop_run: int = 3
    loop_epsilon: float = 500
    blocked_run: int = 3

    def __post_init__(self) -> None:
        for name in ("loop_run", "blocked_run"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"DetectorConfig.{name} must be an integer >= 1, got {value!r}")
        if self.loop_epsilon < 0:
            raise ValueError(f"DetectorConfig.loop_epsilon must be >= 0, got {self.loop_epsilon!r}")


DEFAULT_CONFIG = DetectorConfig()


@dataclass(frozen=True)
class FailureFinding:
    detector: str
    session: str | None
    where: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "detector": self.detector,
            "session": self.session,
            "where": self.where,
            "detail": self.detail,
        }


def _lines(log: Iterable[Any]) -> tuple[list[dict[str, Any]], str | None]:
    """Barrier lines of a log (dicts, or records with ``to_line``), plus the session name its
    config line gives, if any."""
    lines: list[dict[str, Any]] = []
    session = None
    for entry in log:
        line = entry.to_line() if hasattr(entry, "to_line") else entry
        if line.get("kind") == "config":
            session = line.get("session")
        elif line.get("kind") in BARRIER_KINDS:
            lines.append(line)
    return lines, session


def _tokens(line: dict[str, Any]) -> float:
    return line["tokensBefore"] if line["kind"] == "attempt" else line["effectiveTokens"]


def _at(index: int, line: dict[str, Any]) -> str:
    return f"barrier {index + 1} (turn {line.get('turn')}, before {line.get('beforeEntryId')})"


def _span(lines: list[dict[str, Any]], first: int, last: int) -> str:
    if first == last:
        return _at(first, lines[first])
    return f"{_at(first, lines[first])} .. {_at(last, lines[last])}"


def compaction_loop(
    log: Iterable[Any], *, session: str | None = None, config: DetectorConfig = DEFAULT_CONFIG
) -> list[FailureFinding]:
    """Compactions that do not get the context under control: a run of completed compactions
    each reclaiming < epsilon tokens (other barriers in between do not break the run; any
    other attempt does), or a completed compaction whose next barrier is still over the hard
    limit."""
    lines, named = _lines(log)
    session = session or named
    found: list[FailureFinding] = []
    run: list[int] = []

    def close() -> None:
        if len(run) >= config.loop_run:
            total = sum(lines[i]["reclaimed"] for i in run)
            found.append(
                FailureFinding(
                    "compaction_loop",
                    session,
                    _span(lines, run[0], run[-1]),
                    f"{len(run)} completed compactions in a row each reclaimed fewer than "
                    f"{config.loop_epsilon:g} tokens ({total:g} in total)",
                )
            )
        run.clear()

    for index, line in enumerate(lines):
        if line["kind"] != "attempt":
            continue
        if line.get("outcome") == COMPLETED and line.get("reclaimed", 0) < config.loop_epsilon:
            run.append(index)
        else:
            close()
        if line.get("outcome") == COMPLETED and index + 1 < len(lines):
            after = lines[index + 1]
            if _tokens(after) > after["hardLimit"]:
                found.append(
                    FailureFinding(
                        "compaction_loop",
                        session,
                        _at(index, line),
                        f"completed compaction ({line['tokensBefore']:g} -> "
                        f"{line['tokensAfter']:g} tokens) but the next barrier is still over "
                        f"the hard limit ({_tokens(after):g} > {after['hardLimit']:g})",
                    )
                )
    close()
    return found


def context_growth(
    log: Iterable[Any], *, session: str | None = None, config: DetectorConfig = DEFAULT_CONFIG
) -> list[FailureFinding]:
    """A completed compaction that left the context larger than it found it."""
    lines, named = _lines(log)
    return [
        FailureFinding(
            "context_growth",
            session or named,
            _at(index, line),
            f"completed compaction grew the context: {line['tokensBefore']:g} -> "
            f"{line['tokensAfter']:g} tokens",
        )
        for index, line in enumerate(lines)
        if line["kind"] == "attempt"
        and line.get("outcome") == COMPLETED
        and line["tokensAfter"] > line["tokensBefore"]
    ]


def blocked_forever(
    log: Iterable[Any], *, session: str | None = None, config: DetectorConfig = DEFAULT_CONFIG
) -> list[FailureFinding]:
    """At least k refused barriers in a row (``canProceed: false``): the agent cannot send a
    request and compaction cannot fix it, e.g. SOBA's blocker saturation at the hard limit."""
    lines, named = _lines(log)
    found: list[FailureFinding] = []
    start: int | None = None
    for index in range(len(lines) + 1):
        refused = index < len(lines) and lines[index].get("canProceed") is False
        if refused and start is None:
            start = index
        elif not refused and start is not None:
            length = index - start
            if length >= config.blocked_run:
                tail = "until the end of the session" if index == len(lines) else "then recovered"
                found.append(
                    FailureFinding(
                        "blocked_forever",
                        session or named,
                        _span(lines, start, index - 1),
                        f"{length} refused barriers in a row, {tail}",
                    )
                )
            start = None
    return found


def lost_constraint(
    inputs: InputViews,
    facts: Iterable[Fact],
    lifecycle: Lifecycle,
    *,
    after: int = 0,
    session: str | None = None,
    config: DetectorConfig = DEFAULT_CONFIG,
) -> list[FailureFinding]:
    """A constraint that is absent from every model input made at or after ``after`` while it
    was live (typically ``after`` = the first compaction point: before it, the raw transcript
    carries everything)."""
    pairs = [(p, v) for p, v in (inputs() if callable(inputs) else inputs) if p >= after]
    found: list[FailureFinding] = []
    for fact in facts:
        if fact.kind != "constraint":
            continue
        relevant = [(p, v) for p, v in pairs if lifecycle.live_at(fact, p)]
        if relevant and not any(present(fact, view) for _, view in relevant):
            points = [p for p, _ in relevant]
            found.append(
                FailureFinding(
                    "lost_constraint",
                    session,
                    f"{len(points)} model inputs at points {points[0]}..{points[-1]}",
                    f"constraint {fact.id} missing from every input: {fact.text[:160]!r}",
                )
            )
    return found


# What splits a tool call from its result in one model input: (the item's index in the input,
# its type, its call id, NO_OUTPUT or NO_CALL).
BoundaryProblem = tuple[int, str, Any, str]
NO_OUTPUT = "has no output but later items follow"
NO_CALL = "has no call before it"


def boundary_problems(items: Sequence[dict[str, Any]]) -> list[BoundaryProblem]:
    """An output whose call is not before it, or a call without an output that is followed by
    anything other than further calls (a trailing batch of calls is a request still waiting
    for its tools), in input order. The reading of the items themselves;
    :meth:`~soba_bench.scoring.points.PointWalk.boundary_problems` finds the same from
    positions on a replayed branch."""
    found: list[BoundaryProblem] = []
    seen_calls: set[Any] = set()
    outputs = {i.get("call_id") for i in items if i.get("type") in E.OUTPUT_TYPES}
    last_non_call = max(
        (n for n, i in enumerate(items) if i.get("type") not in E.CALL_TYPES), default=-1
    )
    for n, item in enumerate(items):
        kind, call_id = item.get("type"), item.get("call_id")
        if kind in E.CALL_TYPES:
            seen_calls.add(call_id)
            if call_id not in outputs and n < last_non_call:
                found.append((n, kind, call_id, NO_OUTPUT))
        elif kind in E.OUTPUT_TYPES and call_id not in seen_calls:
            found.append((n, kind, call_id, NO_CALL))
    return found


def boundary_findings(
    problems: Iterable[BoundaryProblem], *, label: str = "input", session: str | None = None
) -> list[FailureFinding]:
    return [
        FailureFinding(
            "tool_boundary_violation",
            session,
            f"{label} item {n}",
            f"{kind} {call_id!r} {problem}",
        )
        for n, kind, call_id, problem in problems
    ]


def tool_boundary_violation(
    items: Sequence[dict[str, Any]],
    *,
    label: str = "input",
    session: str | None = None,
    config: DetectorConfig = DEFAULT_CONFIG,
) -> list[FailureFinding]:
    """One model input that splits a tool call from its result (:func:`boundary_problems`)."""
    return boundary_findings(boundary_problems(items), label=label, session=session)


# ── one entry point over everything a replay produced ────────────────────────────────────


@dataclass(frozen=True)
class Evidence:
    """What the detectors may look at; a detector whose inputs are absent is not applicable."""

    session: str | None = None
    barriers: Sequence[Any] = ()
    views: InputViews | None = None
    facts: Sequence[Fact] = ()
    lifecycle: Lifecycle | None = None
    after: int = 0
    model_inputs: Sequence[tuple[str, Sequence[dict[str, Any]]]] = ()  # (label, items)
    # (label, its boundary problems) of model inputs read from positions on a replayed branch
    # instead of from their items (a masking strategy's input is most of the history)
    input_boundaries: Sequence[tuple[str, Sequence[BoundaryProblem]]] = ()


@dataclass(frozen=True)
class Detector:
    name: str
    description: str
    applicable: Callable[[Evidence], bool]
    run: Callable[[Evidence, DetectorConfig], list[FailureFinding]]


DETECTORS: Registry[Detector] = Registry("failure detector")


def _barrier_detector(name: str, description: str, fn: Callable[..., Any]) -> None:
    DETECTORS.add(
        name,
        Detector(
            name,
            description,
            lambda ev: bool(ev.barriers),
            lambda ev, cfg: fn(ev.barriers, session=ev.session, config=cfg),
        ),
    )


_barrier_detector(
    "compaction_loop",
    "Repeated compactions that reclaim almost nothing or leave the context over the limit.",
    compaction_loop,
)
_barrier_detector(
    "context_growth", "A completed compaction that made the context larger.", context_growth
)
_barrier_detector(
    "blocked_forever", "Model requests refused at k or more barriers in a row.", blocked_forever
)
DETECTORS.add(
    "lost_constraint",
    Detector(
        "lost_constraint",
        "A constraint absent from every model input after a point.",
        lambda ev: ev.views is not None and ev.lifecycle is not None and bool(ev.facts),
        lambda ev, cfg: (
            lost_constraint(
                ev.views or (),
                ev.facts,
                ev.lifecycle,
                after=ev.after,
                session=ev.session,
                config=cfg,
            )
            if ev.lifecycle is not None  # always, when the check above let the detector run
            else []
        ),
    ),
)
DETECTORS.add(
    "tool_boundary_violation",
    Detector(
        "tool_boundary_violation",
        "A model input that separates a tool call from its output.",
        lambda ev: bool(ev.model_inputs or ev.input_boundaries),
        lambda ev, cfg: [
            finding
            for label, problems in [
                *((label, boundary_problems(items)) for label, items in ev.model_inputs),
                *ev.input_boundaries,
            ]
            for finding in boundary_findings(problems, label=label, session=ev.session)
        ],
    ),
)


def detect_all(
    evidence: Evidence,
    config: DetectorConfig = DEFAULT_CONFIG,
    names: Iterable[str] | None = None,
) -> dict[str, list[FailureFinding] | None]:
    """Run the named detectors (default: all). ``None`` marks a detector that could not run
    for lack of evidence, so "not checked" is never reported as "clean"."""
    out: dict[str, list[FailureFinding] | None] = {}
    for name in names if names is not None else DETECTORS.names():
        detector = DETECTORS.get(name)
        out[name] = detector.run(evidence, config) if detector.applicable(evidence) else None
    return out
