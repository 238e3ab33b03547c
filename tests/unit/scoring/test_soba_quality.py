"""SOBA's portable-capsule mapping, sanitizer and lexical evaluator (test-scenarios 8.1, 8.2
items 10-11, engine.md m.2/m.3/m.5), plus expectations built from ground truth."""

from __future__ import annotations

import copy
import hashlib
import json

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.jscompat import js_json_stringify
from soba_bench.scoring.portable import (
    detect_potential_secret,
    iso_timestamp,
    portable_capsule_from_checkpoint,
    sanitize_portable_capsule,
    sanitize_text,
)
from soba_bench.scoring.soba_quality import (
    QualityExpectation,
    evaluate_quality,
    expectation_from_truth,
)
from soba_bench.scoring.timeline import Lifecycle, Timeline

CREATED = "2026-06-19T00:00:00.000Z"
HOME = "/home/tester"
REGISTRY = "../../../src/infrastructure/llm/providers/registry"
REGISTRY_TEST = "tests/core/provider/registry.test.ts"


def _entry(checkpoint_id: str, state: dict, artifacts: dict) -> dict:
    return {
        "type": "context_capsule",
        "id": "entry-x",
        "timestamp": CREATED,
        "parentId": "entry-parent",
        "checkpointId": checkpoint_id,
        "trigger": "milestone",
        "strategy": "deterministic",
        "quality": "portable",
        "portableState": state,
        "artifacts": artifacts,
        "activatedSkills": [],
        "provenance": {"firstCompactedEntryId": "a", "firstKeptEntryId": "b", "sourceEntryIds": []},
        "metrics": {},
    }


# Data values from SOBA's tests/core/capsules/quality-fixtures.ts.
def structured() -> dict:
    return _entry(
        "ck_struct11111",
        {
            "goal": "Implement provider registry API key resolution",
            "constraints": ["Bun only", "Do not introduce ESLint"],
            "completed": ["Updated provider registry"],
            "inProgress": ["Review CLI integration"],
            "pending": ["Run provider registry tests"],
            "decisions": [
                {
                    "decision": "Provider registry owns API key resolution",
                    "rationale": "Keeps adapter construction deterministic",
                },
                {
                    "decision": "Persisted provider secrets stay out of portable capsules",
                    "rationale": "Capsules cross trust boundaries",
                },
            ],
            "blockers": ["Need manual confirmation for external provider credentials"],
            "nextSteps": [f"Run bun test {REGISTRY_TEST}"],
        },
        {
            "readFiles": [REGISTRY],
            "modifiedFiles": [REGISTRY, REGISTRY_TEST],
            "verificationCommands": [f"bun test {REGISTRY_TEST}"],
            "verificationStatus": "passed",
        },
    )


def conversation() -> dict:
    return _entry(
        "ck_convo111111",
        {
            "goal": "Prepare a handoff for the auth refactor discussion",
            "constraints": ["Keep current CLI behavior backward compatible"],
            "completed": ["Compared internal checkpoints with portable capsule framework"],
            "inProgress": ["Documenting create export load workflow"],
            "pending": ["Ask reviewer to test manual capsule flow"],
            "decisions": [
                {
                    "decision": "Keep /capsule list and inspect behavior unchanged",
                    "rationale": "Existing users rely on checkpoint inspection",
                }
            ],
            "blockers": ["Full bun test has unrelated baseline failures"],
            "nextSteps": ["Use manual-test-run checklist"],
        },
        {
            "readFiles": ["internal-design-notes"],
            "modifiedFiles": ["src/apps/cli/commands.ts", "docs/portable-capsules.md"],
            "verificationCommands": ["bun test tests/commands.test.ts"],
            "verificationStatus": "passed",
        },
    )


PLAN = [
    {
        "order": 1,
        "mode": "manual",
        "title": "Review provider registry API key resolution",
        "prerequisites": ["Open src/core/provider/registry.ts"],
        "actions": ["Check provider registry owns API key resolution"],
        "verification": [f"bun test {REGISTRY_TEST}"],
        "rollback": ["Do not apply changes; keep current provider registry implementation"],
    }
]
STRUCTURED_EXPECTATION = QualityExpectation.from_dict(
    {
        "goalKeywords": ["provider registry", "API key resolution"],
        "decisions": [
            "Provider registry owns API key resolution",
            "Persisted provider secrets stay out of portable capsules",
        ],
        "blockers": ["external provider credentials"],
        "artifacts": structured()["artifacts"],
        "integrationActions": ["Check provider registry owns API key resolution"],
    }
)
CONVERSATION_EXPECTATION = QualityExpectation(
    goal_keywords=("auth refactor", "handoff"),
    decisions=("Keep /capsule list and inspect behavior unchanged",),
    blockers=("baseline failures",),
    read_files=("internal-design-notes",),
    modified_files=("src/apps/cli/commands.ts",),
    verification_commands=("bun test tests/commands.test.ts",),
    verification_status="passed",
    integration_actions=("manual-test-run checklist",),
)


