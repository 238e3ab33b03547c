"""The planted-defect summarizer: each defect's mutation leaves the capsule state it claims,
and the planted answer goes through SOBA's parser, validator and fallback like a model's."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from soba_bench.engine.attempt import AttemptContext, Interrupted, VirtualClock
from soba_bench.engine.branch import LiveBranch
from soba_bench.engine.generator import CapsuleGenerator
from soba_bench.engine.snapshot import ContextSnapshot
from soba_bench.engine.strategies.base import GenerationInput
from soba_bench.engine.strategies.deterministic import DeterministicStrategy, deterministic_state
from soba_bench.engine.strategies.portable_only import FALLBACK_GOAL
from soba_bench.engine.validator import LOST_BLOCKER, MISSING_GOAL
from soba_bench.engine.variants import get_variant
from soba_bench.errors import ConfigError, UnknownNameError
from soba_bench.meter import get_meter
from soba_bench.summarizers import SUMMARIZERS, build_summarizer
from soba_bench.summarizers.defects import (
    DEFECTS,
    MODIFIED,
    READ,
    RUN,
    Recap,
    apply_defect,
    apply_revisions,
    invented_paths,
    is_recap_line,
    negate,
    paraphrase_text,
)
from soba_bench.summarizers.planted import recap_of, task_goal
from tests.builders import assistant, function_call, function_output, user

GOAL = "Make the importer handle empty files"
DECISION = "I decided to use the streaming parser because it keeps memory flat."
REVISION = "Changing approach: I decided to buffer whole files instead, because they are small."
FAILURE = "FAILED tests/importer.test.ts: expected 0 rows"


def span() -> list[dict[str, Any]]:
    """A compacted span with every fact a defect touches: goal, two decisions (one revising
    the other), a file read, a file modified, a failing and a passing verification run."""
    return [
        user(GOAL),
        assistant(DECISION),
        function_call("c1", "read", json.dumps({"path": "src/reader.ts"})),
        function_output("c1", "export function read() {}"),
        function_call("c2", "edit", json.dumps({"path": "src/importer.ts"})),
        function_output("c2", "ok"),
        assistant(REVISION),
        function_call("c3", "bash", json.dumps({"command": "npm test tests/importer.test.ts"})),
        function_output("c3", FAILURE, status="failed"),
        function_call("c4", "bash", json.dumps({"command": "npm run lint"})),
        function_output("c4", "0 problems"),
    ]


def generation_input(items: list[dict[str, Any]]) -> GenerationInput:
    ids = [f"e{n}" for n in range(len(items) + 2)]
    branch = LiveBranch("planted-test")
    for entry_id, item in zip(ids, [*items, user("kept 1"), user("kept 2")], strict=True):
        branch.append_item(item, entry_id)
    snapshot = ContextSnapshot(
        source="estimated",
        providerInputTokens=0,
        estimatedTrailingTokens=50_000,
        effectiveTokens=50_000,
        historicalTokens=50_000,
        systemPromptTokens=2_000,
        toolSchemaTokens=1_000,
        contextWindow=128_000,
        maxOutputTokens=16_384,
        safetyReserveTokens=8_192,
        hardLimit=103_424,
    )
    return GenerationInput(
        session_id="planted-test",
        branch_index=branch,
        source_entry_ids=ids[: len(items)],
        source_items=items,
        kept_items=[user("kept 1"), user("kept 2")],
        first_compacted_entry_id=ids[0],
        first_kept_entry_id=ids[len(items)],
        trigger="turn_complete",
        snapshot=snapshot,
        activated_skills=[],
    )


def generate(defect: str, items: list[dict[str, Any]] | None = None):
    """The engine's generator over SOBA's production chain with the planted model."""
    gen = generation_input(span() if items is None else items)
    spec = build_summarizer("planted", defect=defect)
    generator = CapsuleGenerator(spec.chain, get_variant(), get_meter())
    ctx = AttemptContext(VirtualClock(), 15_000)
    return generator.generate(gen, ctx, gen.branch_index, False, 10)


def planted_only(defect: str, items: list[dict[str, Any]] | None = None):
    """The planted slot alone, so a rejected draft's validation can be read."""
    gen = generation_input(span() if items is None else items)
    spec = build_summarizer("planted", defect=defect)
    generator = CapsuleGenerator(spec.chain[:1], get_variant(), get_meter())
    ctx = AttemptContext(VirtualClock(), 15_000)
    return generator.generate(gen, ctx, gen.branch_index, False, 10)


