"""State availability and outcomes at the fixed evaluation points: a hand-built session whose
numbers are worked out below, the one-pass input walk checked against SOBA's buildInput (and
the rivals' inputs) at every request of real replays, and each comparison strategy charged its
own input tokens."""

from __future__ import annotations

import dataclasses
import json

import pytest

from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.compactors.inputs import rival_input
from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.engine.config import build_engine_config
from soba_bench.meter import get_meter
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.scoring.points import PointWalk, requests_of, sample_keys
from soba_bench.scoring.retention import label_of
from soba_bench.scoring.scorer import ScoreConfig
from soba_bench.scoring.session import SCORERS, score_replay
from soba_bench.scoring.views import capsule_view
from soba_bench.session import entries as E
from soba_bench.session.build_input import build_input
from soba_bench.session.entries import Entry
from tests.unit.corpora.synthetic_helpers import SMALL_WINDOW, generated

ONLY = ScoreConfig(scorers=("availability", "outcomes"))


def item(eid: str, item: dict) -> Entry:
    return Entry(E.ITEM, {"type": "item", "id": eid, "item": item})


def user(eid: str, text: str) -> Entry:
    return item(
        eid, {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
    )


def assistant(eid: str, text: str) -> Entry:
    return item(
        eid,
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "output_text", "text": text}],
        },
    )


CAPSULE = {
    "type": "context_capsule",
    "id": "cap1",
    "checkpointId": "cp1",
    "portableState": {"goal": "build the config parser", "decisions": []},
    "artifacts": {"readFiles": [], "modifiedFiles": []},
    "provenance": {"firstKeptEntryId": "c1"},
}
# u1 a1 c1 o1 [capsule] u2 a2 u3 a3: the capsule keeps c1 onwards and carries the goal only.
REPLAYED = [
    user("u1", "Please build the config parser"),
    assistant("a1", "Decision: store settings in sqlite tables"),
    item(
        "c1",
        {
            "type": "function_call",
            "name": "read",
            "arguments": json.dumps({"path": "src/a.py"}),
            "call_id": "k1",
        },
    ),
    item("o1", {"type": "function_call_output", "call_id": "k1", "output": "def parse(): ..."}),
    Entry(E.CONTEXT_CAPSULE, CAPSULE),
    user("u2", "carry on"),
    assistant("a2", "working"),
    user("u3", "Constraint: never open a network socket"),
    assistant("a3", "understood"),
]
CONFIG_LINE = {
    "kind": "config",
    "contextWindow": 1000,
    "maxOutputTokens": 100,
    "systemPromptTokens": 10,
    "toolSchemaTokens": 5,
    "strategy": "deterministic-only",
}


def check(index: int, before: str, turn: int, ok: bool = True) -> dict:
    return {
        "kind": "check",
        "entryIndex": index,
        "beforeEntryId": before,
        "turn": turn,
        "canProceed": ok,
    }


LINES = [
    CONFIG_LINE,
    check(1, "a1", 1),  # R1
    {  # R2: the flush before u2 compacts (the capsule) and proceeds
        "kind": "attempt",
        "entryIndex": 4,
        "beforeEntryId": "u2",
        "turn": 1,
        "outcome": "completed",
        "strategy": "deterministic",
        "reason": "Compaction completed using deterministic strategy",
        "canProceed": True,
    },
    check(5, "a2", 2, ok=False),  # R3: refused
    check(7, "a3", 3),  # R4
    {"kind": "summary"},
]
FACTS = (
    Fact("G", "goal", "build the config parser", entry_ids=("u1",)),
    Fact("D", "decision", "store settings in sqlite tables", entry_ids=("a1",)),
    Fact("F", "file_read", "src/a.py", entry_ids=("c1", "o1"), attributes={"path": "src/a.py"}),
    Fact("C", "constraint", "never open a network socket", entry_ids=("u3",)),
)
TRUTH = GroundTruth("s", None, {}, FACTS)


