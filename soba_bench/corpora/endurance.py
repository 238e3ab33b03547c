"""Endurance-shaped sessions for benchmarks and scale tests: a fixed turn shape (user,
assistant, optional tool call + output, assistant) with seeded random sizes, like the
endurance sessions in SOBA's conformance kit. Same seed, same session."""

from __future__ import annotations

import json
import random

from soba_bench.session import entries as E
from soba_bench.session.entries import Entry
from soba_bench.session.model import Session

TOOLS = ("read", "write", "edit", "bash", "ls")
PATHS = ("src/core/session.ts", "src/api/routes.ts", "src/utils/retry.ts", "tests/cache.test.ts")
COMMANDS = ("bun test", "bun run lint", "bun run build", "git status")


def _args(rng: random.Random, tool: str) -> dict:
    if tool == "bash":
        return {"command": rng.choice(COMMANDS)}
    if tool == "ls":
        return {"path": "src/"}
    return {"path": rng.choice(PATHS)}


def endurance_session(seed: int, entries: int, tokens_per_step: int = 1000) -> Session:
    """A linear session of exactly ``entries`` tree entries (plus the header)."""
    rng = random.Random(seed)
    lines = [
        Entry(
            E.HEADER,
            {
                "type": "session",
                "version": 2,
                "id": f"endurance-{seed}",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "cwd": "/project",
            },
        )
    ]
    parent = None
    count = 0

    def add(item: dict) -> bool:
        nonlocal parent, count
        if count >= entries:
            return False
        entry_id = f"{seed:04x}{count:08x}"[-12:]
        lines.append(
            Entry(
                E.ITEM,
                {
                    "type": "item",
                    "id": entry_id,
                    "parentId": parent,
                    "timestamp": "2026-01-01T00:00:00.000Z",
                    "item": item,
                },
            )
        )
        parent = entry_id
        count += 1
        return True

    def text(role: str, prefix: str, fill: str) -> dict:
        size = rng.randint(50, tokens_per_step) * 3
        block = "input_text" if role == "user" else "output_text"
        return {
            "type": "message",
            "role": role,
            "content": [{"type": block, "text": f"{prefix} {fill * size}"}],
        }

    turn = 0
    while count < entries:
        turn += 1
        if not add(text("user", f"Task {turn}: continue the refactor.", "x")):
            break
        if not add(text("assistant", "Working on it; next I will check the tests.", "y")):
            break
        if rng.random() > 0.3:
            tool = rng.choice(TOOLS)
            call_id = f"call_{turn}_{count}"
            if not add(
                {
                    "type": "function_call",
                    "name": tool,
                    "call_id": call_id,
                    "arguments": json.dumps(_args(rng, tool)),
                }
            ):
                break
            output = "z" * (rng.randint(100, 2 * tokens_per_step) * 3)
            if not add({"type": "function_call_output", "call_id": call_id, "output": output}):
                break
        add(text("assistant", "Done with this step.", "y"))
    return Session(tuple(lines), path=f"endurance-s{seed}-{entries}.jsonl")