# ── 8.1 quality ──────────────────────────────────────────────────────────────────────────


def test_structured_fixture_scores_one():  # 8.1 item 1
    pc = portable_capsule_from_checkpoint(
        structured(), created_at=CREATED, integration_plan=PLAN, tier="standard"
    )
    result = evaluate_quality(pc, STRUCTURED_EXPECTATION, threshold=0.9)
    assert pc["id"] == "pc_e00a64afdd6e"
    assert pc["id"] == "pc_" + hashlib.sha256(b"ck_struct11111").hexdigest()[:12]
    assert result.passed and result.score == 1.0
    assert [(d.name, d.score, d.weight) for d in result.dimensions] == [
        ("goal", 1.0, 0.2),
        ("decisions", 1.0, 0.2),
        ("blockers", 1.0, 0.15),
        ("artifacts", 1.0, 0.3),
        ("integration", 1.0, 0.15),
    ]
    assert result.dimension("artifacts").expected == 5  # 1 read, 2 modified, 1 command, status


def test_conversation_fixture_passes_through_signals():  # 8.1 item 2
    pc = portable_capsule_from_checkpoint(conversation(), created_at=CREATED)
    result = evaluate_quality(pc, CONVERSATION_EXPECTATION, threshold=0.8)
    assert result.passed and result.score == 1.0
    assert pc["integrationPlan"] == [] and pc["tier"] == "quick"
    # Only the signals ("Use manual-test-run checklist") carry the integration action.
    assert pc["signals"] == ["Use manual-test-run checklist"]
    assert result.dimension("integration").matched == 1


def test_degraded_capsule_fails_at_035():  # 8.1 item 3
    pc = portable_capsule_from_checkpoint(structured(), created_at=CREATED)
    degraded = {
        **pc,
        "coreContent": ["Goal: provider registry"],
        "patterns": [],
        "artifacts": {
            "readFiles": [],
            "modifiedFiles": [],
            "verificationCommands": [],
            "verificationStatus": "unknown",
        },
    }
    result = evaluate_quality(degraded, STRUCTURED_EXPECTATION, threshold=0.9)
    assert not result.passed
    assert result.score == 0.35
    scores = {d.name: d.score for d in result.dimensions}
    assert scores == {
        "goal": 1.0,
        "decisions": 0.0,
        "blockers": 1.0,  # the dispatch summary still lists the blocker
        "artifacts": 0.0,
        "integration": 0.0,
    }
    assert result.dimension("decisions").missing == STRUCTURED_EXPECTATION.decisions
    assert result.dimension("artifacts").missing == (
        f"read:{REGISTRY}",
        f"modified:{REGISTRY}",
        f"modified:{REGISTRY_TEST}",
        f"command:bun test {REGISTRY_TEST}",
        "verificationStatus:passed",
    )
    assert result.to_dict()["dimensions"][3] == {
        "name": "artifacts",
        "score": 0.0,
        "weight": 0.3,
        "matched": 0,
        "expected": 5,
        "missing": list(result.dimension("artifacts").missing),
    }


def test_evaluator_normalises_case_and_whitespace_and_rounds():
    pc = {"objective": "Fix   the\tAUTH flow", "dispatchSummary": "", "coreContent": []}
    exp = QualityExpectation(goal_keywords=("fix the auth FLOW", "missing", "", "  "))
    result = evaluate_quality(pc, exp)
    goal = result.dimension("goal")
    # Empty expected strings always match; 3 of 4 → 0.75; nothing expected elsewhere → 1.
    assert (goal.matched, goal.expected, goal.score, goal.missing) == (3, 4, 0.75, ("missing",))
    assert result.score == 0.95  # 0.75*0.2 + 0.2 + 0.15 + 0.3 + 0.15
    one_of_three = evaluate_quality(pc, QualityExpectation(goal_keywords=("fix", "x1", "x2")))
    assert one_of_three.dimension("goal").score == 0.333
    assert evaluate_quality(pc, exp, threshold=0.96).passed is False


# ── m.2 mapping ──────────────────────────────────────────────────────────────────────────