def test_availability_on_a_hand_built_session():
    scores = score_replay("s", REPLAYED, TRUTH, ONLY, LINES)
    # R1 (before a1): goal live and in the tail.                      goal 1/1
    # R2 (before u2): capsule + tail c1 o1. Goal from the capsule, the file from c1, the
    #     decision (a1) neither in the tail nor in the capsule.      goal 1/1 decision 0/1 file 1/1
    # R3 (before a2): refused, nothing sent.                          goal 0/1 decision 0/1 file 0/1
    # R4 (before a3): + the constraint from u3 in the tail.           goal 1/1 decision 0/1 file 1/1
    #                                                                 constraint 1/1
    # goal 3/4, decision 0/3, file 2/3, constraint 1/1; macro over the four kinds.
    (row,) = scores.availability
    assert row["availability.goal"] == pytest.approx(0.75)
    assert row["availability.decision"] == 0.0
    assert row["availability.file"] == pytest.approx(2 / 3)
    assert row["availability.constraint"] == 1.0
    assert row["availability.blocker"] is None  # no blocker: not a kind of this session
    assert row["availability"] == pytest.approx((0.75 + 0 + 2 / 3 + 1) / 4)
    assert row["points"] == 4 and row["refusedPoints"] == 1
    assert [p["refused"] for p in scores.points] == [False, False, True, False]
    assert scores.points[2]["live"] == {"goal": 1, "decision": 1, "file": 1}
    assert scores.points[2]["visible"] == {}


def test_unknown_kinds_are_not_scored():
    truth = GroundTruth("s", None, {}, FACTS, unknown_kinds=("decision",))
    (row,) = score_replay("s", REPLAYED, truth, ONLY, LINES).availability
    assert row["availability.decision"] is None
    assert row["availability"] == pytest.approx((0.75 + 2 / 3 + 1) / 3)


def test_outcomes_of_the_hand_built_session():
    (row,) = score_replay("s", REPLAYED, None, ONLY, LINES).outcomes
    meter = get_meter("soba")
    sent = []
    for end in (1, 5, 8):  # R1, R2, R4: the branch before the request
        items = build_input(REPLAYED[:end]).items
        sent.append(sum(meter.count_item(i) for i in items) + 15)
    assert row["requests"] == 4 and row["refusedRequests"] == 1 and row["blockedTurns"] == 1
    assert row["attempts"] == 1 and row["completed"] == 1
    assert row["degradedCapsules"] == 0 and row["degradedRate"] == 0.0
    assert row["inputTokensBilled"] == sum(sent)
    assert row["peakContextTokens"] == max(sent)
    assert row["overflows"] == 0


def test_a_model_first_chain_written_by_the_deterministic_strategy_is_degraded():
    config = {**CONFIG_LINE, "strategy": "planted+deterministic"}
    (row,) = score_replay("s", REPLAYED, None, ONLY, [config, *LINES[1:]]).outcomes
    assert row["degradedCapsules"] == 1 and row["degradedRate"] == 1.0


def test_a_refused_request_without_truth_still_counts_and_availability_needs_truth():
    scores = score_replay("s", REPLAYED, None, ONLY, LINES)
    assert scores.availability == [] and scores.outcomes[0]["refusedRequests"] == 1


def test_the_sample_is_seeded_and_the_same_for_every_job():
    keys = [f"{i}:e{i}" for i in range(50)]
    chosen = sample_keys(keys, 10, seed=3)
    assert len(chosen) == 10 and chosen == sample_keys(list(reversed(keys)), 10, seed=3)
    assert chosen != sample_keys(keys, 10, seed=4)
    assert sample_keys(keys, None) == set(keys)
    scores = score_replay(
        "s", REPLAYED, TRUTH, ScoreConfig(scorers=("availability",), max_points=2), LINES
    )
    assert scores.availability[0]["points"] == 2 and scores.availability[0]["sampled"]


def test_scorers_are_registered_classes_and_unknown_names_list_the_valid_ones():
    assert {"availability", "outcomes", "retention", "soba_quality", "failure_modes"} <= set(
        SCORERS
    )
    assert SCORERS.get("availability").needs_truth and not SCORERS.get("outcomes").needs_truth
    with pytest.raises(Exception, match="valid names: availability, failure_modes"):
        ScoreConfig(scorers=("availabilty",))


@pytest.mark.parametrize("variant", ["soba-0.6.14", "soba-0.6.14+newest-blockers"])
def test_the_walk_sends_what_build_input_sends_at_every_request(variant):
    session, _ = generated(1200, seed=2)
    trace = replay_session(
        session, build_engine_config(SMALL_WINDOW), ReplayOptions(variant=variant)
    )
    assert trace.capsules
    lines = trace.check_lines()
    walk = PointWalk(trace.entries, lines, get_meter("soba"))
    points = walk.walk(requests_of(lines))
    assert len(points) == trace.summary()["preflights"]
    meter = get_meter("soba")
    for point in points:
        expected = list(build_input(trace.entries[: point.end]).items)
        assert walk.model_input(point) == expected
        assert point.tokens == sum(meter.count_item(i) for i in expected)


# The peers pin items between their summary and the tail (Codex the newest user messages,
# OpenHands the head): the walk must send them, count their tokens and show their facts.
PEERS = ("codex", "claude_code", "openhands", "gemini_cli", "pi", "opencode")


