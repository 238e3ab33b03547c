"""The ``planted`` summarizer: a stand-in for the model in SOBA's chain
``[portable_only, deterministic]`` that answers with a known defect, so a metric or a gate can
be tested on faults whose presence is certain (``soba-bench run summarizer=planted
summarizer.params.defect=drop_goal``).

Its answer is JSON text, and it goes through exactly what a model's answer goes through:
SOBA's JSON extraction and coercion, the ask_user reducer, the validator, and the fallback to
the deterministic slot when the validator rejects the draft. The state it writes is the
deterministic strategy's state for the same span (the engine's own builder, the same inputs)
with the task as the user last stated it, a decision that a revision names as replaced left
out, and a recap of the span's files and verification runs, as a careful model would write;
then the defect (``soba_bench.summarizers.defects``) is applied. No model, no network; the virtual
clock charges ``latency_ms`` per answer (0 by default).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from soba_bench.engine.artifacts import PORTABLE_KEYWORDS, js_includes, parse_arguments
from soba_bench.engine.attempt import AttemptContext, SimulatedReply
from soba_bench.engine.failures import tool_failure_output
from soba_bench.engine.strategies.base import PORTABLE_ONLY, Draft, GenerationInput
from soba_bench.engine.strategies.deterministic import (
    DEFAULT_GOAL,
    DeterministicStrategy,
    deterministic_state,
)
from soba_bench.engine.strategies.portable_only import FALLBACK_GOAL, PortableOnlyStrategy
from soba_bench.errors import ConfigError
from soba_bench.jscompat import js_truthy
from soba_bench.session import entries as E
from soba_bench.summarizers.defects import (
    DEFECTS,
    FileLine,
    Recap,
    RunLine,
    apply_defect,
    apply_revisions,
    is_recap_line,
)
from soba_bench.summarizers.registry import SUMMARIZERS, SummarizerSpec

# Bumped when what the planted model writes changes, so prompt ids (and job keys) change too.
# v2: the goal is the user's task as last stated, not the span's last user message.
# v3: a revision that names the decision it replaces removes that decision (apply_revisions).
# v4: ... also in the paraphrase control's own wording of the previous capsule.
PLANTED_VERSION = 4

# A user message that restates the task says so; the cue is not part of the goal.
_GOAL_CUE = re.compile(r"^\s*(change of plan|new goal|new task|update)\s*[:,-]\s*", re.I)


def _user_text(item: dict[str, Any]) -> str | None:
    if item.get("type") != "message" or item.get("role") != "user":
        return None
    content = item.get("content")
    if isinstance(content, str):
        return content.strip() or None
    if isinstance(content, list):
        text = "\n".join(b["text"] for b in content if isinstance(b, dict) and "text" in b)
        return text.strip() or None
    return None


def task_goal(items: Sequence[dict[str, Any]], previous_goal: str | None) -> str | None:
    """The goal as a careful model keeps it: the session's first user message (the span
    of the first capsule starts there), replaced by any later message that restates the task
    ("Change of plan: ..."); otherwise the previous capsule's goal. SOBA's deterministic
    strategy takes the span's last user message instead, which is usually an answer or a
    constraint, so a goal metric could not see a summarizer lose the goal."""
    goal = previous_goal
    for item in items:
        text = _user_text(item)
        if text is None:
            continue
        if goal is None:
            goal = text
        elif _GOAL_CUE.match(text):
            goal = _GOAL_CUE.sub("", text, count=1)
    return goal


def recap_of(items: Sequence[dict[str, Any]]) -> Recap:
    """Files read and modified (the ledger's rule: ``read`` vs ``write``/``edit`` calls) and the
    last outcome of each verification command (a ``bash`` call with a test, lint or build
    keyword; failed when its output is a tool failure by SOBA's rule)."""
    modified: dict[str, None] = {}
    read: dict[str, None] = {}
    commands: dict[Any, str] = {}
    runs: dict[str, bool] = {}
    for item in items:
        kind = item.get("type")
        if kind == "function_call":
            try:
                args = parse_arguments(item.get("arguments"))
            except (ValueError, RecursionError):
                continue
            if not isinstance(args, dict):
                continue
            name, path = item.get("name"), args.get("path")
            if isinstance(path, str) and js_truthy(path):
                if name in ("write", "edit"):
                    modified[path] = None
                elif name == "read":
                    read[path] = None
            command = args.get("command")
            if (
                name == "bash"
                and isinstance(command, str)
                and any(js_includes(command, k) for k in PORTABLE_KEYWORDS)
            ):
                commands[item.get("call_id")] = command
        elif kind in E.OUTPUT_TYPES and item.get("call_id") in commands:
            command = commands[item["call_id"]]
            runs.pop(command, None)  # the newest outcome last
            runs[command] = js_truthy(tool_failure_output(item))
    files = [FileLine(p, True) for p in modified]
    files += [FileLine(p, False) for p in read if p not in modified]
    return Recap(tuple(files), tuple(RunLine(c, failed) for c, failed in runs.items()))


def planted_state(gen: GenerationInput, defect: str, *, newest_blockers_first: bool) -> dict:
    """The planted model's portable state for one generation input, defect applied."""
    previous = gen.previous_state
    if previous is not None:
        # A previous recap describes an earlier span; this answer writes its own.
        previous = {
            **previous,
            "completed": [v for v in previous.get("completed", []) if not is_recap_line(v)],
        }
    state = deterministic_state(
        gen.source_items,
        gen.custom_instructions,
        previous,
        newest_blockers_first=newest_blockers_first,
    )
    if gen.custom_instructions is None:
        prev_goal = (previous or {}).get("goal")
        keep = isinstance(prev_goal, str) and prev_goal not in (DEFAULT_GOAL, FALLBACK_GOAL)
        goal = task_goal(gen.source_items, prev_goal if keep else None)
        if goal is not None:
            state = {**state, "goal": goal}
    decisions, replaced = apply_revisions(state.get("decisions", []))
    recap = replace(recap_of(gen.source_items), replaced=tuple(replaced))
    return apply_defect(defect, {**state, "decisions": decisions}, recap)


class PlantedPrompt(str):
    """What the planted slot "sends": a short text naming the defect, carrying the generation
    input and the engine variant the answer is derived from."""

    gen: GenerationInput
    newest_blockers_first: bool

    def __new__(cls, text: str, gen: GenerationInput, newest_blockers_first: bool):
        obj = super().__new__(cls, text)
        obj.gen = gen
        obj.newest_blockers_first = newest_blockers_first
        return obj


class PlantedModel:
    """The invoker of the portable_only slot: answers with the planted state as JSON."""

    def __init__(self, defect: str, latency_ms: float = 0.0) -> None:
        self.defect = defect
        self.latency_ms = latency_ms
        self.calls = 0

    def __call__(self, prompt: str, ctx: AttemptContext) -> str:
        if not isinstance(prompt, PlantedPrompt):
            raise TypeError("the planted model answers PlantedPrompt only")
        state = planted_state(
            prompt.gen, self.defect, newest_blockers_first=prompt.newest_blockers_first
        )
        self.calls += 1
        text = json.dumps(state, ensure_ascii=False)
        return ctx.call_model(SimulatedReply(text=text, latency_ms=self.latency_ms))


class PlantedSlot:
    """SOBA's ``portable_only`` slot with the planted model behind it. A thin wrapper only so
    the answer can follow the engine variant (SOBA's portable_only prompt has no variant)."""

    name = PORTABLE_ONLY

    def __init__(self, model: PlantedModel) -> None:
        self.model = model

    def generate(self, gen: GenerationInput, ctx: AttemptContext, variant) -> Draft:
        newest = bool(getattr(variant, "newest_blockers_first", False))
        text = f"soba-bench planted summarizer v{PLANTED_VERSION}, defect={self.model.defect}"
        slot = PortableOnlyStrategy(self.model, lambda g: PlantedPrompt(text, g, newest))
        return slot.generate(gen, ctx, variant)


def planted_prompt_id(defect: str) -> str:
    digest = hashlib.sha256(f"planted:v{PLANTED_VERSION}:{defect}".encode()).hexdigest()
    return f"planted-{defect}@{digest[:12]}"


@SUMMARIZERS.register("planted")
def planted_summarizer(defect: str = "verbatim", latency_ms: float = 0.0) -> SummarizerSpec:
    """SOBA's chain with a planted-defect model in the model slot. ``defect`` is one of
    ``soba_bench.summarizers.defects.DEFECTS``; an unknown one lists the valid ones."""
    DEFECTS.get(defect)
    if not isinstance(latency_ms, int | float) or isinstance(latency_ms, bool) or latency_ms < 0:
        raise ConfigError(
            f"summarizer 'planted': latency_ms must be a number >= 0, got {latency_ms!r}"
        )
    model = PlantedModel(defect, float(latency_ms))
    details = {"defect": defect, "plantedVersion": PLANTED_VERSION, "latencyMs": latency_ms}
    return SummarizerSpec(
        "planted",
        [PlantedSlot(model), DeterministicStrategy()],
        None,
        planted_prompt_id(defect),
        details,
    )
