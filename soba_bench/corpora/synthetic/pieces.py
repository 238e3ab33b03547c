"""What one model iteration is made of (user text, commentary, tool calls, skill entries), the
generation context shared by the builder and the beat renderers, and the filler that makes up
most of a session: reads, edits, greps, passing checks and plain commentary.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.corpora.synthetic.facts import Scenario
from soba_bench.corpora.synthetic.ledger import FactLedger
from soba_bench.corpora.synthetic.noise import TextPools


@dataclass
class UserPiece:
    text: str
    on_emit: Callable[[str], object] | None = None  # (entry id); any result is ignored


@dataclass
class TextPiece:
    text: str
    on_emit: Callable[[str], object] | None = None


@dataclass
class CallPiece:
    name: str
    args: dict[str, Any]
    output: str | list[dict[str, str]]
    failed: bool = False
    on_emit: Callable[[str, str], object] | None = None  # (call entry id, output entry id)

    @property
    def shell(self) -> bool:
        return self.name == "bash"


@dataclass
class SkillPiece:
    action: str
    skill: dict[str, str]
    on_emit: Callable[[str], object] | None = None


@dataclass
class Context:
    """Generation state that outlives one iteration."""

    rng: random.Random
    config: SyntheticConfig
    pools: TextPools
    ledger: FactLedger
    scen: Scenario
    chains: dict[str | None, dict[str, Any]] = field(default_factory=dict)  # by Beat.chain
    protected: set[str] = field(default_factory=set)  # decisions a later beat supersedes
    busy: set[str] = field(default_factory=set)  # commands/paths an open blocker owns
    active_next: list[str] = field(default_factory=list)  # next_step fact ids, oldest first
    recent_completed: list[str] = field(default_factory=list)
    secrets: list[str] = field(default_factory=list)
    large_outputs: list[str] = field(default_factory=list)

    def sources(self) -> list[str]:
        return [f for f in self.scen.files if f.startswith("src/")]

    def unique(self, kind: str, make: Callable[[], str]) -> str:
        """A fact text not yet used for ``kind`` (a few redraws, then a numbered variant)."""
        text = make()
        for _ in range(8):
            if not self.ledger.has_text(kind, text):
                return text
            text = make()
        n = 2
        while self.ledger.has_text(kind, f"{text} (variant {n})"):
            n += 1
        return f"{text} (variant {n})"


# ── filler ───────────────────────────────────────────────────────────────────
def filler_user(ctx: Context) -> str:
    rng = ctx.rng
    lead = rng.choice(banks.FILLER_USER).format(path=rng.choice(ctx.sources()))
    if rng.random() < 0.3:
        size = ctx.pools.size(ctx.config.user_tokens)
        return f"{lead}\n\nThis is what I see locally:\n{ctx.pools.log(size)}"
    return lead


def passing_output(ctx: Context, command: str) -> str:
    rng, pools = ctx.rng, ctx.pools
    size = pools.size(ctx.config.tool_output_tokens)
    if " test " in f" {command} ":
        n = rng.randint(4, 80)
        target = command.split(" ")[-1]
        head = f"✓ {target} ({n} tests) {rng.randint(20, 4000)}ms"
        tail = f"\n\n Test Files  1 passed (1)\n      Tests  {n} passed ({n})"
        return head + "\n" + pools.log(size) + tail
    script = command.split(" ")[-1]
    return f"> {ctx.scen.project}@1.0.0 {script}\n" + pools.log(size) + "\nexit status 0"


def verification_candidates(ctx: Context) -> list[str]:
    ledger = ctx.ledger
    return [
        c
        for c in ctx.scen.verification_commands()
        if c not in ctx.busy and not ledger.verification_failing(c)
    ]


def _filler_call(ctx: Context) -> CallPiece:
    rng, pools, scen = ctx.rng, ctx.pools, ctx.scen
    roll = rng.random()
    if roll < 0.36:
        path = rng.choice(scen.files)
        return CallPiece(
            "read", {"path": path}, pools.read(path, pools.size(ctx.config.file_read_tokens))
        )
    if roll < 0.5:
        path = rng.choice(ctx.sources() + scen.tests)
        old = rng.choice(pools.file_lines(path)).strip() or "}"
        edit = {"oldText": old, "newText": pools.code(pools.size(ctx.config.edit_tokens))}
        args = {"path": path, "edits": [edit]}
        return CallPiece("edit", args, f"Edit applied successfully to {path}")
    if roll < 0.54:
        path = rng.choice(ctx.sources())
        content = pools.code(pools.size(ctx.config.edit_tokens * 3))
        args = {"path": path, "content": content}
        return CallPiece("write", args, f"Wrote {len(content.encode())} bytes to {path}")
    if roll < 0.62:
        area = rng.choice(scen.areas)
        names = [f.rsplit("/", 1)[-1] for f in scen.files if f.startswith(area[0] + "/")]
        listing = "\n".join(names) or "(empty)"
        output: Any = listing
        if rng.random() < 0.5:
            output = [{"type": "input_text", "text": listing}]
        return CallPiece("ls", {"path": area[0] + "/"}, output)
    if roll < 0.88:
        return _filler_bash(ctx)
    candidates = verification_candidates(ctx)
    if not candidates:
        return _filler_bash(ctx)
    command = rng.choice(candidates)
    return CallPiece("bash", {"command": command}, passing_output(ctx, command))


def _filler_bash(ctx: Context) -> CallPiece:
    rng, pools = ctx.rng, ctx.pools
    size = pools.size(ctx.config.tool_output_tokens)
    path = rng.choice(ctx.sources())
    pick = rng.randrange(5)
    if pick == 0:
        lines = [f" M {p}" for p in rng.sample(ctx.sources(), min(3, len(ctx.sources())))]
        return CallPiece("bash", {"command": "git status --short"}, "\n".join(lines))
    if pick == 1:
        ident = rng.choice(banks.IDENTS)
        hits = []
        for p in rng.sample(ctx.sources(), min(4, len(ctx.sources()))):
            lines = pools.file_lines(p)
            i = rng.randrange(len(lines))
            hits.append(f"{p}:{i + 1}:{lines[i]}")
        return CallPiece("bash", {"command": f"rg -n '{ident}' src"}, "\n".join(hits))
    if pick == 2:
        return CallPiece("bash", {"command": f"wc -l {path}"}, f"{rng.randint(40, 900)} {path}")
    if pick == 3:
        log = "\n".join(
            f"{rng.getrandbits(28):07x} {s}" for s in pools.prose(size).split(". ")[:20]
        )
        return CallPiece("bash", {"command": "git log --oneline -n 20"}, log)
    stat = "\n".join(
        f" {p} | {rng.randint(1, 90)} {'+' * rng.randint(1, 9)}"
        for p in rng.sample(ctx.sources(), min(3, len(ctx.sources())))
    )
    return CallPiece("bash", {"command": "git diff --stat"}, stat)


def filler_calls(ctx: Context, count: int) -> list[CallPiece]:
    return [_filler_call(ctx) for _ in range(count)]


def filler_commentary(ctx: Context, calls: list[CallPiece]) -> str:
    rng = ctx.rng
    if not calls:
        lead = "Thinking about how the pieces fit together."
    else:
        first = calls[0]
        target = first.args.get("path") or first.args.get("command") or "the workspace"
        lead = {
            "read": f"Reading {target} to see how it is wired.",
            "edit": f"Updating {target}.",
            "write": f"Rewriting {target} with the new structure.",
            "ls": f"Listing {target} to get the layout.",
            "bash": f"Running `{target}`.",
            "checkpoint": "Recording a checkpoint of where things stand.",
            "ask_user": "I need the user to pick an option before going on.",
        }.get(first.name, f"Calling {first.name}.")
    size = ctx.pools.size(ctx.config.assistant_tokens)
    return ctx.pools.pad(lead, size) if rng.random() < 0.7 else lead


def final_answer(ctx: Context, edited: list[str], checks: dict[str, bool]) -> str:
    parts = []
    if edited:
        parts.append("edited " + ", ".join(dict.fromkeys(edited)))
    for command, ok in checks.items():
        parts.append(f"`{command}` {'passes' if ok else 'is still red'}")
    lead = "Summary of this turn: " + ("; ".join(parts) if parts else "read code, no edits") + "."
    return ctx.pools.pad(lead, ctx.pools.size(ctx.config.final_answer_tokens))
