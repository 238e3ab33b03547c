"""The ground truth of generated sessions: every planted fact points at entries that exist and
really contain it, lifecycles are consistent, and the truth is complete with respect to what
SOBA's own deterministic rules would pick up (failures, decision and next-step wording)."""

from __future__ import annotations

import json
import re

import pytest

from soba_bench.corpora.truth import FACT_KINDS, GroundTruth, read_truth, write_truth
from soba_bench.engine.failures import tool_failure_output
from soba_bench.session import entries as E
from tests.unit.corpora.synthetic_helpers import entry_text, fact_ids, generated, items

SIZES = [(100, 1), (1000, 1), (5000, 2)]


@pytest.mark.parametrize(("entries", "seed"), SIZES)
def test_every_fact_entry_exists_and_contains_the_fact_text(entries, seed):
    session, truth = generated(entries, seed=seed)
    by_id = session.by_id
    for fact in truth.facts:
        assert fact.entry_ids, fact.id
        assert fact.introduced_at == fact.entry_ids[0]
        for entry_id in fact.entry_ids:
            assert entry_id in by_id, (fact.id, entry_id)
            assert fact.text in entry_text(by_id[entry_id]), (fact.id, entry_id)
        for ref in (fact.resolved_at, fact.attributes.get("answerEntryId")):
            assert ref is None or ref in by_id


@pytest.mark.parametrize(("entries", "seed"), SIZES)
def test_every_fact_kind_is_planted_and_ids_are_unique(entries, seed):
    _, truth = generated(entries, seed=seed)
    assert {f.kind for f in truth.facts} == set(FACT_KINDS)
    assert len({f.id for f in truth.facts}) == len(truth.facts)
    assert truth.unknown_kinds == ()


def test_fact_counts_scale_with_the_session():
    small = generated(1000, seed=1)[1]
    large = generated(5000, seed=2)[1]
    for kind in ("decision", "blocker", "checkpoint", "next_step", "secret"):
        assert len(large.of_kind(kind)) > len(small.of_kind(kind)), kind


def test_goal_refinements_supersede_in_order_and_the_last_goal_is_active():
    _, truth = generated(1000)
    goals = truth.of_kind("goal")
    assert [g.status for g in goals] == ["superseded", "superseded", "active"]
    assert [g.superseded_by for g in goals[:-1]] == [g.id for g in goals[1:]]
    assert goals[1].text.startswith(goals[0].text)  # a refinement restates and extends


def position_of(session):
    return {e.id: i for i, e in enumerate(session.tree_entries)}


def test_superseded_facts_point_at_a_later_fact():
    session, truth = generated(5000, seed=2)
    pos = position_of(session)
    by_id = {f.id: f for f in truth.facts}
    superseded = [f for f in truth.facts if f.status == "superseded"]
    assert {f.kind for f in superseded} >= {"goal", "decision", "file_read", "file_modified"}
    for fact in superseded:
        newer = by_id[fact.superseded_by]
        assert pos[newer.introduced_at] > pos[fact.introduced_at]
        if fact.kind == "decision":
            assert newer.kind in ("decision", "checkpoint")
            assert fact.attributes["rationale"]


def test_blockers_fail_first_and_resolve_on_a_later_successful_run():
    session, truth = generated(5000, seed=2)
    pos, by_id = position_of(session), session.by_id
    blockers = truth.of_kind("blocker")
    assert {b.status for b in blockers} == {"resolved", "open"}
    for blocker in blockers:
        for entry_id in blocker.entry_ids:
            assert tool_failure_output(by_id[entry_id].item) is not None
        if blocker.status == "resolved":
            resolved = by_id[blocker.resolved_at].item
            assert tool_failure_output(resolved) is None
            assert pos[blocker.resolved_at] > pos[blocker.entry_ids[-1]]
        else:
            assert blocker.attributes["openAtEnd"] and len(blocker.entry_ids) >= 2