def test_mapping_fields():
    pc = portable_capsule_from_checkpoint(structured(), created_at=CREATED)
    # session_id is accepted but SOBA's v1 schema has no place for it.
    assert portable_capsule_from_checkpoint(structured(), created_at=CREATED, session_id="s1") == pc
    assert list(pc)[:5] == ["schema", "version", "id", "title", "createdAt"]
    assert "sender" not in pc
    assert pc["dispatchSummary"] == (
        "Implement provider registry API key resolution. Completed: Updated provider registry."
        " Blockers: Need manual confirmation for external provider credentials."
    )
    assert pc["coreContent"][4] == (
        "Decision: Provider registry owns API key resolution "
        "(Keeps adapter construction deterministic)"
    )
    assert pc["coreContent"][-1] == f"Next: Run bun test {REGISTRY_TEST}"
    assert pc["patterns"][1] == {
        "name": "decision-2",
        "description": "Persisted provider secrets stay out of portable capsules — "
        "Capsules cross trust boundaries",
    }
    assert pc["assumptions"] == ["Bun only", "Do not introduce ESLint"]
    assert (pc["intendedReceiver"], pc["category"], pc["archetype"]) == (
        "another SOBA-compatible agent",
        "conversation_thread",
        "handoff",
    )
    assert pc["sanitation"] == {"checkedAt": CREATED, "redactions": [], "secretLeakDetected": False}


def test_mapping_title_summary_and_payload_rules():
    state = {
        "goal": "  " + "x" * 90,
        "completed": [],
        "blockers": [],
        "decisions": [{"decision": "d"}],
    }
    pc = portable_capsule_from_checkpoint(
        _entry("ck_1", state, {}),
        created_at=CREATED,
        verbatim_payloads=[{"name": "a.txt", "mediaType": "text/plain", "content": "hello"}],
    )
    assert pc["title"] == "x" * 77 + "..."
    assert pc["dispatchSummary"] == "x" * 90 + "."  # leading blanks trimmed
    assert pc["coreContent"] == ["Goal: " + "  " + "x" * 90, "Decision: d"]
    assert pc["patterns"] == [{"name": "decision-1", "description": "d"}]
    assert pc["verbatimPayloads"][0]["checksum"] == hashlib.sha256(b"hello").hexdigest()
    blank = portable_capsule_from_checkpoint(_entry("ck_2", {"goal": " "}, {}), created_at=CREATED)
    assert blank["title"] == "Portable capsule"
    assert blank["dispatchSummary"] == "."
    many = {"goal": "g", "completed": [f"c{i}" for i in range(150)]}
    assert len(portable_capsule_from_checkpoint(_entry("ck_3", many, {}))["coreContent"]) == 100
    titled = portable_capsule_from_checkpoint(
        _entry("ck_4", {"goal": "g"}, {}), title="T", objective="", sender="me"
    )
    assert (titled["title"], titled["objective"], titled["sender"]) == ("T", "", "me")
    with pytest.raises(TypeError, match="valid: id, title"):
        portable_capsule_from_checkpoint(_entry("ck_5", {"goal": "g"}, {}), colour="red")


def test_mapping_sanitizes_checkpoint():  # 8.2 item 11
    entry = _entry(
        "ck_abc123def456",
        {
            "goal": "Ship auth provider fix with apiKey=fake-super-secret-value",
            "constraints": ["Use Bun only"],
            "completed": ["Updated provider registry"],
            "inProgress": ["Review sanitizer"],
            "pending": ["Add CLI command"],
            "decisions": [
                {"decision": "Keep load untrusted", "rationale": "Capsules cross trust boundaries"}
            ],
            "blockers": ["No blocker"],
            "nextSteps": ["Run bun test"],
        },
        {
            "readFiles": [f"{HOME}/soba-agent/src/core/provider/registry.ts"],
            "modifiedFiles": [REGISTRY],
            "verificationCommands": [f"bun test {REGISTRY_TEST}"],
            "verificationStatus": "passed",
        },
    )
    entry["nativeContinuation"] = {"items": []}
    original = copy.deepcopy(entry)
    pc = portable_capsule_from_checkpoint(entry, created_at=CREATED, home_directory=HOME)
    serialized = json.dumps(pc)
    assert entry == original  # the input entry is not modified
    assert pc["provenance"] == {"source": "session_checkpoint", "checkpointId": "ck_abc123def456"}
    assert REGISTRY in pc["artifacts"]["modifiedFiles"]
    assert any("Updated provider registry" in c for c in pc["coreContent"])
    assert "nativeContinuation" not in serialized
    assert "fake-super-secret-value" not in serialized
    assert HOME not in serialized
    assert pc["objective"] == "Ship auth provider fix with apiKey=[REDACTED:api_key:1]"
    assert pc["artifacts"]["readFiles"] == ["[REDACTED:absolute_home_path:1]"]
    # objective, title, dispatchSummary and the goal line of coreContent: one secret, 4 times.
    assert pc["sanitation"]["redactions"] == [
        {"category": "absolute_home_path", "count": 1},
        {"category": "api_key", "count": 4},
    ]
    assert pc["sanitation"]["secretLeakDetected"] is False


