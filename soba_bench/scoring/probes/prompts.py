"""The probe prompts (``configs/prompts/probe-*.txt``): ``#`` comment lines, a ``---`` line,
then the template with upper-case ``{{NAME}}`` placeholders (upper case so the summarizer's
prompt syntax, which is lower case, never reads them). The prompt id hashes the template only,
so records change id exactly when what the model is sent changes."""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from soba_bench.errors import InputError
from soba_bench.summarizers.prompts import PROMPTS_DIR

_PLACEHOLDER = re.compile(r"\{\{([A-Z_]+)\}\}")


@dataclass(frozen=True)
class ProbePrompt:
    name: str
    template: str
    prompt_id: str

    def render(self, **values: str) -> str:
        def fill(match: re.Match[str]) -> str:
            return values[match.group(1).lower()]

        return _PLACEHOLDER.sub(fill, self.template)


@functools.cache
def load_probe_prompt(name: str, directory: Path = PROMPTS_DIR) -> ProbePrompt:
    """``probe-answer`` or ``probe-judge`` from ``directory``."""
    path = directory / f"{name}.txt"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read prompt file: {exc.strerror}", path=str(path)) from None
    lines = text.splitlines()
    if "---" not in lines:
        raise InputError("a prompt file needs a '---' line before the template", path=str(path))
    template = "\n".join(lines[lines.index("---") + 1 :])
    digest = hashlib.sha256(template.encode()).hexdigest()[:12]
    return ProbePrompt(name, template, f"{name}@{digest}")
