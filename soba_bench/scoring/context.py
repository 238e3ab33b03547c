"""What a matcher reads: the texts a scorer sees, split into a capsule's sections and history.

SOBA's capsule text (soba_bench.session.capsule_text) is a fixed layout: a title, ``## Goal``,
``## Constraints``, ``## Completed``, ``## In Progress``, ``## Pending``, ``## Decisions``,
``## Blockers``, ``## Next Steps``, ``## Artifacts`` (``- Modified: p``, ``- Read: p``,
``- Verification status: s``, ``- Verification command: c``) and ``## Active Skills``. A fact's
*state* is where it stands in that layout (a blocker under Blockers is open, one under Completed
as "Fixed: ..." is resolved; a path under Read was read, not modified), so the layout is parsed
rather than searched as a bag of words. Anything that is not a capsule (the retained tail, a
comparison strategy's input) is history, read in order: the newest statement wins.
"""

from __future__ import annotations

import re
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from soba_bench.session.capsule_text import CAPSULE_TITLE

SECTION_KEYS = {
    "Goal": "goal",
    "Constraints": "constraints",
    "Completed": "completed",
    "In Progress": "inProgress",
    "Pending": "pending",
    "Decisions": "decisions",
    "Blockers": "blockers",
    "Next Steps": "nextSteps",
    "Artifacts": "artifacts",
    "Active Skills": "skills",
}
# Sections that present their content as the current state of the work.
CURRENT = ("goal", "constraints", "inProgress", "pending", "decisions", "blockers", "nextSteps")
# Where one line holds several statements: sentence ends, and the separators of JSON that a
# tool output or a checkpoint record prints on one line. A fact is judged against one statement,
# so a negation or a "Fixed:" elsewhere on the line does not leak into it.
_SPLIT = re.compile(r'(?<=[.!?])\s+(?=[A-Z`"\'(])|"\s*[,:]\s*"|[\[\]{}]')
_ARTIFACT = re.compile(
    r"^(Verification status|Modified|Read|Verification command|Checkpoint): (.*)$"
)


def _parts(text: str, section: str) -> tuple[str, ...]:
    """The statements one line holds."""
    parts = [text] if section == "goal" else _SPLIT.split(text)
    return tuple(part for part in (p.strip(' "') for p in parts) if part)


