"""Planted defects: what the ``planted`` summarizer does to an otherwise faithful portable
state before handing it to SOBA's parser, so a metric or a gate can be tested on a known fault.

A defect is a pure function ``(state, recap) -> state`` on a portable state dict (SOBA's
shape: goal, constraints, completed, inProgress, pending, decisions, blockers, nextSteps). The
recap is what the planted "model" writes about files and verification runs; it is applied
separately because SOBA's artifact ledger never comes from the model (the engine extracts it),
so the only place a summarizer can misreport files or test results is its own prose.

Defects: ``drop_blockers``, ``drop_goal``, ``negate_decisions``, ``swap_files``,
``flip_verification``, ``stale_decisions``, ``invent_paths``. Controls: ``verbatim`` (no
change) and ``paraphrase`` (same meaning, other words: a fixed synonym table and a reordered
sentence structure; paths, commands and quoted failures stay exact).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from soba_bench.registry import Registry

State = dict[str, Any]


@dataclass(frozen=True)
class FileLine:
    path: str
    modified: bool  # False: read only


@dataclass(frozen=True)
class RunLine:
    command: str
    failed: bool


@dataclass(frozen=True)
class Recap:
    """The planted model's account of the compacted span's files and verification runs, and
    the decisions it left out of its state because a revision replaced them."""

    files: tuple[FileLine, ...] = ()
    runs: tuple[RunLine, ...] = ()
    wording: str = "plain"  # "plain" | "paraphrase"
    replaced: tuple[dict[str, Any], ...] = ()  # never printed: the state no longer has them

    def lines(self) -> list[str]:
        """The recap as state lines (appended to ``completed``)."""
        plain = self.wording == "plain"
        out = []
        for f in self.files:
            if plain:
                out.append(f"{MODIFIED if f.modified else READ}{f.path}")
            else:
                out.append(f"{MODIFIED_P if f.modified else READ_P}{f.path}")
        for r in self.runs:
            if plain:
                out.append(f"{RUN}{r.command} {'failed' if r.failed else 'passed'}")
            else:
                verdict = "did not pass" if r.failed else "succeeded"
                out.append(f"{RUN_P}{r.command} {verdict}")
        return out


# Line prefixes of the recap, in both wordings. Recognised in a previous capsule's state so a
# recap is rewritten for each span rather than rolled forward (the engine's ledger is not
# carried forward either).
MODIFIED, READ, RUN = "Modified file: ", "Read file: ", "Verification run: "
MODIFIED_P, READ_P, RUN_P = "Edited the file ", "Looked through the file ", "The check "
RECAP_PREFIXES = (MODIFIED, READ, RUN, MODIFIED_P, READ_P, RUN_P)


def is_recap_line(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(RECAP_PREFIXES)


Defect = Callable[[State, Recap], tuple[State, Recap]]
DEFECTS: Registry[Defect] = Registry("planted defect")
CONTROLS = ("verbatim", "paraphrase")


@DEFECTS.register("verbatim")
def verbatim(state: State, recap: Recap) -> tuple[State, Recap]:
    """The control: the faithful state, unchanged."""
    return state, recap


@DEFECTS.register("drop_blockers")
def drop_blockers(state: State, recap: Recap) -> tuple[State, Recap]:
    """No blockers at all (SOBA's validator rejects this when the span has a failure)."""
    return {**state, "blockers": []}, recap


@DEFECTS.register("drop_goal")
def drop_goal(state: State, recap: Recap) -> tuple[State, Recap]:
    """The answer omits the goal; SOBA's parser then writes its placeholder goal."""
    return {k: v for k, v in state.items() if k != "goal"}, recap


_DECIDED_TO = re.compile(r"\b(decided|chose|choose|decide|agreed|plan is|going) to\b", re.I)


def negate(text: str) -> str:
    """The decision turned into its opposite, keeping its words (a hard case for bag-of-words
    matching): "I decided to X" -> "I decided not to X"; anything else -> "Do not X"."""
    if _DECIDED_TO.search(text):
        return _DECIDED_TO.sub(lambda m: f"{m.group(1)} not to", text, count=1)
    if text.startswith(PIVOT):
        return f"{PIVOT}do not {text[len(PIVOT) :]}"
    return f"Do not {text[:1].lower()}{text[1:]}"


PIVOT = "Plan pivot: "


@DEFECTS.register("negate_decisions")
def negate_decisions(state: State, recap: Recap) -> tuple[State, Recap]:
    """Every decision negated (rationales kept)."""
    decisions = [{**d, "decision": negate(d["decision"])} for d in state.get("decisions", [])]
    return {**state, "decisions": decisions}, recap


@DEFECTS.register("swap_files")
def swap_files(state: State, recap: Recap) -> tuple[State, Recap]:
    """Files read reported as modified and files modified as read."""
    files = tuple(FileLine(f.path, not f.modified) for f in recap.files)
    return state, replace(recap, files=files)


@DEFECTS.register("flip_verification")
def flip_verification(state: State, recap: Recap) -> tuple[State, Recap]:
    """Failed verification runs reported as passed, passed ones as failed."""
    runs = tuple(RunLine(r.command, not r.failed) for r in recap.runs)
    return state, replace(recap, runs=runs)


# Decisions that replace an earlier one say so in the generator's and SOBA's own wording
# ("instead" alone is not a cue: some first decisions read "key X by A instead of by B").
_REVISION = re.compile(r"\bChanging approach\b|^Plan pivot:|\bno longer\b", re.I)
# A revision that names the decision it replaces (the synthetic generator's wording with
# ``revisions_name_replaced``): "Changing approach: instead of the earlier decision to X, I
# decided to Y, because Z."
_NAMED_REVISION = re.compile(
    r"^(?P<lead>.*?Changing approach: )instead of the earlier decision to (?P<old>.+?), "
    r"(?P<rest>I decided to .*)$",
    re.S,
)


def is_revision(decision: str) -> bool:
    return bool(_REVISION.search(decision))


def apply_revisions(
    decisions: list[dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What a careful model keeps as the current plan: a revision that names the decision it
    replaces removes that decision and is kept without the link ("Changing approach: I decided
    to Y, because Z."). Returns (current decisions, the decisions removed as replaced). A
    revision that does not name what it replaces (a plan pivot, the generator's default
    wording) changes nothing: no text-only reader could tell which decision it ends."""
    olds: list[str] = []
    current: list[dict[str, Any]] = []
    for d in decisions:
        m = _NAMED_REVISION.match(d["decision"]) if isinstance(d["decision"], str) else None
        if m:
            olds.append(m.group("old"))
            d = {**d, "decision": f"{m.group('lead')}{m.group('rest')}"}
        current.append(d)
    if not olds:
        return current, []

    # The replaced decision may come from the previous capsule, which this model wrote: in
    # the paraphrase control's words ("the chosen approach is to X'", X' reworded). A model
    # recognises its own rewording; without this the paraphrase control kept every replaced
    # decision as current, and SOBA's cap of 10 decisions (the oldest kept) then pushed the
    # live ones out, so the "same meaning" control lost decisions the verbatim one kept.
    forms = [(f"decided to {old}", f"chosen approach is to {_swap_words(old)}") for old in olds]

    def replaced(d: dict[str, Any]) -> bool:
        text = d["decision"]
        return (
            isinstance(text, str)
            and not is_revision(text)
            and any(form in text for pair in forms for form in pair)
        )

    return [d for d in current if not replaced(d)], [d for d in current if replaced(d)]


@DEFECTS.register("stale_decisions")
def stale_decisions(state: State, recap: Recap) -> tuple[State, Recap]:
    """Superseded decisions presented as current: the answer ignores every revision (those
    that name the decision they replace, and plan pivots), so the decisions they replaced
    stay in its list as the current plan and the revisions are left out. The unmutated answer
    lists only the current decisions where a revision names the one it replaces (a corpus made
    with ``revisions_name_replaced``), so the capsules differ in both directions: a live
    decision missing and a superseded one shown as current."""
    kept = [d for d in state.get("decisions", []) if not is_revision(d["decision"])]
    return {**state, "decisions": [*kept, *recap.replaced]}, replace(recap, replaced=())


# Invented names, placed next to real files so they look plausible (near-miss paths).
INVENTED_STEMS = ("helpers_v2", "legacy_adapter", "compat_shim")


def invented_paths(recap: Recap, count: int = 3) -> list[str]:
    """``count`` paths that are not in the recap: a real file's folder, an invented name, the
    real file's extension; chosen by a hash of the recap, so the same span gets the same ones."""
    real = [f.path for f in recap.files]
    seen = set(real)
    digest = hashlib.sha256("\0".join(real).encode("utf-8")).digest()
    out: list[str] = []
    for n in range(count):
        base = real[digest[n] % len(real)] if real else "src/index.ts"
        folder, _, name = base.rpartition("/")
        ext = name[name.rfind(".") :] if "." in name else ".ts"
        path = f"{folder + '/' if folder else ''}{INVENTED_STEMS[n % len(INVENTED_STEMS)]}{ext}"
        if path not in seen:
            seen.add(path)
            out.append(path)
    return out


@DEFECTS.register("invent_paths")
def invent_paths(state: State, recap: Recap) -> tuple[State, Recap]:
    """Three files the session never touched, reported as modified."""
    extra = tuple(FileLine(p, True) for p in invented_paths(recap))
    return state, replace(recap, files=(*recap.files, *extra))


# ── paraphrase (control) ──────────────────────────────────────────────────────
# A fixed synonym table: each word keeps its meaning in a coding session's prose (words that
# are also command names or nouns with another sense, such as "run" or "change", are left out).
SYNONYMS = {
    "add": "introduce",
    "added": "introduced",
    "fix": "repair",
    "fixed": "repaired",
    "use": "employ",
    "using": "employing",
    "keep": "retain",
    "keeps": "retains",
    "remove": "delete",
    "removed": "deleted",
    "update": "revise",
    "updated": "revised",
    "never": "at no point",
    "only": "solely",
    "big": "large",
    "unchanged": "as they are",
    "touch": "modify",
    "anything": "any file",
    "behind": "gated by",
    "guide": "walkthrough",
    "simple": "straightforward",
    "faster": "quicker",
    "easier": "simpler",
    "handle": "cope with",
    "empty": "blank",
    "error": "failure",
    "errors": "failures",
}
_WORD = re.compile(r"[A-Za-z]+")
# Tokens that carry identity (paths, commands, identifiers, numbers) are never reworded.
_EXACT = re.compile(r"`[^`]*`|\S*[/._`:=()\[\]{}<>\d@#$\\]\S*")
_BECAUSE = re.compile(r"^(?P<head>.+?) because (?P<why>.+?)(?P<end>[.!]?)$", re.S)
_DECIDED = re.compile(r"\bI decided to\b")


def _swap_words(text: str) -> str:
    def word(m: re.Match) -> str:
        w = m.group(0)
        repl = SYNONYMS.get(w.lower())
        if repl is None:
            return w
        return repl[:1].upper() + repl[1:] if w[:1].isupper() else repl

    out, last = [], 0
    for m in _EXACT.finditer(text):
        out.append(_WORD.sub(word, text[last : m.start()]))
        out.append(m.group(0))
        last = m.end()
    out.append(_WORD.sub(word, text[last:]))
    return "".join(out)


def paraphrase_text(text: str) -> str:
    """Same meaning, other words: "I decided to X" -> "the chosen approach is to X",
    "X because Y." -> "Since Y, X.", then the synonym table."""
    text = _DECIDED.sub("the chosen approach is to", text)
    m = _BECAUSE.match(text)
    if m:
        head = m.group("head").rstrip(" ,")
        text = f"Since {m.group('why')}, {head[:1].lower()}{head[1:]}{m.group('end')}"
    return _swap_words(text[:1].upper() + text[1:])


@DEFECTS.register("paraphrase")
def paraphrase(state: State, recap: Recap) -> tuple[State, Recap]:
    """The control: every prose field reworded with the same meaning. Blockers are quoted
    tool failures and stay exact (SOBA's validator looks for them verbatim), as do paths,
    commands and the recap's facts."""
    out: State = dict(state)
    if isinstance(state.get("goal"), str):
        out["goal"] = paraphrase_text(state["goal"])
    for key in ("constraints", "completed", "inProgress", "pending", "nextSteps"):
        out[key] = [paraphrase_text(v) for v in state.get(key, [])]
    out["decisions"] = [
        {**d, "decision": paraphrase_text(d["decision"])} for d in state.get("decisions", [])
    ]
    return out, replace(recap, wording="paraphrase")


def defect_names() -> list[str]:
    return DEFECTS.names()


def apply_defect(name: str, state: State, recap: Recap) -> State:
    """The state with defect ``name`` applied and the recap appended to ``completed``."""
    mutated, recap = DEFECTS.get(name)(state, recap)
    return {**mutated, "completed": [*mutated.get("completed", []), *recap.lines()]}
