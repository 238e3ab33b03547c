"""``availability``: the headline. At every evaluation point (a model request of the walk,
see :mod:`soba_bench.scoring.points`), which live facts of the ground truth can the model
see in the input this job sends there?

A live fact (introduced before the request, not yet resolved or superseded) is *available*
when the request is sent and

* the capsule the input starts with presents it (the retention matcher on the capsule,
  computed once per capsule), or
* one of the entries the ground truth saw it in is in the retained tail, or among the items
  a peer policy pinned (Codex's newest user messages, OpenHands' head), and not masked (a
  verification whose runs the truth records: an entry that shows its result at the request,
  a run's output or a summary reporting it; its call shows the command, not the state), or
* it is a skill: the agent keeps active skills whatever the context strategy does.

A refused request sent nothing, so none of its live facts is available. Per kind, the
availability pools the (point, fact) pairs of the session; the headline is the mean over the
kinds the session has (each kind weighs the same, and the three file kinds are one kind
``file``), so a session with 60 file facts and one goal does not read as a file score. Kinds
the ground truth lists in ``unknownKinds`` are not scored.

Availability cannot see a capsule that states a fact wrongly while the tail still shows it
right, nor one that adds things that never happened, so two error rates stand beside it,
over the requests sent with a capsule: ``contradiction``, the share of (request, live fact)
pairs whose fact the capsule states wrongly (a negated decision, a modified file reported as
read, a failing check reported as passing: the matcher's contradicted verdict), and
``inventedPaths``, the share of file paths the capsule names that the session never named
anywhere.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any, ClassVar

from soba_bench.compactors.rival_branch import is_output
from soba_bench.corpora.truth import Fact
from soba_bench.scoring.match import PATH_TOKEN, normalize_path
from soba_bench.scoring.retention import (
    FILE_KINDS,
    RETENTION_KINDS,
    evidence,
    fact_path,
    label_of,
    predecessors,
    spellings,
    stated_results,
)
from soba_bench.scoring.scorer import SCORERS, ScoreContext, SessionScores
from soba_bench.scoring.timeline import NEVER
from soba_bench.scoring.verdict import CONTRADICTED, ENTAILED

FILE = "file"
CHECK_RESULTS = ("passed", "failed")  # what a verification's run shows (stated_results)
AVAILABILITY_KINDS = (
    "goal",
    "constraint",
    "decision",
    "blocker",
    "next_step",
    "clarification",
    "checkpoint",
    FILE,
    "verification",
    "skill",
)


def kind_of(fact: Fact) -> str:
    """The availability kind of a fact (the file kinds are one kind)."""
    return FILE if fact.kind in FILE_KINDS else fact.kind


def _file_like(token: str) -> bool:
    """A path of a file: a folder and a name with an extension ("src/db/pool.ts")."""
    name = token.rstrip("/").rpartition("/")[2]
    return "/" in token and "." in name.strip(".") and not token.startswith(("http", "//"))


def capsule_paths(text: str) -> set[str]:
    """The file paths a capsule names (artifact lists and prose), normalised."""
    tokens = (w.rstrip(".,:;)`'\"") for w in PATH_TOKEN.findall(text))
    return {normalize_path(w) for w in tokens if _file_like(w)}


_PATH_CHAR = re.compile(r"[\w.~/@+-]")  # a character PATH_TOKEN's runs are made of


class SessionPaths:
    """The file paths the session's own entries name anywhere (calls, outputs, messages), as
    :func:`capsule_paths` reads them from each string of an entry (its values and keys): a
    path a capsule names that is not among them, nor the end of one of them after a folder,
    was made up. The end counts because a summary names files from the repository's root
    ("lib/web/live.ex") where a tool named them from the file system's ("/home/me/spotter/
    lib/web/live.ex"): in the real Claude Code logs, 41 of the 63 absolute paths are never
    named from their session's working folder.

    The strings, not the entry's JSON: JSON writes a newline or a tab inside a string as
    ``\\n`` or ``\\t``, whose letter joins the next path's run, so each path a listing (``ls``,
    ``git status``, ``find``, grep's file names) puts at the start of a line read as
    ``nsrc/app.ts`` and a capsule naming it was charged an invented path. That reading missed
    2,701 of the 3,118 paths the real logs in tests/data/importers/real name.

    Asked only about the few paths the capsules name, so instead of extracting every path of
    the whole session (a fifth of a 5,000-entry session's scoring) each question is a
    substring search over the entries' strings, joined once: a normalised path is a
    substring of the run it was read from, so the runs holding an occurrence are the only
    ones to read."""

    def __init__(self, items: Iterable[Any], spellings: Iterable[str] = ()) -> None:
        # A newline is not a path character: no run crosses from one string to the next.
        # Numbers, booleans and null are left out: a run without a "/" is never a path.
        self.text = "\n".join(_strings(items))
        # The truth's other spellings of the session's files (aliases under its working
        # folder): "/home/me/repo/src/a.ts" where the session only wrote "src/a.ts".
        self._known: dict[str, bool] = dict.fromkeys(spellings, True)

    def __contains__(self, path: str) -> bool:
        found = self._known.get(path)
        if found is None:
            found = self._known[path] = self._named(path)
        return found

    def _named(self, path: str) -> bool:
        text = self.text
        at = text.find(path) if path else -1
        while at >= 0:
            start, end = at, at + len(path)
            while start > 0 and _PATH_CHAR.match(text, start - 1):
                start -= 1
            while end < len(text) and _PATH_CHAR.match(text, end):
                end += 1
            # A run holds one path at most (it has no character that would split it).
            if any(q == path or q.endswith("/" + path) for q in capsule_paths(text[start:end])):
                return True
            at = text.find(path, at + 1)
        return False


def _strings(items: Iterable[Any]) -> list[str]:
    """Every string in ``items`` (parsed JSON): dictionary keys and string values, at any
    depth, in no particular order (the paths are looked up, not read in order)."""
    out: list[str] = []
    stack = list(items)
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, dict):
            out.extend(value)  # the keys: a tool may key its results by file
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return out


def macro(kinds: dict[str, float | None]) -> float | None:
    """The mean over the kinds that have a value (each kind weighs the same)."""
    values = [v for v in kinds.values() if v is not None]
    return sum(values) / len(values) if values else None


class VisibleFacts:
    """Live and visible facts per kind, kept up to date as the walk moves, so each request
    costs what changed since the previous one (entries joining or leaving the tail, outputs
    newly masked, a new capsule, facts introduced or closed), not the number of live facts.

    ``hits[f, r]`` counts the unmasked evidence entries of fact ``f`` inside the tail window
    ``[start, end)`` and among the pinned items, ``r`` the result such an entry shows for a
    verification whose runs the truth records (:func:`~soba_bench.scoring.retention.stated_results`)
    and None for any other fact; a fact is visible when it is live and is a skill, is
    presented by the current capsule, or has a hit (a verification: one showing its result at
    the request, which changes with each run; the capsule too must report that result)."""

    def __init__(self, ctx: ScoreContext, facts: list[Fact], capsule_has) -> None:
        self.walk = ctx.walk
        lifecycle = ctx.lifecycle
        assert lifecycle is not None  # the scorer needs truth, so there is its lifecycle
        self.lifecycle = lifecycle
        self.capsule_has = capsule_has
        self.kind = {f.id: kind_of(f) for f in facts}
        self.skill = {f.id for f in facts if f.kind == "skill"}
        self.by_start = sorted(facts, key=lambda f: self.lifecycle.start[f.id])
        self.by_end = sorted(facts, key=lambda f: self.lifecycle.end[f.id])
        self.joined = self.left = 0
        self.live: set[str] = set()
        self.visible: set[str] = set()
        self.live_count: dict[str, int] = {}
        self.seen_count: dict[str, int] = {}
        self.hits: dict[tuple[str, str | None], int] = {}
        # replayed index -> the tracked facts seen there, with the result shown (verification)
        self.at_entry: dict[int, list[tuple[str, str | None]]] = {}
        # a verification's result now, and when each of its runs changes it (the lifecycle's
        # runs, as Lifecycle.result_at reads them: a run counts before a later request)
        self.result: dict[str, str | None] = {}
        runs: list[tuple[int, str, str | None]] = []
        position = self.walk.position
        for fact in facts:
            states = stated_results(fact)
            seen: set[tuple[int, str | None]]
            if states is None:
                seen = {(position[i], None) for i in evidence(fact) if i in position}
            else:
                seen = {(position[i], said) for i, said in states.items() if i in position}
                self.result[fact.id] = None
                runs.extend((at, fact.id, said) for at, said in lifecycle.runs[fact.id])
            for index, said in seen:
                self.at_entry.setdefault(index, []).append((fact.id, said))
        runs.sort(key=lambda run: run[0])  # stable: a check's runs stay in their order
        self.runs, self.ran = runs, 0
        self.start = self.end = 0
        self.pinned: tuple[int, ...] = ()
        self.masked = -1
        self.capsule: int | None = None
        # what the capsule presents: fact ids, and (id, result) for each result it reports
        # of a verification whose runs the truth records
        self.shown: set[str | tuple[str, str]] = set()

    def _recount(self, fid: str) -> None:
        if fid in self.result:  # a verification: an entry, or the capsule, shows its result now
            said = self.result[fid]
            in_tail = said is not None and self.hits.get((fid, said), 0) > 0
            shown = said is not None and (fid, said) in self.shown
        else:
            in_tail = self.hits.get((fid, None), 0) > 0
            shown = fid in self.shown
        now = fid in self.live and (fid in self.skill or shown or in_tail)
        if now != (fid in self.visible):
            kind = self.kind[fid]
            if now:
                self.visible.add(fid)
                self.seen_count[kind] = self.seen_count.get(kind, 0) + 1
            else:
                self.visible.discard(fid)
                self.seen_count[kind] -= 1

    def _counted(self, index: int) -> bool:
        return index > self.masked or not is_output(self.walk.replayed[index].item)

    def _hit(self, index: int, step: int) -> None:
        for key in self.at_entry.get(index, ()):
            before = self.hits.get(key, 0)
            self.hits[key] = before + step
            if (before == 0) != (before + step == 0):
                self._recount(key[0])

    def move(self, point) -> None:
        """Bring the state to ``point`` (a :class:`~soba_bench.scoring.points.PointInput`)."""
        lifecycle, at = self.lifecycle, point.at
        # facts introduced / closed by now
        while (
            self.joined < len(self.by_start) and lifecycle.start[self.by_start[self.joined].id] < at
        ):
            fid = self.by_start[self.joined].id
            self.joined += 1
            self.live.add(fid)
            kind = self.kind[fid]
            self.live_count[kind] = self.live_count.get(kind, 0) + 1
            self._recount(fid)
        while self.left < len(self.by_end) and lifecycle.end[self.by_end[self.left].id] < at:
            fid = self.by_end[self.left].id
            self.left += 1
            if fid in self.live:
                self.live.discard(fid)
                self.live_count[self.kind[fid]] -= 1
                self._recount(fid)
        # verifications run since: their result, so which of their entries show it
        while self.ran < len(self.runs) and self.runs[self.ran][0] < at:
            _, fid, said = self.runs[self.ran]
            self.ran += 1
            self.result[fid] = said
            self._recount(fid)
        # A peer's pinned items (a few, changed only by a compaction): taken out under the old
        # masking, put back under the new one below.
        repin = point.pinned != self.pinned or point.masked != self.masked
        if repin:
            for index in self.pinned:
                if self._counted(index):
                    self._hit(index, -1)
        # the tail: drop what left it (or got masked), then add what joined it
        low, high = max(self.start, point.start), min(self.end, point.end)
        for index in range(self.start, min(self.end, point.start)):
            if self._counted(index):
                self._hit(index, -1)
        for index in range(max(low, point.end), self.end):
            if self._counted(index):
                self._hit(index, -1)
        if point.masked > self.masked:
            for index in range(max(low, self.masked + 1), min(high, point.masked + 1)):
                if is_output(self.walk.replayed[index].item):
                    self._hit(index, -1)
            self.masked = point.masked
        elif point.masked < self.masked:  # never for the built-in strategies; kept exact
            for index in range(max(low, point.masked + 1), min(high, self.masked + 1)):
                if is_output(self.walk.replayed[index].item):
                    self._hit(index, +1)
            self.masked = point.masked
        for index in range(point.start, min(self.start, point.end)):
            if self._counted(index):
                self._hit(index, +1)
        for index in range(max(high, point.start), point.end):
            if (index >= self.end or index < self.start) and self._counted(index):
                self._hit(index, +1)
        self.start, self.end = point.start, point.end
        if repin:
            self.pinned = point.pinned
            for index in self.pinned:
                if self._counted(index):
                    self._hit(index, +1)
        if point.prefix != self.capsule:
            old = self.shown
            self.capsule = point.prefix
            self.shown = self.capsule_has(point.prefix) if point.prefix is not None else set()
            for key in old ^ self.shown:
                self._recount(key[0] if isinstance(key, tuple) else key)


@SCORERS.register("availability")
class Availability:
    name: ClassVar[str] = "availability"
    description: ClassVar[str] = (
        "share of live facts the model can see at every request, macro over fact kinds"
    )
    needs_truth: ClassVar[bool] = True
    # True: each capsule is asked about every fact of the session, the straightforward path
    # the equivalence test holds the per-capsule choice of facts to.
    every_fact: ClassVar[bool] = False

    def score(self, ctx: ScoreContext, out: SessionScores) -> None:
        truth, lifecycle = ctx.truth, ctx.lifecycle
        assert truth is not None and lifecycle is not None
        unknown = set(truth.unknown_kinds)
        facts = [
            f
            for f in truth.facts
            if f.kind in RETENTION_KINDS and f.kind not in unknown and lifecycle.start[f.id] < NEVER
        ]
        facts.sort(key=lambda f: lifecycle.start[f.id])
        in_capsule: dict[int, set[str | tuple[str, str]]] = {}
        wrong_in: dict[int, set[str]] = {}
        paths_in: dict[int, tuple[int, int]] = {}
        modified = {normalize_path(fact_path(f)) for f in facts if f.kind == "file_modified"}
        replaced = predecessors(truth.facts)
        known: list[SessionPaths] = []  # built on the first capsule (a session may have none)

        # Where each capsule is sent (the first and last scored request): a capsule is asked
        # about the facts live at one of them, the only verdicts the walk reads. Asking it
        # about every fact of the session made scoring grow with facts x capsules.
        sent: dict[int, tuple[int, int]] = {}
        for point in ctx.point_inputs:
            request = point.request
            if point.prefix is not None and request is not None and request.key in ctx.sampled:
                first, last = sent.get(point.prefix, (point.at, point.at))
                sent[point.prefix] = (min(first, point.at), max(last, point.at))

        made_at: dict[str, int] = {}  # a capsule's id -> the original entries before it

        def known_until(index: int) -> int:
            """The original entries a capsule's writer read: those before its retained tail
            (its compacted span), or all before it when it keeps none."""
            entry = ctx.replayed[index]
            kept = (entry.data.get("provenance") or {}).get("firstKeptEntryId")
            at = ctx.timeline.at(kept) if isinstance(kept, str) else NEVER
            if at < NEVER:
                return at
            if not made_at:
                made_at.update(ctx.timeline.replay_points(ctx.replayed))
            return made_at.get(entry.id or "", NEVER)

        def capsule_has(index: int) -> set[str | tuple[str, str]]:
            if index not in in_capsule:
                view = ctx.capsule_view(ctx.replayed[index].data)
                first, last = sent[index]
                # live at some request in [first, last] (VisibleFacts.move's rule)
                asked = [
                    f
                    for f in facts
                    if self.every_fact
                    or (lifecycle.start[f.id] < last and lifecycle.end[f.id] >= first)
                ]
                # A capsule states wrongly only what was so before it was written: a fact
                # introduced in its tail or later (a file edited after the span it read, a
                # decision taken since) is not one it can contradict; a check it reports is
                # judged by its result then, and it presents the check only at a request
                # whose result it reports (VisibleFacts), not by the session's last result,
                # which read a report of the red run before a fix as wrong (stop 49).
                cutoff = known_until(index)
                shown: set[str | tuple[str, str]] = set()
                wrong: set[str] = set()
                for f in asked:
                    replaces = replaced.get(f.id)
                    if stated_results(f) is None:
                        label = label_of(f, view, replaces=replaces)
                        if label == ENTAILED:
                            shown.add(f.id)
                        stated_wrongly = label == CONTRADICTED
                    else:
                        said = {
                            r: label_of(f, view, result=r, replaces=replaces) for r in CHECK_RESULTS
                        }
                        shown.update((f.id, r) for r, label in said.items() if label == ENTAILED)
                        then = lifecycle.result_at(f, cutoff)  # None: no run it could report
                        stated_wrongly = then is not None and said[then] == CONTRADICTED
                    if (
                        stated_wrongly
                        and lifecycle.start[f.id] < cutoff
                        # read and modified both: listed under Modified is right (as retention)
                        and not (f.kind == "file_read" and normalize_path(fact_path(f)) in modified)
                    ):
                        wrong.add(f.id)
                in_capsule[index], wrong_in[index] = shown, wrong
                if not known:
                    paths = (p for f in truth.facts if f.kind in FILE_KINDS for p in spellings(f))
                    items = (e.item for e in ctx.originals if e.item is not None)
                    known.append(SessionPaths(items, paths))
                named = capsule_paths(view.texts[0])
                paths_in[index] = (len(named), sum(p not in known[0] for p in named))
            return in_capsule[index]

        live_total = dict.fromkeys(AVAILABILITY_KINDS, 0)
        seen_total = dict.fromkeys(AVAILABILITY_KINDS, 0)
        state = VisibleFacts(ctx, facts, capsule_has)
        scored = refused = 0
        wrong = live_sent = named = invented = 0
        keys: list[str] = []
        for point in ctx.point_inputs:
            request = point.request
            if request is None or request.key not in ctx.sampled:
                continue
            state.move(point)
            counts = {k: n for k, n in state.live_count.items() if n}
            # A refused request sent nothing: its live facts count, none is available.
            visible = {} if request.refused else {k: n for k, n in state.seen_count.items() if n}
            for kind, n in counts.items():
                live_total[kind] += n
                seen_total[kind] += visible.get(kind, 0)
            if not request.refused and state.capsule is not None:
                # What the capsule sent here states wrongly, and the paths it makes up.
                live_sent += len(state.live)
                wrong += len(wrong_in[state.capsule] & state.live)
                n_named, n_invented = paths_in[state.capsule]
                named += n_named
                invented += n_invented
            scored += 1
            refused += request.refused
            keys.append(request.key)
            out.points.append(
                {
                    "session": ctx.session,
                    "strategy": ctx.label,
                    "key": request.key,
                    "at": point.at,
                    "turn": request.turn,
                    "refused": request.refused,
                    "tokens": point.tokens,
                    "live": counts,
                    "visible": visible,
                }
            )
        kinds = {
            k: (seen_total[k] / live_total[k] if live_total[k] else None)
            for k in AVAILABILITY_KINDS
        }
        row: dict[str, Any] = {
            "session": ctx.session,
            "strategy": ctx.label,
            "availability": macro(kinds),
            **{f"availability.{k}": v for k, v in kinds.items()},
            "contradiction": wrong / live_sent if live_sent else None,
            "contradicted": wrong,
            "inventedPaths": invented / named if named else None,
            "pathsNamed": named,
            "points": scored,
            "requests": len(ctx.requests),
            "sampled": scored < len(ctx.requests),
            "refusedPoints": refused,
            "live": {k: v for k, v in live_total.items() if v},
            "visible": {k: v for k, v in seen_total.items() if live_total[k]},
            # The same digest on two jobs means they were scored at the same requests.
            "pointsDigest": hashlib.sha256("\n".join(sorted(keys)).encode()).hexdigest()[:16],
        }
        out.availability.append(row)
