"""Retention against ground truth, per fact kind: recall (live facts still present),
precision (files and commands that are not in the truth), staleness (a superseded decision or a
resolved blocker presented as current), contradictions (a live fact the view states wrongly: a
negated decision, an open blocker shown as fixed, a failing check shown as passing, a modified
file listed as read) and noise carried along (secrets, injected instructions, distractors
presented as decisions). Every score lists what was missed or wrong.

With a verdict matcher (the ``verdict`` family, the default among them; see
soba_bench.scoring.matchers) a fact is entailed, contradicted or absent; only entailed counts
as found, and a contradiction counts against the view like staleness. The earlier matchers
(``fuzzy``, ``embedding``) only tell present from absent, so they never report a contradiction.

A model input the scorers build knows which of the session's entries it shows verbatim; there
a fact (or a secret, or an injected instruction) is found where its own entry is shown, and
the matcher reads only the capsule (see :func:`label_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.truth import Fact
from soba_bench.scoring.match import content_words, normalize_command, normalize_path
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.timeline import Lifecycle, recorded_results
from soba_bench.scoring.verdict import ABSENT, CONTRADICTED, ENTAILED, Claim
from soba_bench.scoring.views import View

PROSE_KINDS = (
    "goal",
    "constraint",
    "decision",
    "blocker",
    "next_step",
    "clarification",
    "checkpoint",
)
FILE_KINDS = ("file_read", "file_modified", "file_renamed")
RETENTION_KINDS = (*PROSE_KINDS, *FILE_KINDS, "verification", "skill")
STALE_KINDS = ("goal", "decision", "blocker", "next_step", "constraint")
NOISE_KINDS = ("secret", "injection", "distractor")


@dataclass
class KindScore:
    kind: str
    expected: int = 0
    found: int = 0
    missed: list[str] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)
    stale: list[str] = field(default_factory=list)
    stale_checked: int = 0
    correct_structured: int = 0
    contradicted: list[str] = field(default_factory=list)  # live facts stated wrongly

    @property
    def recall(self) -> float | None:
        return self.found / self.expected if self.expected else None

    @property
    def precision(self) -> float | None:
        total = self.correct_structured + len(self.wrong)
        return self.correct_structured / total if total else None

    @property
    def staleness(self) -> float | None:
        """Share of no-longer-current facts presented as current (lower is better)."""
        return len(self.stale) / self.stale_checked if self.stale_checked else None

    @property
    def contradiction(self) -> float | None:
        """Share of expected facts the view contradicts (lower is better)."""
        return len(self.contradicted) / self.expected if self.expected else None

    def to_row(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "expected": self.expected,
            "found": self.found,
            "recall": self.recall,
            "precision": self.precision,
            "staleness": self.staleness,
            "missed": self.missed,
            "wrong": self.wrong,
            "stale": self.stale,
            "contradiction": self.contradiction,
            "contradicted": self.contradicted,
        }


def fact_path(fact: Fact) -> str:
    """The path a file fact names (a rename: its new path)."""
    attrs = fact.attributes
    return str(attrs.get("path") or attrs.get("to") or fact.text)


def spellings(fact: Fact) -> tuple[str, ...]:
    """Every spelling of what a file fact or a check names, normalised: its path
    (:func:`fact_path`) or its command first, then the importer's ``aliases``: the same file
    relative to, or under, the session's working folder (a tool wrote
    ``/home/me/repo/src/a.ts``, a summary may write ``src/a.ts``); the same check without a
    ``cd`` before it or the plumbing of its output (``mix test 2>&1 | head -100`` is
    ``mix test``). Other kinds: their text."""
    aliases = fact.attributes.get("aliases") or ()
    if fact.kind in FILE_KINDS:
        return tuple(dict.fromkeys(normalize_path(p) for p in (fact_path(fact), *aliases)))
    if fact.kind == "verification":
        command = str(fact.attributes.get("command") or fact.text)
        return tuple(dict.fromkeys(normalize_command(c) for c in (command, *aliases)))
    return (fact.text,)


def uses_verdicts(view: View) -> bool:
    return view.index.config.prose_matcher.startswith("verdict")


def claim_of(
    fact: Fact, stale: bool = False, result: str | None = None, replaces: str | None = None
) -> Claim:
    """The claim a fact makes: its text, and the state it should be shown in (``replaces``:
    the text of the fact it superseded, see :func:`predecessors`)."""
    attrs = fact.attributes
    if fact.kind == "verification" and result is None:
        final = attrs.get("finalResult")
        result = final if isinstance(final, str) else None
    return Claim(
        kind=fact.kind,
        text=fact.text,
        state="stale" if stale else "current",
        result=result,
        path=fact_path(fact) if fact.kind in FILE_KINDS else None,
        aliases=spellings(fact)[1:],
        problem=fact.kind == "goal" and attrs.get("states") == "problem",
        command=str(attrs.get("command") or fact.text) if fact.kind == "verification" else None,
        replaces=replaces,
    )


def predecessors(facts: Iterable[Fact]) -> dict[str, str]:
    """fact id -> the text of the fact it superseded (from the old fact's ``superseded_by``)."""
    return {f.superseded_by: f.text for f in facts if f.superseded_by}


def evidence(fact: Fact) -> tuple[str, ...]:
    """The ids of the entries the ground truth saw a fact in: where it was introduced too,
    and the command that made it (a rename's ``commandEntryId``: its output alone would hide
    the rename wherever tool outputs are masked, while the command still shows it)."""
    command = fact.attributes.get("commandEntryId")
    return (
        *fact.entry_ids,
        *((fact.introduced_at,) if fact.introduced_at else ()),
        *((command,) if isinstance(command, str) else ()),
    )


def stated_results(fact: Fact) -> Mapping[str, str] | None:
    """For a verification whose truth records its runs: entry id -> the result that entry
    shows (each run's output, and each report of it such as a turn summary, ``reports``).
    None for any other fact, which its entries show whenever they are sent.

    A check's state is its last result: "`bun test` passes" shows it only until a later run
    fails. Its call shows the command but no result, so it does not show the state either
    (a strategy that masks the output keeps the call and loses the result). A truth that
    records no runs (an older or hand-written one) leaves the check to :func:`evidence`."""
    if fact.kind != "verification":
        return None
    kept = _STATED.get(id(fact))
    if kept is not None and kept[0] is fact:
        return kept[1]
    runs = recorded_results(fact, "runs")
    found = None
    if runs is not None:
        said = (*runs, *(recorded_results(fact, "reports") or ()))
        found = {e: r for e, r in said if isinstance(e, str) and r is not None}
    if len(_STATED) >= _STATED_LIMIT:
        _STATED.clear()  # a bound, not an LRU
    # Kept with the fact itself: an id is only reused once its object is gone.
    _STATED[id(fact)] = (fact, found)
    return found


# A check's entry -> result map, made once per fact: it is asked for each view at every
# moment, and a long session's check has hundreds of runs (issue 18).
_STATED: dict[int, tuple[Fact, Mapping[str, str] | None]] = {}
_STATED_LIMIT = 100_000


def _shown(fact: Fact, view: View, result: str | None = None) -> bool:
    """Does the view show an entry the fact was seen in (a skill: is it active there; a
    verification: an entry that shows ``result``, its result at the view's point)?"""
    assert view.shown is not None
    if fact.kind == "skill" and str(fact.attributes.get("name") or fact.text) in view.skills:
        return True  # the agent keeps active skills whatever the context strategy does
    states = stated_results(fact)
    if states is not None:
        return result is not None and any(
            i in view.shown for i, said in states.items() if said == result
        )
    return any(i in view.shown for i in evidence(fact))


def label_of(
    fact: Fact,
    view: View,
    stale: bool = False,
    result: str | None = None,
    replaces: str | None = None,
) -> str:
    """Entailed, contradicted or absent, by the view's matcher. Skills and secrets are names
    and literals: present or absent, as before. Kept per claim in the view's context, so the
    scorers that judge the same view (retention, then the lost-constraint detector) judge each
    fact once.

    In a model input that knows which entries it shows (:attr:`View.shown`), a fact is
    entailed where an entry the ground truth saw it in is shown (a skill: where it is active),
    else it is what the capsule says of it: the matcher reads the capsule only, as
    availability does. Read over a whole history, the matcher cost most of the scoring time,
    quadratic in capsules (issue 18), and found another subject's statement where the fact's
    own had been cut ("key the writer lock ..." for "key the shard lock ..."). What that
    cannot see, as availability: a fact the input restates elsewhere only."""
    if view.shown is not None and fact.kind in RETENTION_KINDS:
        if not stale and _shown(fact, view, result):
            return ENTAILED
        # A stale fact is judged in the capsule's sections alone, as below.
        if view.capsule is None:
            return ABSENT
        return label_of(fact, view.capsule, stale, result, replaces)
    if uses_verdicts(view) and fact.kind not in ("skill", "secret"):
        context = view.capsule_context if stale else view.context
        claim = claim_of(fact, stale, result, replaces)
        name = view.index.config.prose_matcher
        key = ("label", name, claim)
        found = context.cache.get(key)
        if found is None:
            found = get_matcher(name).label(claim, context)
            if claim.problem and found == CONTRADICTED:
                # An issue's title states the problem; a summary states the fix, which
                # negates it ("SSIMLoss result does not have gradient" -> "make SSIMLoss
                # return a result with a gradient"): the goal kept, not contradicted.
                found = ENTAILED
            context.cache[key] = found
        return str(found)
    return ENTAILED if _present_by_words(fact, view) else ABSENT


def present(fact: Fact, view: View) -> bool:
    """Is the fact in the view, stated as it is (the matcher's verdict is entailed)? A label
    already judged answers; else the matcher's cheaper yes-or-no (kept beside the labels). In
    a view that knows its entries: as :func:`label_of` reads it."""
    if view.shown is not None and fact.kind in RETENTION_KINDS:
        if _shown(fact, view):
            return True
        return view.capsule is not None and present(fact, view.capsule)
    if uses_verdicts(view) and fact.kind not in ("skill", "secret"):
        context = view.context
        claim = claim_of(fact)
        if claim.problem:
            return label_of(fact, view) == ENTAILED  # a contradiction is its fix: the label
        name = view.index.config.prose_matcher
        label = context.cache.get(("label", name, claim))
        if label is not None:
            return bool(label == ENTAILED)
        key = ("entails", name, claim)
        found = context.cache.get(key)
        if found is None:
            found = context.cache[key] = get_matcher(name).entails(claim, context)
        return bool(found)
    return label_of(fact, view) == ENTAILED


def _present_by_words(fact: Fact, view: View) -> bool:
    """The earlier presence test (structured parts first, then the text's words)."""
    kind = fact.kind
    if kind in FILE_KINDS:
        listed = view.read_files if kind == "file_read" else view.modified_files
        return any(p in listed or view.index.has_path(p) for p in spellings(fact))
    if kind == "verification":
        commands = (str(fact.attributes.get("command") or fact.text), *spellings(fact)[1:])
        return any(c in view.commands or view.index.has_exact(c) for c in commands)
    if kind == "skill":
        name = str(fact.attributes.get("name") or fact.text)
        return name in view.skills or view.index.has_exact(name)
    if kind == "secret":
        return view.index.has_exact(str(fact.attributes.get("value") or fact.text))
    return view.index.has_prose(fact.text)


def _carried(fact: Fact, view: View) -> bool:
    """Is a secret or an injected instruction in the view: shown in an entry it came in, or
    copied into the capsule (a view of texts only: anywhere in its text)?"""
    if view.shown is None:
        return _present_by_words(fact, view)
    if _shown(fact, view):
        return True
    return view.capsule is not None and _present_by_words(fact, view.capsule)


def _stale(fact: Fact, successor: Fact | None, view: View) -> bool | None:
    """Is a no-longer-current fact presented as current? A refinement usually repeats what it
    replaces ("add logging" -> "add logging, and a guide"), so only the words the successor
    dropped can show the old version; None when there are none (the check cannot tell)."""
    current = view.current
    assert current is not None  # the caller checks first: only a capsule presents state
    if not current.has_prose(fact.text):
        return False
    if successor is None:
        return True
    dropped = content_words(fact.text) - content_words(successor.text)
    if not dropped:
        return None
    return len(dropped & current.words) / len(dropped) >= current.config.containment


def score_view(
    facts: tuple[Fact, ...],
    lifecycle: Lifecycle,
    view: View,
    point: int,
    expect_before: int | None = None,
) -> dict[str, KindScore]:
    """Scores of one view made at ``point``. Facts count as expected when live at ``point``
    and introduced before ``expect_before`` (default: ``point``; for a capsule, the start of
    its retained tail, since later facts are in the tail, not in the capsule)."""
    horizon = point if expect_before is None else expect_before
    scores = {k: KindScore(k) for k in (*RETENTION_KINDS, *NOISE_KINDS)}
    by_id = {f.id: f for f in facts}
    replaced = predecessors(facts)
    known_paths: set[str] = set()
    modified_paths = {normalize_path(fact_path(f)) for f in facts if f.kind == "file_modified"}
    for fact in facts:
        if fact.kind in FILE_KINDS:
            known_paths.update(spellings(fact))  # a listing spelled either way is no invention
            if fact.kind == "file_renamed" and fact.attributes.get("from"):
                known_paths.add(normalize_path(str(fact.attributes["from"])))
    for fact in facts:
        score = scores[fact.kind]
        if fact.kind in NOISE_KINDS:
            # A distractor only does harm when presented as a decision, which needs a capsule.
            applicable = fact.kind != "distractor" or view.current is not None
            if applicable and lifecycle.introduced_before(fact, point):
                score.expected += 1  # "expected" here counts opportunities to leak
                carried = (
                    view.current is not None and view.current.has_prose(fact.text)
                    if fact.kind == "distractor"
                    else _carried(fact, view)
                )
                if carried:
                    score.found += 1
                    # A leaked secret is named by its fact id: score files must not copy it.
                    score.wrong.append(fact.id if fact.kind == "secret" else fact.text[:120])
            continue
        if lifecycle.live_at(fact, point) and lifecycle.introduced_before(fact, horizon):
            score.expected += 1
            result = lifecycle.result_at(fact, point) if fact.kind == "verification" else None
            label = label_of(fact, view, result=result, replaces=replaced.get(fact.id))
            if (
                label == CONTRADICTED
                and fact.kind == "file_read"
                and normalize_path(fact_path(fact)) in modified_paths
            ):
                label = ENTAILED  # read and modified both: listed under Modified is right
            if label == ENTAILED:
                score.found += 1
                if fact.kind in FILE_KINDS or fact.kind == "verification":
                    score.correct_structured += 1
            elif label == CONTRADICTED:
                score.contradicted.append(fact.text[:160])
            else:
                score.missed.append(fact.text[:160])
        elif (
            fact.kind in STALE_KINDS
            and view.current is not None
            and lifecycle.stale_at(fact, point)
        ):
            shown: bool | None
            if uses_verdicts(view):
                # Stale facts are judged in the capsule's sections (history may mention them).
                shown = label_of(fact, view, stale=True) == CONTRADICTED
            else:
                successor = by_id.get(fact.superseded_by) if fact.superseded_by else None
                shown = _stale(fact, successor, view)
            if shown is not None:
                score.stale_checked += 1
                if shown:
                    score.stale.append(fact.text[:160])
    for path in sorted(view.artifact_paths - known_paths):
        kind = "file_modified" if path in view.modified_files else "file_read"
        scores[kind].wrong.append(path)
    return scores


def summarize(scores: dict[str, KindScore]) -> dict[str, Any]:
    """Micro-averaged recall over retention kinds, plus staleness and leaks."""
    expected = sum(scores[k].expected for k in RETENTION_KINDS)
    found = sum(scores[k].found for k in RETENTION_KINDS)
    stale = sum(len(scores[k].stale) for k in STALE_KINDS)
    checked = sum(scores[k].stale_checked for k in STALE_KINDS)
    contradicted = sum(len(scores[k].contradicted) for k in RETENTION_KINDS)
    return {
        "recall": found / expected if expected else None,
        "expected": expected,
        "found": found,
        "staleness": stale / checked if checked else None,
        "staleItems": stale,
        "contradiction": contradicted / expected if expected else None,
        "contradictedItems": contradicted,
        "leaks": sum(scores[k].found for k in NOISE_KINDS),
        "hallucinatedPaths": sum(len(scores[k].wrong) for k in FILE_KINDS),
    }


# Per-fact outcomes, for tools that show one moment fact by fact (the drill-down viewer);
# a contradicted fact's outcome is the verdict's own name (CONTRADICTED).
KEPT, MISSED, STALE, SUPERSEDED_DROPPED = ("kept", "missed", "stale", "dropped_stale")


@dataclass(frozen=True)
class FactOutcome:
    """What ``score_view`` decided for one fact: ``kept`` / ``missed`` / ``contradicted``
    for a fact expected in the view, ``stale`` / ``dropped_stale`` for a resolved or
    superseded fact that the view does / does not present as current."""

    fact: Fact
    outcome: str


def fact_outcomes(
    facts: tuple[Fact, ...],
    lifecycle: Lifecycle,
    view: View,
    point: int,
    expect_before: int | None = None,
) -> list[FactOutcome]:
    """The outcome of every retention fact ``score_view`` judged at ``point``, in truth
    order. It runs ``score_view`` itself and reads its lists back, so the outcomes are the
    scorer's verdicts, never a second matcher that could disagree with the scores."""
    scores = score_view(facts, lifecycle, view, point, expect_before)
    horizon = point if expect_before is None else expect_before
    # Each list holds a fact's text[:160]; count them so repeated texts are each used once.
    pending: dict[tuple[str, str], list[str]] = {}
    for kind, score in scores.items():
        pending[(kind, MISSED)] = list(score.missed)
        pending[(kind, STALE)] = list(score.stale)
        pending[(kind, CONTRADICTED)] = list(score.contradicted)

    def take(kind: str, label: str, text: str) -> bool:
        bucket = pending[(kind, label)]
        if text in bucket:
            bucket.remove(text)
            return True
        return False

    out: list[FactOutcome] = []
    for fact in facts:
        if fact.kind in NOISE_KINDS:
            continue
        text = fact.text[:160]
        if lifecycle.live_at(fact, point) and lifecycle.introduced_before(fact, horizon):
            if take(fact.kind, CONTRADICTED, text):
                out.append(FactOutcome(fact, CONTRADICTED))
            elif take(fact.kind, MISSED, text):
                out.append(FactOutcome(fact, MISSED))
            else:
                out.append(FactOutcome(fact, KEPT))
        elif (
            fact.kind in STALE_KINDS
            and view.current is not None
            and lifecycle.stale_at(fact, point)
        ):
            label = STALE if take(fact.kind, STALE, text) else SUPERSEDED_DROPPED
            out.append(FactOutcome(fact, label))
    return out