# ── m.3 sanitizer ────────────────────────────────────────────────────────────────────────


def test_sanitizer_redacts_every_category():  # 8.2 item 10
    home_path = f"{HOME}/project"
    dirty = {
        "objective": "apiKey=fake-test-secret-1234567890 Bearer abcdefghijklmnop "
        f"https://user:pass@example.com {home_path}",
        "coreContent": ["-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----"],
        "sanitation": {"checkedAt": CREATED, "redactions": [], "secretLeakDetected": False},
    }
    sanitized, report = sanitize_portable_capsule(dirty, HOME, now=CREATED)
    serialized = js_json_stringify(sanitized)
    for leaked in ("fake-test-secret", "abcdefghijklmnop", "user:pass", "PRIVATE KEY", home_path):
        assert leaked not in serialized
    assert sanitized["objective"] == (
        "apiKey=[REDACTED:api_key:1] Bearer [REDACTED:bearer_token:1] "
        "https://[REDACTED:credential_url:1]@example.com [REDACTED:absolute_home_path:1]"
    )
    assert sanitized["coreContent"] == ["[REDACTED:private_key:1]"]
    assert [c for c, _ in report.redactions] == [
        "absolute_home_path",
        "api_key",
        "bearer_token",
        "credential_url",
        "private_key",
    ]
    assert report.secret_leak_detected is False
    assert sanitized["sanitation"] == report.to_dict()
    assert report.checked_at == CREATED
    assert dirty["coreContent"][0].startswith("-----BEGIN")  # input untouched


def test_sanitizer_markers_reuse_and_count():
    text = "token=abcdefghijkl12 then token=abcdefghijkl12 and password: 'zzzzzzzzzzzzzz'"
    assert sanitize_text(text) == (
        "token=[REDACTED:api_key:1] then token=[REDACTED:api_key:1] "
        "and password=[REDACTED:api_key:2]"
    )
    capsule = {"a": text, "n": 3, "b": [True, None]}
    sanitized, report = sanitize_portable_capsule(capsule, now=CREATED)
    assert report.redactions == (("api_key", 3),)  # occurrences, not distinct values
    assert sanitized["n"] == 3 and sanitized["b"] == [True, None]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("key sk-abcdefghijklmnop", "key [REDACTED:api_key:1]"),
        ("id session_ab12cd34ef", "id [REDACTED:session_identifier:1]"),
        ("id session_abcdefghij", "id session_abcdefghij"),  # no digit: not an id
        ("via openai::https://api.openai.com::gpt-4)", "via [REDACTED:provider_identifier:1])"),
        ("Bearer short", "Bearer short"),  # fewer than 12 token characters
        ("postgres://u:p@db/x", "postgres://[REDACTED:credential_url:1]@db/x"),
        ('API-KEY = "abcdefghijklmnop"', "API-KEY=[REDACTED:api_key:1]"),
    ],
)
def test_sanitizer_rules(raw, clean):
    assert sanitize_text(raw) == clean


def test_home_directory_rules():
    assert sanitize_text(f"see {HOME}/a/b.ts, then", HOME) == (
        "see [REDACTED:absolute_home_path:1], then"
    )
    assert sanitize_text("/etc/passwd", "/") == "/etc/passwd"  # "/" is never redacted
    assert sanitize_text(f"{HOME}/x", None) == f"{HOME}/x"


def test_leak_detector():
    assert detect_potential_secret("Use Bearer very-secret-bearer-token")  # 8.2 item 9
    assert detect_potential_secret('{"objective":"token=abcdefghijklmnop"}')
    assert not detect_potential_secret("Bearer [REDACTED:bearer_token:1]")
    # A session id is redacted by the sanitizer but is not a leak on its own.
    assert not detect_potential_secret("session_ab12cd34ef")


def test_iso_timestamp():
    assert iso_timestamp("2026-06-19T03:00:00+03:00") == CREATED
    assert iso_timestamp("2026-06-19T00:00:00") == CREATED
    with pytest.raises(ValueError, match="invalid time value"):
        iso_timestamp("yesterday")


# ── expectations from ground truth ───────────────────────────────────────────────────────


