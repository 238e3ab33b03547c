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
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

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
    cache: dict[str, Any] = field(default_factory=dict, repr=False)  # matchers' derived data

    @classmethod
    def from_texts(cls, texts: Iterable[str]) -> Context:
        """Parse each text: a capsule (it starts with SOBA's title) by section, else history."""
        context = cls()
        for text in texts:
            if not isinstance(text, str) or not text:
                continue
            context.texts.append(text)
            if text.startswith(CAPSULE_TITLE):
                context._add_capsule(text)
            else:
                context.history.append(text)
                for line in text.splitlines():
                    line = line.strip()
                    if line:
                        context._add(line, "history")
        return context

    def _add(self, text: str, section: str) -> None:
        self.lines.append(Statement(text, section, len(self.lines)))
        parts = [text] if section == "goal" else _SPLIT.split(text)
        for part in parts:
            part = part.strip(' "')
            if part:
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
