"""Ground-truth sidecars: the facts a session plants (or that an importer could derive
mechanically), with their lifecycle and the entry ids where they appear. Scoring reads these
to ask "did the capsule keep the goal, the open blockers, the modified files...?".

On disk: ``<session name>.truth.json`` next to the session, a versioned JSON document::

    {"schemaVersion": 1, "session": "...", "sessionId": "...", "origin": {...},
     "facts": [{"id", "kind", "text", "status", "entryIds", "introducedAt", "resolvedAt",
                "supersededBy", "keywords", "attributes"}],
     "recordedCompactions": [{"source", "entryId", "trigger", "preTokens", "postTokens",
                              "summary"}],
     "unknownKinds": ["constraint", ...]}
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import atomic_write_bytes, read_json_object
from soba_bench.secrets_scan import scrub_text, scrub_value

SCHEMA_VERSION = 1
SUFFIX = ".truth.json"

# What a fact can be. "distractor", "secret" and "injection" are noise a capsule should NOT
# carry (or carry redacted / inert); the others are state it should keep while live.
FACT_KINDS = (
    "goal",
    "constraint",
    "decision",
    "blocker",
    "file_read",
    "file_modified",
    "file_renamed",
    "verification",
    "next_step",
    "clarification",
    "checkpoint",
    "skill",
    "distractor",
    "secret",
    "injection",
)
# active: live at the end; superseded: replaced by a later fact (supersededBy);
# resolved: a blocker/verification that was closed (resolvedAt); open: still unresolved at
# the end (blockers); unknown: an importer could not tell.
STATUSES = ("active", "superseded", "resolved", "open", "unknown")


@dataclass(frozen=True)
class Fact:
    id: str
    kind: str
    text: str
    status: str = "active"
    entry_ids: tuple[str, ...] = ()
    introduced_at: str | None = None
    resolved_at: str | None = None
    superseded_by: str | None = None
    keywords: tuple[str, ...] = ()
    attributes: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.kind not in FACT_KINDS:
            raise ValueError(f"unknown fact kind {self.kind!r}; valid: {', '.join(FACT_KINDS)}")
        if self.status not in STATUSES:
            raise ValueError(f"unknown fact status {self.status!r}; valid: {', '.join(STATUSES)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "status": self.status,
            "entryIds": list(self.entry_ids),
            "introducedAt": self.introduced_at,
            "resolvedAt": self.resolved_at,
            "supersededBy": self.superseded_by,
            "keywords": list(self.keywords),
            "attributes": self.attributes,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fact:
        return cls(
            id=data["id"],
            kind=data["kind"],
            text=data["text"],
            status=data.get("status", "active"),
            entry_ids=tuple(data.get("entryIds") or ()),
            introduced_at=data.get("introducedAt"),
            resolved_at=data.get("resolvedAt"),
            superseded_by=data.get("supersededBy"),
            keywords=tuple(data.get("keywords") or ()),
            attributes=dict(data.get("attributes") or {}),
        )


@dataclass(frozen=True)
class RecordedCompaction:
    """A compaction the original tool itself did (Claude Code compact_boundary, Codex
    ``compacted``), kept so reports can compare the harness's decisions with reality."""

    source: str
    entry_id: str | None
    trigger: str | None = None
    pre_tokens: int | None = None
    post_tokens: int | None = None
    summary: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "entryId": self.entry_id,
            "trigger": self.trigger,
            "preTokens": self.pre_tokens,
            "postTokens": self.post_tokens,
            "summary": self.summary,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RecordedCompaction:
        return cls(
            data["source"],
            data.get("entryId"),
            data.get("trigger"),
            data.get("preTokens"),
            data.get("postTokens"),
            data.get("summary"),
        )


