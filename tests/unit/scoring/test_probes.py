"""Probe questions, exact grading, the lexical judge and the extractive answerer. Model-free:
every answer here comes from text in the test or from the bundled synthetic-tiny session."""

from __future__ import annotations

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth, read_truth
from soba_bench.errors import InputError, UnknownNameError
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.probes import (
    ProbeConfig,
    Prober,
    generate_probes,
    grade_exact,
    render_input,
    score_moment,
)
from soba_bench.scoring.probes.judges import LexicalJudge
from soba_bench.scoring.probes.questions import Probe, decision_subject, sample_probes
from soba_bench.scoring.probes.tables import parse_params
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.session import read_session
from soba_bench.session.build_input import build_input
from soba_bench.session.entries import Entry
from tests.builders import REPO, user

TINY = REPO / "corpora" / "synthetic-tiny" / "sessions" / "synthetic-s11-000"


def entries(n: int) -> list[Entry]:
    return [
        Entry("item", {"type": "item", "id": f"e{i}", "parentId": None, "item": user(f"m{i}")})
        for i in range(n)
    ]


FACTS = (
    Fact("g1", "goal", "Add logging to the auth middleware", "superseded", introduced_at="e0",
         superseded_by="g2"),
    Fact("g2", "goal", "Add logging to the auth middleware and a migration guide",
         introduced_at="e5"),
    Fact("c1", "constraint", "Never touch src/legacy/", introduced_at="e0"),
    Fact("d1", "decision", "use pino for logging because it is fast", "superseded",
         introduced_at="e2", superseded_by="d2"),
    Fact("d2", "decision", "use winston for logging because pino breaks the build",
         introduced_at="e6"),
    Fact("b1", "blocker", "TypeError in src/auth/jwt.ts line 40", "resolved", introduced_at="e3",
         resolved_at="e7"),
    Fact("b2", "blocker", "ENOENT config/missing.json", "open", introduced_at="e8"),
    Fact("f1", "file_modified", "src/auth/middleware.ts", introduced_at="e4",
         attributes={"path": "src/auth/middleware.ts"}),
    Fact("v1", "verification", "npm test", introduced_at="e4",
         attributes={"command": "npm test", "runs": [{"entryId": "e4", "result": "failed"},
                                                     {"entryId": "e9", "result": "passed"}]}),
    Fact("n1", "next_step", "write the migration guide in docs/guide.md", introduced_at="e9"),
    Fact("late", "decision", "adopt structured JSON logs everywhere", introduced_at="e15"),
)  # fmt: skip
TRUTH = GroundTruth("s", "s", {}, FACTS)


def probes_at(point: int) -> dict[str, Probe]:
    lifecycle = Lifecycle(TRUTH, Timeline.of(entries(20)))
    return {p.id: p for p in generate_probes(TRUTH.facts, lifecycle, point)}


def test_questions_ask_only_for_facts_live_at_the_moment():
    probes = probes_at(10)
    assert list(probes) == [
        "goal", "constraints", "blockers", "modified_files", "verification_commands",
        "verification_status:v1", "next_steps", "decision:d2",
    ]  # fmt: skip
    assert {p.type for p in probes.values()} == {"recall", "artifact", "continuation", "decision"}
    # superseded and resolved facts are never expected as current, only carried as outdated
    assert probes["goal"].expected == ("Add logging to the auth middleware and a migration guide",)
    assert probes["goal"].outdated == ("Add logging to the auth middleware",)
    assert probes["blockers"].expected == ("ENOENT config/missing.json",)
    assert probes["blockers"].outdated == ("TypeError in src/auth/jwt.ts line 40",)
    assert "decision:d1" not in probes and "decision:late" not in probes  # stale / not yet made
    assert probes["decision:d2"].outdated == ("use pino for logging because it is fast",)
    assert probes["decision:d2"].question == "What was decided about winston?"
    assert probes["modified_files"].mode == "exact" and probes["goal"].mode == "judge"
    # the verification's status is the last run before the moment
    assert probes["verification_status:v1"].expected == ("passed",)
    assert probes_at(6)["verification_status:v1"].expected == ("failed",)


def test_before_a_supersession_the_old_fact_is_the_current_one():
    probes = probes_at(4)
    assert probes["goal"].expected == ("Add logging to the auth middleware",)
    assert probes["goal"].outdated == ()
    assert probes["decision:d1"].expected == ("use pino for logging because it is fast",)
    assert "blockers" in probes and probes["blockers"].expected == (
        "TypeError in src/auth/jwt.ts line 40",
    )
    assert "next_steps" not in probes and "modified_files" not in probes  # introduced at e4


