"""A whole session: every line in file order, the tree index, the leaf and the active branch."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from soba_bench.session import entries as E
from soba_bench.session.entries import Entry


@dataclass(frozen=True, slots=True)
class LineIssue:
    """A line that was skipped (lenient mode) or kept but flagged (e.g. unknown item type)."""

    line: int
    message: str
    skipped: bool


@dataclass(frozen=True)
class Session:
    """An immutable SOBA session. ``lines`` holds every parsed line, unknown kinds included."""

    lines: tuple[Entry, ...]
    path: str | None = None
    issues: tuple[LineIssue, ...] = field(default=())

    @cached_property
    def header(self) -> Entry | None:
        # SOBA takes the first line of type "session", wherever it is.
        return next((e for e in self.lines if e.kind == E.HEADER), None)

    @property
    def session_id(self) -> str | None:
        return self.header.data.get("id") if self.header is not None else None

    @cached_property
    def tree_entries(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.lines if e.is_tree)

    @cached_property
    def by_id(self) -> dict[str | None, Entry]:
        # Later duplicates overwrite earlier ones, as SOBA's Map.set does.
        return {e.id: e for e in self.tree_entries}

    @cached_property
    def leaf_id(self) -> str | None:
        """engine.md a.3: the last session_cursor wins (even an unknown id); else the first
        childless tree entry in file order; else the last tree entry."""
        cursor_seen = False
        cursor_leaf: str | None = None
        for e in self.lines:
            if e.kind == E.SESSION_CURSOR:
                cursor_seen = True
                cursor_leaf = e.data.get("leafId")
        if cursor_seen:
            return cursor_leaf
        parents = {e.parent_id for e in self.tree_entries if e.parent_id is not None}
        for e in self.tree_entries:
            if e.id not in parents and e.id:
                return e.id
        return self.tree_entries[-1].id if self.tree_entries else None

    def branch(self, from_id: str | None = None) -> tuple[Entry, ...]:
        """Root-to-leaf path ending at ``from_id`` (default: the leaf). Stops silently at a
        missing parent, as SOBA does; a parent cycle also ends the walk instead of hanging."""
        current = from_id if from_id is not None else self.leaf_id
        path: list[Entry] = []
        seen: set[str] = set()
        while current is not None and current not in seen:
            entry = self.by_id.get(current)
            if entry is None:
                break
            seen.add(current)
            path.append(entry)
            current = entry.parent_id
        path.reverse()
        return tuple(path)

    @cached_property
    def active_branch(self) -> tuple[Entry, ...]:
        return self.branch()

    @property
    def warnings(self) -> tuple[LineIssue, ...]:
        return tuple(i for i in self.issues if not i.skipped)

    @property
    def skipped(self) -> tuple[LineIssue, ...]:
        return tuple(i for i in self.issues if i.skipped)
