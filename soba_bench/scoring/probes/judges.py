"""Grading probe answers. Paths, commands and statuses are checked exactly (normalised as
``match.py`` normalises them): recall of the expected items, and the items the answer lists
that are not expected (wrong). Prose goes to a judge, in a registry: ``lexical`` (no model:
``match.py``'s containment and fuzzy matching) or ``model``/``local`` (a rubric prompt and a JSON
verdict; a verdict that cannot be read is recorded as a judge error, never a crash)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.models.client import ModelCallError
from soba_bench.registry import Registry
from soba_bench.scoring.match import (
    DEFAULT_MATCH,
    MatchConfig,
    TextIndex,
    containment,
    content_words,
    normalize_command,
)
from soba_bench.scoring.probes.extract import FAIL_WORDS, PASS_WORDS, commands_in, paths_in
from soba_bench.scoring.probes.questions import FAILED, PASSED, Probe

if TYPE_CHECKING:
    from soba_bench.scoring.probes.config import ProbeConfig


@dataclass(frozen=True)
class Grade:
    found: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()
    wrong: tuple[str, ...] = ()
    error: str | None = None  # the judge could not grade: the probe is unscored
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def score(self) -> float | None:
        total = len(self.found) + len(self.missed)
        return None if self.error is not None or not total else len(self.found) / total

    @property
    def precision(self) -> float | None:
        total = len(self.found) + len(self.wrong)
        return None if self.error is not None or not total else len(self.found) / total


def _split(expected: tuple[str, ...], hit: Callable[[str], bool]) -> tuple[tuple, tuple]:
    found = tuple(e for e in expected if hit(e))
    return found, tuple(e for e in expected if e not in found)


def _norm(command: str) -> str:
    return normalize_command(command).lower()


def grade_exact(probe: Probe, answer: str, match: MatchConfig = DEFAULT_MATCH) -> Grade:
    """Recall of the expected paths/commands/status in ``answer``, and what it lists wrongly."""
    index = TextIndex([answer], match)
    forms: dict[str, list[str]] = {}  # a path or command -> its other spellings
    for alias, named in probe.aliases:
        forms.setdefault(named, []).append(alias)
    if probe.answer_kind == "paths":
        listed = paths_in(answer)
        spelled = {alias: path for alias, path in probe.aliases}  # another spelling -> path
        found, missed = _split(
            probe.expected,
            lambda p: any(f in listed or index.has_path(f) for f in (p, *forms.get(p, ()))),
        )
        known = {*probe.expected, *probe.allowed}
        return Grade(found, missed, tuple(p for p in listed if spelled.get(p, p) not in known))
    if probe.answer_kind == "commands":
        found, missed = _split(
            probe.expected, lambda c: any(index.has_exact(f) for f in (c, *forms.get(c, ())))
        )
        wanted = [
            _norm(f) for e in (*probe.expected, *probe.allowed) for f in (e, *forms.get(e, ()))
        ]
        wrong = tuple(
            c for c in commands_in(answer) if not any(w in _norm(c) for w in wanted)
        )  # a listed command that contains no expected one
        return Grade(found, missed, wrong)
    if probe.answer_kind == "status":
        words = content_words(answer) | {c for c in answer if c in "✓✗"}
        said = {PASSED: bool(words & PASS_WORDS), FAILED: bool(words & FAIL_WORDS)}
        (expected,) = probe.expected
        other = FAILED if expected == PASSED else PASSED
        found, missed = ((expected,), ()) if said[expected] else ((), (expected,))
        return Grade(found, missed, (other,) if said[other] else ())
    raise ValueError(f"probe {probe.id} has no exact check for {probe.answer_kind!r}")


class Judge(Protocol):
    name: str

    def __call__(self, probe: Probe, answer: str) -> Grade: ...

    def describe(self) -> dict[str, Any]: ...


JUDGES: Registry[Callable[[ProbeConfig, MatchConfig], Judge]] = Registry("probe judge")


class LexicalJudge:
    """An expected item is covered when ``match.py`` finds it in the answer; an outdated item
    is wrong when the words it does not share with the current items are in the answer."""

    name = "lexical"

    def __init__(self, match: MatchConfig = DEFAULT_MATCH) -> None:
        self.match = match

    def __call__(self, probe: Probe, answer: str) -> Grade:
        index = TextIndex(answer.splitlines() or [answer], self.match)
        found, missed = _split(probe.expected, index.has_prose)
        current = frozenset().union(*(content_words(e) for e in probe.expected))
        wrong = []
        for old in probe.outdated:
            dropped = content_words(old) - current
            if dropped and len(dropped & index.words) / len(dropped) >= self.match.containment:
                wrong.append(old[:160])
        return Grade(found, missed, tuple(wrong))

    def describe(self) -> dict[str, Any]:
        return {"judge": self.name}


class VerdictError(ValueError):
    """A judge reply that is not the JSON verdict the rubric asks for."""


_OBJECT = re.compile(r"\{.*\}", re.DOTALL)


def parse_verdict(text: str, expected: int) -> tuple[list[int], list[str]]:
    """``(covered item numbers, wrong claims)`` from a judge reply (the first ``{...}`` in it)."""
    found = _OBJECT.search(text or "")
    if found is None:
        raise VerdictError("no JSON object in the judge's reply")
    try:
        data = json.loads(found.group(0))
    except ValueError as exc:
        raise VerdictError(f"the judge's reply is not valid JSON ({exc})") from None
    covered = data.get("covered") if isinstance(data, dict) else None
    wrong = data.get("wrong", []) if isinstance(data, dict) else None
    if not isinstance(covered, list) or not isinstance(wrong, list):
        raise VerdictError("the verdict needs a 'covered' list and a 'wrong' list")
    numbers = []
    for item in covered:
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= expected:
            raise VerdictError(f"'covered' holds {item!r}, not an item number 1..{expected}")
        numbers.append(item)
    return sorted(set(numbers)), [str(w)[:160] for w in wrong]


class ModelJudge:
    """The rubric prompt and a JSON verdict. A "wrong" claim counts only when it quotes the
    answer (its content words are in it): small judges otherwise list their own remarks."""

    def __init__(self, kind: str, config: ProbeConfig, match: MatchConfig = DEFAULT_MATCH) -> None:
        from soba_bench.scoring.probes.backend import backend_for
        from soba_bench.scoring.probes.prompts import load_probe_prompt

        self.name = kind
        self.backend = backend_for(kind, config)
        self.prompt = load_probe_prompt("probe-judge")
        self.match = match

    def __call__(self, probe: Probe, answer: str) -> Grade:
        numbered = "\n".join(f"{i}. {e}" for i, e in enumerate(probe.expected, start=1))
        outdated = "\n".join(f"- {o}" for o in probe.outdated) or "none"
        prompt = self.prompt.render(
            question=probe.question,
            expected=numbered,
            outdated=outdated,
            answer=answer or "(no answer)",
        )
        try:
            reply = self.backend.ask(prompt, 200, json_output=True)
        except ModelCallError as exc:
            return Grade(error=f"judge call failed: {exc}")
        try:
            covered, wrong = parse_verdict(reply.text, len(probe.expected))
        except VerdictError as exc:
            return Grade(error=str(exc), details={"verdict": reply.text[:500]})
        found, missed = _split(probe.expected, lambda e: probe.expected.index(e) + 1 in covered)
        said = content_words(answer)
        quoted = tuple(w for w in wrong if containment(w, said) >= self.match.containment)
        details = {"verdictSource": reply.source, "unquotedWrong": len(wrong) - len(quoted)}
        return Grade(found, missed, quoted, details=details)

    def describe(self) -> dict[str, Any]:
        return {"judge": self.name, "prompt": self.prompt.prompt_id, **self.backend.describe()}


JUDGES.add("lexical", lambda config, match: LexicalJudge(match))
JUDGES.add("model", lambda config, match: ModelJudge("model", config, match))
JUDGES.add("local", lambda config, match: ModelJudge("local", config, match))
