"""The drill-down viewer's page model: one ``Moment`` per capsule the engine wrote, read from a
run folder's stored replays, barrier logs and capsules plus the corpus's ground truth. Each
moment carries the capsule text, the facts live there with the retention scorer's outcome
(kept, missed, contradicted, stale), the retained tail and the attempt that wrote it (trigger,
reason, limits, tokens). ``pair_moments`` lines up two runs' moments for a side-by-side page.
Rendering lives in ``viewer_html``; nothing here writes files."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.corpora.truth import GroundTruth
from soba_bench.errors import InputError
from soba_bench.jsonio import read_jsonl
from soba_bench.meter.soba import estimate_item, item_text
from soba_bench.runs.layout import RunLayout
from soba_bench.runs.record import ReusedPointer
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig
from soba_bench.scoring.retention import fact_outcomes
from soba_bench.scoring.runner import truth_for
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import capsule_view
from soba_bench.session import entries as E
from soba_bench.session import read_session
from soba_bench.session.capsule_text import capsule_text
from soba_bench.session.entries import Entry

# The tail is shown, not read in full: the first and last items, each cut to a preview.
TAIL_HEAD = 8
TAIL_END = 12
PREVIEW_CHARS = 600
# Facts introduced after the capsule's boundary are in the retained tail, not the capsule.
IN_TAIL = "in_tail"


@dataclass(frozen=True)
class FactMark:
    """One ground-truth fact at a moment, with the scorer's outcome for the capsule."""

    fact_id: str
    kind: str
    text: str
    outcome: str  # kept | missed | contradicted | stale | dropped_stale | in_tail


@dataclass(frozen=True)
class TailItem:
    """One retained item after the capsule's boundary, cut to a preview."""

    role: str
    text: str
    tokens: int
    truncated: bool


@dataclass(frozen=True)
class Moment:
    """One compaction moment: a capsule the engine wrote, and what it kept."""

    session: str
    index: int  # 1-based capsule number in the session
    point: int  # original entries before the capsule (the moment's position)
    checkpoint_id: str | None
    trigger: str | None
    reason: str | None
    outcome: str | None
    strategy: str | None
    quality: str | None
    hard_limit: int | None
    soft_limit: int | None
    tokens_before: int | None
    tokens_after: int | None
    reclaimed: int | None
    turn: int | None
    capsule_text: str
    facts: tuple[FactMark, ...]
    tail: tuple[TailItem, ...]
    tail_items: int  # every retained item, shown or not
    tail_tokens: int

    def count(self, outcome: str) -> int:
        return sum(1 for f in self.facts if f.outcome == outcome)


@dataclass(frozen=True)
class SessionMoments:
    session: str
    has_truth: bool
    moments: tuple[Moment, ...]


@dataclass(frozen=True)
class RunView:
    """Everything the viewer shows of one run folder."""

    path: Path
    label: str  # strategy / summarizer / prompt / variant, from the run record
    sessions: tuple[SessionMoments, ...]

    def session(self, name: str) -> SessionMoments | None:
        return next((s for s in self.sessions if s.session == name), None)


def _label(record: dict[str, Any], path: Path) -> str:
    """A short name for the run from its record (strategy, variant, summarizer and prompt),
    falling back to the folder name for a record that names none."""
    parts = [v for v in (record.get("strategy"), record.get("variant")) if isinstance(v, str)]
    summarizer = record.get("summarizer")
    if isinstance(summarizer, dict):
        if isinstance(summarizer.get("name"), str):
            parts.append(summarizer["name"])
        if isinstance(summarizer.get("promptId"), str):
            parts.append(f"prompt {summarizer['promptId']}")
    timeout = ((record.get("config") or {}).get("compaction") or {}).get("timeoutMs")
    # timeoutMs only matters with a model in the chain (the deterministic capsule is instant).
    if isinstance(summarizer, dict) and summarizer.get("model") and timeout is not None:
        parts.append(f"timeoutMs {timeout}")
    return " / ".join(parts) or path.name


def _tail(
    branch: list[Entry], index: int, first_kept: str | None
) -> tuple[list[TailItem], int, int]:
    """The items from the capsule's first kept entry up to the capsule (SOBA's retained
    tail at that moment), previewed."""
    start = next((i for i, e in enumerate(branch[:index]) if e.id == first_kept), index)
    items = [e.item for e in branch[start:index] if e.item is not None]
    tokens = sum(estimate_item(i) for i in items)
    shown = items if len(items) <= TAIL_HEAD + TAIL_END else items[:TAIL_HEAD] + items[-TAIL_END:]
    out = []
    for item in shown:
        raw = item_text(item)
        text = raw if isinstance(raw, str) else str(raw)
        role = str(item.get("role") or item.get("type") or "item")
        if item.get("type") == "function_call":
            role = "tool call"
        elif item.get("type") in ("function_call_output", "local_shell_call_output"):
            role = "tool output"
        out.append(
            TailItem(role, text[:PREVIEW_CHARS], estimate_item(item), len(text) > PREVIEW_CHARS)
        )
    return out, len(items), tokens


