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
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, ClassVar, overload

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


@dataclass(frozen=True)
class Statement:
    """One line a matcher can align a fact with: its text, where it stands, its order."""

    text: str
    section: str  # a SECTION_KEYS value, or "history"
    order: int


@dataclass(frozen=True)
class _Block:
    """What one text adds to a context, parsed once per text: the views of one session share
    most of their texts, so a view is assembled from its texts' blocks in time linear in the
    number of texts, not in their statements (issue 18)."""

    history: bool  # False: a capsule, parsed by section
    lines: tuple[tuple[str, str], ...]  # (text, section), in reading order
    read: tuple[str, ...] = ()
    modified: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    status: tuple[str, ...] = ()  # the capsule's verification status, if it gives one
    # words_of -> each statement's words and their union, made on first use. Sets, not a
    # word -> offsets map: a worker keeps tens of thousands of blocks, and a statement's
    # word set is the matcher's own cached object (issue 18).
    words: dict[Any, _Words] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def statements(self) -> tuple[tuple[str, str], ...]:
        """(text, section) of each statement, in reading order: a line holds one or more.
        Split on first use: the structured matchers read lines only, and splitting every line
        of a long history was most of its parse (issue 18)."""
        return tuple(
            (part, section) for line, section in self.lines for part in _parts(line, section)
        )

    def words_for(self, words_of: Callable[[str], Iterable[str]]) -> _Words:
        found = self.words.get(words_of)
        if found is None:
            sets = tuple(_frozen(words_of(text)) for text, _ in self.statements)
            union = sets[0] if len(sets) == 1 else frozenset().union(*sets)
            found = self.words[words_of] = _Words(sets, union, sum(map(len, sets)))
        return found


@dataclass(frozen=True)
class _Words:
    sets: tuple[frozenset[str], ...]  # per statement, in order
    union: frozenset[str]
    size: int  # word occurrences: what merging this block into an index costs


def _frozen(words: Iterable[str]) -> frozenset[str]:
    return words if isinstance(words, frozenset) else frozenset(words)


def _history_block(text: str) -> _Block:
    lines = tuple((line, "history") for line in map(str.strip, text.splitlines()) if line)
    return _Block(True, lines)


def _capsule_block(text: str) -> _Block:
    lines: list[tuple[str, str]] = []
    read: list[str] = []
    modified: list[str] = []
    commands: list[str] = []
    status: list[str] = []

    def add(line: str, section: str) -> None:
        lines.append((line, section))

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
                status[:] = [value]  # the last one given stands
            elif label == "Modified":
                modified.append(value)
            elif label == "Read":
                read.append(value)
            elif label == "Verification command":
                commands.append(value)
            else:
                add(value, "checkpoint")
            continue
        add(line, section)
    return _Block(
        False,
        tuple(lines),
        tuple(read),
        tuple(modified),
        tuple(commands),
        tuple(status),
    )


def _parse_block(text: str) -> _Block:
    return _capsule_block(text) if text.startswith(CAPSULE_TITLE) else _history_block(text)


_block = lru_cache(maxsize=1 << 16)(_parse_block)


class _Flat(Sequence[Statement]):
    """The blocks' statements (or lines) as one list, in reading order, each made when read:
    a view of a long history is read at a few places, so making every statement of it up
    front would cost more than the whole lookup (issue 18)."""

    __slots__ = ("_len", "_parts", "_starts")

    def __init__(self, parts: list[tuple[tuple[str, str], ...]]) -> None:
        self._parts = parts
        starts, n = [], 0
        for part in parts:
            starts.append(n)
            n += len(part)
        self._starts = starts
        self._len = n

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Statement: ...
    @overload
    def __getitem__(self, i: slice) -> list[Statement]: ...
    def __getitem__(self, i: int | slice) -> Statement | list[Statement]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError(i)
        k = bisect_right(self._starts, i) - 1
        start = self._starts[k]
        text, section = self._parts[k][i - start]
        return Statement(text, section, i)

    def __iter__(self) -> Iterator[Statement]:
        n = 0
        for part in self._parts:
            for text, section in part:
                yield Statement(text, section, n)
                n += 1

    @property
    def starts(self) -> list[int]:
        """Where each block's statements begin."""
        return self._starts


class _Postings:
    """Word -> indices of the statements that hold it, in order. Answered per word from the
    texts' own word sets while few words are asked (the lost-constraint detector asks for the
    words of a constraint or two), and from one index merged over every text once the
    per-word lookups have cost as much as that merge would (retention asks for the words of
    every fact): never more than about twice the cheaper of the two (issue 18)."""

    def __init__(self, blocks: list[_Block], starts: list[int], words_of: Any) -> None:
        self._words = [block.words_for(words_of) for block in blocks]
        self._starts = starts
        self._known: dict[str, list[int]] = {}
        self._merged = False
        self._spent = 0  # texts and statements looked at by per-word lookups so far
        self._merge_cost = sum(w.size for w in self._words)

    def get(self, word: str, default: Any = None) -> Any:
        found = self._known.get(word)
        if found is None and not self._merged:
            if self._spent >= self._merge_cost:
                self._merge()
                found = self._known.get(word)
            else:
                found = self._known[word] = self._lookup(word)
        return found if found else default

    def _lookup(self, word: str) -> list[int]:
        spent = len(self._words)
        out: list[int] = []
        for words, start in zip(self._words, self._starts, strict=True):
            if word in words.union:
                sets = words.sets
                if len(sets) == 1:
                    out.append(start)
                else:
                    spent += len(sets)  # a text holding the word: each statement is tested
                    out.extend([start + j for j, s in enumerate(sets) if word in s])
        self._spent += spent
        return out

    def _merge(self) -> None:
        index: dict[str, list[int]] = {}
        for words, start in zip(self._words, self._starts, strict=True):
            for j, found in enumerate(words.sets, start):
                for word in found:
                    postings = index.get(word)
                    if postings is None:
                        index[word] = [j]
                    else:
                        postings.append(j)
        self._known = index
        self._merged = True

    def as_dict(self) -> dict[str, list[int]]:
        if not self._merged:
            self._merge()
        return dict(self._known)