@dataclass(frozen=True)
class GroundTruth:
    session: str
    session_id: str | None
    origin: dict[str, Any]
    facts: tuple[Fact, ...] = ()
    recorded_compactions: tuple[RecordedCompaction, ...] = ()
    unknown_kinds: tuple[str, ...] = ()
    schema_version: int = SCHEMA_VERSION

    def of_kind(self, *kinds: str) -> list[Fact]:
        return [f for f in self.facts if f.kind in kinds]

    def to_document(self) -> dict[str, Any]:
        """What a truth file holds: :meth:`to_dict` with credentials replaced by typed markers
        (a goal fact quotes the first user message verbatim). Facts of kind ``secret`` keep
        their text: they are the generator's own fake values, and scoring needs them to
        detect a capsule that leaks them."""
        return {
            key: [f if f["kind"] == "secret" else scrub_value(f) for f in value]
            if key == "facts"
            else scrub_value(value)
            for key, value in self.to_dict().items()
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "schemaVersion": self.schema_version,
            "session": self.session,
            "sessionId": self.session_id,
            "origin": self.origin,
            "facts": [f.to_dict() for f in self.facts],
            "recordedCompactions": [c.to_dict() for c in self.recorded_compactions],
            "unknownKinds": list(self.unknown_kinds),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, source: str | None = None) -> GroundTruth:
        version = data.get("schemaVersion")
        if version != SCHEMA_VERSION:
            raise InputError(
                "unsupported ground-truth schema version",
                path=source,
                field="schemaVersion",
                value=version,
                has_value=True,
                expected=str(SCHEMA_VERSION),
            )
        facts = data.get("facts")
        for i, fact in enumerate(facts if isinstance(facts, list) else ()):
            attributes = fact.get("attributes") if isinstance(fact, dict) else None
            aliases = attributes.get("aliases") if isinstance(attributes, dict) else None
            if aliases is not None and not (
                isinstance(aliases, list) and all(isinstance(a, str) and a for a in aliases)
            ):
                # Scoring reads them as a path's or a command's other spellings: a wrong type
                # would be read as none, and the fact as dropped where a summary spells it so.
                raise InputError(
                    "a fact's aliases must be a list of non-empty strings",
                    path=source,
                    field=f"facts[{i}].attributes.aliases",
                    value=aliases,
                    has_value=True,
                    expected="list of paths or commands",
                )
        try:
            return cls(
                session=data["session"],
                session_id=data.get("sessionId"),
                origin=dict(data.get("origin") or {}),
                facts=tuple(Fact.from_dict(f) for f in data.get("facts") or ()),
                recorded_compactions=tuple(
                    RecordedCompaction.from_dict(c) for c in data.get("recordedCompactions") or ()
                ),
                unknown_kinds=tuple(data.get("unknownKinds") or ()),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"invalid ground-truth document: {exc}", path=source) from None


def scrub_secrets(text: str) -> str:
    """``text`` with credentials replaced by typed markers (``[REDACTED:<kind>]``): the
    harness's one secret scanner, :mod:`soba_bench.secrets_scan`."""
    return scrub_text(text)


def _scrub_value(value: Any) -> Any:
    if isinstance(value, str):
        return scrub_secrets(value)
    if isinstance(value, list | tuple):
        return type(value)(_scrub_value(v) for v in value)
    if isinstance(value, dict):
        return {k: _scrub_value(v) for k, v in value.items()}
    return value


def scrubbed(truth: GroundTruth) -> GroundTruth:
    """The same truth with secrets scrubbed from every fact's text, keywords and attributes
    and from recorded compaction summaries (ids, statuses and entry ids are untouched)."""
    facts = tuple(
        replace(
            f,
            text=scrub_secrets(f.text),
            keywords=_scrub_value(f.keywords),
            attributes=_scrub_value(f.attributes),
        )
        for f in truth.facts
    )
    compactions = tuple(
        replace(c, summary=scrub_secrets(c.summary) if c.summary else c.summary)
        for c in truth.recorded_compactions
    )
    return replace(truth, facts=facts, recorded_compactions=compactions)


def truth_path(session_path: str | Path) -> Path:
    path = Path(session_path)
    name = path.name.removesuffix(".gz").removesuffix(".jsonl")
    return path.with_name(name + SUFFIX)


def write_truth(truth: GroundTruth, path: str | Path) -> None:
    payload = json.dumps(truth.to_document(), ensure_ascii=False, indent=1) + "\n"
    atomic_write_bytes(path, payload.encode("utf-8"))


def read_truth(path: str | Path) -> GroundTruth:
    p = Path(path)
    data = read_json_object(p, "ground-truth file")
    return GroundTruth.from_dict(data, source=str(p))


def merge_facts(*groups: Iterable[Fact]) -> tuple[Fact, ...]:
    out: list[Fact] = []
    for group in groups:
        out.extend(group)
    return tuple(out)
