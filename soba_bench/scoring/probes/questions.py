"""Probe questions generated from the ground truth at one moment of a session.

Four probe types, after Factory's probe evaluation: ``recall`` (goal, constraints, open
blockers, the user's answers), ``artifact`` (files read and modified, verification commands and
their last result), ``continuation`` (next steps) and ``decision`` (one question per decision).
Only facts live at the moment are asked as current; what they replaced (a superseded decision,
a resolved blocker) travels with the question as ``outdated``, so an answer that presents it
as current can be marked wrong. Questions come in a fixed order; ``max_probes`` keeps a seeded
sample of them, the same sample for every strategy scored at that moment.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from soba_bench.corpora.truth import Fact
from soba_bench.scoring.match import STOPWORDS
from soba_bench.scoring.retention import spellings
from soba_bench.scoring.timeline import Lifecycle

PROBE_TYPES = ("recall", "artifact", "continuation", "decision")
EXACT, JUDGE = "exact", "judge"
# How an answer is read: free text, or the items an exact check extracts from it.
ANSWER_KINDS = ("text", "paths", "commands", "status")
PASSED, FAILED = "passed", "failed"

# Words a reader (or the extractive answerer) looks for to find each kind of state. They come
# from the question's topic, never from the expected answer.
CUES = {
    "goal": ("goal", "change of plan", "objective", "new task"),
    "constraints": ("constraint", "constraints", "never", "must", "only", "do not"),
    "blockers": ("blocker", "blockers", "error", "failed", "failing", "red"),
    "clarification": ("answer", "answered", "clarification", "user"),
    "modified": ("edit", "write", "modified", "modify", "created", "changed"),
    "read": ("read", "opened", "viewed"),
    "commands": ("verification", "verify", "test", "tests", "lint", "typecheck", "build", "check"),
    "status": ("passes", "passed", "pass", "fails", "failed", "fail", "red", "green", "status"),
    "next": ("next", "step", "steps", "pending", "todo", "then"),
    "decision": ("decided", "decision", "decisions", "chose", "pivot", "rationale"),
}
_VERB_SKIP = 1  # a decision starts with its verb ("validate tenant payloads with ...")


@dataclass(frozen=True)
class Probe:
    id: str  # stable within a moment: the slot, plus the fact id for per-fact questions
    type: str  # one of PROBE_TYPES
    question: str
    expected: tuple[str, ...]
    mode: str  # exact | judge
    answer_kind: str  # one of ANSWER_KINDS
    cues: tuple[str, ...]
    subject: str = ""  # the topic of a per-fact question (a decision's subject, a command)
    outdated: tuple[str, ...] = ()  # no longer current: presenting it as current is wrong
    single: bool = False  # one answer expected (the goal), not a list
    allowed: tuple[str, ...] = ()  # not expected, but not wrong either (a passed check)
    fact_ids: tuple[str, ...] = ()
    # (other spelling, the path or command it names): a path of ``expected``, ``allowed``
    # or ``outdated`` under the session's working folder, a check without its ``cd`` or
    # output plumbing (the truth's aliases), which an answer may give instead
    aliases: tuple[tuple[str, str], ...] = ()

    def to_dict(self) -> dict[str, object]:
        return {
            "probe": self.id,
            "type": self.type,
            "question": self.question,
            "mode": self.mode,
            "expected": list(self.expected),
            "outdated": list(self.outdated),
            "factIds": list(self.fact_ids),
        }


def decision_subject(fact: Fact) -> str:
    """What a decision is about, for "What was decided about X?": the fact's first keyword,
    else the words after its verb up to the first function word ("index payloads")."""
    if fact.keywords:
        return fact.keywords[0]
    words = fact.text.split()
    subject: list[str] = []
    for word in words[_VERB_SKIP:]:
        bare = word.strip(".,;:()'\"").lower()
        if not bare or bare in STOPWORDS or bare in ("instead", "because", "than", "via"):
            if subject:
                break
            continue
        subject.append(word.strip(".,;:()'\""))
        if len(subject) == 3:
            break
    return " ".join(subject) or fact.text[:60]


def last_status(fact: Fact, lifecycle: Lifecycle, point: int, final: bool) -> str | None:
    """The verification's result as of ``point`` (its last run before it), if the ground
    truth says; a bare ``finalResult`` only answers for the end of the session."""
    runs = fact.attributes.get("runs")
    if isinstance(runs, list):
        status = None
        for run in runs:
            if isinstance(run, dict) and lifecycle.timeline.at(run.get("entryId")) < point:
                status = run.get("result")
        return status if status in (PASSED, FAILED) else None
    result = fact.attributes.get("finalResult")
    return result if final and result in (PASSED, FAILED) else None


def _predecessors(fact: Fact, facts: Sequence[Fact]) -> list[Fact]:
    chain: list[Fact] = []
    current = fact.id
    seen = {current}
    while True:
        before = next((f for f in facts if f.superseded_by == current and f.id not in seen), None)
        if before is None:
            return chain
        chain.append(before)
        seen.add(before.id)
        current = before.id


def _value(fact: Fact) -> str:
    """What an answer must give for a fact: its path, its command, or its text."""
    if fact.kind.startswith("file_"):
        return spellings(fact)[0]
    if fact.kind == "verification":
        return str(fact.attributes.get("command") or fact.text)
    return fact.text


# Questions about every live fact of one kind: (id, type, question, fact kind, mode,
# answer kind, cue key, single answer).
_GROUPS = {
    "goal": ("recall", "What is the current goal of this session?", "goal", JUDGE, "text",
             "goal", True),
    "constraints": ("recall", "Which constraints apply to the work?", "constraint", JUDGE,
                    "text", "constraints", False),
    "blockers": ("recall", "Which blockers or errors are still unresolved?", "blocker", JUDGE,
                 "text", "blockers", False),
    "modified_files": ("artifact", "Which files have been modified so far?", "file_modified",
                       EXACT, "paths", "modified", False),
    "read_files": ("artifact", "Which files have been read so far?", "file_read", EXACT,
                   "paths", "read", False),
    "verification_commands": ("artifact", "Which commands verify the work (tests, lint, build)?",
                              "verification", EXACT, "commands", "commands", False),
    "next_steps": ("continuation", "What is the next step?", "next_step", JUDGE, "text", "next",
                   False),
}  # fmt: skip


def generate_probes(
    facts: Sequence[Fact],
    lifecycle: Lifecycle,
    point: int,
    *,
    final: bool = False,
) -> list[Probe]:
    """Every probe the ground truth supports at ``point`` (facts live there only), in a
    fixed order: recall, artifact, continuation, decision."""

    def live(kind: str) -> list[Fact]:
        return [f for f in facts if f.kind == kind and lifecycle.live_at(f, point)]

    def stale(kind: str) -> list[Fact]:
        return [f for f in facts if f.kind == kind and lifecycle.stale_at(f, point)]

    groups: dict[str, list[Probe]] = {}
    for probe_id, (kind, question, fact_kind, mode, answer, cues, single) in _GROUPS.items():
        current, over = live(fact_kind), stale(fact_kind)
        old = tuple(dict.fromkeys(_value(f) for f in over))
        aliases = tuple((alias, _value(f)) for f in (*current, *over) for alias in spellings(f)[1:])
        # A check that passed and closed is still a verification command, just not a live one.
        allowed, outdated = (old, ()) if fact_kind == "verification" else ((), old)
        groups[probe_id] = [
            Probe(probe_id, kind, question, tuple(dict.fromkeys(_value(f) for f in current)),
                  mode, answer, CUES[cues], outdated=outdated, single=single,
                  allowed=allowed, fact_ids=tuple(f.id for f in current), aliases=aliases)
        ] if current else []  # fmt: skip
    clarifications = []
    for fact in live("clarification"):
        # The chosen option's label (the first keyword) is the answer; the stored answer
        # text may add the user's own remarks, which a faithful capsule need not keep.
        chosen = fact.keywords[0] if fact.keywords else fact.attributes.get("answer")
        if isinstance(chosen, str) and chosen:
            clarifications.append(
                Probe(f"clarification:{fact.id}", "recall",
                      f"What did the user answer to the question: {fact.text}", (chosen,),
                      JUDGE, "text", CUES["clarification"], subject=fact.text, single=True,
                      fact_ids=(fact.id,))
            )  # fmt: skip
    statuses = []
    for fact in live("verification"):
        status = last_status(fact, lifecycle, point, final)
        if status is not None:
            command = _value(fact)
            statuses.append(
                Probe(f"verification_status:{fact.id}", "artifact",
                      f"What was the last result of `{command}`: passed or failed?", (status,),
                      EXACT, "status", CUES["status"], subject=command, single=True,
                      fact_ids=(fact.id,))
            )  # fmt: skip
    decisions = []
    for fact in live("decision"):
        subject = decision_subject(fact)
        decisions.append(
            Probe(f"decision:{fact.id}", "decision", f"What was decided about {subject}?",
                  (fact.text,), JUDGE, "text", CUES["decision"], subject=subject,
                  outdated=tuple(f.text for f in _predecessors(fact, facts)), single=True,
                  fact_ids=(fact.id,))
        )  # fmt: skip
    return [
        *groups["goal"], *groups["constraints"], *groups["blockers"], *clarifications,
        *groups["modified_files"], *groups["read_files"], *groups["verification_commands"],
        *statuses, *groups["next_steps"], *decisions,
    ]  # fmt: skip


def sample_probes(probes: Sequence[Probe], max_probes: int | None, seed: str) -> list[Probe]:
    """At most ``max_probes`` of ``probes`` (all when None or 0), drawn with ``seed`` and kept
    in their original order, so the same moment gets the same sample every time."""
    if not max_probes or len(probes) <= max_probes:
        return list(probes)
    keep = sorted(random.Random(seed).sample(range(len(probes)), max_probes))
    return [probes[i] for i in keep]