@lru_cache(maxsize=1 << 16)
def _history_lines(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A history text's non-blank lines with their statements. Cached per text: the
    moments and views of one session share most of their history, and each view is parsed
    from its texts (issue 18)."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line:
            out.append((line, _parts(line, "history")))
    return tuple(out)


@dataclass(frozen=True)
class Statement:
    """One line a matcher can align a fact with: its text, where it stands, its order."""

    text: str
    section: str  # a SECTION_KEYS value, or "history"
    order: int


@dataclass
class Context:
    """The parsed texts: statements in reading order plus the capsule's artifact lists."""

    statements: list[Statement] = field(default_factory=list)  # sentences, in reading order
    lines: list[Statement] = field(default_factory=list)  # whole lines (errors, paths)
    read: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    status: str | None = None  # the capsule's verificationStatus (None: no capsule)
    history: list[str] = field(default_factory=list)  # non-capsule texts, whole, in order
    texts: list[str] = field(default_factory=list)  # every text, as given
    cache: dict[Any, Any] = field(default_factory=dict, repr=False)  # matchers' derived data
    # False: the straightforward path (every text parsed anew, every lookup hands back every
    # line, for the caller's own test): the oracle the equivalence tests hold the lookups to.
    indexed: ClassVar[bool] = True

    # After each text: how long each list was and the status, so a context whose texts begin
    # with this one's first n texts resumes from there (the parse is a left fold over texts).
    _marks: list[tuple[int, int, int, int, int, str | None, int]] = field(
        default_factory=list, repr=False, compare=False
    )

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Context:
        """Parse each text: a capsule (it starts with SOBA's title) by section, else history.

        A context parsed recently whose texts begin the same way is resumed from where they
        part (the views of a session's moments grow the same history), so a session's whole
        history is parsed about once rather than once per moment and view (issue 18)."""
        given = [t for t in texts if isinstance(t, str) and t]
        if not cls.indexed:
            context = cls()
            for text in given:
                context._add_text(text, _history_lines.__wrapped__)
            return context
        with _LOCK:
            base, shared = _reusable(given)
            context = base._prefix(shared) if base is not None else cls()
        for text in given[shared:]:
            context._add_text(text, _history_lines)
        with _LOCK:
            _RECENT.append(context)
            del _RECENT[:-_KEEP_RECENT]
        return context

    def _add_text(self, text: str, history_lines: Callable[[str], Any]) -> None:
        self.texts.append(text)
        if text.startswith(CAPSULE_TITLE):
            self._add_capsule(text)
        else:
            self.history.append(text)
            for line, parts in history_lines(text):
                self._append(line, "history", parts)
        self._marks.append(
            (
                len(self.statements),
                len(self.lines),
                len(self.read),
                len(self.modified),
                len(self.commands),
                self.status,
                len(self.history),
            )
        )

    def _prefix(self, shared: int) -> Context:
        """A new context holding what this one held after its first ``shared`` texts (the
        statements themselves are shared: they are frozen), with its word index cut there."""
        statements, lines, read, modified, commands, status, history = self._marks[shared - 1]
        context = type(self)(
            statements=self.statements[:statements],
            lines=self.lines[:lines],
            read=self.read[:read],
            modified=self.modified[:modified],
            commands=self.commands[:commands],
            status=status,
            history=self.history[:history],
            texts=self.texts[:shared],
        )
        context._marks = self._marks[:shared]
        words = self.cache.get(_WORDS)
        if words is not None:
            index, upto, words_of = words
            cut = min(upto, statements)
            kept = {}
            for word, postings in index.items():
                if postings[0] < cut:
                    kept[word] = postings[: bisect_left(postings, cut)]
            context.cache[_WORDS] = (kept, cut, words_of)
        return context

    def _add(self, text: str, section: str) -> None:
        self._append(text, section, _parts(text, section))

    def _append(self, text: str, section: str, parts: tuple[str, ...]) -> None:
        self.lines.append(Statement(text, section, len(self.lines)))
        for part in parts:
            self.statements.append(Statement(part, section, len(self.statements)))

    def _add_capsule(self, text: str) -> None:
        section = "preamble"
        for raw in text.splitlines():
            if raw.startswith("## ") and raw[3:].strip() in SECTION_KEYS:
                section = SECTION_KEYS[raw[3:].strip()]
                continue
            line = raw.strip()
            if not line or section == "preamble":
                continue
            if line.startswith("- ") and section != "goal":
                line = line[2:]
            if section == "artifacts":
                match = _ARTIFACT.match(line)
                if match is None:
                    continue
                label, value = match.groups()
                if label == "Verification status":
                    self.status = value
                elif label == "Modified":
                    self.modified.append(value)
                elif label == "Read":
                    self.read.append(value)
                elif label == "Verification command":
                    self.commands.append(value)
                else:
                    self._add(value, "checkpoint")
                continue
            self._add(line, section)

    # ── lookups for the matchers: each built once per context, so judging many facts against
    # one long history reads it once, not once per fact (issue 18) ─────────────────────────
    def word_index(self, words_of: Callable[[str], Iterable[str]]) -> dict[str, list[int]]:
        """Word -> indices of the statements whose text ``words_of`` gives that word, in
        order. Built once per context; a context resumed from another (see
        :meth:`from_texts`) starts from that one's index and adds its own statements."""
        with _LOCK:
            words = self.cache.get(_WORDS)
            if words is None or words[2] is not words_of:
                words = ({}, 0, words_of)
            index: dict[str, list[int]] = words[0]
            upto: int = words[1]
            statements = self.statements
            for i in range(upto, len(statements)):
                for word in words_of(statements[i].text):
                    postings = index.get(word)
                    if postings is None:
                        index[word] = [i]
                    else:
                        postings.append(i)
            self.cache[_WORDS] = (index, len(statements), words_of)
            return index

    def lines_in(self, sections: tuple[str, ...]) -> list[Statement]:
        """The lines of these sections, in reading order."""
        if not self.indexed:
            return self.lines  # the caller tests the section itself
        key = ("lines_in", sections)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = [s for s in self.lines if s.section in sections]
        return found

    def lines_containing(self, needle: str) -> list[Statement]:
        """The lines whose text contains ``needle``, in reading order: a filter a matcher
        may apply before its own test of a line, when that test implies the substring."""
        found = _containing(self, "lines", lambda: [s.text for s in self.lines], needle)
        return [self.lines[i] for i in found]

    def history_containing(self, needle: str) -> list[int]:
        """Indices into :attr:`history` of the texts containing ``needle``, in order."""
        return _containing(self, "history", lambda: self.history, needle)


_WORDS = "words"  # cache key of the word index: (index, statements indexed, words_of)
# The few contexts parsed last, for from_texts to resume from (a bound, so memory stays that
# of a handful of views); the lock keeps a resume from reading a half-extended word index.
_KEEP_RECENT = 8  # a moment's views: capsule, input, the baselines, their capsule parts
_RECENT: list[Context] = []
_LOCK = threading.RLock()


def _reusable(given: list[str]) -> tuple[Context | None, int]:
    """The recent context sharing the longest run of leading texts with ``given``."""
    best, shared = None, 0
    for context in _RECENT:
        n = 0
        for mine, theirs in zip(context.texts, given, strict=False):
            if mine is not theirs and mine != theirs:
                break
            n += 1
        if n > shared:
            best, shared = context, n
    return best, shared


# Joins the texts a substring search runs over; when a text holds it, the texts are searched
# one by one instead (never the case for what a session's items print).
_SEPARATOR = "\x00"


def _containing(
    context: Context, name: str, texts_of: Callable[[], list[str]], needle: str
) -> list[int]:
    """Indices of the texts containing ``needle``: ``str.find`` over the texts joined once
    per context, instead of one test per text."""
    if not context.indexed:
        return list(range(len(texts_of())))  # the caller's own test decides
    key = ("containing", name)
    joined = context.cache.get(key)
    if joined is None:
        texts = texts_of()
        starts, offset = [], 0
        for text in texts:
            starts.append(offset)
            offset += len(text) + 1
        whole = None if any(_SEPARATOR in t for t in texts) else _SEPARATOR.join(texts)
        joined = context.cache[key] = (whole, starts, texts)
    whole, starts, texts = joined
    if whole is None or not needle or _SEPARATOR in needle:
        return [i for i, t in enumerate(texts) if needle in t]
    out: list[int] = []
    at = whole.find(needle)
    while at >= 0:
        i = bisect_right(starts, at) - 1
        out.append(i)
        # one hit per text is enough: go on from the next text's start
        at = whole.find(needle, starts[i + 1]) if i + 1 < len(starts) else -1
    return out