def state_of(defect: str) -> dict[str, Any]:
    result = generate(defect)
    assert result.strategy_used == "portable_only", result.validation
    assert result.draft.quality == "portable"
    return result.draft.portableState


def recap_lines(state: dict[str, Any]) -> list[str]:
    return [v for v in state["completed"] if is_recap_line(v)]


# ── registry and spec ──────────────────────────────────────────────────────────
def test_planted_is_registered_with_every_defect_and_control():
    assert "planted" in SUMMARIZERS.names()
    assert set(DEFECTS.names()) == {
        "verbatim",
        "paraphrase",
        "drop_blockers",
        "drop_goal",
        "negate_decisions",
        "swap_files",
        "flip_verification",
        "stale_decisions",
        "invent_paths",
    }


def test_an_unknown_defect_lists_the_valid_ones():
    with pytest.raises(UnknownNameError, match="drop_goal, flip_verification"):
        build_summarizer("planted", defect="drop_everything")
    with pytest.raises(ConfigError, match="latency_ms"):
        build_summarizer("planted", latency_ms=-1)


def test_the_record_names_the_defect_and_the_chain_is_soba_production_chain():
    spec = build_summarizer("planted", defect="swap_files")
    record = spec.record()
    assert record["chain"] == ["portable_only", "deterministic"]
    assert record["defect"] == "swap_files" and record["latencyMs"] == 0
    assert record["promptId"].startswith("planted-swap_files@")
    assert record["promptId"] != build_summarizer("planted").prompt_id
    assert spec.clock is None  # the engine's virtual clock: no wall time


def test_zero_latency_by_default_and_latency_is_charged_on_the_virtual_clock():
    gen = generation_input(span())

    def run(**params: Any) -> tuple[VirtualClock, Any]:
        spec = build_summarizer("planted", **params)
        generator = CapsuleGenerator(spec.chain, get_variant(), get_meter())
        clock = VirtualClock()
        result = generator.generate(gen, AttemptContext(clock, 15_000), gen.branch_index, False, 10)
        return clock, result

    clock, result = run()
    assert clock.now_ms() == 0 and result.strategy_used == "portable_only"
    clock, result = run(latency_ms=500)
    assert clock.now_ms() == 500 and result.strategy_used == "portable_only"
    with pytest.raises(Interrupted, match="timed out after 15000ms"):
        run(latency_ms=20_000)  # slower than SOBA's deadline: the engine's timeout path


# ── verbatim: the deterministic state plus the recap ────────────────────────────
def test_verbatim_is_the_deterministic_state_plus_a_recap_of_files_and_runs():
    state = state_of("verbatim")
    det = DeterministicStrategy().generate(
        generation_input(span()), AttemptContext(VirtualClock(), 15_000), get_variant()
    )
    assert state["goal"] == det.portableState["goal"] == GOAL
    assert state["decisions"] == det.portableState["decisions"]
    assert state["blockers"] == det.portableState["blockers"] == [FAILURE]
    assert [v for v in state["completed"] if not is_recap_line(v)] == det.portableState["completed"]
    assert recap_lines(state) == [
        f"{MODIFIED}src/importer.ts",
        f"{READ}src/reader.ts",
        f"{RUN}npm test tests/importer.test.ts failed",
        f"{RUN}npm run lint passed",
    ]


def test_a_previous_recap_is_not_rolled_forward():
    previous = {"completed": [f"{READ}src/old.ts", "Shipped the parser"], "goal": "g"}
    gen = replace(generation_input(span()), previous_state=previous)
    spec = build_summarizer("planted")
    generator = CapsuleGenerator(spec.chain, get_variant(), get_meter())
    result = generator.generate(
        gen, AttemptContext(VirtualClock(), 15_000), gen.branch_index, False, 10
    )
    completed = result.draft.portableState["completed"]
    assert "Shipped the parser" in completed
    assert f"{READ}src/old.ts" not in completed


