"""The extractive answerer: no model, answers by deterministic lexical retrieval from the
post-compaction input it is given. It splits the rendered input into lines, each with its
context (the item's label, the capsule section heading above it), scores every line by the
question's cue words and subject, and answers with the best line (single answers) or every
matching line (lists), reduced to paths, commands or a status when the question asks for
those. A reproducible baseline: what a reader who only skims for keywords would recover.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from functools import cached_property

from soba_bench.scoring.match import content_words, normalize_command
from soba_bench.scoring.probes.extract import commands_in, paths_in, status_in
from soba_bench.scoring.probes.questions import Probe

MAX_LINES = 12  # of a prose list answer
MAX_LINE_CHARS = 400
_LABEL = re.compile(r"^\[(user|assistant|system|developer|tool call|tool result[^\]]*|[\w ]+)\]$")
_HEADING = re.compile(r"^#{1,6}\s+(.+)$")
# Probes whose answer the user states: their lines score higher in the user's messages.
_FROM_USER = ("goal", "constraints", "clarification")


@dataclass(frozen=True)
class Line:
    text: str
    context: str  # item label + section heading
    block: int
    position: int
    label: str

    # Lower-cased forms and word sets, computed once: every probe of a moment scans every line.
    @cached_property
    def lowered(self) -> str:
        return f"{self.text}\n{self.context}".lower()

    @cached_property
    def words(self) -> frozenset[str]:
        return content_words(self.text) | frozenset(self.text.lower().split())

    @cached_property
    def context_words(self) -> frozenset[str]:
        return content_words(self.context)


@functools.lru_cache(maxsize=8)
def split_lines(text: str) -> tuple[Line, ...]:
    """The lines of a rendered input with their context (cached: a moment's probes share it)."""
    lines: list[Line] = []
    label, heading, block = "", "", -1
    for raw in text.splitlines():
        stripped = raw.strip()
        if not stripped:
            continue
        if _LABEL.match(stripped):
            label, heading, block = stripped, "", block + 1
            continue
        found = _HEADING.match(stripped)
        if found:
            heading = found.group(1)
            continue
        lines.append(Line(stripped, f"{label} {heading}", block, len(lines), label))
    return tuple(lines)


@dataclass(frozen=True)
class _Query:
    """A probe's retrieval terms, split once: single cue words match by set intersection."""

    single: frozenset[str]
    phrases: tuple[str, ...]
    command: str
    wanted: frozenset[str]

    @classmethod
    def of(cls, probe: Probe) -> _Query:
        subject = probe.subject
        return cls(
            frozenset(c for c in probe.cues if " " not in c),
            tuple(c for c in probe.cues if " " in c),
            normalize_command(subject).lower() if subject else "",
            content_words(subject) if subject else frozenset(),
        )


def _score(probe: Probe, query: _Query, line: Line) -> tuple[float, bool]:
    """(score, eligible): cue words in the line count double those in its context."""
    cue = 2 * len(query.single & line.words) + len(query.single & line.context_words)
    for phrase in query.phrases:
        at = line.lowered.find(phrase)
        if at >= 0:
            cue += 2 if at < len(line.text) else 1
    subject = 0.0
    if probe.subject:
        if query.command and query.command in line.lowered:
            subject = 1.0
        elif query.wanted and probe.answer_kind != "status":  # a command: whole or nothing
            subject = len(query.wanted & (line.words | line.context_words)) / len(query.wanted)
    score = cue + 4 * subject
    if probe.id.split(":")[0] in _FROM_USER and line.label == "[user]":
        score += 1
    eligible = cue > 0 and (not probe.subject or subject >= 0.5)
    return score, eligible


def _first_user_line(lines: tuple[Line, ...]) -> list[Line]:
    return next(([line] for line in lines if line.label == "[user]"), [])


def retrieve(probe: Probe, lines: tuple[Line, ...]) -> list[Line]:
    """The lines that answer ``probe``: the best one (latest on ties) or every eligible one
    (best first, at most MAX_LINES, then back in input order)."""
    query = _Query.of(probe)
    scored = [(s, line) for line in lines for s, ok in [_score(probe, query, line)] if ok]
    if not scored:
        # The task statement opens the session: the goal, when nothing is labelled as one.
        return _first_user_line(lines) if probe.id == "goal" else []
    if probe.single:
        best = max(scored, key=lambda pair: (pair[0], pair[1].position))
        return [best[1]]
    # Weak matches (one stray cue word in a log line) only count when nothing better exists.
    floor = max(s for s, _ in scored) / 2
    scored = [pair for pair in scored if pair[0] >= floor]
    # Paths and commands are short: a list of them is read whole; prose lines are capped.
    cap = None if probe.answer_kind in ("paths", "commands") else MAX_LINES
    top = sorted(scored, key=lambda pair: (-pair[0], -pair[1].position))[:cap]
    return sorted((line for _, line in top), key=lambda line: line.position)


def extractive_answer(probe: Probe, text: str) -> str:
    """The answer to ``probe`` from ``text`` (the rendered model input)."""
    lines = split_lines(text)
    chosen = retrieve(probe, lines)
    if probe.answer_kind == "paths":
        return "\n".join(dict.fromkeys(p for line in chosen for p in paths_in(line.text)))
    if probe.answer_kind == "commands":
        found = (c for line in chosen for c in commands_in(f"{line.context}\n{line.text}"))
        return "\n".join(dict.fromkeys(found))
    if probe.answer_kind == "status":
        if not chosen:
            return "unknown"
        line = chosen[0]
        # The clause that names the command ("`a` passes; `b` is still red"), else the line;
        # a tool result's line that says neither is read with the rest of its output.
        command = normalize_command(probe.subject).lower()
        clauses = re.split(r"[;\n]", line.text)
        status = status_in(next((c for c in clauses if command in c.lower()), line.text))
        if status is None and line.label.startswith("[tool result"):
            status = status_in("\n".join(x.text for x in lines if x.block == line.block))
        return status or "unknown"
    return "\n".join(line.text[:MAX_LINE_CHARS] for line in chosen)
