"""The scorer plug-in seam: a :class:`Scorer` protocol, the registry of scorer classes, the
configuration they share, what they write (:class:`SessionScores`) and what they read
(:class:`ScoreContext`: one replayed session, with the evaluation points and the capsule
moments built once, on first use, and shared by every scorer of the session).

A scorer is one module under :mod:`soba_bench.scoring.scorers` registering its class under a
short stable name (the name configs, records and report columns use)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar, Protocol, overload

from soba_bench.compactors.inputs import ReplayedInputs
from soba_bench.compactors.rival_branch import is_output
from soba_bench.compactors.views import VIEWS, ViewContext
from soba_bench.corpora.truth import GroundTruth
from soba_bench.errors import InputError
from soba_bench.meter import get_meter
from soba_bench.registry import Registry
from soba_bench.scoring.failure_modes import DEFAULT_CONFIG, DetectorConfig
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig
from soba_bench.scoring.points import (
    DEFAULT_MAX_POINTS,
    PointInput,
    PointWalk,
    Request,
    Shown,
    barrier_lines,
    requests_of,
    sample_keys,
)
from soba_bench.scoring.probes import DEFAULT_PROBES, ProbeConfig
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import View, capsule_view, shown_view
from soba_bench.session import entries as E
from soba_bench.session.build_input import active_skill_refs
from soba_bench.session.entries import Entry

SOBA = "soba"
FINAL = "final"
# Default most capsule moments a session's diagnostics read. A strategy that masks or drops
# at nearly every request of a full window has a moment per request (observation masking in
# a 64k window: about one per five entries), and each moment's diagnostics read every live
# fact, so reading them all is quadratic in the session (issue 18). SOBA's own capsules stay
# under it (synthetic-gate in a 32k window: at most 16; a 64k window, 5k-50k entries: 18-36).
DEFAULT_MAX_MOMENTS = 64


class Scorer(Protocol):
    """Scores one replayed session into ``out``. ``needs_truth``: skipped (silently, like
    today's retention) when the session has no ground truth."""

    name: ClassVar[str]
    description: ClassVar[str]
    needs_truth: ClassVar[bool]

    def score(self, ctx: ScoreContext, out: SessionScores) -> None: ...


SCORERS: Registry[type[Scorer]] = Registry("scorer")

DEFAULT_SCORERS = ("availability", "outcomes", "retention", "soba_quality", "failure_modes")

# The revision of what the scorers write for the same replay. Bump it whenever a change makes
# the score records of unchanged inputs differ (a rule fixed, the model input rebuilt another
# way): it is part of a scored job's key, so a sweep never resumes a job an earlier revision
# scored, and scores/scored.json records it, so compare refuses two revisions. A golden test
# (tests/unit/scoring/test_scores_revision.py) fails when the records change and it was not.
# 1 (2026-12-06): the first recorded; a peer's pinned items are in its model input.
# 2 (2026-12-06): the default matcher is verdict-embedding-nli, whose check leaves a statement
#   holding the fact word for word to the rules and overturns only a contradiction at least
#   0.9 likely (the golden test's digest uses the rules alone, so it is unchanged; the
#   revision is not).
# 3 (2026-12-06): a fact of clauses ("A, and B": a refined goal) not found whole is read clause
#   against clause in statements of clauses; the default's check reads such a fact clause
#   against clause, and sets aside a statement about another subject behind a lead-in; the
#   rules read "at no point / at no time" as "never" (the golden test's replays restate their
#   facts word for word, so its digest is unchanged).
# 4 (stop 43): the default's check reads a statement that restates a fact of clauses with one
#   clause replaced by another act as contradicting it (nli.replaced_clause); the
#   cross-encoder is model 3 (also verdict-nli's), and the second look sets aside a statement
#   about another subject that the model reads as saying nothing of the fact (the golden
#   test's records use the rules alone, so its digest is unchanged).
# 5 (stop 44): in a model input the scorers build (retention's input views and comparison
#   strategies, the lost-constraint detector), a fact is found by its own entries or in the
#   capsule, as availability finds it, not by the matcher over the whole history (which found
#   another subject's statement where the fact's own had been cut, and files and checks named
#   in later messages); a rename is also seen in its command, not only in the command's output
#   (availability of renames under masking strategies rose; SOBA's tail keeps both).
# 6 (stop 45): the generator's ground truth lists a turn's closing summary ("edited a, b;
#   `cmd` passes") among the entries of the files and checks it reports, so a generated
#   session's file and verification facts are seen there too (a strategy that keeps the
#   summary but not the calls: truncation, Codex); and a verification whose truth records its
#   runs is in a model input only through an entry that shows its result at that point (a
#   run's output, a summary's report of it), not through its call or an older run that ended
#   otherwise. A job scored on the old truth is neither resumed nor compared with the new.
# 7 (stop 46): the default's check also sets aside a statement that is the fact's sentence
#   with a run of up to three words replaced behind a lead-in, when the model reads it as
#   saying nothing of the fact ("User: the task: fix the race in the cache layer ..." for
#   "... in the session store ..."), and in a fact of clauses reads a clause restated with one
#   run reworded as stated when the model reads it as entailment ("a migration walkthrough"
#   for "a migration guide"). No row of the bundled synthetic-gate changed for SOBA,
#   truncation, masking or Codex; a paraphrasing summarizer's goals are found (the golden
#   test's records use the rules alone, so its digest is unchanged).
# 8 (stop 47): the diagnostics at capsule moments read at most max_moments (64) of a job's
#   moments, the final state and a seeded sample of the rest (a masking strategy has a moment
#   per request of a full window: reading them all was quadratic in the session), and a
#   sampled session writes no drift; the session table says how many moments the job had
#   (``moments``) beside those read (``points``). A job with no more moments than that
#   writes the same rows as before, plus that column.
# 9 (stop 48): the session's own paths, which invented_paths counts a capsule's against, are
#   read from each string of an entry, not from the entry's JSON, where a newline's escape
#   joined the next path: every path a listing put at the start of a line (2,701 of the
#   3,118 paths the real logs in tests/data/importers/real name) read as never named, and a
#   capsule naming one was charged an invented path. A capsule's path that ends one the
#   session names after a folder ("src/a.ts" for "/home/me/repo/src/a.ts") is named too. The
#   bundled sessions' capsules name paths as the session's calls do, so the golden digest is
#   unchanged.
# 10 (stop 49): a file or a check is found under any spelling the ground truth lists
#   (``attributes.aliases``: the importers add a path relative to, or under, the session's
#   working folder, and a check's command without a ``cd`` before it or the plumbing of its
#   output): a summary that names "src/a.ts" for a Claude Code tool's
#   "/home/me/repo/src/a.ts" keeps the file and names no invented one in retention's
#   hallucinated paths, an alias a capsule names is no invented path in availability's
#   inventedPaths, and "mix test --seed 0" reports "mix test --seed 0 2>&1 | head -100". A
#   check whose command holds a ";" no longer stops the scoring. An imported goal that states
#   a problem (``attributes.states``: an issue's title, which the importers now take as the
#   goal of a SWE-bench-style prompt) is kept by a statement of its fix, which the matcher
#   reads as its negation. Availability: a capsule states wrongly (``contradicted``) only a
#   fact introduced before its retained tail, what its writer read (a file edited after that
#   span, listed as read, was charged to it); a recorded check is judged by its result then,
#   and the capsule presents it only at a request whose result it reports (both read the
#   session's final result: a capsule that reported the red run before the fix was wrong
#   and, once the check passed, read as presenting it). On generated sessions, SOBA's
#   contradicted (request, fact) pairs fell by a quarter to a third; the golden digest moved.
SCORES_REVISION = 10


@dataclass(frozen=True)
class ScoreConfig:
    scorers: tuple[str, ...] = DEFAULT_SCORERS
    match: MatchConfig = DEFAULT_MATCH
    baselines: tuple[str, ...] = ("none", "truncation", "observation_masking")
    keep_observations: int = 10
    meter: str = "soba"
    detectors: DetectorConfig = DEFAULT_CONFIG
    # The probes scorer's answerer, judge and budget (only read when "probes" is scored).
    probes: ProbeConfig = DEFAULT_PROBES
    # Availability is scored on at most this many requests per session (a seeded sample,
    # the same for every job of the session); None: all of them.
    max_points: int | None = DEFAULT_MAX_POINTS
    points_seed: int = 0
    # The diagnostics at capsule moments (retention, soba_quality, probes, the per-input
    # failure detectors) read at most this many moments per session: a sample seeded by
    # points_seed, the final state always among them; None: every moment.
    max_moments: int | None = DEFAULT_MAX_MOMENTS

    def __post_init__(self) -> None:
        from soba_bench.scoring import scorers  # noqa: F401  (registers the built-ins)

        for name in self.scorers:
            SCORERS.get(name)
        for name in self.baselines:
            VIEWS.get(name)
        if self.max_points is not None and (
            not isinstance(self.max_points, int) or self.max_points < 1
        ):
            raise InputError(
                "not a request count",
                field="scorer.max_points",
                value=self.max_points,
                has_value=True,
                expected="an integer >= 1, or null for every request",
            )
        if self.max_moments is not None and (
            not isinstance(self.max_moments, int)
            or isinstance(self.max_moments, bool)
            or self.max_moments < 1
        ):
            raise InputError(
                "not a moment count",
                field="scorer.max_moments",
                value=self.max_moments,
                has_value=True,
                expected="an integer >= 1, or null for every moment",
            )


@dataclass
class SessionScores:
    session: str
    rows: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy, view, kind)
    summaries: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy, view)
    drift: list[dict[str, Any]] = field(default_factory=list)  # survival by generation age
    quality: list[dict[str, Any]] = field(default_factory=list)  # SOBA's score per capsule
    findings: list[dict[str, Any]] = field(default_factory=list)  # failure modes
    checked: dict[str, bool] = field(default_factory=dict)  # detector -> could it run
    probes: list[dict[str, Any]] = field(default_factory=list)  # one row per probe asked
    probe_moments: list[dict[str, Any]] = field(default_factory=list)  # (moment, strategy)
    points: list[dict[str, Any]] = field(default_factory=list)  # one row per scored request
    availability: list[dict[str, Any]] = field(default_factory=list)  # one row per session
    outcomes: list[dict[str, Any]] = field(default_factory=list)  # one row per session
    moments: int = 0  # the job's capsule moments, read by the diagnostics or not
    capsules: int = 0  # those of them that wrote a capsule