def test_decision_subjects_and_seeded_subsampling():
    fact = Fact("d", "decision", "validate tenant payloads with a hand-written schema")
    assert decision_subject(fact) == "tenant payloads"
    keyed = Fact("d", "decision", "anything", keywords=("config loader",))
    assert decision_subject(keyed) == "config loader"
    probes = list(probes_at(10).values())
    sample = sample_probes(probes, 3, "0|s|1")
    assert len(sample) == 3 and sample == sample_probes(probes, 3, "0|s|1")
    assert [probes.index(p) for p in sample] == sorted(probes.index(p) for p in sample)
    assert {tuple(p.id for p in sample_probes(probes, 3, f"{s}|s|1")) for s in range(8)} != {
        tuple(p.id for p in sample)
    }
    assert sample_probes(probes, None, "x") == probes and sample_probes(probes, 0, "x") == probes


def test_exact_grading_normalises_paths_and_lists_wrong_items():
    probe = Probe("modified_files", "artifact", "?", ("src/a.ts", "src/b/c.ts", "Makefile"),
                  "exact", "paths", ())  # fmt: skip
    grade = grade_exact(probe, "- ./src/a.ts\n- `src/b/c.ts`,\n- Makefile\n- src/other.ts")
    assert grade.found == ("src/a.ts", "src/b/c.ts", "Makefile")
    assert grade.wrong == ("src/other.ts",) and grade.score == 1.0 and grade.precision == 0.75
    partial = grade_exact(probe, "I edited src/a.tsx and src/b/c.ts")  # a.tsx is not a.ts
    assert partial.missed == ("src/a.ts", "Makefile") and partial.wrong == ("src/a.tsx",)
    assert partial.score == pytest.approx(1 / 3)


def test_an_answer_may_name_a_file_under_the_working_folder_either_way():
    # A Claude Code tool wrote the absolute path; the truth's alias is the repository's
    # spelling, and an answer giving it names the file, not a wrong one.
    here = "/home/me/repo/src/a.ts"
    fact = Fact("f1", "file_modified", here, introduced_at="e1",
                attributes={"path": here, "aliases": ["src/a.ts"]})  # fmt: skip
    old = "/home/me/repo/src/old.ts"
    gone = Fact("f2", "file_modified", old, "resolved", introduced_at="e1", resolved_at="e2",
                attributes={"path": old, "aliases": ["src/old.ts"]})  # fmt: skip
    lifecycle = Lifecycle(GroundTruth("s", "s", {}, (fact, gone)), Timeline.of(entries(4)))
    (probe,) = [p for p in generate_probes((fact, gone), lifecycle, 3) if p.id == "modified_files"]
    assert probe.expected == (here,) and probe.outdated == (old,)
    assert probe.aliases == (("src/a.ts", here), ("src/old.ts", old))
    assert grade_exact(probe, "I changed src/a.ts").found == (here,)
    # a file no longer current, named either way, is still named wrongly
    assert grade_exact(probe, "I changed src/a.ts and src/old.ts").wrong == ("src/old.ts",)
    assert grade_exact(probe, f"I changed {here}").wrong == ()
    relative = grade_exact(probe, "I changed src/a.ts and src/b.ts")
    assert relative.score == 1.0 and relative.wrong == ("src/b.ts",)
    # without the alias: the old reading, the file missed and named wrongly
    bare = Probe(probe.id, probe.type, probe.question, probe.expected, probe.mode,
                 probe.answer_kind, probe.cues)  # fmt: skip
    assert grade_exact(bare, "I changed src/a.ts").missed == (here,)


def test_an_answer_may_name_a_check_without_its_output_plumbing():
    run = "mix test --seed 0 2>&1 | head -100"
    fact = Fact("v1", "verification", run, introduced_at="e1",
                attributes={"command": run, "aliases": ["mix test --seed 0"]})  # fmt: skip
    lifecycle = Lifecycle(GroundTruth("s", "s", {}, (fact,)), Timeline.of(entries(4)))
    (probe,) = [
        p for p in generate_probes((fact,), lifecycle, 3) if p.id == "verification_commands"
    ]
    assert probe.aliases == (("mix test --seed 0", run),)
    answer = "Run `mix test --seed 0`, then `make deploy`."
    grade = grade_exact(probe, answer)
    assert grade.found == (run,) and grade.wrong == ("make deploy",)
    bare = Probe(probe.id, probe.type, probe.question, probe.expected, probe.mode,
                 probe.answer_kind, probe.cues)  # fmt: skip
    assert grade_exact(bare, answer).missed == (run,)  # the old reading


