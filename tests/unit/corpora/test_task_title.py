"""The title of the task a first message hands over (soba_bench.corpora.importers.facts
.task_title): the rules on hand-made messages. tests/unit/scoring/test_goal_titles_real.py
holds them to the 12 real sessions that hand one over."""

from __future__ import annotations

import pytest

from soba_bench.corpora.importers.facts import task_title

WRAP = "<uploaded_files>\n/testbed\n</uploaded_files>\nConsider the PR description:\n\n"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (WRAP + "<pr_description>\nCache misses on reload\nMore text\n</pr_description>",
         "Cache misses on reload"),
        # heading marks and a section label before the title are not the title
        (WRAP + "<pr_description>\n\n# Fix the parser\n\n## Description\n", "Fix the parser"),
        (WRAP + "<pr_description>\n**Issue Text**\n\n`f` drops items\n", "`f` drops items"),
        (WRAP + "<pr_description>\n### Issue: Slow startup\n", "Slow startup"),
        ("<issue_description>\n<!--\nA template comment\n-->\nLeaf parser ignores defaults\n",
         "Leaf parser ignores defaults"),
        ("Here's the issue text:\nISSUE:\nTimeDelta precision\nHi there!", "TimeDelta precision"),
        # a first line longer than a title: its first sentence, or nothing
        ("<issue>\n" + "A" * 50 + " breaks. " + "b " * 200, "A" * 50 + " breaks."),
        ("<issue>\n" + "word " * 100, None),
        # no wrapped task, or none inside the wrapper
        ("Please fix the login page", None),
        ("<pr_description>\n\n## Description\n</pr_description>\nTitle after", None),
        ("", None),
    ],
)  # fmt: skip
def test_the_title_is_the_first_line_of_the_wrapped_text(message, expected):
    assert task_title(message) == expected