@pytest.mark.parametrize("strategy", ["observation_masking", "truncation", "none", *PEERS])
def test_the_walk_sends_what_a_rival_sends(strategy):
    session, _ = generated(900, seed=4)
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions())
    trace = get_compactor(strategy)(session, ctx).trace
    lines = trace.check_lines()
    walk = PointWalk(trace.entries, lines, get_meter("soba"))
    meter = get_meter("soba")
    state: dict = {}
    requests = requests_of(lines)
    pinned = 0
    for request, point in zip(requests, walk.walk(requests), strict=True):
        for line in request.attempts:
            if line.get("outcome") == "completed":
                state = line
        expected = rival_input(trace.entries[: point.end], state)
        assert walk.model_input(point) == expected
        assert point.tokens == sum(meter.count_item(i) for i in expected)
        pinned += len(point.pinned)
    if strategy in ("codex", "openhands"):  # the two that pin: checked on real pins
        assert pinned > 0


@pytest.mark.parametrize(
    "strategy", ["soba", "observation_masking", "truncation", "none", "hybrid", *PEERS]
)
def test_each_strategy_is_billed_what_its_barriers_let_through(strategy):
    """The outcomes' input tokens billed, rebuilt from positions on the branch, equal what
    the replay itself measured for every sent request (a check's effective tokens, an
    attempt's tokens after it): a strategy is charged its own input, pinned items included
    (they were missing for Codex and OpenHands until 2026-12-06)."""
    session, truth = generated(900, seed=4)
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions())
    trace = get_compactor(strategy)(session, ctx).trace
    lines = trace.check_lines()
    (row,) = score_replay(
        "s", trace.entries, truth, ScoreConfig(scorers=("outcomes",)), lines
    ).outcomes
    sent = [
        line["measuredTokensAfter"] if line["kind"] == "attempt" else line["effectiveTokens"]
        for line in lines
        if line.get("kind") in ("check", "attempt") and line.get("canProceed")
    ]
    assert row["requests"] > 100 and (row["attempts"] > 0 or strategy == "none")
    assert row["inputTokensBilled"] == sum(sent)


def test_each_comparison_strategy_is_charged_its_own_tokens():
    session, truth = generated(1200, seed=1, exit_code_share=0.0)
    trace = replay_session(session, build_engine_config(SMALL_WINDOW))
    scores = score_replay(
        "s", trace.entries, truth, ScoreConfig(scorers=("retention",)), trace.check_lines()
    )
    meter = get_meter("soba")
    originals = [e for e in trace.entries if e.kind != E.CONTEXT_CAPSULE]
    rows = {(r["strategy"], r["generation"]): r for r in scores.summaries if r["view"] == "input"}
    checked = 0
    for (strategy, generation), row in rows.items():
        if strategy != "none":
            continue
        history = sum(meter.count_item(e.item) for e in originals[: row["point"]] if e.item)
        soba = rows[("soba", generation)]["inputTokens"]
        # no compaction sends the whole history, not SOBA's compacted input
        assert row["inputTokens"] == history
        if generation != "final":
            assert row["inputTokens"] > soba
            checked += 1
    assert checked >= 2


def test_a_bad_point_limit_is_an_input_error():
    from soba_bench.errors import InputError

    with pytest.raises(InputError, match=r"scorer\.max_points"):
        ScoreConfig(max_points=0)