@dataclass(frozen=True)
class MomentInput:
    """A capsule moment (a diagnostic): where it is, what the job sends there."""

    generation: int | str
    index: int  # into the replayed branch
    point: int  # original entries before it
    capsule: dict[str, Any] | None  # the capsule written at this moment, if any
    last_capsule: dict[str, Any] | None  # the capsule the input starts with, if any
    located: PointInput  # the input, as positions on the branch
    tokens: int
    skills: frozenset[str]
    shown: Shown  # the entries the input shows verbatim (its capsule aside)
    walk: PointWalk = field(compare=False, repr=False)

    @cached_property
    def model_input(self) -> list[dict[str, Any]]:
        """The items themselves, made on first use: only the probes read them. A masking
        strategy's input is most of the history, and making it at every moment was most of
        the diagnostics' cost (issue 18)."""
        return self.walk.model_input(self.located)


class _History:
    """The session's items on a replayed branch (capsules are not items), read in place: a
    comparison strategy's rule reads the history at every capsule moment, and copying it
    there made retention quadratic in the session (issue 18). An item's tokens are counted
    once, from the walk's prefix sums."""

    def __init__(self, walk: PointWalk, meter: Any) -> None:
        self.walk, self.meter = walk, meter
        replayed, tokens = walk.replayed, walk.tokens
        self.positions = [i for i, e in enumerate(replayed) if e.item is not None]
        # indices (into the items) of the tool outputs
        self.outputs = [k for k, i in enumerate(self.positions) if is_output(replayed[i].item)]
        self._tokens = {id(replayed[i].item): tokens[i + 1] - tokens[i] for i in self.positions}

    def before(self, end: int) -> _Items:
        """The history's items before branch position ``end``."""
        return _Items(self, bisect_left(self.positions, end))

    def count(self, item: dict[str, Any]) -> int:
        found = self._tokens.get(id(item))
        return found if found is not None else self.meter.count_item(item)