class Context:
    """The parsed texts: statements in reading order plus the capsule's artifact lists."""

    # False: the straightforward path (every text parsed anew, every statement made up
    # front, every lookup hands back every line for the caller's own test): the oracle the
    # equivalence tests hold the blocks and lookups to.
    indexed: ClassVar[bool] = True

    def __init__(self, texts: list[str], blocks: list[_Block]) -> None:
        self.texts = texts  # every text, as given
        self._blocks = blocks
        self._oracle = not self.indexed  # as built: the lookups follow how it was built
        lines = _Flat([b.lines for b in blocks])
        self._line_starts = lines.starts
        self.lines: Sequence[Statement] = list(lines) if self._oracle else lines
        self.history = [t for t, b in zip(texts, blocks, strict=True) if b.history]
        capsules = [b for b in blocks if not b.history]
        self.read = [p for b in capsules for p in b.read]
        self.modified = [p for b in capsules for p in b.modified]
        self.commands = [c for b in capsules for c in b.commands]
        given = [b.status[-1] for b in capsules if b.status]
        self.status: str | None = given[-1] if given else None  # None: no capsule gave one
        self.cache: dict[Any, Any] = {}  # matchers' derived data

    @cached_property
    def _statements(self) -> _Flat:
        return _Flat([b.statements for b in self._blocks])

    @cached_property
    def statements(self) -> Sequence[Statement]:
        """Every statement, in reading order (split on first use: a view read for its lines
        only, as the file and check matchers read it, never splits its history)."""
        return list(self._statements) if self._oracle else self._statements

    @property
    def _statement_starts(self) -> list[int]:
        return self._statements.starts

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Context:
        """Parse each text: a capsule (it starts with SOBA's title) by section, else history.
        Each text is parsed once per process (cached per text), however many views hold it."""
        given = [t for t in texts if isinstance(t, str) and t]
        parse = _block if cls.indexed else _parse_block
        return cls(given, [parse(t) for t in given])

    # ── lookups for the matchers: each built once per context, so judging many facts against
    # one long history reads it once, not once per fact (issue 18) ─────────────────────────
    def word_index(self, words_of: Callable[[str], Iterable[str]]) -> Any:
        """Word -> indices of the statements whose text ``words_of`` gives that word, in
        order (a mapping with ``get``). Each text's own index is built once per process."""
        key = ("words", words_of)
        found = self.cache.get(key)
        if found is None:
            if not self._oracle:
                found = _Postings(self._blocks, self._statement_starts, words_of)
            else:
                found = {}
                for i, statement in enumerate(self.statements):
                    for word in words_of(statement.text):
                        found.setdefault(word, []).append(i)
            self.cache[key] = found
        return found

    def lines_in(self, sections: tuple[str, ...]) -> list[Statement]:
        """The lines of these sections, in reading order."""
        if self._oracle:
            return list(self.lines)  # the caller tests the section itself
        key = ("lines_in", sections)
        found = self.cache.get(key)
        if found is None:
            found = []
            history = "history" in sections
            for block, start in zip(self._blocks, self._line_starts, strict=True):
                if block.history and not history:
                    continue  # a history text's lines are all "history"
                found.extend(
                    Statement(text, section, start + j)
                    for j, (text, section) in enumerate(block.lines)
                    if section in sections
                )
            self.cache[key] = found
        return found

    def lines_containing(self, needle: str) -> Iterator[Statement]:
        """The lines whose text contains ``needle``, in reading order: a filter a matcher
        may apply before its own test of a line, when that test implies the substring.
        Found as they are read, so a matcher that stops at the first it accepts does not
        search the rest of a long history."""
        lines = self.lines
        return (lines[i] for i in _containing(self, "lines", self._line_texts, needle))

    def _line_texts(self) -> list[str]:
        return [text for block in self._blocks for text, _ in block.lines]

    def history_containing(self, needle: str) -> Iterator[int]:
        """Indices into :attr:`history` of the texts containing ``needle``, in order."""
        return _containing(self, "history", lambda: self.history, needle)


# Joins the texts a substring search runs over; when a text holds it, the texts are searched
# one by one instead (never the case for what a session's items print).
_SEPARATOR = "\x00"


def _containing(
    context: Context, name: str, texts_of: Callable[[], list[str]], needle: str
) -> Iterator[int]:
    """Indices of the texts containing ``needle``, in order: ``str.find`` over the texts
    joined once per context, instead of one test per text."""
    if context._oracle:
        yield from range(len(texts_of()))  # the caller's own test decides
        return
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
        yield from (i for i, t in enumerate(texts) if needle in t)
        return
    at = whole.find(needle)
    while at >= 0:
        i = bisect_right(starts, at) - 1
        yield i
        # one hit per text is enough: go on from the next text's start
        at = whole.find(needle, starts[i + 1]) if i + 1 < len(starts) else -1