def _lifecycle(facts: tuple[Fact, ...], n: int = 10) -> Lifecycle:
    truth = GroundTruth(session="s", session_id="s", origin={}, facts=facts)
    return Lifecycle(truth, Timeline({f"e{i}": i for i in range(n)}, n))


FACTS = (
    Fact("g1", "goal", "Add structured logging to the auth middleware", introduced_at="e0"),
    Fact("g2", "goal", "Speed up the parser", introduced_at="e0", keywords=("parser", "speed")),
    Fact("d1", "decision", "Use pino", status="superseded", introduced_at="e1", superseded_by="d2"),
    Fact("d2", "decision", "Use structlog instead of pino", introduced_at="e5"),
    Fact(
        "b1", "blocker", "CI lacks network", status="resolved", introduced_at="e2", resolved_at="e4"
    ),
    Fact("b2", "blocker", "Flaky auth test", status="open", introduced_at="e3"),
    Fact("r1", "file_read", "src/auth.py", introduced_at="e1", attributes={"path": "src/auth.py"}),
    Fact("m1", "file_modified", "src/log.py", introduced_at="e6"),
    Fact(
        "v1",
        "verification",
        "pytest -q",
        status="resolved",
        introduced_at="e2",
        resolved_at="e7",
        attributes={
            "command": "pytest -q",
            "runs": [{"entryId": "e2", "result": "failed"}, {"entryId": "e7", "result": "passed"}],
        },
    ),
    Fact("n1", "next_step", "Run the linter", introduced_at="e3"),
    Fact("c1", "constraint", "Never touch prod", introduced_at="e0"),
)


def test_expectation_from_truth_at_a_point():
    lifecycle = _lifecycle(FACTS)
    exp = expectation_from_truth(FACTS, lifecycle, 4)
    goal_words = "add structured logging auth middleware parser speed"
    assert exp.goal_keywords == tuple(goal_words.split())  # g2 brings its own keywords
    assert exp.decisions == ("Use pino",)
    assert exp.blockers == ("CI lacks network", "Flaky auth test")
    assert exp.read_files == ("src/auth.py",)
    assert exp.modified_files == ()
    assert exp.verification_commands == ("pytest -q",)
    assert exp.verification_status == "failed"
    assert exp.integration_actions == ("Run the linter",)

    later = expectation_from_truth(FACTS, lifecycle, 9)
    assert later.decisions == ("Use structlog instead of pino",)
    assert later.blockers == ("Flaky auth test",)
    assert later.modified_files == ("src/log.py",)
    # The verification fact is resolved (fixed) at e7, yet its command and result still count.
    assert later.verification_commands == ("pytest -q",)
    assert later.verification_status == "passed"


def test_expectation_from_truth_scores_a_capsule():
    lifecycle = _lifecycle(FACTS)
    exp = expectation_from_truth(FACTS, lifecycle, 9)
    entry = _entry(
        "ck_t",
        {
            "goal": "Add structured logging to the auth middleware; speed up the parser",
            "decisions": [{"decision": "Use structlog instead of pino"}],
            "blockers": ["Flaky auth test"],
            "nextSteps": ["Run the linter"],
        },
        {
            "readFiles": ["src/auth.py"],
            "modifiedFiles": ["src/log.py"],
            "verificationCommands": ["pytest -q"],
            "verificationStatus": "unknown",  # what SOBA's deterministic capsules report
        },
    )
    result = evaluate_quality(portable_capsule_from_checkpoint(entry, created_at=CREATED), exp)
    artifacts = result.dimension("artifacts")
    assert (artifacts.matched, artifacts.expected) == (3, 4)
    assert artifacts.missing == ("verificationStatus:passed",)
    assert artifacts.score == 0.75
    assert result.score == 0.925  # 0.2 + 0.2 + 0.15 + 0.75*0.3 + 0.15
    assert result.passed


def test_expectation_importer_style_verification():
    facts = (
        Fact(
            "v1",
            "verification",
            "make test",
            status="superseded",
            introduced_at="e1",
            superseded_by="v2",
            attributes={"command": "make test", "passed": True},
        ),
        Fact("v2", "verification", "make test", introduced_at="e3", attributes={"exitCode": 2}),
        Fact("v3", "verification", "make lint", introduced_at="e4", attributes={"passed": None}),
    )
    lifecycle = _lifecycle(facts)
    assert expectation_from_truth(facts, lifecycle, 2).verification_status == "passed"
    at5 = expectation_from_truth(facts, lifecycle, 5)
    assert at5.verification_status == "failed"  # exit code 2 at e3; the lint run has no result
    assert at5.verification_commands == ("make test", "make lint")
    assert expectation_from_truth(facts, lifecycle, 1) == QualityExpectation()
