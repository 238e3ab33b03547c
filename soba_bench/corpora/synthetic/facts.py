"""The plan of planted facts: a per-session scenario (project, files, goal, constraints) and a
list of beats, each due at an entry position, that open, repeat, resolve or supersede a fact.

Positions are tree-entry counts: a beat becomes due once the session has that many entries.
Beats of one fact share a ``chain`` and never land in the same model iteration, so a blocker
is always resolved in a later iteration than the one that opened it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.config import SyntheticConfig

USER, TEXT, CALL, SKILL = "user", "text", "call", "skill"


@dataclass(frozen=True)
class Beat:
    position: int
    seq: int
    slot: str  # USER opens a turn; TEXT is assistant commentary; CALL a tool call; SKILL an entry
    action: str
    chain: str | None = None
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class Scenario:
    project: str
    pm: str
    areas: list[tuple[str, str, tuple[str, ...], str]]
    files: list[str]  # live: a rename replaces the old path
    tests: list[str]
    forbidden: str
    goals: list[str]
    constraints: list[str]
    skills: list[dict[str, str]]

    @property
    def cwd(self) -> str:
        return f"/workspace/{self.project}"

    def verification_commands(self) -> list[str]:
        pm = self.pm
        return [f"{pm} test {t}" for t in self.tests] + [
            f"{pm} run lint",
            f"{pm} run build",
            f"{pm} run typecheck",
        ]


def fill(template: str, scen: Scenario, rng: random.Random) -> str:
    """Format a bank template with draws from the scenario."""
    area = rng.choice(scen.areas)
    ident = rng.choice(banks.IDENTS)
    alt = rng.choice(banks.ALTERNATIVES)
    values: dict[str, Any] = {
        "component": area[1],
        "dir": area[0],
        "path": rng.choice([f for f in scen.files if f.startswith("src/")]),
        "thing": rng.choice(banks.IDENTS),
        "ident": ident,
        "Ident": ident.capitalize(),
        "n": rng.choice((3, 5, 8, 12, 30, 64, 250, 500, 1000)),
        "case": rng.choice(banks.CASES),
        "test": rng.choice(scen.tests),
        "pm": scen.pm,
        "forbidden": scen.forbidden,
    }
    values["alt"] = alt.format(**values)
    values["alt_short"] = values["alt"].split(" ")[0] + " " + values["alt"].split(" ")[-1]
    return template.format(**values)


def make_scenario(config: SyntheticConfig, rng: random.Random) -> Scenario:
    areas: list[tuple[str, str, tuple[str, ...], str]] = rng.sample(banks.AREAS, 3)
    files = [f"{d}/{name}" for d, _, names, _ in areas for name in names]
    tests = [f"tests/{t}.test.ts" for _, _, _, t in areas]
    files += tests + list(banks.SHARED_FILES)
    scen = Scenario(
        project=rng.choice(banks.PROJECTS),
        pm=rng.choice(banks.PACKAGE_MANAGERS),
        areas=areas,
        files=files,
        tests=tests,
        forbidden=rng.choice(banks.FORBIDDEN_DIRS),
        goals=[],
        constraints=[],
        skills=[],
    )
    base = fill(rng.choice(banks.GOALS), scen, rng)
    scen.goals.append(base)
    extensions = rng.sample(banks.GOAL_EXTENSIONS, min(config.goal_refinements, 5))
    for i in range(config.goal_refinements):
        ext = fill(extensions[i % len(extensions)], scen, rng)
        scen.goals.append(f"{scen.goals[-1]}, and {ext}")
    chosen = rng.sample(banks.CONSTRAINTS, config.constraints)
    scen.constraints = [fill(c, scen, rng) for c in chosen]
    for name, scope in rng.sample(banks.SKILLS, config.skills):
        scen.skills.append(
            {
                "name": name,
                "scope": scope,
                "revision": f"r{rng.randint(1, 9)}",
                "contentHash": "sha256:" + f"{rng.getrandbits(256):064x}",
            }
        )
    return scen


class _Planner:
    def __init__(self, config: SyntheticConfig, target: int, rng: random.Random) -> None:
        self.config, self.target, self.rng = config, target, rng
        self.beats: list[Beat] = []
        # The last due position leaves room to write every beat before the target.
        tail = 2 * config.max_parallel_calls + 4
        self.last = max(1, min(int(target * 0.97), target - 3 * tail))

    def at(self, lo: float, hi: float) -> int:
        return min(self.last, int(self.target * self.rng.uniform(lo, hi)))

    def add(self, position: int, slot: str, action: str, chain=None, **params) -> None:
        seq = len(self.beats)
        self.beats.append(Beat(position, seq, slot, action, chain, params))

    def gap(self, start: int, lo: float, hi: float, minimum: int = 12) -> int:
        span = max(minimum, int(self.target * self.rng.uniform(lo, hi)))
        return min(self.last, start + span)

    def stratified(self, n: int, lo: float, hi: float) -> list[int]:
        width = (hi - lo) / max(n, 1)
        return [self.at(lo + i * width, lo + (i + 1) * width) for i in range(n)]


def make_plan(config: SyntheticConfig, target: int, rng: random.Random) -> list[Beat]:
    """Every beat of one session, sorted by position (ties keep plan order)."""
    p = _Planner(config, target, rng)
    c = config
    p.add(0, USER, "goal", "goal", index=0)
    for i, pos in enumerate(sorted(p.at(0.2, 0.85) for _ in range(c.goal_refinements))):
        p.add(pos, USER, "goal", "goal", index=i + 1)
    for i in range(c.constraints):
        p.add(0 if i == 0 else p.at(0.05, 0.6), USER, "constraint", f"constraint-{i}", index=i)
    for i in range(c.skills):
        pos = 1 if i == 0 else p.at(0.1, 0.5)
        p.add(pos, SKILL, "skill_on", f"skill-{i}", index=i)
        if i == 0 and c.skills >= 2:
            p.add(p.at(0.55, 0.8), SKILL, "skill_off", f"skill-{i}", index=i)
    n_dec = c.count(c.decisions_per_1k, target)
    superseded = set(rng.sample(range(n_dec), round(n_dec * c.superseded_decision_share)))
    for i, pos in enumerate(p.stratified(n_dec, 0.03, 0.85)):
        p.add(pos, TEXT, "decision", f"decision-{i}", protected=i in superseded)
        if i in superseded:
            p.add(p.gap(pos, 0.03, 0.2), TEXT, "decision_change", f"decision-{i}")
    for pos in sorted(p.at(0.3, 0.8) for _ in range(c.plan_pivots)):
        p.add(pos, CALL, "pivot")
    for i, pos in enumerate(p.stratified(c.count(c.blockers_per_1k, target), 0.03, 0.8)):
        chain = f"blocker-{i}"
        p.add(pos, CALL, "blocker_open", chain, open_at_end=False)
        end = p.gap(pos, 0.02, 0.12)
        if rng.random() < 0.3:
            p.add((pos + end) // 2, CALL, "blocker_again", chain)
        p.add(end, CALL, "blocker_resolve", chain)
    for i in range(c.open_blockers):
        chain = f"open-blocker-{i}"
        p.add(p.at(0.45, 0.85), CALL, "blocker_open", chain, open_at_end=True)
        p.add(p.at(0.93, 0.97), CALL, "blocker_again", chain)
    n_next = c.count(c.next_steps_per_1k, target)
    keep_open = min(2, n_next)
    for i, pos in enumerate(p.stratified(n_next, 0.02, 0.9)):
        p.add(pos, TEXT, "next_step", f"next-{i}")
        if i < n_next - keep_open:
            p.add(p.gap(pos, 0.02, 0.15), TEXT, "next_step_done", f"next-{i}")
    for i, pos in enumerate(p.stratified(c.count(c.clarifications_per_1k, target), 0.08, 0.85)):
        p.add(pos, TEXT, "clarify_wait", f"clarify-{i}")
        p.add(min(p.last, pos + rng.randint(3, 12)), CALL, "clarify_ask", f"clarify-{i}")
    for pos in p.stratified(c.count(c.milestones_per_1k, target), 0.1, 0.95):
        p.add(pos, CALL, "milestone")
    for i in range(c.renames):
        p.add(p.at(0.3, 0.7), CALL, "rename", f"rename-{i}")
    for pos in p.stratified(c.count(c.distractors_per_1k, target), 0.05, 0.95):
        p.add(pos, TEXT if rng.random() < 0.5 else CALL, "distractor")
    for pos in p.stratified(c.count(c.secrets_per_1k, target), 0.05, 0.95):
        p.add(pos, CALL, "secret")
    for pos in p.stratified(c.count(c.injections_per_1k, target), 0.05, 0.95):
        p.add(pos, CALL, "injection")
    for pos in p.stratified(c.count(c.large_outputs_per_1k, target), 0.05, 0.95):
        p.add(pos, CALL, "large_output")
    return sorted(p.beats, key=lambda b: (b.position, b.seq))
