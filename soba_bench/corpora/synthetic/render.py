"""Planted beats -> pieces. Each renderer returns what goes into the transcript and a callback
that records the fact in the ledger once the entry ids are known."""

from __future__ import annotations

from collections.abc import Callable

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic import blockers as B
from soba_bench.corpora.synthetic import noise_beats as N
from soba_bench.corpora.synthetic.facts import Beat, fill
from soba_bench.corpora.synthetic.pieces import CallPiece, Context, SkillPiece, TextPiece, UserPiece

Piece = UserPiece | TextPiece | CallPiece | SkillPiece
CHECKPOINT_OK = "Checkpoint recorded"
# How a decision revision reads; with ``revisions_name_replaced`` it names the decision it
# replaces after REPLACED_LEAD (the planted summarizer reads the link back).
REVISION_LEAD = "Changing approach: "
REPLACED_LEAD = "the earlier decision to "


def goal(ctx: Context, beat: Beat) -> UserPiece:
    index = beat.params["index"]
    text = ctx.scen.goals[index]

    def emit(eid: str) -> None:
        keywords = tuple(a[1] for a in ctx.scen.areas if a[1] in text)
        fid = ctx.ledger.new("goal", text, eid, keywords=keywords, index=index)
        previous = ctx.chains.get("goal", {}).get("fid")
        if previous:
            ctx.ledger.supersede(previous, fid)
        ctx.chains["goal"] = {"fid": fid}

    return UserPiece(f"{text}." if index == 0 else f"Change of plan: {text}.", emit)


def constraint(ctx: Context, beat: Beat) -> UserPiece:
    text = ctx.scen.constraints[beat.params["index"]]
    return UserPiece(f"Constraint: {text}.", lambda eid: ctx.ledger.new("constraint", text, eid))


def skill_on(ctx: Context, beat: Beat) -> SkillPiece:
    skill = ctx.scen.skills[beat.params["index"]]

    def emit(eid: str) -> None:
        fid = ctx.ledger.new(
            "skill",
            skill["name"],
            eid,
            keywords=(skill["name"],),
            scope=skill["scope"],
            revision=skill["revision"],
            contentHash=skill["contentHash"],
        )
        ctx.chains[beat.chain] = {"fid": fid}

    return SkillPiece("activate", skill, emit)


def skill_off(ctx: Context, beat: Beat) -> SkillPiece:
    skill = ctx.scen.skills[beat.params["index"]]
    fid = ctx.chains[beat.chain]["fid"]
    return SkillPiece("deactivate", skill, lambda eid: ctx.ledger.resolve(fid, eid))


def decision(ctx: Context, beat: Beat) -> TextPiece:
    rng, scen = ctx.rng, ctx.scen
    text = ctx.unique("decision", lambda: fill(rng.choice(banks.DECISIONS), scen, rng))
    why = fill(rng.choice(banks.RATIONALES), scen, rng)

    def emit(eid: str) -> None:
        fid = ctx.ledger.new("decision", text, eid, rationale=why)
        ctx.chains[beat.chain] = {"fid": fid}
        if beat.params.get("protected"):
            ctx.protected.add(fid)

    return TextPiece(f"I decided to {text} because {why}.", emit)


def decision_change(ctx: Context, beat: Beat) -> TextPiece:
    rng, scen = ctx.rng, ctx.scen
    old = ctx.chains[beat.chain]["fid"]
    text = ctx.unique("decision", lambda: fill(rng.choice(banks.DECISIONS), scen, rng))
    why = fill(rng.choice(banks.RATIONALES), scen, rng)

    def emit(eid: str) -> None:
        fid = ctx.ledger.new("decision", text, eid, rationale=why, supersedes=old)
        ctx.ledger.supersede(old, fid)
        ctx.protected.discard(old)

    if ctx.config.revisions_name_replaced:
        replaced = ctx.ledger.get(old).text
        return TextPiece(
            f"{REVISION_LEAD}instead of {REPLACED_LEAD}{replaced}, I decided to {text}, "
            f"because {why}.",
            emit,
        )
    return TextPiece(f"{REVISION_LEAD}I decided to {text} instead, because {why}.", emit)


def pivot(ctx: Context, beat: Beat) -> CallPiece:
    rng, scen = ctx.rng, ctx.scen
    reason_t, direction_t = rng.choice(banks.PIVOTS)
    reason = ctx.unique("checkpoint", lambda: fill(reason_t, scen, rng))
    direction = fill(direction_t, scen, rng)
    args = {"kind": "plan_pivot", "reason": reason, "nextDirection": direction}

    def emit(call: str, _out: str) -> None:
        old = ctx.ledger.latest_active("decision", exclude=ctx.protected)
        fid = ctx.ledger.new(
            "checkpoint", reason, call, kind="plan_pivot", nextDirection=direction, supersedes=old
        )
        if old:
            ctx.ledger.supersede(old, fid)

    return CallPiece("checkpoint", args, CHECKPOINT_OK, on_emit=emit)