def test_verification_runs_match_the_outputs_and_the_status_rule():
    session, truth = generated(5000, seed=2)
    by_id = session.by_id
    statuses = set()
    for fact in truth.of_kind("verification"):
        runs = fact.attributes["runs"]
        calls = [i for i in fact.entry_ids if by_id[i].item["type"] != E.MESSAGE]
        assert len(runs) == len(calls)  # one call entry per run (the rest: turn summaries)
        for run in runs:
            failed = tool_failure_output(by_id[run["entryId"]].item) is not None
            assert run["result"] == ("failed" if failed else "passed")
        results = [r["result"] for r in runs]
        expected = (
            "open" if results[-1] == "failed" else ("resolved" if "failed" in results else "active")
        )
        assert fact.status == expected
        statuses.add(fact.status)
    assert statuses >= {"resolved", "open"}


def test_a_turn_summary_is_an_entry_of_the_files_it_reports_edited_and_the_checks_it_reports():
    """A turn's summary ("edited a, b; `cmd` passes") shows those facts again: a strategy that
    keeps the summary but not the calls keeps them, so the truth lists it (availability and
    retention find a fact by its entries). Every summary, and nothing else of its kind."""
    session, truth = generated(5000, seed=2)
    by_id = session.by_id
    files = {f.text: f for f in truth.of_kind("file_modified") if f.status == "active"}
    checks = {f.text: f for f in truth.of_kind("verification")}
    summaries = 0
    for entry, item in items(session):
        text = entry_text(entry)
        if item.get("phase") != "final_answer" or not text.startswith("Summary of this turn:"):
            continue
        summaries += 1
        edited = re.match(r"Summary of this turn: edited (.+?)(?:;|\. )", text)
        for path in edited.group(1).split(", ") if edited else ():
            if path in files:
                assert entry.id in files[path].entry_ids, (path, entry.id)
        reported = re.findall(r"`([^`]+)` (passes|is still red)", text)
        for command, said in reported:
            assert entry.id in checks[command].entry_ids, (command, entry.id)
            # and the result it states, as a run's: it shows the check's state until it changes
            (report,) = [
                r for r in checks[command].attributes["reports"] if r["entryId"] == entry.id
            ]
            assert report["result"] == ("passed" if said == "passes" else "failed")
    assert summaries > 50
    # a summary is no entry of a file it does not name, nor of a check it does not report
    for fact in (*files.values(), *checks.values()):
        for entry_id in fact.entry_ids:
            item = by_id[entry_id].item
            if item["type"] == E.MESSAGE:
                assert item["phase"] == "final_answer"
                assert f"`{fact.text}` " in entry_text(by_id[entry_id]) or (
                    fact.kind == "file_modified" and fact.text in entry_text(by_id[entry_id])
                )


def test_a_rename_supersedes_the_old_path_and_later_edits_use_the_new_one():
    session, truth = generated(1000)
    (rename,) = truth.of_kind("file_renamed")
    old, new = rename.attributes["from"], rename.attributes["to"]
    old_facts = [f for f in truth.of_kind("file_read", "file_modified") if f.text == old]
    assert old_facts and all(f.superseded_by == rename.id for f in old_facts)
    pos = position_of(session)
    start = pos[rename.introduced_at]
    later_paths = [
        json.loads(e.item["arguments"]).get("path")
        for e in session.tree_entries[start:]
        if e.item is not None and e.item["type"] == "function_call"
    ]
    assert old not in later_paths
    command = session.by_id[rename.attributes["commandEntryId"]].item
    assert command["name"] == "bash" and f"git mv {old} {new}" in command["arguments"]


def test_clarifications_are_answered_and_close_the_step_that_waited_for_them():
    session, truth = generated(5000, seed=2)
    waits = {
        f.text.removeprefix("ask the user: "): f
        for f in truth.of_kind("next_step")
        if f.attributes.get("waitsFor") == "clarification"
    }
    clarifications = truth.of_kind("clarification")
    assert clarifications
    for fact in clarifications:
        call = session.by_id[fact.introduced_at].item
        args = json.loads(call["arguments"])
        assert call["name"] == "ask_user" and args["question"] == fact.text
        answer = session.by_id[fact.attributes["answerEntryId"]].item
        assert answer["call_id"] == call["call_id"]
        assert answer["output"].startswith("User selected: ")
        assert fact.attributes["answer"].split(";")[0] in answer["output"]
        wait = waits[fact.text]
        assert wait.status == "resolved" and wait.resolved_at == fact.attributes["answerEntryId"]


