"""The model-backed strategy slot ``portable_only`` (engine.md i.3, j.2).

The model is asked for the portable state as JSON; any model or parse error makes the
strategy fall back to the deterministic draft *internally* (so the chain records the slot
``portable_only`` while the draft quality is ``degraded``). Artifacts never come from the
model. The prompt and the client are plugged in (summarizers stage); this module owns the
parsing and coercion, which are engine behaviour.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.engine.artifacts import extract_artifacts
from soba_bench.engine.attempt import (
    AttemptContext,
    Interrupted,
    whole_ms_between,
)
from soba_bench.engine.reducer import reconcile_structured_state
from soba_bench.engine.strategies.base import (
    PORTABLE_ONLY,
    Draft,
    GenerationInput,
    base_metrics,
    base_provenance,
)
from soba_bench.engine.strategies.deterministic import DeterministicStrategy
from soba_bench.errors import HarnessFault
from soba_bench.jscompat import js_json_parse, js_trim

if TYPE_CHECKING:
    from soba_bench.engine.variants import EngineVariant

log = logging.getLogger("soba_bench.engine.portable_only")

STATE_LISTS = ("constraints", "completed", "inProgress", "pending", "blockers", "nextSteps")
FALLBACK_GOAL = "Continue working"


class ModelInvoker(Protocol):
    """Sends one prompt and returns the reply text. Implementations await the model through
    ``ctx.call_model`` so the attempt's deadline and abort apply."""

    def __call__(self, prompt: str, ctx: AttemptContext) -> str: ...


class StateParseError(ValueError):
    pass


def extract_json_object(reply: str) -> Any:
    """The whole trimmed reply as JSON, else the first balanced ``{...}`` in it (strings and
    escapes respected), so prose around a fenced JSON block still parses."""
    text = js_trim(reply)
    try:
        return js_json_parse(text)
    except (ValueError, RecursionError):
        pass
    start = text.find("{")
    if start < 0:
        raise StateParseError("reply contains no JSON object")
    depth, in_string, escaped = 0, False, False
    for index in range(start, len(text)):
        char = text[index]
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                try:
                    return js_json_parse(text[start : index + 1])
                except (ValueError, RecursionError) as exc:
                    raise StateParseError(str(exc)) from None
    raise StateParseError("reply contains incomplete JSON")


def coerce_state(data: Any) -> dict[str, Any]:
    """SOBA's coercion. JS quirk kept: an array passes the object test and yields an
    all-default state."""
    if not isinstance(data, dict | list):  # null, numbers, strings, booleans fail
        raise StateParseError("portable state is not an object")
    obj = data if isinstance(data, dict) else {}
    state: dict[str, Any] = {
        "goal": obj["goal"] if isinstance(obj.get("goal"), str) else FALLBACK_GOAL,
    }
    for key in ("constraints", "completed", "inProgress", "pending"):
        value = obj.get(key)
        state[key] = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    decisions = []
    listed = obj.get("decisions")
    for value in listed if isinstance(listed, list) else []:
        if isinstance(value, dict) and isinstance(value.get("decision"), str):
            decision = {"decision": value["decision"]}
            if "rationale" in value:  # copied as-is (undefined stays absent)
                decision["rationale"] = value["rationale"]
            decisions.append(decision)
    state["decisions"] = decisions
    for key in ("blockers", "nextSteps"):
        value = obj.get(key)
        state[key] = [v for v in value if isinstance(v, str)] if isinstance(value, list) else []
    return state


class PortableOnlyStrategy:
    name = PORTABLE_ONLY

    def __init__(
        self, invoker: ModelInvoker, prompt_builder: Callable[[GenerationInput], str]
    ) -> None:
        self.invoker = invoker
        self.prompt_builder = prompt_builder
        self.last_prompt: str | None = None

    def model_state(self, gen: GenerationInput, ctx: AttemptContext) -> dict[str, Any]:
        prompt = self.prompt_builder(gen)
        self.last_prompt = prompt
        reply = self.invoker(prompt, ctx)
        try:
            return coerce_state(extract_json_object(reply))
        except StateParseError as exc:
            raise StateParseError("Failed to parse portable state JSON") from exc

    def generate(self, gen: GenerationInput, ctx: AttemptContext, variant: EngineVariant) -> Draft:
        started = ctx.clock.now_ms()
        try:
            state = reconcile_structured_state(self.model_state(gen, ctx), gen.source_items)
        except (Interrupted, HarnessFault):
            raise  # deadline, abort or a harness fault: the manager decides, not this slot
        except Exception as exc:
            log.info("portable_only falls back to deterministic: %s", exc)
            return DeterministicStrategy().generate(gen, ctx, variant)
        return Draft(
            strategy=PORTABLE_ONLY,
            quality="portable",
            portableState=state,
            artifacts=extract_artifacts(gen.source_items, portable=True),
            activatedSkills=gen.activated_skills,
            provenance=base_provenance(gen),
            metrics=base_metrics(gen, whole_ms_between(started, ctx.clock.now_ms())),
        )
