"""The ground-truth ledger: facts are opened, seen again, resolved or superseded while the
session is written, and frozen into :class:`soba_bench.corpora.truth.Fact` records at the end.

Files and verification commands are recorded mechanically from every tool call (planted or
filler) with SOBA's own rules (engine.md h.5), so the truth lists every path and command a
capsule could name, not only the planted ones; a turn's closing summary that reports them
again is one of their entries too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.truth import FACT_KINDS, Fact

VERIFY_KEYWORDS = ("test", "lint", "build", "check")


def is_verification(command: str) -> bool:
    """SOBA's deterministic rule: a bash command naming test, lint, build or check."""
    return any(k in command for k in VERIFY_KEYWORDS)


@dataclass
class Draft:
    id: str
    kind: str
    text: str
    status: str = "active"
    entry_ids: list[str] = field(default_factory=list)
    resolved_at: str | None = None
    superseded_by: str | None = None
    keywords: tuple[str, ...] = ()
    attributes: dict[str, Any] = field(default_factory=dict)

    def see(self, entry_id: str) -> None:
        if entry_id not in self.entry_ids:
            self.entry_ids.append(entry_id)


class FactLedger:
    def __init__(self) -> None:
        self._facts: list[Draft] = []
        self._by_id: dict[str, Draft] = {}
        self._counters: dict[str, int] = {}
        self._texts: set[tuple[str, str]] = set()
        self._files: dict[tuple[str, str], Draft] = {}  # (kind, path) -> live fact
        self._verifications: dict[str, Draft] = {}  # command -> fact

    # ── generic ──────────────────────────────────────────────────────────────
    def new(
        self,
        kind: str,
        text: str,
        entry_id: str,
        /,
        *,
        status: str = "active",
        keywords: tuple[str, ...] = (),
        **attributes: Any,
    ) -> str:
        n = self._counters.get(kind, 0) + 1
        self._counters[kind] = n
        draft = Draft(f"{kind}-{n}", kind, text, status, [entry_id], None, None, keywords)
        draft.attributes.update(attributes)
        self._facts.append(draft)
        self._by_id[draft.id] = draft
        self._texts.add((kind, text))
        return draft.id

    def get(self, fact_id: str) -> Draft:
        return self._by_id[fact_id]

    def has_text(self, kind: str, text: str) -> bool:
        return (kind, text) in self._texts

    def see(self, fact_id: str, entry_id: str) -> None:
        self._by_id[fact_id].see(entry_id)

    def resolve(self, fact_id: str, entry_id: str, *, see: bool = True) -> None:
        draft = self._by_id[fact_id]
        draft.status = "resolved"
        draft.resolved_at = entry_id
        if see:
            draft.see(entry_id)

    def supersede(self, fact_id: str, by: str) -> None:
        draft = self._by_id[fact_id]
        draft.status = "superseded"
        draft.superseded_by = by

    def latest_active(
        self, kind: str, exclude: set[str] | frozenset[str] = frozenset()
    ) -> str | None:
        for draft in reversed(self._facts):
            if draft.kind == kind and draft.status == "active" and draft.id not in exclude:
                return draft.id
        return None

    def of_kind(self, kind: str, status: str | None = None) -> list[Draft]:
        return [d for d in self._facts if d.kind == kind and (status is None or d.status == status)]

    # ── mechanical: files and verification commands ──────────────────────────
    def observe_call(
        self, name: str, args: dict[str, Any], call_entry: str, output_entry: str, failed: bool
    ) -> None:
        """Record what a successful read/write/edit or any verification bash call shows."""
        path = args.get("path")
        if name == "read" and path and not failed:
            self._file("file_read", path, call_entry)
        elif name in ("write", "edit") and path and not failed:
            self._file("file_modified", path, call_entry)
        elif name == "bash" and is_verification(str(args.get("command", ""))):
            command = args["command"]
            draft = self._verifications.get(command)
            if draft is None:
                fid = self.new(
                    "verification",
                    command,
                    call_entry,
                    keywords=(command,),
                    command=command,
                    runs=[],
                )
                draft = self._verifications[command] = self._by_id[fid]
            draft.see(call_entry)
            draft.attributes["runs"].append(
                {"entryId": output_entry, "result": "failed" if failed else "passed"}
            )

    def _file(self, kind: str, path: str, entry_id: str) -> None:
        draft = self._files.get((kind, path))
        if draft is None:
            fid = self.new(kind, path, entry_id, keywords=(path,), path=path)
            draft = self._files[(kind, path)] = self._by_id[fid]
        draft.see(entry_id)

    def observe_summary(self, edited: list[str], checks: dict[str, bool], entry_id: str) -> None:
        """A turn's closing summary ("edited a, b; `cmd` passes") states again that those files
        were modified and how those checks ended: the model sees the facts there too, so a
        strategy that keeps the summary but not the calls keeps them (a fact's entries are
        every entry that shows it, not only where it happened). A check's report carries the
        result it states (``attributes.reports``), as each run does: it shows the check's
        state only while that is still its result."""
        for path in edited:
            draft = self._files.get(("file_modified", path))
            if draft is not None:  # a file renamed since is the rename's fact
                draft.see(entry_id)
        for command, passed in checks.items():
            draft = self._verifications[command]
            draft.see(entry_id)
            report = {"entryId": entry_id, "result": "passed" if passed else "failed"}
            draft.attributes.setdefault("reports", []).append(report)

    def verification_failing(self, command: str) -> bool:
        draft = self._verifications.get(command)
        return bool(draft and draft.attributes["runs"][-1]["result"] == "failed")

    def rename(self, old: str, new: str, entry_id: str, command_entry: str) -> str:
        """A file rename: the old path's file facts are superseded by the rename fact."""
        fid = self.new(
            "file_renamed",
            f"{old} -> {new}",
            entry_id,
            keywords=(old, new),
            **{"from": old, "to": new, "commandEntryId": command_entry},
        )
        for kind in ("file_read", "file_modified"):
            draft = self._files.pop((kind, old), None)
            if draft is not None:
                self.supersede(draft.id, fid)
        return fid

    # ── the end ──────────────────────────────────────────────────────────────
    def facts(self) -> tuple[Fact, ...]:
        for draft in self._verifications.values():
            _settle_verification(draft)
        order = {kind: i for i, kind in enumerate(FACT_KINDS)}
        ranked = sorted(enumerate(self._facts), key=lambda pair: (order[pair[1].kind], pair[0]))
        return tuple(
            Fact(
                id=d.id,
                kind=d.kind,
                text=d.text,
                status=d.status,
                entry_ids=tuple(d.entry_ids),
                introduced_at=d.entry_ids[0] if d.entry_ids else None,
                resolved_at=d.resolved_at,
                superseded_by=d.superseded_by,
                keywords=d.keywords,
                attributes=d.attributes,
            )
            for _, d in ranked
        )


def _settle_verification(draft: Draft) -> None:
    """active: never failed; resolved: failed, then passed last; open: the last run failed."""
    runs = draft.attributes["runs"]
    results = [r["result"] for r in runs]
    draft.attributes["finalResult"] = results[-1]
    if results[-1] == "failed":
        draft.status = "open"
        draft.resolved_at = None
    elif "failed" in results:
        last_fail = len(results) - 1 - results[::-1].index("failed")
        draft.status = "resolved"
        draft.resolved_at = runs[last_fail + 1]["entryId"]
    else:
        draft.status = "active"
