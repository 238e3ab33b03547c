"""The session's own paths (what ``invented_paths`` counts a capsule's paths against), read
from the real logs in tests/data/importers/real: every path a session's strings hold, on any
line of them, is named by the session. Listings (``ls``, ``git status``, ``find``, grep's
file names) put a path at the start of each line, and reading them from the entries' JSON
lost all of those but the first (the newline's escape joined the next path)."""

from __future__ import annotations

from pathlib import Path

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.scoring.scorers.availability import SessionPaths, capsule_paths
from soba_bench.session.entries import Entry

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"
# folder -> (importer, options): as tests/unit/corpora/test_truth_hand_checked_real.py reads them
FOLDERS = {
    "aider": ("aider", None),
    "aider-architect": ("aider", None),
    "claude-code": ("claude-code", None),
    "claude-code-stream": ("claude-code", None),
    "codex": ("codex", None),
    "hf": ("hf", ImportOptions(hf_mapping="SWE-bench/SWE-smith-trajectories")),
    "openai-messages": ("openai-messages", None),
    "openhands": ("openhands", None),
    "text-tools": ("text-tools", None),
}


def _paths(fmt: str) -> tuple[int, int, int]:
    """(paths named, those starting a line after the string's first, those not found)."""
    importer, options = FOLDERS[fmt]
    named = later = missing = 0
    for session in import_source(importer, str(REAL / fmt), options).sessions:
        items = [Entry(line["type"], line).item for line in session.lines]
        items = [i for i in items if i is not None]
        lookup = SessionPaths(items)
        seen: set[str] = set()
        starts: set[str] = set()
        for item in items:
            for string in _values(item):
                for n, line in enumerate(string.splitlines()):
                    found = capsule_paths(line)
                    seen |= found
                    if n and found:
                        first = line.split()[0] if line.split() else ""
                        starts |= {p for p in found if first.rstrip(".,:;)`'\"").endswith(p)}
        named += len(seen)
        later += len(starts)
        missing += sum(p not in lookup for p in seen)
    return named, later, missing


def _values(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        yield from value  # keys
        for inner in value.values():
            yield from _values(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _values(inner)


@pytest.mark.parametrize("fmt", sorted(FOLDERS))
def test_every_path_a_real_session_names_is_found(fmt):
    named, _, missing = _paths(fmt)
    assert named and missing == 0


def test_the_real_logs_list_paths_at_the_start_of_later_lines():
    # What the test above must cover: without these, it would pass on the JSON reading too.
    counts = {fmt: _paths(fmt)[1] for fmt in sorted(FOLDERS)}
    assert sum(counts.values()) >= 100, counts
    assert sum(1 for n in counts.values() if n) >= 4, counts


def test_a_path_from_the_sessions_folder_is_named():
    # Claude Code reads absolute paths; a summary names them from the working folder.
    relative = 0
    for session in import_source("claude-code", str(REAL / "claude-code")).sessions:
        cwd = session.lines[0].get("cwd", "").rstrip("/")
        items = [Entry(line["type"], line).item for line in session.lines]
        items = [i for i in items if i is not None]
        lookup = SessionPaths(items)
        for item in items:
            for string in _values(item):
                for path in capsule_paths(string):
                    if cwd and path.startswith(cwd + "/") and "/" in path[len(cwd) + 1 :]:
                        relative += 1
                        assert path[len(cwd) + 1 :] in lookup, path
                        assert path[len(cwd) :] not in lookup  # a leading "/": another path
    assert relative >= 40