# ── each defect ──────────────────────────────────────────────────────────────────
def test_drop_blockers_is_rejected_by_soba_validator_and_falls_back_degraded():
    alone = planted_only("drop_blockers")
    assert not alone.validation.valid
    assert [f.code for f in alone.validation.errors] == [LOST_BLOCKER]
    assert alone.draft.portableState["blockers"] == []
    chain = generate("drop_blockers")
    assert chain.fallback_chain == ["portable_only", "deterministic"]
    assert chain.strategy_used == "deterministic" and chain.draft.quality == "degraded"
    assert chain.draft.portableState["blockers"] == [FAILURE]


def test_drop_blockers_without_a_failure_in_the_span_passes_and_drops_old_blockers():
    items = [i for i in span() if i.get("call_id") not in ("c3",)]
    gen = replace(generation_input(items), previous_state={"blockers": ["Error: old"]})
    spec = build_summarizer("planted", defect="drop_blockers")
    result = CapsuleGenerator(spec.chain, get_variant(), get_meter()).generate(
        gen, AttemptContext(VirtualClock(), 15_000), gen.branch_index, False, 10
    )
    assert result.strategy_used == "portable_only" and result.draft.quality == "portable"
    assert result.draft.portableState["blockers"] == []


def test_drop_goal_leaves_soba_parser_placeholder_goal_which_the_validator_accepts():
    state = state_of("drop_goal")
    assert state["goal"] == FALLBACK_GOAL != GOAL
    assert state["decisions"] == state_of("verbatim")["decisions"]
    assert MISSING_GOAL == "missing_goal"  # never raised: the parser filled the goal in


def test_negate_decisions_keeps_the_words_and_reverses_the_meaning():
    state = state_of("negate_decisions")
    texts = [d["decision"] for d in state["decisions"]]
    assert texts == [
        "I decided not to use the streaming parser because it keeps memory flat.",
        "Changing approach: I decided not to buffer whole files instead, because they are small.",
    ]
    assert negate("Plan pivot: switch to SQLite") == "Plan pivot: do not switch to SQLite"
    assert negate("Use SQLite for the cache") == "Do not use SQLite for the cache"
    assert state["goal"] == GOAL and state["blockers"] == [FAILURE]


def test_swap_files_reports_read_files_as_modified_and_modified_as_read():
    lines = recap_lines(state_of("swap_files"))
    assert f"{READ}src/importer.ts" in lines and f"{MODIFIED}src/reader.ts" in lines
    assert f"{MODIFIED}src/importer.ts" not in lines and f"{READ}src/reader.ts" not in lines


def test_flip_verification_reports_the_failed_run_passed_and_the_passed_run_failed():
    lines = recap_lines(state_of("flip_verification"))
    assert f"{RUN}npm test tests/importer.test.ts passed" in lines
    assert f"{RUN}npm run lint failed" in lines
    assert state_of("flip_verification")["blockers"] == [FAILURE]  # the validator's check holds


def test_stale_decisions_drops_the_revision_so_the_superseded_decision_reads_as_current():
    decisions = [d["decision"] for d in state_of("stale_decisions")["decisions"]]
    assert decisions == [DECISION]


NAMED = (
    "Changing approach: instead of the earlier decision to use the streaming parser, I decided "
    "to buffer whole files, because they are small."
)


def test_a_revision_naming_what_it_replaces_removes_that_decision_from_the_base():
    state = generate(
        "verbatim", [assistant(NAMED) if i == assistant(REVISION) else i for i in span()]
    )
    decisions = [d["decision"] for d in state.draft.portableState["decisions"]]
    assert decisions == [
        "Changing approach: I decided to buffer whole files, because they are small."
    ]


def test_stale_decisions_keeps_the_named_replaced_decision_as_current_and_drops_its_revision():
    items = [assistant(NAMED) if i == assistant(REVISION) else i for i in span()]
    result = generate("stale_decisions", items)
    assert result.strategy_used == "portable_only"
    assert [d["decision"] for d in result.draft.portableState["decisions"]] == [DECISION]


