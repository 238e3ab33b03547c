"""Retention scoring on hand-built sessions: every number here can be checked by eye."""

from __future__ import annotations

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.scoring.retention import score_view, summarize
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.scoring.views import capsule_view, input_view
from soba_bench.session.entries import Entry
from tests.builders import assistant, user


def entries(n: int) -> list[Entry]:
    return [
        Entry("item", {"type": "item", "id": f"e{i}", "parentId": None, "item": user(f"m{i}")})
        for i in range(n)
    ]


def capsule(**state) -> dict:
    base = {
        "goal": "",
        "constraints": [],
        "completed": [],
        "inProgress": [],
        "pending": [],
        "decisions": [],
        "blockers": [],
        "nextSteps": [],
    }
    artifacts = {
        "readFiles": state.pop("read", []),
        "modifiedFiles": state.pop("modified", []),
        "verificationCommands": state.pop("commands", []),
        "verificationStatus": state.pop("status", "unknown"),
    }
    return {
        "checkpointId": "ck_000000000001",
        "portableState": {**base, **state},
        "artifacts": artifacts,
        "activatedSkills": state.pop("skills", []),
        "provenance": {
            "firstKeptEntryId": "e8",
            "firstCompactedEntryId": "e0",
            "sourceEntryIds": [],
        },
    }


TRUTH = GroundTruth(
    session="s",
    session_id="s",
    origin={},
    facts=(
        Fact("g1", "goal", "Add structured logging to the auth middleware", introduced_at="e0"),
        Fact(
            "d1",
            "decision",
            "Use pino for logging because it is fast",
            status="superseded",
            introduced_at="e1",
            superseded_by="d2",
        ),
        Fact(
            "d2",
            "decision",
            "Use winston for logging to match the billing service",
            introduced_at="e4",
        ),
        Fact(
            "b1",
            "blocker",
            "npm test fails with ECONNREFUSED on port 5432",
            status="resolved",
            introduced_at="e2",
            resolved_at="e5",
        ),
        Fact(
            "f1",
            "file_modified",
            "src/auth/middleware.ts",
            introduced_at="e3",
            attributes={"path": "src/auth/middleware.ts"},
        ),
        Fact(
            "f2", "file_read", "src/late.ts", introduced_at="e9", attributes={"path": "src/late.ts"}
        ),
        Fact(
            "s1",
            "secret",
            "sk-test-abcdefghijklmnop",
            introduced_at="e2",
            attributes={"value": "sk-test-abcdefghijklmnop"},
        ),
    ),
)
TIMELINE = Timeline.of(entries(12))
LIFE = Lifecycle(TRUTH, TIMELINE)


def scores_for(view, point=10, expect_before=8):
    return score_view(TRUTH.facts, LIFE, view, point, expect_before=expect_before)


def test_lifecycle_follows_supersession_and_resolution():
    d1, d2, b1 = (next(f for f in TRUTH.facts if f.id == i) for i in ("d1", "d2", "b1"))
    assert LIFE.live_at(d1, 3) and not LIFE.live_at(d1, 5) and LIFE.stale_at(d1, 5)
    assert LIFE.live_at(d2, 5)
    assert LIFE.live_at(b1, 4) and LIFE.stale_at(b1, 6)


def test_a_faithful_capsule_recalls_live_facts_and_is_not_stale():
    view = capsule_view(
        capsule(
            goal="Add structured logging to the auth middleware",
            decisions=[{"decision": "Use winston for logging to match the billing service"}],
            modified=["src/auth/middleware.ts"],
        )
    )
    scores = scores_for(view)
    assert (scores["goal"].expected, scores["goal"].found) == (1, 1)
    assert (scores["decision"].expected, scores["decision"].found) == (1, 1)
    assert scores["file_modified"].recall == 1.0 and scores["file_modified"].precision == 1.0
    # src/late.ts was introduced after the cut (e8): it belongs to the tail, not the capsule.
    assert scores["file_read"].expected == 0
    summary = summarize(scores)
    assert summary["recall"] == 1.0 and summary["staleness"] == 0.0 and summary["leaks"] == 0


def test_a_planted_stale_decision_and_resolved_blocker_score_worse_on_staleness():
    clean = capsule(goal="Add structured logging to the auth middleware")
    stale = capsule(
        goal="Add structured logging to the auth middleware",
        decisions=[{"decision": "Use pino for logging because it is fast"}],
        blockers=["npm test fails with ECONNREFUSED on port 5432"],
    )
    clean_summary = summarize(scores_for(capsule_view(clean)))
    stale_scores = scores_for(capsule_view(stale))
    stale_summary = summarize(stale_scores)
    assert stale_summary["staleness"] > clean_summary["staleness"]
    assert stale_scores["decision"].stale == ["Use pino for logging because it is fast"]
    assert stale_scores["blocker"].stale == ["npm test fails with ECONNREFUSED on port 5432"]


def test_missed_and_hallucinated_items_are_listed():
    view = capsule_view(capsule(goal="Refactor everything", read=["src/invented.ts"]))
    scores = scores_for(view)
    assert scores["goal"].missed == ["Add structured logging to the auth middleware"]
    assert scores["file_modified"].missed == ["src/auth/middleware.ts"]
    assert scores["file_read"].wrong == ["src/invented.ts"]
    assert summarize(scores)["hallucinatedPaths"] == 1


def test_the_input_view_counts_the_tail_and_secrets_as_leaks():
    items = [
        user("Add structured logging to the auth middleware please"),
        assistant("Editing src/auth/middleware.ts now; key sk-test-abcdefghijklmnop"),
        assistant("Reading src/late.ts"),
    ]
    view = input_view(items)
    scores = score_view(TRUTH.facts, LIFE, view, point=10)
    assert scores["file_read"].found == 1 and scores["file_modified"].found == 1
    assert scores["secret"].found == 1 and summarize(scores)["leaks"] == 1


def test_paths_match_exactly_not_fuzzily():
    view = input_view([assistant("changed src/auth/middleware.tsx and ./src/auth/middleware.ts")])
    assert scores_for(view, expect_before=10)["file_modified"].found == 1
    near = input_view([assistant("changed src/auth/middleware.tsx")])
    assert scores_for(near, expect_before=10)["file_modified"].found == 0