class _Items(Sequence[dict[str, Any]]):
    """The first ``n`` items of a :class:`_History`, each read when asked for."""

    def __init__(self, history: _History, n: int) -> None:
        self._history, self._n = history, n

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, i: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, i: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if not -self._n <= i < self._n:
            raise IndexError(i)
        history = self._history
        item = history.walk.replayed[history.positions[i % self._n]].item
        assert item is not None  # positions hold items only
        return item


class ScoreContext:
    """One replayed session as the scorers see it. Derived data is built on first use and
    kept for the other scorers of the session (never for another session)."""

    def __init__(
        self,
        session: str,
        replayed: Sequence[Entry],
        truth: GroundTruth | None,
        config: ScoreConfig,
        barriers: Sequence[Any] = (),
    ) -> None:
        self.session = session
        self.replayed = replayed
        self.truth = truth
        self.config = config
        self.lines = barrier_lines(barriers)
        self.rival = ReplayedInputs.of(self.lines)
        self.label = SOBA if self.rival is None else self.rival.strategy
        self.meter = get_meter(config.meter)
        self._capsule_views: dict[int, tuple[dict[str, Any], View]] = {}

    # ── the session ─────────────────────────────────────────────────────────────
    @cached_property
    def originals(self) -> list[Entry]:
        return [e for e in self.replayed if e.kind != E.CONTEXT_CAPSULE]

    @cached_property
    def timeline(self) -> Timeline:
        return Timeline.of(self.originals)

    @cached_property
    def lifecycle(self) -> Lifecycle | None:
        return Lifecycle(self.truth, self.timeline) if self.truth is not None else None

    @cached_property
    def config_line(self) -> dict[str, Any]:
        return next((line for line in self.lines if line.get("kind") == "config"), {})

    # ── fixed evaluation points ─────────────────────────────────────────────────
    @cached_property
    def requests(self) -> list[Request]:
        return requests_of(self.lines)

    @cached_property
    def walk(self) -> PointWalk:
        return PointWalk(self.replayed, self.lines, self.meter)

    @cached_property
    def point_inputs(self) -> list[PointInput]:
        """The model input at every request of the walk, in order."""
        return self.walk.walk(self.requests)

    @cached_property
    def sampled(self) -> set[str]:
        """The request keys availability is scored at (see :func:`sample_keys`)."""
        keys = [r.key for r in self.requests]
        return sample_keys(keys, self.config.max_points, self.config.points_seed)

    # ── capsule moments (diagnostics) ───────────────────────────────────────────
    @cached_property
    def _spots(self) -> list[tuple[int | str, int, dict[str, Any]]]:
        """(generation, branch index, rival model-input state) of every capsule (or a
        rival's completed compaction), then the final state."""
        replayed = self.replayed
        if not replayed:
            return []
        if self.rival is None:
            spots: list[tuple[int | str, int, dict[str, Any]]] = [
                (n, i, {}) for n, i in enumerate(self.walk.capsules, start=1)
            ]
            spots.append((FINAL, len(replayed) - 1, {}))
            return spots
        return [(m.generation, m.index, m.state) for m in self.rival.moments(replayed, FINAL)]

    def moment_counts(self) -> tuple[int, int]:
        """The job's capsule moments (the final state not counted), read or not, and how
        many of them wrote a capsule."""
        replayed = self.replayed
        spots = [i for generation, i, _ in self._spots if generation != FINAL]
        return len(spots), sum(1 for i in spots if replayed[i].kind == E.CONTEXT_CAPSULE)

    @property
    def moments_sampled(self) -> bool:
        """Do the diagnostics read a sample of the moments (see ScoreConfig.max_moments)?"""
        return len(self.moments) < len(self._spots)

    @cached_property
    def moments(self) -> list[MomentInput]:
        """The capsule moments the diagnostics read, then the final state: every one, or
        ``max_moments`` of them (the final state and a seeded sample of the rest, in order)."""
        replayed = self.replayed
        spots = self._spots
        limit = self.config.max_moments
        if limit is not None and len(spots) > limit:
            key = {f"{g}:{i}": n for n, (g, i, _) in enumerate(spots) if g != FINAL}
            kept = {key[k] for k in sample_keys(list(key), limit - 1, self.config.points_seed)}
            spots = [s for n, s in enumerate(spots) if n in kept or s[0] == FINAL]
        timeline = self.timeline
        points = timeline.replay_points(replayed) if spots else {}
        walk = self.walk
        out = []
        for generation, index, state in spots:
            entry = replayed[index]
            capsule = entry.data if entry.kind == E.CONTEXT_CAPSULE else None
            if capsule:
                point = points.get(entry.id, timeline.length) if entry.id else timeline.length
            elif generation == FINAL:
                point = timeline.length
            else:  # a rival's compaction: the original entries up to and including this one
                point = timeline.at(entry.id, timeline.length - 1) + 1
            located = walk.locate(index + 1, state)
            newest = located.prefix
            tokens = located.tokens  # the walk's prefix sums: these items, counted once
            since = replayed[newest : index + 1] if newest is not None else replayed[: index + 1]
            skills = frozenset(
                s["name"] for s in active_skill_refs(since) if isinstance(s.get("name"), str)
            )
            last = replayed[newest].data if newest is not None else None
            out.append(
                MomentInput(
                    generation,
                    index,
                    point,
                    capsule,
                    last,
                    located,
                    tokens,
                    skills,
                    walk.shown(located),
                    walk,
                )
            )
        return out

    def capsule_view(self, capsule: dict[str, Any]) -> View:
        """The view of one capsule of the replay, made once: availability, retention and the
        failure detectors ask each capsule about the same facts, and a view keeps its
        verdicts."""
        found = self._capsule_views.get(id(capsule))
        if found is None:
            # the capsule is kept beside its view: its id is not reused while this lives
            found = self._capsule_views[id(capsule)] = (
                capsule,
                capsule_view(capsule, self.config.match),
            )
        return found[1]

    # ── comparison strategies' views at a moment (retention's baselines) ──────────────────
    @cached_property
    def _history(self) -> _History:
        return _History(self.walk, self.meter)

    def baseline(self, name: str, moment: MomentInput) -> tuple[Shown, int]:
        """What comparison strategy ``name``'s rule (:data:`VIEWS`) would send at a moment,
        given the session so far and the moment's input tokens as its budget: the entries it
        shows and its own input tokens, from positions on the branch and token prefix sums
        (no copy of the history is made, so a moment costs what the rule reads)."""
        walk, history = self.walk, self._history
        # the original entries before the moment end where the branch has that many
        end = bisect_left(walk.original_before, moment.point)
        items = history.before(end)
        outputs = history.outputs[: bisect_left(history.outputs, len(items))]
        budget = ViewContext(moment.tokens, history.count, self.config.keep_observations)
        window = VIEWS.get(name)(items, outputs, budget)
        start = history.positions[window.start] if window.start < len(items) else end
        masked = history.positions[window.masked] if window.masked >= 0 else -1
        tokens = walk.tokens[end] - walk.tokens[start]
        if masked >= start:
            delta = walk.mask_delta()
            tokens += delta[masked + 1] - delta[start]
        return Shown(walk, start, end, masked), tokens

    @cached_property
    def input_views(self) -> list[tuple[int, View]]:
        """(point, the job's model input as a view) at every moment: retention scores them,
        the failure detectors read them."""
        return [
            (
                m.point,
                shown_view(
                    m.shown,
                    self.capsule_view(m.last_capsule) if m.last_capsule else None,
                    m.tokens,
                    m.skills,
                    self.config.match,
                ),
            )
            for m in self.moments
        ]