def oracle_points(ctx):
    """The straightforward availability of every request: all live facts checked against the
    whole input at each point (what the incremental state must reproduce), and the live
    facts the capsule sent there states wrongly. A recorded check is presented by the capsule
    when it reports the check's result at the request. A capsule states wrongly only what was
    so before its retained tail (what its writer read): a fact introduced before it that its
    label contradicts, a recorded check by its result then."""
    from bisect import bisect_right

    from soba_bench.compactors.rival_branch import is_output
    from soba_bench.scoring.match import normalize_path
    from soba_bench.scoring.retention import (
        RETENTION_KINDS,
        evidence,
        fact_path,
        label_of,
        predecessors,
        present,
        stated_results,
    )
    from soba_bench.scoring.scorers.availability import kind_of
    from soba_bench.scoring.verdict import CONTRADICTED, ENTAILED
    from soba_bench.scoring.views import capsule_view

    walk, lifecycle = ctx.walk, ctx.lifecycle
    facts = [f for f in ctx.truth.facts if f.kind in RETENTION_KINDS]
    seen_at = {}  # the entries the truth saw each fact in (the definition is retention's)
    said_at = {}  # a recorded verification's entries, with the result each shows
    for fact in facts:
        ids = evidence(fact)
        seen_at[fact.id] = sorted({walk.position[i] for i in ids if i in walk.position})
        states = stated_results(fact)
        if states is not None:
            said_at[fact.id] = {
                walk.position[i]: r for i, r in states.items() if i in walk.position
            }
    replaced = predecessors(ctx.truth.facts)
    modified = {normalize_path(fact_path(f)) for f in facts if f.kind == "file_modified"}
    made_at = ctx.timeline.replay_points(ctx.replayed)
    rows = []
    for point in ctx.point_inputs:
        shown, wrong, view = set(), set(), None
        if point.prefix is not None:
            capsule = ctx.replayed[point.prefix]
            view = capsule_view(capsule.data, ctx.config.match)
            shown = {f.id for f in facts if f.id not in said_at and present(f, view)}
            kept = (capsule.data.get("provenance") or {}).get("firstKeptEntryId")
            cutoff = ctx.timeline.position.get(kept, made_at[capsule.id])
            for f in facts:
                result = lifecycle.result_at(f, cutoff) if f.id in said_at else None
                if (
                    lifecycle.start[f.id] < cutoff
                    and (f.id not in said_at or result is not None)
                    and label_of(f, view, result=result, replaces=replaced.get(f.id))
                    == CONTRADICTED
                    and not (f.kind == "file_read" and normalize_path(fact_path(f)) in modified)
                ):
                    wrong.add(f.id)
        live, visible, stated_wrongly = {}, {}, 0
        for fact in facts:
            if not lifecycle.live_at(fact, point.at):
                continue
            kind = kind_of(fact)
            live[kind] = live.get(kind, 0) + 1
            stated_wrongly += fact.id in wrong
            seen = seen_at[fact.id][: bisect_right(seen_at[fact.id], point.end - 1)]
            by_capsule = fact.id in shown
            if fact.id in said_at:  # only an entry, or the capsule, showing its result now
                now = lifecycle.result_at(fact, point.at)
                seen = [i for i, r in said_at[fact.id].items() if r == now and i < point.end]
                by_capsule = (
                    view is not None
                    and now is not None
                    and label_of(fact, view, result=now, replaces=replaced.get(fact.id)) == ENTAILED
                )
            in_tail = any(
                (i >= point.start or i in point.pinned)
                and (i > point.masked or not is_output(ctx.replayed[i].item))
                for i in seen
            )
            if not point.request.refused and (fact.kind == "skill" or by_capsule or in_tail):
                visible[kind] = visible.get(kind, 0) + 1
        sent = point.prefix is not None and not point.request.refused
        rows.append((live, visible, stated_wrongly if sent else 0))
    return rows


@pytest.mark.parametrize(
    "strategy,variant",
    [
        ("soba", "soba-0.6.14"),
        ("soba", "soba-0.6.14+newest-blockers"),
        ("observation_masking", "soba-0.6.14"),
        ("truncation", "soba-0.6.14"),
        ("hybrid", "soba-0.6.14"),
        *((peer, "soba-0.6.14") for peer in PEERS),
    ],
)
def test_the_incremental_state_matches_the_straightforward_count(strategy, variant):
    from soba_bench.scoring.scorer import ScoreContext

    session, truth = generated(1200, seed=5)
    ctx = CompactorContext(build_engine_config(SMALL_WINDOW), ReplayOptions(variant=variant))
    trace = get_compactor(strategy)(session, ctx).trace
    config = ScoreConfig(scorers=("availability",), max_points=None)
    scores = score_replay("s", trace.entries, truth, config, trace.check_lines())
    expected = oracle_points(ScoreContext("s", trace.entries, truth, config, trace.check_lines()))
    got = [(p["live"], p["visible"]) for p in scores.points]
    assert len(got) == len(expected) > 100
    assert got == [(live, visible) for live, visible, _ in expected]
    (row,) = scores.availability
    assert row["contradicted"] == sum(wrong for _, _, wrong in expected)


