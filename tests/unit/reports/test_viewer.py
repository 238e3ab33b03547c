"""The viewer's page model and pages on a hand-built session whose outcomes are known: a goal
the capsule keeps, a constraint it misses, a decision it presents although it was superseded,
and a fact introduced after the boundary that only the tail carries."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.errors import InputError
from soba_bench.reports.viewer import (
    IN_TAIL,
    RunView,
    SessionMoments,
    load_run_view,
    pair_moments,
    session_moments,
)
from soba_bench.reports.viewer_html import page_name, render_pages
from soba_bench.scoring.retention import KEPT, MISSED, STALE
from tests.builders import assistant, capsule_line, chain, header, session_of, user

GOAL = "Fix the login redirect loop in the billing portal"
CONSTRAINT = "Never change the public session cookie name"
OLD = "Store retry counters in the shared memcached cluster"
NEW = "Store retry counters in a local sqlite ledger instead of memcached"
LATE = "Add a regression test for the redirect loop with expired cookies"


def _branch(goal: str = GOAL):
    items = [
        user(GOAL),
        user(CONSTRAINT),
        assistant(OLD),
        assistant(NEW),
        assistant("Looking at the router <script>alert(1)</script> now"),
        user(LATE),
    ]
    lines = [header(), *chain(items)]
    capsule = capsule_line(
        "c1",
        "e5",
        first_kept="e4",
        first_compacted="e0",
        goal=goal,
        decisions=[{"decision": OLD}],
    )
    return list(session_of([*lines, capsule]).active_branch)


def _truth() -> GroundTruth:
    facts = (
        Fact("g", "goal", GOAL, entry_ids=("e0",)),
        Fact("c", "constraint", CONSTRAINT, entry_ids=("e1",)),
        Fact("d1", "decision", OLD, status="superseded", entry_ids=("e2",), superseded_by="d2"),
        Fact("d2", "decision", NEW, entry_ids=("e3",)),
        Fact("n", "next_step", LATE, entry_ids=("e5",)),
    )
    return GroundTruth(session="s", session_id=None, origin={}, facts=facts)


ATTEMPT = {
    "kind": "attempt",
    "checkpointId": "ck_123456789abc",
    "trigger": "hard_limit",
    "reason": "Compaction completed using deterministic strategy",
    "outcome": "completed",
    "hardLimit": 3976,
    "softLimit": 3180,
    "tokensBefore": 4100,
    "tokensAfter": 2900,
    "reclaimed": 1200,
    "turn": 3,
}


def test_moment_marks_every_fact_with_the_scorers_outcome():
    session = session_moments("corpus/s", _branch(), [ATTEMPT], _truth())
    (moment,) = session.moments
    outcome = {f.fact_id: f.outcome for f in session.moments[0].facts}
    assert outcome == {"g": KEPT, "c": MISSED, "d1": STALE, "d2": MISSED, "n": IN_TAIL}
    assert (moment.trigger, moment.hard_limit, moment.tokens_after) == ("hard_limit", 3976, 2900)
    assert moment.reason.startswith("Compaction completed")
    assert moment.point == 6 and moment.index == 1
    # The tail runs from the first kept entry (e4) up to the capsule.
    assert moment.tail_items == 2 and moment.tail[1].text == LATE
    assert GOAL in moment.capsule_text


def test_a_capsule_that_drops_the_goal_marks_it_missed():
    session = session_moments("corpus/s", _branch(goal="Something else entirely"), [], _truth())
    outcome = {f.fact_id: f.outcome for f in session.moments[0].facts}
    assert outcome["g"] == MISSED
    assert session.moments[0].trigger == "auto_threshold"  # from the capsule, no attempt line


def test_without_truth_there_are_no_marks():
    session = session_moments("corpus/s", _branch(), [ATTEMPT], None)
    assert not session.has_truth and session.moments[0].facts == ()


def test_pairing_uses_the_nearest_moment_when_one_side_has_fewer():
    one = session_moments("corpus/s", _branch(), [ATTEMPT], _truth())
    none = SessionMoments("corpus/s", True, ())
    (pair,) = pair_moments(one, one)
    assert pair.a is pair.b and pair.nearest is None
    (pair,) = pair_moments(one, none)
    assert pair.b is None and pair.nearest is None  # B never compacted
    two = SessionMoments("corpus/s", True, (one.moments[0], one.moments[0]))
    pairs = pair_moments(one, two)
    assert [p.nearest for p in pairs] == [None, "a"] and pairs[1].a is one.moments[0]


def test_pages_escape_names_and_texts_and_mark_facts(tmp_path):
    session = session_moments("corpus/<b>s</b>", _branch(), [ATTEMPT], _truth())
    run = RunView(tmp_path, "soba / <i>x</i>", (session,))
    pages = render_pages(run)
    page = pages[page_name("corpus/<b>s</b>", 1)]
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<b>s</b>" not in page and "<i>x</i>" not in pages["index.html"]
    assert 'data-outcome="kept"' in page and 'data-outcome="missed"' in page
    assert 'data-outcome="stale"' in page and "3,976" in page
    assert "/" not in page_name("corpus/<b>s</b>", 1)
    pair = render_pages(run, run)
    assert pair[page_name("corpus/<b>s</b>", 1)].count('class="capsule"') == 2


def test_a_reused_pointer_is_followed_and_a_folder_without_a_record_is_an_error(tmp_path):
    with pytest.raises(InputError, match=r"no run\.json"):
        load_run_view(tmp_path)
    job = tmp_path / "job"
    job.mkdir()
    (job / "reused.json").write_text(json.dumps({"record": str(tmp_path / "gone" / "run.json")}))
    with pytest.raises(InputError, match="points at no complete run record"):
        load_run_view(job)