def test_exact_grading_of_commands_and_status():
    probe = Probe("verification_commands", "artifact", "?", ("npm test",), "exact", "commands",
                  (), allowed=("npm run lint",))  # fmt: skip
    grade = grade_exact(probe, "Run `npm  test` and `npm run lint`, then `make deploy`.")
    assert grade.found == ("npm test",) and grade.wrong == ("make deploy",)
    status = Probe("s", "artifact", "?", ("passed",), "exact", "status", ())
    assert grade_exact(status, "It passed.").score == 1.0
    wrong = grade_exact(status, "It failed with 3 errors.")
    assert wrong.score == 0.0 and wrong.wrong == ("failed",)


def test_lexical_judge_recall_and_outdated_items_presented_as_current():
    probe = probes_at(10)["decision:d2"]
    judge = LexicalJudge(DEFAULT_MATCH)
    good = judge(probe, "We use winston for logging, because pino breaks the build.")
    assert good.score == 1.0 and good.wrong == ()
    stale = judge(probe, "We use pino for logging because it is fast.")
    assert stale.score == 0.0 and stale.wrong == ("use pino for logging because it is fast",)
    assert stale.missed == probe.expected


def tiny():
    branch = read_session(TINY.with_suffix(".jsonl.gz")).active_branch
    truth = read_truth(TINY.with_suffix(".truth.json"))
    return branch, truth, Lifecycle(truth, Timeline.of(branch))


def test_extractive_answerer_gets_full_marks_on_the_uncompacted_input_and_less_when_cut():
    branch, truth, lifecycle = tiny()
    items = list(build_input(branch).items)

    def ask(budget):
        prober = Prober(ProbeConfig(budget=budget), DEFAULT_MATCH)
        return score_moment(prober, session="s", generation="final", point=len(branch),
                            final=True, inputs={"none": items}, facts=truth.facts,
                            lifecycle=lifecycle)  # fmt: skip

    rows, (moment,) = ask(None)
    assert len(rows) >= 8 and {r["type"] for r in rows} >= {"recall", "artifact", "continuation"}
    assert all(r["score"] == 1.0 for r in rows), [r for r in rows if r["score"] != 1.0]
    assert moment["probeScore"] == 1.0 and moment["missed"] == [] and not moment["truncated"]
    cut_rows, (cut,) = ask(300)
    assert cut["truncated"] and cut["shownTokens"] <= 300 < cut["inputTokens"]
    assert cut["probeScore"] < 0.8 and cut["missed"]
    assert all(m.split(": ", 1)[0] in {r["probe"] for r in cut_rows} for m in cut["missed"])


def test_render_notes_a_cut_and_keeps_head_and_tail():
    items = [user("HEAD " + "a" * 4000), user("b" * 4000), user("c" * 4000 + " TAIL")]
    full = render_input(items)
    cut = render_input(items, 500)
    assert not full.truncated and full.tokens > 3000
    assert cut.truncated and cut.tokens <= 500 and cut.full_tokens == full.tokens
    assert cut.text.startswith("[user]\nHEAD") and cut.text.endswith("TAIL")
    assert "tokens of the input omitted here to fit a 500-token budget" in cut.text


def test_config_and_registry_errors_name_the_valid_choices():
    with pytest.raises(UnknownNameError, match="valid names: extractive, local, model"):
        ProbeConfig(answerer="oracle")
    with pytest.raises(UnknownNameError, match="valid names: lexical, local, model"):
        ProbeConfig.from_params({"judge": "gpt"})
    with pytest.raises(InputError, match=r"unknown probe parameter.*'answerr'.*answerer"):
        ProbeConfig.from_params({"answerr": "local"})
    with pytest.raises(InputError, match=r"'max_probes'.*\"many\""):
        ProbeConfig.from_params({"max_probes": "many"})
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_params(["budget"])
    config = ProbeConfig.from_params(parse_params(["max_probes=4", "strategies=soba,none"]))
    assert config.max_probes == 4 and config.strategies == ("soba", "none")
    assert config.model_free and config.input_budget() is None
    assert ProbeConfig(answerer="local").input_budget() == 1500
