"""A file fact's other spelling under the session's working folder (``attributes.aliases``,
soba_bench.corpora.importers.facts.cwd_aliases): the rules on hand-made paths, what the real
Claude Code and Codex logs in tests/data/importers/real get, and a truth file whose aliases
are not a list of paths refused, naming the field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from soba_bench.corpora.importers import import_source
from soba_bench.corpora.importers.facts import cwd_aliases
from soba_bench.corpora.truth import read_truth
from soba_bench.errors import InputError

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"


@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("/home/me/repo/src/a.ts", "/home/me/repo", ["src/a.ts"]),
        ("/home/me/repo/src/a.ts", "/home/me/repo/", ["src/a.ts"]),  # a trailing slash
        ("src/a.ts", "/home/me/repo", ["/home/me/repo/src/a.ts"]),
        ("./src/a.ts", "/home/me/repo", ["/home/me/repo/src/a.ts"]),
        ("src/../lib/b.py", "/r", ["/r/lib/b.py"]),
        # outside the folder, or not resolvable from it: no other spelling
        ("/home/me/repo2/a.ts", "/home/me/repo", []),  # a sibling that shares the prefix
        ("/home/me/other/a.ts", "/home/me/repo", []),
        ("../other/a.ts", "/home/me/repo", []),
        ("~/notes.md", "/home/me/repo", []),
        ("/home/me/repo", "/home/me/repo", []),  # the folder itself
        ("src/a.ts", None, []),
        ("src/a.ts", "", []),
        ("src/a.ts", "/", []),
        ("src/a.ts", "C:\\Users\\me\\repo", []),
        ("", "/home/me/repo", []),
    ],
)
def test_a_paths_other_spelling_is_exact_given_the_working_folder(path, cwd, expected):
    assert cwd_aliases(path, cwd) == expected


@pytest.mark.parametrize("fmt", ["claude-code", "codex"])
def test_real_sessions_file_facts_carry_their_other_spelling(fmt):
    # Claude Code's tools name absolute paths; Codex's patches name them relative to its cwd.
    aliased = spoken = 0
    for imported in import_source(fmt, str(REAL / fmt)).sessions:
        cwd = imported.lines[0]["cwd"].rstrip("/")
        text = json.dumps(imported.lines)
        for fact in imported.facts:
            if not fact.kind.startswith("file_"):
                continue
            path = str(fact.attributes.get("path") or fact.attributes["to"])
            assert fact.attributes.get("aliases", []) == cwd_aliases(path, cwd)
            if "aliases" not in fact.attributes:
                assert not path.startswith(cwd + "/") and path.startswith("/"), path
                continue
            (alias,) = fact.attributes["aliases"]
            absolute, relative = (path, alias) if path.startswith("/") else (alias, path)
            assert absolute == cwd + "/" + relative
            aliased += 1
            # the agent itself named the file relative, not only inside the absolute path
            pattern = r"(?<![\w/.-])" + re.escape(relative) + r"(?![\w/-])"
            spoken += bool(re.search(pattern, text))
    assert aliased >= 10
    # what makes the alias matter: an agent's prose names files from the repository root
    assert spoken >= aliased // 2, (spoken, aliased)


def test_a_truth_file_whose_aliases_are_not_paths_is_refused(tmp_path):
    fact = {"id": "read-001", "kind": "file_read", "text": "a.ts"}
    for bad in ("src/a.ts", [""], [3], {"a": 1}):
        path = tmp_path / "s.truth.json"
        document = {"schemaVersion": 1, "session": "s", "facts": [{**fact}]}
        document["facts"][0]["attributes"] = {"path": "/r/a.ts", "aliases": bad}
        path.write_text(json.dumps(document))
        with pytest.raises(InputError) as raised:
            read_truth(path)
        message = str(raised.value)
        assert "facts[0].attributes.aliases" in message and str(path) in message, message
    document["facts"][0]["attributes"] = {"path": "/r/a.ts", "aliases": ["a.ts"]}
    path.write_text(json.dumps(document))
    assert read_truth(path).facts[0].attributes["aliases"] == ["a.ts"]
