"""Summarizer prompts as data files: ``configs/prompts/<name>.txt``.

A prompt file is a header of ``#`` comment lines, a line ``---``, then the template. Header
lines ``#@ key: value`` are request options (``response_format``, ``schema``). The template is
plain text with three placeholders and conditional sections (configs/prompts/README.md):

* ``{{conversation}}`` - the compacted items, serialized as SOBA does (engine.md j.4);
* ``{{previous_state}}`` - the previous capsule's portable state, compact ``JSON.stringify``;
* ``{{custom_instructions}}`` - the ``/compact`` instructions;
* ``{{#name}}...{{/name}}`` renders only when ``name`` is present, ``{{^name}}...{{/name}}``
  only when it is absent. A lowercase ``{{name}}`` must be one of these three (a typo fails
  at load time); any other ``{{`` text is literal, so JSON examples need no escaping.

The prompt id (``<name>@<12 hex>``) hashes the template and the request options, never the
comments, so a run record changes id exactly when what the model is sent changes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from soba_bench.engine.serializer import serialize_items
from soba_bench.engine.strategies.base import GenerationInput
from soba_bench.errors import InputError, UnknownNameError
from soba_bench.jscompat import js_json_stringify
from soba_bench.jsonio import read_json_object

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "configs" / "prompts"
DEFAULT_PROMPT = "soba-0.6.14"
SEPARATOR = "---"
VARIABLES = ("conversation", "previous_state", "custom_instructions")
RESPONSE_FORMATS = ("text", "json_object", "json_schema")
OPTION_KEYS = ("response_format", "schema")
DIGEST_CHARS = 12

_TAG = re.compile(r"\{\{([#^/]?)([a-z_]+)\}\}")


class RenderedPrompt(str):
    """The prompt text, carrying what the model call needs besides the text. It travels as a
    plain ``str`` through the engine's portable_only slot, which only forwards it."""

    prompt_id: str
    max_output_tokens: int | None
    response_format: dict[str, Any] | None

    def __new__(
        cls,
        text: str,
        prompt_id: str,
        max_output_tokens: int | None = None,
        response_format: dict[str, Any] | None = None,
    ) -> RenderedPrompt:
        obj = super().__new__(cls, text)
        obj.prompt_id = prompt_id
        obj.max_output_tokens = max_output_tokens
        obj.response_format = response_format
        return obj


@dataclass(frozen=True)
class PromptTemplate:
    name: str
    template: str
    options: dict[str, str] = field(default_factory=dict)
    schema: dict[str, Any] | None = None  # the JSON schema for ``response_format: json_schema``
    path: str | None = None

    @property
    def prompt_id(self) -> str:
        digest = hashlib.sha256(self.template.encode("utf-8"))
        if self.options:
            extra = {"options": self.options, "schema": self.schema}
            digest.update(b"\0" + json.dumps(extra, sort_keys=True).encode("utf-8"))
        return f"{self.name}@{digest.hexdigest()[:DIGEST_CHARS]}"

    @property
    def response_format(self) -> dict[str, Any] | None:
        kind = self.options.get("response_format", "text")
        if kind == "text":
            return None
        if kind == "json_object":
            return {"type": "json_object"}
        return {
            "type": "json_schema",
            "json_schema": {"name": "portable_state", "strict": True, "schema": self.schema},
        }

    def variables(self, gen: GenerationInput) -> dict[str, str | None]:
        """The placeholder values for one generation input; None means absent. Truthiness is
        SOBA's: any previous state object counts, an empty instruction string does not."""
        previous = gen.previous_state
        return {
            "conversation": serialize_items(gen.source_items),
            "previous_state": None if previous is None else js_json_stringify(previous),
            "custom_instructions": gen.custom_instructions or None,
        }

    def render_text(self, values: dict[str, str | None]) -> str:
        return _render(self.template, values)

    def __call__(self, gen: GenerationInput) -> RenderedPrompt:
        """The prompt builder for PortableOnlyStrategy. The output budget is SOBA's
        ``min(4096, output reserve)``."""
        reserve = gen.snapshot.maxOutputTokens
        limit = int(min(4096, reserve)) if reserve and reserve > 0 else 4096
        return RenderedPrompt(
            self.render_text(self.variables(gen)),
            self.prompt_id,
            max_output_tokens=limit,
            response_format=self.response_format,
        )


