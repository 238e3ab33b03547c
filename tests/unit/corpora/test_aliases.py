"""The other spellings an imported fact lists (``attributes.aliases``): a file's path under
the session's working folder (soba_bench.corpora.importers.facts.cwd_aliases), a check's
command without its ``cd`` and output plumbing (commands.check_spelling). The rules on
hand-made inputs, what the real logs in tests/data/importers/real get, and a truth file
whose aliases are not a list of strings refused, naming the field."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source
from soba_bench.corpora.importers.commands import check_spelling
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


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("mix test --seed 0 2>&1 | head -100", "mix test --seed 0"),
        ("cd /testbed && python -m pytest tests/t.py -v", "python -m pytest tests/t.py -v"),
        ("cd a && cd b && cargo test 2>/dev/null", "cargo test"),
        ('cd "my dir" && go test ./...', "go test ./..."),
        ("npm test 2>&1 | tee /tmp/test-output.log", "npm test"),
        ("npm  test > out.log 2>&1", "npm test"),
        ("pytest -q | tail -5 | head -3", "pytest -q"),
        ("CI=1 npm test &> log.txt", "CI=1 npm test"),
        # already the check, more than one command, a pipe it cannot read, no check at all
        ("npm test", None),
        ("make clean && make", None),
        ("npm run lint && npm test", None),
        ("npm test || true", None),
        ('npm test | grep "a|b"', None),
        ("npm test\nnpm run lint", None),
        ("ls | head", None),
        ("cd /repo && ls", None),
        (None, None),
    ],
)
def test_a_checks_other_spelling_drops_only_its_folder_and_output_plumbing(command, expected):
    assert check_spelling(command) == expected


def test_real_sessions_checks_carry_their_plain_spelling():
    # Every check of the real logs whose line moves into a folder or shapes its output.
    formats = {
        "claude-code": None,
        "claude-code-stream": None,
        "codex": None,
        "openhands": None,
        "hf": ImportOptions(hf_mapping="SWE-bench/SWE-smith-trajectories"),
    }
    spelled = {}
    for folder, options in formats.items():
        importer = "claude-code" if folder.startswith("claude-code") else folder
        for imported in import_source(importer, str(REAL / folder), options).sessions:
            for fact in imported.facts:
                if fact.kind == "verification":
                    assert fact.attributes.get("aliases", [None]) == [
                        check_spelling(fact.attributes["command"])
                    ]
                    spelled[fact.attributes["command"]] = fact.attributes.get("aliases")
    assert {c: a for c, a in spelled.items() if a} == {
        "mix test --seed 0 2>&1 | head -100": ["mix test --seed 0"],
        "npm test 2>&1 | tee /tmp/test-output.log": ["npm test"],
        "cd /workspace/ponylang__ponyc__0.1 && make": ["make"],
        "cd /testbed && python -m pytest tests/test_athena/test_athena.py -v": [
            "python -m pytest tests/test_athena/test_athena.py -v"
        ],
    }
    assert len(spelled) >= 9  # the others are kept as run


def test_a_truth_file_whose_aliases_are_not_strings_is_refused(tmp_path):
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
