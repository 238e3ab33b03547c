"""Writes the matcher calibration set (dev, heldout, fresh, fresh2, fresh3, fresh4, fresh5,
fresh6, fresh7, fresh8, fresh9, fresh10, fresh11, fresh12, fresh13, fresh14, fresh15 and tails
.jsonl) from the hand-written banks.

Run from the repository root: ``python -m tests.data.calibration.write_cases``. The output is
deterministic (seeded shuffles, fixed filler choices), so re-running rewrites the same bytes.

Each case is one JSON line::

    {"schemaVersion": 1, "id", "split", "category", "fact": {"kind", "text", "status",
     "attributes"}, "context": [text, ...], "label": "entailed" | "contradicted" | "absent"}

``context`` is what the scorer sees: a SOBA capsule rendered exactly as the model sees it
(soba_bench.session.capsule_text), optionally followed by retained-tail items (one string per
item, as soba_bench.meter.soba.item_text renders them), or tail items alone.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from soba_bench.session.capsule_text import capsule_text
from tests.data.calibration import banks

HERE = Path(__file__).parent
SCHEMA_VERSION = 1
SECTION_OF = {
    "goal": "goal",
    "constraint": "constraints",
    "decision": "decisions",
    "next_step": "nextSteps",
}
FILLER_FILES = ("src/index.ts", "README.md", "src/jobs/worker.ts", "src/search/indexer.ts")
FILLER_COMPLETED = (
    "repository interface extracted for the session store",
    "Summary of this turn: edited src/jobs/worker.ts. Route parser registry span.",
)


def capsule(
    state: dict[str, Any] | None = None,
    read: tuple[str, ...] = (),
    modified: tuple[str, ...] = (),
    commands: tuple[str, ...] = (),
    status: str = "unknown",
) -> str:
    """A capsule's text with the given portable state merged over a neutral base."""
    base: dict[str, Any] = {
        "goal": "Split the HTTP router into a pure core and an I/O shell",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    base.update(state or {})
    return capsule_text(
        {
            "portableState": base,
            "artifacts": {
                "readFiles": list(read),
                "modifiedFiles": list(modified),
                "verificationCommands": list(commands),
                "verificationStatus": status,
            },
        }
    )


def filler_state(kind: str, others: list[dict[str, Any]]) -> dict[str, Any]:
    """Other facts of the bank in their sections, so a capsule is never nearly empty."""
    state: dict[str, Any] = {"completed": list(FILLER_COMPLETED)}
    for other in others:
        section = SECTION_OF[other["kind"]]
        if section == "goal":
            if kind != "goal":
                state["goal"] = other["fact"]
        elif section == "decisions":
            state.setdefault("decisions", []).append(
                {"decision": other["fact"], "rationale": "it keeps the public API stable"}
            )
        else:
            state.setdefault(section, []).append(other["fact"])
    return state


def with_fact(kind: str, text: str, state: dict[str, Any]) -> dict[str, Any]:
    state = {k: list(v) if isinstance(v, list) else v for k, v in state.items()}
    section = SECTION_OF[kind]
    if section == "goal":
        state["goal"] = text
    elif section == "decisions":
        state.setdefault("decisions", []).insert(0, {"decision": text, "rationale": None})
    else:
        state.setdefault(section, []).insert(0, text)
    return state


TAIL_LEADS = {
    "goal": "User: the task for this session: ",
    "constraint": "User: one rule for this repository: ",
    "decision": "Assistant: I decided to go with this: ",
    "next_step": "Assistant: next I will ",
}
# Other speakers' words for the fresh3 split, so its tails do not all read like the others'.
FRESH3_LEADS = {
    "goal": "User: what I need from you today: ",
    "constraint": "User: please respect this: ",
    "decision": "Assistant: settled on: ",
    "next_step": "Assistant: coming up: ",
}
# And others again for the fresh4 split.
FRESH4_LEADS = {
    "goal": "User: the aim of this session: ",
    "constraint": "User: a hard rule here: ",
    "decision": "Assistant: what we agreed on: ",
    "next_step": "Assistant: on my list next: ",
}
# And others again for the fresh5 split.
FRESH5_LEADS = {
    "goal": "User: here is what we are after: ",
    "constraint": "User: non-negotiable: ",
    "decision": "Assistant: the call we made: ",
    "next_step": "Assistant: the next thing to do: ",
}
# And others again for the fresh6 split.
FRESH6_LEADS = {
    "goal": "User: the outcome I want: ",
    "constraint": "User: keep this rule in mind: ",
    "decision": "Assistant: we landed on this: ",
    "next_step": "Assistant: up next: ",
}
# And others again for the fresh7 split.
FRESH7_LEADS = {
    "goal": "User: the result I am looking for: ",
    "constraint": "User: a rule that must always hold: ",
    "decision": "Assistant: what we decided: ",
    "next_step": "Assistant: my next task: ",
}
# And others again for the fresh8 split.
FRESH8_LEADS = {
    "goal": "User: what this session should deliver: ",
    "constraint": "User: a firm rule for this work: ",
    "decision": "Assistant: the option we chose: ",
    "next_step": "Assistant: the next item I will take on: ",
}
# And others again for the fresh9 split.
FRESH9_LEADS = {
    "goal": "User: what I want out of this session: ",
    "constraint": "User: a standing rule to follow: ",
    "decision": "Assistant: the approach we picked: ",
    "next_step": "Assistant: what I will handle next: ",
}
# And others again for the fresh10 split.
FRESH10_LEADS = {
    "goal": "User: the end result I need from this session: ",
    "constraint": "User: a rule you must keep to: ",
    "decision": "Assistant: the route we went with: ",
    "next_step": "Assistant: the following step on my side: ",
}
# And others again for the fresh11 split.
FRESH11_LEADS = {
    "goal": "User: what I am hoping this session achieves: ",
    "constraint": "User: one rule that holds throughout this work: ",
    "decision": "Assistant: where we came down: ",
    "next_step": "Assistant: the piece of work I pick up next: ",
}
# And others again for the fresh12 split.
FRESH12_LEADS = {
    "goal": "User: the main thing this session has to get done: ",
    "constraint": "User: a rule to stick to the whole way through: ",
    "decision": "Assistant: the option we settled on in the end: ",
    "next_step": "Assistant: the job I move on to now: ",
}
# And others again for the fresh13 split.
FRESH13_LEADS = {
    "goal": "User: what I most need finished by the end of this session: ",
    "constraint": "User: a requirement that applies at every step: ",
    "decision": "Assistant: the choice we ended up making: ",
    "next_step": "Assistant: the task I am turning to next: ",
}
# And others again for the fresh14 split.
FRESH14_LEADS = {
    "goal": "User: the thing I want done before we stop: ",
    "constraint": "User: a limit to honour at all times: ",
    "decision": "Assistant: the way we chose to do it: ",
    "next_step": "Assistant: what I am starting on next: ",
}
# And others again for the fresh15 split.
FRESH15_LEADS = {
    "goal": "User: the job I need wrapped up in this session: ",
    "constraint": "User: a binding rule for everything we do here: ",
    "decision": "Assistant: the plan we committed to: ",
    "next_step": "Assistant: the step I take up after this one: ",
}


def tail_statement(kind: str, text: str, leads: dict[str, str] = TAIL_LEADS) -> list[str]:
    """How a fact of this kind appears in a retained tail: who says it, in what words."""
    lead = leads[kind]
    return [
        "Please also look at src/jobs/worker.ts while you are there.",
        lead + text[0].lower() + text[1:],
        "Edit applied successfully to src/jobs/worker.ts",
    ]


def shuffled(text: str, rng: random.Random) -> str:
    words = text.split()
    for _ in range(20):
        order = words[:]
        rng.shuffle(order)
        if order != words:
            return " ".join(order)
    return " ".join(reversed(words))


class Writer:
    def __init__(self, split: str, seed: int, leads: dict[str, str] = TAIL_LEADS) -> None:
        self.split = split
        self.leads = leads
        self.rng = random.Random(seed)
        self.cases: list[dict[str, Any]] = []

    def add(
        self,
        category: str,
        kind: str,
        text: str,
        context: list[str],
        label: str,
        status: str = "active",
        **attributes: Any,
    ) -> None:
        self.cases.append(
            {
                "schemaVersion": SCHEMA_VERSION,
                "id": f"{self.split}-{len(self.cases) + 1:04d}",
                "split": self.split,
                "category": category,
                "fact": {"kind": kind, "text": text, "status": status, "attributes": attributes},
                "context": context,
                "label": label,
            }
        )

    def tail(self, kind: str, text: str) -> list[str]:
        return tail_statement(kind, text, self.leads)

    def prose(self, items: tuple[dict[str, Any], ...]) -> None:
        for i, item in enumerate(items):
            kind, fact = item["kind"], item["fact"]
            others = [o for j, o in enumerate(items) if j != i][i % 3 :: 4]
            base = filler_state(kind, [o for o in others if o["kind"] != kind][:3])
            cap = lambda text, b=base, k=kind: capsule(with_fact(k, text, b))  # noqa: E731
            self.add("verbatim", kind, fact, [cap(fact)], "entailed")
            self.add("verbatim", kind, fact, [capsule(base), *self.tail(kind, fact)], "entailed")
            self.add("paraphrase", kind, fact, [cap(item["para"][0])], "entailed")
            self.add("paraphrase", kind, fact, self.tail(kind, item["para"][1]), "entailed")
            self.add("negation", kind, fact, [cap(item["neg"])], "contradicted")
            self.add(
                "negation",
                kind,
                fact,
                [capsule(base), *self.tail(kind, item["neg"])],
                "contradicted",
            )
            self.add("wrong_subject", kind, fact, [cap(item["wrong"])], "absent")
            self.add("shuffled", kind, fact, [cap(shuffled(fact, self.rng))], "absent")
            if "swap" in item:
                self.add("shuffled", kind, fact, [cap(item["swap"])], "contradicted")
            self.add("absent", kind, fact, [capsule(base)], "absent")
            self.add("absent", kind, fact, [*self.tail(kind, others[0]["fact"])], "absent")

    def blockers(self, items: tuple[tuple[str, str], ...]) -> None:
        for i, (text, near) in enumerate(items):
            other = items[(i + 1) % len(items)][0]
            fixed = f"Fixed: {text}"
            self.add(
                "verbatim",
                "blocker",
                text,
                [capsule({"blockers": [other, text]})],
                "entailed",
                status="open",
            )
            self.add(
                "verbatim",
                "blocker",
                text,
                ["$ npm run build", f"{text}\nexit status 1"],
                "entailed",
                status="open",
            )
            self.add(
                "stale",
                "blocker",
                text,
                [capsule({"completed": [fixed], "blockers": [other]})],
                "contradicted",
                status="open",
            )
            self.add(
                "stale",
                "blocker",
                text,
                [capsule({"blockers": [text]})],
                "contradicted",
                status="resolved",
            )
            self.add(
                "stale",
                "blocker",
                text,
                [capsule({"completed": [fixed], "blockers": [other]})],
                "entailed",
                status="resolved",
            )
            self.add(
                "absent", "blocker", text, [capsule({"blockers": [other]})], "absent", status="open"
            )
            self.add(
                "near_miss",
                "blocker",
                text,
                [capsule({"blockers": [near]})],
                "absent",
                status="open",
            )

    def commands(self, items: tuple[tuple[str, str], ...]) -> None:
        for command, near in items:
            other = "npm run typecheck" if "typecheck" not in command else "npm run build"
            for result, opposite in (("passed", "failed"), ("failed", "passed")):
                attrs = {"command": command, "finalResult": result}
                self.add(
                    "verbatim",
                    "verification",
                    command,
                    [capsule(commands=(other, command), status=result)],
                    "entailed",
                    **attrs,
                )
                self.add(
                    "stale",
                    "verification",
                    command,
                    [capsule(commands=(command,), status=opposite)],
                    "contradicted",
                    **attrs,
                )
            passed = {"command": command, "finalResult": "passed"}
            failed = {"command": command, "finalResult": "failed"}
            self.add(
                "verbatim",
                "verification",
                command,
                [f"Summary of this turn: `{command}` passes; `{other}` passes."],
                "entailed",
                **passed,
            )
            self.add(
                "stale",
                "verification",
                command,
                [f"Summary of this turn: `{command}` passes."],
                "contradicted",
                **failed,
            )
            self.add(
                "verbatim",
                "verification",
                command,
                [f"$ {command}", "FAIL  1 test failed\nexit status 1"],
                "entailed",
                **failed,
            )
            self.add(
                "absent",
                "verification",
                command,
                [capsule(commands=(other,), status="passed")],
                "absent",
                **passed,
            )
            self.add(
                "near_miss",
                "verification",
                command,
                [capsule(commands=(near,), status="passed")],
                "absent",
                **passed,
            )

    def superseded(self, items: tuple[dict[str, str], ...]) -> None:
        for item in items:
            old, new, report = item["old"], item["new"], item["report"]
            decisions = [{"decision": old, "rationale": None}]
            self.add(
                "stale",
                "decision",
                old,
                [capsule({"decisions": decisions})],
                "contradicted",
                status="superseded",
            )
            self.add(
                "stale",
                "decision",
                old,
                [
                    capsule(
                        {"decisions": [{"decision": new, "rationale": None}], "completed": [report]}
                    )
                ],
                "entailed",
                status="superseded",
            )
            self.add(
                "stale",
                "decision",
                old,
                [capsule({"completed": [report]})],
                "contradicted",
                status="active",
            )
            self.add(
                "absent",
                "decision",
                old,
                [capsule({"decisions": [{"decision": new, "rationale": None}]})],
                "absent",
                status="superseded",
            )

    def files(self, items: tuple[tuple[str, str], ...]) -> None:
        for i, (path, near) in enumerate(items):
            filler = FILLER_FILES[i % len(FILLER_FILES)]
            for kind, same, other in (
                ("file_modified", "modified", "read"),
                ("file_read", "read", "modified"),
            ):
                self.add(
                    "verbatim",
                    kind,
                    path,
                    [capsule(**{same: (filler, path)})],
                    "entailed",
                    path=path,
                )
                self.add(
                    "swapped_lists",
                    kind,
                    path,
                    [capsule(**{other: (path,), same: (filler,)})],
                    "contradicted",
                    path=path,
                )
                self.add(
                    "near_miss",
                    kind,
                    path,
                    [capsule(**{same: (near, filler)})],
                    "absent",
                    path=path,
                )
            self.add(
                "verbatim",
                "file_modified",
                path,
                [
                    f'edit {{"path": "{path}", "edits": [...]}}',
                    f"Edit applied successfully to {path}",
                ],
                "entailed",
                path=path,
            )
            self.add(
                "verbatim",
                "file_read",
                path,
                [f'read {{"path": "{path}"}}', "   1  export const x = 1;"],
                "entailed",
                path=path,
            )
            self.add("absent", "file_read", path, [capsule(read=(filler,))], "absent", path=path)

    def write(self, path: Path) -> None:
        text = "".join(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n" for c in self.cases)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)


def build(
    split: str, seed: int, prose, blockers, commands, superseded, files, leads=TAIL_LEADS
) -> Writer:
    writer = Writer(split, seed, leads)
    writer.prose(prose)
    writer.blockers(blockers)
    writer.commands(commands)
    writer.superseded(superseded)
    writer.files(files)
    return writer


def tails(sources: list[tuple[str, tuple[dict[str, Any], ...], dict[str, str]]]) -> Writer:
    """The tails split: each bank's wrong-subject item said in a retained tail, behind its own
    split's lead-in ("User: the outcome I want: <the sentence about another subject>"), where
    the other splits hold it only in a capsule section. A matcher's verdict should not depend
    on a speaker's lead-in; these cases measure whether it does. Written in stop 46 from the
    banks' existing items (no new text), so a case is blind when its source split is; its
    source is the case's ``source``."""
    writer = Writer("tails", 0)
    for split, prose, leads in sources:
        for item in prose:
            if "wrong" not in item:
                continue
            kind = item["kind"]
            context = tail_statement(kind, item["wrong"], leads)
            writer.add("wrong_subject", kind, item["fact"], context, "absent")
            writer.cases[-1]["source"] = split
    return writer


def main() -> None:
    dev = build(
        "dev",
        17,
        banks.DEV_PROSE,
        banks.DEV_BLOCKERS,
        banks.DEV_COMMANDS,
        banks.DEV_SUPERSEDED,
        banks.DEV_FILES,
    )
    # Second-round dev items, appended so the first round's cases keep their bytes.
    dev.prose(banks.DEV2_PROSE)
    dev.blockers(banks.DEV2_BLOCKERS)
    # Third-round dev items, appended likewise.
    dev.prose(banks.DEV3_PROSE)
    dev.superseded(banks.DEV3_SUPERSEDED)
    # Fourth-round dev items, appended likewise.
    dev.prose(banks.DEV4_PROSE)
    dev.superseded(banks.DEV4_SUPERSEDED)
    # Fifth-round dev items, appended likewise.
    dev.prose(banks.DEV5_PROSE)
    dev.write(HERE / "dev.jsonl")
    dev_prose = (
        banks.DEV_PROSE + banks.DEV2_PROSE + banks.DEV3_PROSE + banks.DEV4_PROSE + banks.DEV5_PROSE
    )
    sources = [("dev", dev_prose, TAIL_LEADS)]
    # Each later split: its name, seed, bank prefix in banks.py and tail lead-ins.
    for split, seed, prefix, leads in (
        ("heldout", 1017, "HELDOUT", TAIL_LEADS),
        ("fresh", 2017, "FRESH", TAIL_LEADS),
        ("fresh2", 3017, "FRESH2", TAIL_LEADS),
        ("fresh3", 4017, "FRESH3", FRESH3_LEADS),
        ("fresh4", 5017, "FRESH4", FRESH4_LEADS),
        ("fresh5", 6017, "FRESH5", FRESH5_LEADS),
        ("fresh6", 6018, "FRESH6", FRESH6_LEADS),
        ("fresh7", 6019, "FRESH7", FRESH7_LEADS),
        ("fresh8", 6020, "FRESH8", FRESH8_LEADS),
        ("fresh9", 6021, "FRESH9", FRESH9_LEADS),
        ("fresh10", 6022, "FRESH10", FRESH10_LEADS),
        ("fresh11", 6023, "FRESH11", FRESH11_LEADS),
        ("fresh12", 6024, "FRESH12", FRESH12_LEADS),
        ("fresh13", 6025, "FRESH13", FRESH13_LEADS),
        ("fresh14", 6026, "FRESH14", FRESH14_LEADS),
        ("fresh15", 6027, "FRESH15", FRESH15_LEADS),
    ):
        parts = ("PROSE", "BLOCKERS", "COMMANDS", "SUPERSEDED", "FILES")
        bank = [getattr(banks, f"{prefix}_{part}") for part in parts]
        build(split, seed, *bank, leads).write(HERE / f"{split}.jsonl")
        sources.append((split, bank[0], leads))
    tails(sources).write(HERE / "tails.jsonl")


if __name__ == "__main__":
    main()
