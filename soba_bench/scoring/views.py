"""What a scorer looks at: a capsule, or the whole model input after compaction (capsule
text plus the retained tail, or whatever a comparison strategy sends). Both are reduced to the
same interface, so strategies with and without capsules are scored on the same footing."""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import Any

from soba_bench.meter.soba import item_text
from soba_bench.scoring.context import Context
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig, TextIndex, normalize_path
from soba_bench.session.capsule_text import CAPSULE_TITLE, capsule_text

# Capsule sections that present state as current; a superseded or resolved fact found here is
# stale. History (the retained tail) can mention old facts legitimately, so it never counts.
CURRENT_SECTIONS = ("goal", "inProgress", "pending", "decisions", "blockers", "nextSteps")


@dataclass
class View:
    """Searchable content plus the structured parts a capsule has (empty for plain inputs)."""

    kind: str  # "capsule" | "input"
    index: TextIndex
    current: TextIndex | None  # None: no capsule, so nothing is presented as current state
    read_files: set[str] = field(default_factory=set)
    modified_files: set[str] = field(default_factory=set)
    commands: list[str] = field(default_factory=list)
    verification_status: str | None = None
    skills: set[str] = field(default_factory=set)
    tokens: int | None = None
    texts: tuple[str, ...] = ()  # what the model sees, one text per item (capsule text first)
    # A model input the scorers build knows where its items come from: the ids of the
    # session's entries it shows verbatim (a masked tool output is not shown), and the view of
    # the capsule it starts with (see :func:`shown_view`). A fact is in such a view when an
    # entry the ground truth saw it in is shown, or the capsule states it, as availability
    # reads a model input; the matcher reads the capsule alone, never every statement of a
    # long history (issue 18). None: a view of texts only, read whole by the matcher.
    shown: Container[str] | None = field(default=None, repr=False, compare=False)
    capsule: View | None = field(default=None, repr=False, compare=False)
    _context: Context | None = field(default=None, repr=False, compare=False)
    _capsule_context: Context | None = field(default=None, repr=False, compare=False)

    @property
    def context(self) -> Context:
        """The texts parsed into capsule sections and history (built once, on first use)."""
        if self._context is None:
            self._context = Context.from_texts(self.texts)
        return self._context

    @property
    def capsule_context(self) -> Context:
        """The capsule's texts only: what the view presents as current state (history can
        mention a superseded fact legitimately, so a stale fact is judged here)."""
        if self._capsule_context is None:
            self._capsule_context = Context.from_texts(
                t for t in self.texts if t.startswith(CAPSULE_TITLE)
            )
        return self._capsule_context

    @property
    def artifact_paths(self) -> set[str]:
        return self.read_files | self.modified_files


def _state_strings(state: dict[str, Any], keys: Iterable[str]) -> list[str]:
    out: list[str] = []
    for key in keys:
        value = state.get(key)
        if key == "goal":
            out.append(value if isinstance(value, str) else "")
        elif key == "decisions":
            for d in value or []:
                if isinstance(d, dict):
                    out.append(" ".join(str(d.get(k) or "") for k in ("decision", "rationale")))
        else:
            out.extend(v for v in value or [] if isinstance(v, str))
    return out


def capsule_view(capsule: dict[str, Any], config: MatchConfig = DEFAULT_MATCH) -> View:
    state = capsule.get("portableState") or {}
    artifacts = capsule.get("artifacts") or {}
    text = capsule_text(capsule)
    return View(
        kind="capsule",
        index=TextIndex(
            [text, *_state_strings(state, ("constraints", "completed", *CURRENT_SECTIONS))], config
        ),
        current=TextIndex(_state_strings(state, CURRENT_SECTIONS), config),
        read_files={
            normalize_path(p) for p in artifacts.get("readFiles") or [] if isinstance(p, str)
        },
        modified_files={
            normalize_path(p) for p in artifacts.get("modifiedFiles") or [] if isinstance(p, str)
        },
        commands=[c for c in artifacts.get("verificationCommands") or [] if isinstance(c, str)],
        verification_status=artifacts.get("verificationStatus"),
        skills={
            s["name"]
            for s in capsule.get("activatedSkills") or []
            if isinstance(s, dict) and isinstance(s.get("name"), str)
        },
        texts=(text,),
    )


def input_view(
    items: list[dict[str, Any]],
    capsule: dict[str, Any] | None = None,
    tokens: int | None = None,
    config: MatchConfig = DEFAULT_MATCH,
    skills: Iterable[str] = (),
) -> View:
    """The model input as text; the capsule (if the input starts with one) lends its
    structured parts and its current-state sections. ``skills`` are the skills active at
    that moment: the agent keeps them whatever the context strategy does."""
    texts = []
    for item in items:
        text = item_text(item)
        texts.append(text if isinstance(text, str) else str(text))
    base = capsule_view(capsule, config) if capsule is not None else None
    # For the matcher, a tool output carries its call (the command it answers): outputs do
    # not always follow their call directly (parallel calls), and a check's result is judged
    # from the output of that very command.
    calls: dict[str, str] = {}
    paired = []
    for item, text in zip(items, texts, strict=True):
        call_id = item.get("call_id") if isinstance(item, dict) else None
        kind = str(item.get("type") or "") if isinstance(item, dict) else ""
        if call_id and kind.endswith("_call"):
            calls[call_id] = text
        elif call_id and kind.endswith("_output") and call_id in calls:
            text = f"{calls[call_id]}\n{text}"
        paired.append(text)
    return View(
        kind="input",
        index=TextIndex(texts, config),
        **_lent(base, skills),
        tokens=tokens,
        texts=tuple(paired),
    )


def _lent(capsule: View | None, skills: Iterable[str]) -> dict[str, Any]:
    """What a model input takes from the capsule it starts with (None: it has none): its
    current-state sections and structured parts, and its skills beside those active then."""
    return {
        "current": capsule.current if capsule else None,
        "read_files": capsule.read_files if capsule else set(),
        "modified_files": capsule.modified_files if capsule else set(),
        "commands": capsule.commands if capsule else [],
        "verification_status": capsule.verification_status if capsule else None,
        "skills": (capsule.skills if capsule else set()) | set(skills),
    }


def shown_view(
    shown: Container[str],
    capsule: View | None,
    tokens: int | None = None,
    skills: Iterable[str] = (),
    config: MatchConfig = DEFAULT_MATCH,
) -> View:
    """A model input known by what it shows: the session's entries ``shown`` verbatim, after
    the capsule whose view is ``capsule`` (None: no capsule). It holds no texts: every fact
    is found by its own entries or in the capsule (:func:`soba_bench.scoring.retention.
    label_of`), so making it costs nothing per item of a long history."""
    return View(
        kind="input",
        index=TextIndex([], config),
        **_lent(capsule, skills),
        tokens=tokens,
        shown=shown,
        capsule=capsule,
    )