def test_contradiction_and_invented_paths_count_what_the_capsule_sent_states_wrongly():
    state = {
        **CAPSULE["portableState"],
        "decisions": [{"decision": "Do not store settings in sqlite tables"}],
        "completed": ["Read file: src/a.py", "Modified file: src/zz/helpers_v2.py"],
    }
    replayed = list(REPLAYED)
    replayed[4] = Entry(E.CONTEXT_CAPSULE, {**CAPSULE, "portableState": state})
    (row,) = score_replay("s", replayed, TRUTH, ONLY, LINES).availability
    # Sent with the capsule: R2 (live G D F) and R4 (+ C); the negated decision is wrong at
    # both (the capsule states it, negated; the tail no longer holds it).
    assert row["contradicted"] == 2
    assert row["contradiction"] == pytest.approx(2 / 7)
    # Two paths named at each of the two points, one of them never named by the session.
    assert row["pathsNamed"] == 4
    assert row["inventedPaths"] == pytest.approx(0.5)
    assert row["availability.decision"] == 0.0
    # The faithful capsule states nothing wrongly and invents nothing.
    (clean,) = score_replay("s", REPLAYED, TRUTH, ONLY, LINES).availability
    assert clean["contradiction"] == 0.0 and clean["contradicted"] == 0
    assert clean["inventedPaths"] is None  # it names no path at all


def test_a_capsule_is_not_charged_with_what_happened_after_the_span_it_read():
    # The capsule read u1 a1 (it keeps c1 onwards); the constraint comes in u3, later. A
    # capsule that negates it could not have known it: no contradiction (before stop 49 it
    # was one at R4, where the constraint is live). The negated decision (a1) still is.
    state = {
        **CAPSULE["portableState"],
        "decisions": [{"decision": "Do not store settings in sqlite tables"}],
        "constraints": ["Always open a network socket"],
    }
    replayed = list(REPLAYED)
    replayed[4] = Entry(E.CONTEXT_CAPSULE, {**CAPSULE, "portableState": state})
    config = dataclasses.replace(
        ONLY, match=dataclasses.replace(ONLY.match, prose_matcher="verdict")
    )
    constraint = next(f for f in FACTS if f.id == "C")
    assert label_of(constraint, capsule_view(replayed[4].data, config.match)) == "contradicted"
    (row,) = score_replay("s", replayed, TRUTH, config, LINES).availability
    assert row["contradicted"] == 2  # the decision at R2 and R4


def _paths_row(completed: str, truth: GroundTruth = TRUTH, **entries: Entry) -> dict:
    """The availability row of the hand-built session with the capsule's Completed line
    ``completed`` and the entries at the given positions (``at2=...``) replaced."""
    replayed = list(REPLAYED)
    for at, entry in entries.items():
        replayed[int(at.removeprefix("at"))] = entry
    state = {**CAPSULE["portableState"], "completed": [completed]}
    replayed[4] = Entry(E.CONTEXT_CAPSULE, {**CAPSULE, "portableState": state})
    (row,) = score_replay("s", replayed, truth, ONLY, LINES).availability
    return row


def test_a_path_listed_on_its_own_line_is_named_by_the_session():
    # A listing puts each path at the start of a line. Read from the entry's JSON, the
    # newline's escape ("\n") joined the next path ("nsrc/zz/helpers_v2.py"), and a capsule
    # naming a file the session listed was charged an invented path.
    listing = "src/a.py\nsrc/zz/helpers_v2.py\n\tdocs/notes.md\r\nREADME.md"
    row = _paths_row(
        "Read file: src/zz/helpers_v2.py, docs/notes.md and src/made/up.py",
        at3=item("o1", {"type": "function_call_output", "call_id": "k1", "output": listing}),
    )
    # Three paths named at each of the two points sent with the capsule; only src/made/up.py
    # is not in the session.
    assert row["pathsNamed"] == 6
    assert row["inventedPaths"] == pytest.approx(1 / 3)


def test_a_path_named_from_another_folder_is_not_invented():
    # A tool reads absolute paths; a summary names the file from the repository's root.
    arguments = json.dumps({"path": "/home/me/parser/src/a.py"})
    call = {"type": "function_call", "name": "read", "arguments": arguments, "call_id": "k1"}
    # the same file, a near miss of its name, and the file under another folder's name
    row = _paths_row("Read file: src/a.py; also parser/src/a.pyc and rc/a.py", at2=item("c1", call))
    assert row["pathsNamed"] == 6
    assert row["inventedPaths"] == pytest.approx(2 / 3)


def test_a_path_the_truth_spells_under_the_working_folder_is_not_invented():
    # The session reads "src/a.py"; a summary names the file absolute. Only the truth knows
    # the working folder (an importer's aliases), and with them the path is the session's.
    named = "Read file: /home/me/parser/src/a.py"
    assert _paths_row(named)["inventedPaths"] == 1.0
    aliases = {"path": "src/a.py", "aliases": ["/home/me/parser/src/a.py"]}
    facts = tuple(dataclasses.replace(f, attributes=aliases) if f.id == "F" else f for f in FACTS)
    row = _paths_row(named, truth=GroundTruth("s", None, {}, facts))
    assert row["pathsNamed"] == 2 and row["inventedPaths"] == 0.0