def milestone(ctx: Context, beat: Beat) -> CallPiece:
    rng, scen, ledger = ctx.rng, ctx.scen, ctx.ledger
    number = len(ledger.of_kind("checkpoint")) + 1
    reason = f"Milestone {number}: " + fill(rng.choice(banks.MILESTONES), scen, rng)
    completed = ctx.recent_completed[-3:]
    pending_ids = ctx.active_next[:3]
    pending = [ledger.get(fid).text for fid in pending_ids]
    args: dict = {"kind": "milestone", "reason": reason}
    if ctx.active_next:
        args["nextDirection"] = ledger.get(ctx.active_next[-1]).text
    args["completed"] = completed
    args["pending"] = pending
    mentioned = [*pending_ids, *ctx.active_next[-1:]]
    ctx.recent_completed.clear()

    def emit(call: str, _out: str) -> None:
        ledger.new(
            "checkpoint",
            reason,
            call,
            kind="milestone",
            nextDirection=args.get("nextDirection"),
            completed=completed,
            pending=pending,
        )
        for fid in mentioned:
            ledger.see(fid, call)

    return CallPiece("checkpoint", args, CHECKPOINT_OK, on_emit=emit)


def next_step(ctx: Context, beat: Beat) -> TextPiece:
    rng, scen = ctx.rng, ctx.scen
    text = ctx.unique("next_step", lambda: fill(rng.choice(banks.NEXT_STEPS), scen, rng))

    def emit(eid: str) -> None:
        fid = ctx.ledger.new("next_step", text, eid)
        ctx.chains[beat.chain] = {"fid": fid}
        ctx.active_next.append(fid)

    return TextPiece(f"Next step: {text}.", emit)


def next_step_done(ctx: Context, beat: Beat) -> TextPiece:
    fid = ctx.chains[beat.chain]["fid"]
    text = ctx.ledger.get(fid).text

    def emit(eid: str) -> None:
        ctx.ledger.resolve(fid, eid)
        ctx.active_next.remove(fid)
        ctx.recent_completed.append(text)

    return TextPiece(f"Completed: {text}.", emit)


_QUALIFIERS = ("", " for the v2 path", " in production", " for free-plan tenants", " by default")


def clarify_wait(ctx: Context, beat: Beat) -> TextPiece:
    rng, scen = ctx.rng, ctx.scen
    topic, options = rng.choice(banks.CLARIFICATIONS)
    component = rng.choice(scen.areas)[1]

    def make() -> str:
        return f"Which {topic} should the {component} use{rng.choice(_QUALIFIERS)}?"

    question = ctx.unique("clarification", make)
    wait = f"ask the user: {question}"

    def emit(eid: str) -> None:
        fid = ctx.ledger.new("next_step", wait, eid, waitsFor="clarification")
        ctx.chains[beat.chain] = {"wait": fid, "question": question, "options": options}
        ctx.active_next.append(fid)

    return TextPiece(f"Next step: {wait}", emit)


def clarify_ask(ctx: Context, beat: Beat) -> CallPiece:
    rng, state = ctx.rng, ctx.chains[beat.chain]
    question, options = state["question"], state["options"]
    option_id, label = rng.choice(options)
    output = f"User selected: {label}"
    answer = label
    if rng.random() < 0.4:
        details = fill(
            "keep it simple for the {component} and revisit after {n} days", ctx.scen, rng
        )
        output += f"\nOther details: {details}"
        answer = f"{label}; {details}"
    args = {"question": question, "options": [{"id": i, "label": lab} for i, lab in options]}

    def emit(call: str, out: str) -> None:
        ctx.ledger.new(
            "clarification",
            question,
            call,
            keywords=(label,),
            answer=answer,
            optionId=option_id,
            answerEntryId=out,
        )
        ctx.ledger.resolve(state["wait"], out, see=False)
        ctx.active_next.remove(state["wait"])

    return CallPiece("ask_user", args, output, on_emit=emit)


def rename(ctx: Context, beat: Beat) -> CallPiece | None:
    rng, scen, ledger = ctx.rng, ctx.scen, ctx.ledger
    candidates = [f for f in ctx.sources() if "/internal/" not in f and f not in ctx.busy]
    modified = {d.text for d in ledger.of_kind("file_modified", "active")}
    preferred = [f for f in candidates if f in modified] or candidates
    if not preferred:
        return None
    old = rng.choice(preferred)
    folder, name = old.rsplit("/", 1)
    new = f"{folder}/internal/{name}"
    scen.files[scen.files.index(old)] = new
    others = [f" M {p}" for p in rng.sample(ctx.sources(), min(2, len(ctx.sources())))]
    output = "\n".join([f"R  {old} -> {new}", *others])
    args = {"command": f"git mv {old} {new} && git status --short"}
    return CallPiece(
        "bash", args, output, on_emit=lambda call, out: ledger.rename(old, new, out, call)
    )


RENDERERS: dict[str, Callable[[Context, Beat], Piece | None]] = {
    "goal": goal,
    "constraint": constraint,
    "skill_on": skill_on,
    "skill_off": skill_off,
    "decision": decision,
    "decision_change": decision_change,
    "pivot": pivot,
    "milestone": milestone,
    "next_step": next_step,
    "next_step_done": next_step_done,
    "clarify_wait": clarify_wait,
    "clarify_ask": clarify_ask,
    "rename": rename,
    "distractor": N.distractor,
    "secret": N.secret,
    "injection": N.injection,
    "large_output": N.large_output,
    "blocker_open": B.blocker_open,
    "blocker_again": B.blocker_again,
    "blocker_resolve": B.blocker_resolve,
}


def render(ctx: Context, beat: Beat) -> Piece | None:
    return RENDERERS[beat.action](ctx, beat)