def session_moments(
    name: str,
    branch: list[Entry],
    attempts: list[dict[str, Any]],
    truth: GroundTruth | None,
    match: MatchConfig = DEFAULT_MATCH,
) -> SessionMoments:
    """The moments of one replayed session (its active branch, capsules included)."""
    by_checkpoint = {a.get("checkpointId"): a for a in attempts if a.get("checkpointId")}
    originals = [e for e in branch if e.kind != E.CONTEXT_CAPSULE]
    timeline = Timeline.of(originals)
    points = timeline.replay_points(branch)
    lifecycle = Lifecycle(truth, timeline) if truth is not None else None
    moments = []
    capsules = [(i, e) for i, e in enumerate(branch) if e.kind == E.CONTEXT_CAPSULE]
    for number, (index, entry) in enumerate(capsules, start=1):
        capsule = entry.data
        provenance = capsule.get("provenance") or {}
        first_kept = provenance.get("firstKeptEntryId")
        point = points.get(entry.id, timeline.length) if entry.id else timeline.length
        marks: list[FactMark] = []
        if lifecycle is not None and truth is not None:
            cut = timeline.at(first_kept, point) if first_kept != "root" else point
            view = capsule_view(capsule, match)
            judged = fact_outcomes(truth.facts, lifecycle, view, point, expect_before=cut)
            seen = {o.fact.id for o in judged}
            for o in judged:
                marks.append(FactMark(o.fact.id, o.fact.kind, o.fact.text, o.outcome))
            for fact in truth.facts:
                # Live facts newer than the boundary: the tail carries them, not the capsule.
                if (
                    fact.id not in seen
                    and fact.kind not in ("secret", "injection", "distractor")
                    and lifecycle.live_at(fact, point)
                ):
                    marks.append(FactMark(fact.id, fact.kind, fact.text, IN_TAIL))
        tail, tail_items, tail_tokens = _tail(branch, index, first_kept)
        attempt = by_checkpoint.get(capsule.get("checkpointId"), {})
        moments.append(
            Moment(
                session=name,
                index=number,
                point=point,
                checkpoint_id=capsule.get("checkpointId"),
                trigger=attempt.get("trigger") or capsule.get("trigger"),
                reason=attempt.get("reason"),
                outcome=attempt.get("outcome"),
                strategy=capsule.get("strategy"),
                quality=capsule.get("quality"),
                hard_limit=attempt.get("hardLimit"),
                soft_limit=attempt.get("softLimit"),
                tokens_before=attempt.get("tokensBefore"),
                tokens_after=attempt.get("tokensAfter"),
                reclaimed=attempt.get("reclaimed"),
                turn=attempt.get("turn"),
                capsule_text=capsule_text(capsule),
                facts=tuple(marks),
                tail=tuple(tail),
                tail_items=tail_items,
                tail_tokens=tail_tokens,
            )
        )
    return SessionMoments(name, truth is not None, tuple(moments))


def _follow_reused(layout: RunLayout) -> Path:
    """The folder a resumed sweep's ``reused.json`` points at (its record is complete)."""
    pointer = ReusedPointer.load(layout.reused)
    folder = pointer.record.parent
    if RunLayout(folder).complete_record() is None:
        raise InputError(
            "reused.json points at no complete run record",
            path=str(layout.reused),
            field="record",
            value=str(pointer.record),
            has_value=True,
        )
    return folder


def load_run_view(run_dir: str | Path, match: MatchConfig = DEFAULT_MATCH) -> RunView:
    """Read one complete run folder into the viewer's model (no replay, no model call)."""
    path = Path(run_dir)
    layout = RunLayout(path)
    if layout.reused.is_file() and not layout.record.is_file():
        path = _follow_reused(layout)
        layout = RunLayout(path)
    record = layout.read_record().raw
    sessions = []
    for row in layout.read_sessions():
        name = row.session
        replay = layout.replay(name)
        if not replay.is_file():
            raise InputError("run folder has no stored replay for this session", path=str(replay))
        branch = list(read_session(replay).active_branch)
        barriers = layout.barriers(name)
        attempts = [
            r
            for r in (read_jsonl(barriers) if barriers.is_file() else [])
            if r.get("kind") == "attempt"
        ]
        truth = truth_for(row.source) if row.source is not None else None
        sessions.append(session_moments(name, branch, attempts, truth, match))
    return RunView(path, _label(record, path), tuple(sessions))


@dataclass(frozen=True)
class Pair:
    """One side-by-side page: the same session, A's moment and B's (same capsule number,
    else the one nearest in the session; ``nearest`` says which side was substituted)."""

    session: str
    index: int
    a: Moment | None
    b: Moment | None
    nearest: str | None  # None | "a" | "b"


def _nearest(moments: tuple[Moment, ...], point: int) -> Moment | None:
    return min(moments, key=lambda m: (abs(m.point - point), m.point), default=None)


def pair_moments(a: SessionMoments | None, b: SessionMoments | None) -> list[Pair]:
    """Pairs by capsule number; where one side has fewer capsules, its moment nearest to the
    other side's position stands in (marked), or none when it never compacted."""
    ma = a.moments if a else ()
    mb = b.moments if b else ()
    session = a.session if a else (b.session if b else "")
    pairs = []
    for i in range(max(len(ma), len(mb))):
        left = ma[i] if i < len(ma) else None
        right = mb[i] if i < len(mb) else None
        nearest = None
        if left is None and right is not None:
            left, nearest = _nearest(ma, right.point), "a" if ma else None
        elif right is None and left is not None:
            right, nearest = _nearest(mb, left.point), "b" if mb else None
        pairs.append(Pair(session, i + 1, left, right, nearest))
    return pairs
