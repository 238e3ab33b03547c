"""Probe answerers, in a registry: ``extractive`` (no model: lexical retrieval from the input),
``model`` (any OpenAI-compatible endpoint) and ``local`` (the real local llama.cpp server).
Every answerer sees only the rendered post-compaction input and the question."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from soba_bench.models.client import ModelCallError
from soba_bench.registry import Registry
from soba_bench.scoring.probes.extractive import extractive_answer
from soba_bench.scoring.probes.questions import Probe
from soba_bench.scoring.probes.render import Rendered

if TYPE_CHECKING:
    from soba_bench.scoring.probes.config import ProbeConfig


@dataclass(frozen=True)
class Answer:
    text: str
    source: str  # "extractive" | "cache" | "model" | "error"
    error: str | None = None  # a failed model call (after retries): the probe is unscored
    key: str | None = None  # response-cache key of a model answer


class Answerer(Protocol):
    name: str

    def __call__(self, probe: Probe, rendered: Rendered) -> Answer: ...

    def describe(self) -> dict[str, Any]: ...


ANSWERERS: Registry[Callable[[ProbeConfig], Answerer]] = Registry("probe answerer")


class ExtractiveAnswerer:
    name = "extractive"

    def __call__(self, probe: Probe, rendered: Rendered) -> Answer:
        return Answer(extractive_answer(probe, rendered.text), "extractive")

    def describe(self) -> dict[str, Any]:
        return {"answerer": self.name}


class ModelAnswerer:
    def __init__(self, kind: str, config: ProbeConfig) -> None:
        from soba_bench.scoring.probes.backend import backend_for
        from soba_bench.scoring.probes.prompts import load_probe_prompt

        self.name = kind
        self.backend = backend_for(kind, config)
        self.prompt = load_probe_prompt("probe-answer")
        self.max_tokens = config.max_answer_tokens

    def __call__(self, probe: Probe, rendered: Rendered) -> Answer:
        prompt = self.prompt.render(context=rendered.text, question=probe.question)
        try:
            reply = self.backend.ask(prompt, self.max_tokens)
        except ModelCallError as exc:  # a model failure, not the harness's: recorded
            return Answer("", "error", str(exc))
        return Answer(reply.text.strip(), reply.source, key=reply.key)

    def describe(self) -> dict[str, Any]:
        return {"answerer": self.name, "prompt": self.prompt.prompt_id, **self.backend.describe()}


ANSWERERS.add("extractive", lambda config: ExtractiveAnswerer())
ANSWERERS.add("model", lambda config: ModelAnswerer("model", config))
ANSWERERS.add("local", lambda config: ModelAnswerer("local", config))