def _render(template: str, values: dict[str, str | None]) -> str:
    out: list[str] = []
    # A stack of (section name, rendering?) so sections nest; text outside a false
    # section is dropped.
    stack: list[tuple[str, bool]] = []
    pos = 0
    for match in _TAG.finditer(template):
        if all(active for _, active in stack):
            out.append(template[pos : match.start()])
        pos = match.end()
        sigil, name = match.groups()
        present = values.get(name) is not None
        if sigil == "#":
            stack.append((name, present))
        elif sigil == "^":
            stack.append((name, not present))
        elif sigil == "/":
            stack.pop()
        elif all(active for _, active in stack):
            out.append(values.get(name) or "")
    out.append(template[pos:])
    return "".join(out)


def _check_template(template: str, where: str) -> None:
    stack: list[str] = []
    for match in _TAG.finditer(template):
        sigil, name = match.groups()
        line = template.count("\n", 0, match.start()) + 1
        if name not in VARIABLES:
            raise InputError(
                f"unknown placeholder {{{{{sigil}{name}}}}} in template line {line}",
                path=where,
                expected="one of " + ", ".join(VARIABLES),
            )
        if sigil in ("#", "^"):
            stack.append(name)
        elif sigil == "/":
            if not stack or stack[-1] != name:
                raise InputError(
                    f"unbalanced section end {{{{/{name}}}}} at line {line}", path=where
                )
            stack.pop()
    if stack:
        raise InputError(f"section {{{{#{stack[-1]}}}}} is never closed", path=where)


def parse_prompt(text: str, name: str, where: str | None = None) -> PromptTemplate:
    """A prompt file's text -> template. The file's single final newline is not part of the
    template (SOBA's prompt ends without one)."""
    where = where or name
    lines = text.split("\n")
    try:
        split = lines.index(SEPARATOR)
    except ValueError:
        raise InputError(f"no '{SEPARATOR}' line ends the header", path=where) from None
    options: dict[str, str] = {}
    for number, line in enumerate(lines[:split], start=1):
        if line.startswith("#@"):
            key, sep, value = line[2:].partition(":")
            key, value = key.strip(), value.strip()
            if not sep or key not in OPTION_KEYS:
                raise InputError(
                    "bad option line",
                    path=where,
                    line=number,
                    value=line,
                    has_value=True,
                    expected="'#@ key: value' with key one of " + ", ".join(OPTION_KEYS),
                )
            options[key] = value
        elif line.strip() and not line.startswith("#"):
            raise InputError(
                "header lines must start with '#'",
                path=where,
                line=number,
                value=line,
                has_value=True,
            )
    template = "\n".join(lines[split + 1 :])
    if template.endswith("\n"):
        template = template[:-1]
    _check_template(template, where)
    kind = options.get("response_format", "text")
    if kind not in RESPONSE_FORMATS:
        raise InputError(
            "unknown response_format",
            path=where,
            field="response_format",
            value=kind,
            has_value=True,
            expected=", ".join(RESPONSE_FORMATS),
        )
    schema = None
    if kind == "json_schema":
        schema = _load_schema(options.get("schema"), where)
    return PromptTemplate(name, template, options, schema, where)


def _load_schema(ref: str | None, where: str) -> dict[str, Any]:
    if not ref:
        raise InputError("response_format json_schema needs a '#@ schema: FILE' line", path=where)
    path = Path(where).parent / ref
    return read_json_object(path, "JSON schema")


def available_prompts(directory: Path = PROMPTS_DIR) -> list[str]:
    return sorted(p.stem for p in directory.glob("*.txt"))


def load_prompt(name_or_path: str | Path = DEFAULT_PROMPT) -> PromptTemplate:
    """A prompt by name (a file in configs/prompts/) or by path to a ``.txt`` file."""
    path = Path(name_or_path)
    if path.suffix != ".txt":
        path = PROMPTS_DIR / f"{name_or_path}.txt"
        if not path.is_file():
            raise UnknownNameError("prompt", str(name_or_path), available_prompts())
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read prompt file: {exc.strerror}", path=str(path)) from None
    return parse_prompt(text, path.stem, str(path))