def test_apply_revisions_reaches_back_into_the_previous_capsule_and_ignores_unnamed_ones():
    previous = [{"decision": DECISION}, {"decision": "I decided to log in JSON because grep."}]
    current, replaced = apply_revisions([*previous, {"decision": NAMED}])
    assert [d["decision"] for d in current] == [
        "I decided to log in JSON because grep.",
        "Changing approach: I decided to buffer whole files, because they are small.",
    ]
    assert replaced == [{"decision": DECISION}]
    # A revision that does not say what it replaces changes nothing.
    unnamed = [*previous, {"decision": REVISION}]
    assert apply_revisions(unnamed) == (unnamed, [])


def test_paraphrase_control_drops_a_replaced_decision_it_reworded_in_the_previous_capsule():
    # Generation 1 wrote the decision in the control's words; generation 2's span names it as
    # replaced. The verbatim control drops it, so the "same meaning" control must too (kept,
    # it read as a current decision and filled SOBA's 10-decision cap).
    previous = apply_defect(
        "paraphrase", deterministic_state([assistant(DECISION)], None, None), Recap()
    )
    assert previous["decisions"][0]["decision"].startswith("Since it retains memory flat")
    current, replaced = apply_revisions([*previous["decisions"], {"decision": NAMED}])
    assert [d["decision"] for d in current] == [
        "Changing approach: I decided to buffer whole files, because they are small."
    ]
    assert replaced == previous["decisions"]


def test_invent_paths_adds_files_the_session_never_touched():
    lines = recap_lines(state_of("invent_paths"))
    invented = [v for v in lines if v not in recap_lines(state_of("verbatim"))]
    assert len(invented) == 3
    assert all(v.startswith(MODIFIED) for v in invented)
    real = {"src/importer.ts", "src/reader.ts"}
    paths = [v[len(MODIFIED) :] for v in invented]
    assert not set(paths) & real and all(p.startswith("src/") and p.endswith(".ts") for p in paths)
    assert invented_paths(recap_of(span())) == paths  # the same span, the same inventions


def test_paraphrase_keeps_meaning_exact_tokens_and_blockers_with_other_words():
    state = state_of("paraphrase")
    verbatim = state_of("verbatim")
    assert state["blockers"] == verbatim["blockers"]  # quoted failures stay exact
    assert state["goal"] != GOAL and "importer" in state["goal"]
    first = state["decisions"][0]["decision"]
    assert first == (
        "Since it retains memory flat, the chosen approach is to employ the streaming parser."
    )
    lines = recap_lines(state)
    assert len(lines) == len(recap_lines(verbatim))
    assert all(not v.startswith((MODIFIED, READ, RUN)) for v in lines)
    assert "src/importer.ts" in " ".join(lines) and "npm run lint" in " ".join(lines)
    # paths, commands and backticked text are never reworded
    assert paraphrase_text("Never touch `npm run build` or src/run/make.ts") == (
        "At no point modify `npm run build` or src/run/make.ts"
    )


def test_every_defect_changes_the_state_and_the_controls_keep_every_fact():
    base = apply_defect("verbatim", deterministic_state(span(), None, None), recap_of(span()))
    for name in DEFECTS.names():
        mutated = apply_defect(name, deterministic_state(span(), None, None), recap_of(span()))
        if name == "verbatim":
            assert mutated == base
        else:
            assert mutated != base, name


def test_recap_of_an_empty_span_is_empty():
    assert recap_of([]) == Recap()
    assert recap_of([user("hi")]).lines() == []


def test_the_goal_is_the_task_as_the_user_last_stated_it_not_the_span_last_user_message():
    items = [*span(), user("Constraint: keep the public API."), user("Yes, go ahead.")]
    det = DeterministicStrategy().generate(
        generation_input(items), AttemptContext(VirtualClock(), 15_000), get_variant()
    )
    assert det.portableState["goal"] == "Yes, go ahead."  # SOBA's rule: the last user message
    assert state_of_items("verbatim", items)["goal"] == GOAL
    changed = [*items, user("Change of plan: import CSV files too."), user("ok")]
    assert state_of_items("verbatim", changed)["goal"] == "import CSV files too."
    assert task_goal([user("ok")], "the previous capsule's goal") == "the previous capsule's goal"
    assert state_of_items("drop_goal", changed)["goal"] == FALLBACK_GOAL


def state_of_items(defect: str, items: list[dict[str, Any]]) -> dict[str, Any]:
    result = generate(defect, items)
    assert result.strategy_used == "portable_only", result.validation
    return result.draft.portableState
