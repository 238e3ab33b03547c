"""Ground truth derived from real logs, checked by hand against the source.

Each row is one derived fact (kind, id, status, text start) with the verdict reached by
reading the trajectory step it comes from; ``NOT_FACTS`` are commands the old rules wrongly
called verification, checked to stay out. The test fails when the importer's output drifts
from the checked list, so a rule change has to be re-checked by hand.

Real logs: the three SWE-agent trajectories in ``corpora/swe-agent-real`` (MIT, provenance
in its README). Hand-checked: 19 derived facts, 19 right; 6 rejections, 6 right.
"""

from __future__ import annotations

import pytest

from soba_bench.corpora.importers import import_source
from tests.unit.corpora.helpers import SWE_REAL

RIGHT = "right"

# (session, fact id, kind, status, text starts with, verdict, why)
CHECKED = [
    ("ctf-crypto-katy", "goal-001", "goal", "active",
     "We're currently solving the following CTF challenge", RIGHT, "the task message"),
    ("ctf-crypto-katy", "modified-001", "file_modified", "active",
     "/__Users__talora__LLM_CTF_Dataset_Dev__2016__CSAW-Finals__crypto__Katy/retrieve_random_numbers.py",
     RIGHT, "created step 4, edited step 5, never deleted"),
    ("ctf-crypto-katy", "modified-002", "file_modified", "active",
     "/__Users__talora__LLM_CTF_Dataset_Dev__2016__CSAW-Finals__crypto__Katy/get_seed.py",
     RIGHT, "created step 7, edited 8-9"),
    ("ctf-crypto-katy", "modified-003", "file_modified", "active",
     "/__Users__talora__LLM_CTF_Dataset_Dev__2016__CSAW-Finals__crypto__Katy/recover_flag.py",
     RIGHT, "created step 11, edited 12 and 15"),
    ("ctf-crypto-katy", "blocker-001", "blocker", "open",
     "`submit 'flag{d|o9yx?_brnfj{}'` failed: Wrong flag!", RIGHT,
     "step 14 rejected flag; that flag was never accepted"),
    ("ctf-crypto-katy", "blocker-002", "blocker", "open",
     "`python recover_flag.py` failed: EXECUTION TIMED OUT", RIGHT,
     "step 16 timed out; never re-run"),
    ("marshmallow-1867.function_calling", "goal-001", "goal", "active",
     "TimeDelta serialization precision", RIGHT, "the issue's title, the line after ISSUE:"),
    ("marshmallow-1867.function_calling", "modified-001", "file_modified", "superseded",
     "/testbed/reproduce.py", RIGHT, "created step 0, deleted by `rm reproduce.py` step 9"),
    ("marshmallow-1867.function_calling", "read-001", "file_read", "active",
     "/testbed/src/marshmallow/fields.py", RIGHT, "opened step 5"),
    ("marshmallow-1867.function_calling", "modified-002", "file_modified", "active",
     "/testbed/src/marshmallow/fields.py", RIGHT, "edit applied step 7 (step 6 was rejected)"),
    ("marshmallow-1867.function_calling", "blocker-001", "blocker", "resolved",
     "`edit` on /testbed/src/marshmallow/fields.py failed: Your proposed edit has introduced",
     RIGHT, "step 6 E999 IndentationError; step 7 edit of the same file applied"),
    ("pydicom-1458.gpt4", "goal-001", "goal", "active",
     "Pixel Representation attribute should be optional", RIGHT,
     "the issue's title, the line after ISSUE:"),
    ("pydicom-1458.gpt4", "modified-001", "file_modified", "superseded",
     "/pydicom__pydicom/reproduce_bug.py", RIGHT, "created step 0, `rm` step 10"),
    ("pydicom-1458.gpt4", "read-001", "file_read", "active",
     "/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py", RIGHT, "opened step 4"),
    ("pydicom-1458.gpt4", "modified-002", "file_modified", "active",
     "/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py", RIGHT, "edit step 8"),
    ("pydicom-1458.gpt4", "blocker-001", "blocker", "resolved",
     "`python reproduce_bug.py` failed: AttributeError: Unable to convert the pixel data",
     RIGHT, "step 2 traceback; step 9 same command 'completed successfully'"),
    ("pydicom-1458.gpt4", "blocker-002", "blocker", "resolved",
     "`edit 287:295` on /pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py failed",
     RIGHT, "step 5 unmatched ']'; step 8 edit applied"),
    ("pydicom-1458.gpt4", "blocker-003", "blocker", "resolved",
     "`edit 287:295` on /pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py failed",
     RIGHT, "step 6 unmatched ')'; step 8"),
    ("pydicom-1458.gpt4", "blocker-004", "blocker", "resolved",
     "`edit 287:295` on /pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py failed",
     RIGHT, "step 7 unmatched ')'; step 8"),
]  # fmt: skip

# Commands that ran but verify nothing (the old rules made each one a "verification").
NOT_FACTS = [
    ("marshmallow-1867.function_calling", "python reproduce.py"),
    ("marshmallow-1867.function_calling", "ls -F"),
    ("marshmallow-1867.function_calling", "rm reproduce.py"),
    ("pydicom-1458.gpt4", "python reproduce_bug.py"),
    ("ctf-crypto-katy", "python recover_flag.py"),
    ("ctf-crypto-katy", "python get_seed.py"),
]


@pytest.fixture(scope="module")
def sessions():
    return {s.name: s for s in import_source("swe-agent", SWE_REAL).sessions}


def test_every_derived_fact_is_in_the_checked_list(sessions):
    derived = {(name, f.id) for name, s in sessions.items() for f in s.facts}
    assert derived == {(row[0], row[1]) for row in CHECKED}


@pytest.mark.parametrize("row", CHECKED, ids=lambda r: f"{r[0]}:{r[1]}")
def test_checked_fact(sessions, row):
    name, fact_id, kind, status, text, verdict, _why = row
    (fact,) = [f for f in sessions[name].facts if f.id == fact_id]
    assert (fact.kind, fact.status) == (kind, status)
    assert fact.text.startswith(text)
    assert fact.introduced_at in fact.entry_ids  # each fact names its source entry
    if status == "resolved":
        assert fact.resolved_at is not None
    # Only facts checked right are pinned as they are; a wrong one would be pinned to what
    # it should be, failing until the rule is fixed.
    assert verdict == RIGHT, f"{name}:{fact_id} was checked wrong: fix the rule"


@pytest.mark.parametrize("row", NOT_FACTS, ids=lambda r: f"{r[0]}:{r[1]}")
def test_checked_non_verification(sessions, row):
    name, command = row
    assert command not in [f.text for f in sessions[name].facts if f.kind == "verification"]