def test_checkpoints_are_milestones_and_plan_pivots_soba_would_schedule():
    session, truth = generated(1000)
    kinds = set()
    for fact in truth.of_kind("checkpoint"):
        args = json.loads(session.by_id[fact.introduced_at].item["arguments"])
        assert args["kind"] == fact.attributes["kind"] and args["reason"] == fact.text
        kinds.add(args["kind"])
    assert kinds == {"milestone", "plan_pivot"}


def test_skills_are_skill_activation_entries_and_one_is_deactivated():
    session, truth = generated(1000)
    skills = truth.of_kind("skill")
    assert {s.status for s in skills} == {"active", "resolved"}
    for skill in skills:
        entries = [session.by_id[i] for i in skill.entry_ids]
        assert all(e.kind == E.SKILL_ACTIVATION for e in entries)
        assert entries[0].data["skill"]["contentHash"] == skill.attributes["contentHash"]
        if skill.status == "resolved":
            assert session.by_id[skill.resolved_at].data["action"] == "deactivate"


def test_noise_secrets_injections_and_huge_outputs_are_in_tool_results():
    session, truth = generated(5000, seed=2)
    by_id = session.by_id
    for fact in truth.of_kind("secret", "injection"):
        assert by_id[fact.introduced_at].item["type"] in E.OUTPUT_TYPES
    injections = [f.text.lower() for f in truth.of_kind("injection")]
    assert all("ignore previous instructions" in text for text in injections)
    for fact in truth.of_kind("injection"):
        fragment = fact.attributes["jsonBreaker"]
        assert fragment in entry_text(by_id[fact.introduced_at])
        with pytest.raises(ValueError):
            json.loads(fragment)
    sizes = [len(entry_text(by_id[i])) for i in truth.origin["largeOutputEntryIds"]]
    assert sizes and min(sizes) > 20_000  # 12k estimator tokens at 0.5x and up


def test_every_failing_output_is_a_planted_blocker():
    for entries, seed in SIZES:
        session, truth = generated(entries, seed=seed)
        failing = {e.id for e, i in items(session) if tool_failure_output(i) is not None}
        assert failing == fact_ids(truth, "blocker")


def test_assistant_wording_soba_extracts_only_appears_in_planted_facts():
    session, truth = generated(5000, seed=2)
    decisions = fact_ids(truth, "decision", "distractor")
    steps = fact_ids(truth, "next_step")
    seen_decision = seen_step = 0
    for entry, item in items(session):
        if not E.is_message(item, "assistant"):
            continue
        lower = entry_text(entry).lower()
        if any(w in lower for w in ("decided", "decision", "chose")):
            assert entry.id in decisions, lower[:120]
            seen_decision += 1
        if any(w in lower for w in ("next", "todo", "pending")):
            assert entry.id in steps, lower[:120]
            seen_step += 1
        if item.get("phase") != "final_answer" and any(
            w in lower for w in ("completed", "done", "finished")
        ):
            assert entry.id in steps, lower[:120]
    assert seen_decision and seen_step


def test_truth_round_trips_through_its_sidecar_file(tmp_path):
    _, truth = generated(1000)
    path = tmp_path / "s.truth.json"
    write_truth(truth, path)
    back = read_truth(path)
    assert isinstance(back, GroundTruth) and back.to_dict() == truth.to_dict()
    assert back.origin["params"]["entries"] == 1000 and back.session_id


def test_with_revisions_name_replaced_a_revision_names_the_decision_it_supersedes():
    session, truth = generated(1000, seed=3, revisions_name_replaced=True)
    texts = {e.id: entry_text(e) for e in session.tree_entries}
    by_id = {f.id: f for f in truth.facts}
    revisions = [f for f in truth.of_kind("decision") if f.attributes.get("supersedes")]
    assert revisions
    for new in revisions:
        old = by_id[new.attributes["supersedes"]]
        assert old.superseded_by == new.id
        said = texts[new.introduced_at]
        assert f"instead of the earlier decision to {old.text}, I decided to {new.text}," in said
    # Off (the default), the same seed keeps its old wording: the earlier corpora are unchanged.
    plain, _ = generated(1000, seed=3)
    assert not any("earlier decision to" in entry_text(e) for e in plain.tree_entries)
