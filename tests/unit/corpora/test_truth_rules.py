"""The ground-truth rules (corpora/README.md, "Imported ground truth"): which commands are
verification, which outputs are failures, how blockers resolve, how deletions and moves
leave the modified set, and that truth files carry no secrets."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.importers import import_bytes, import_source
from soba_bench.corpora.importers.commands import (
    exit_means_no_match,
    file_effects,
    file_reads,
    only_missing_paths,
    output_failure,
    output_not_run,
    split_commands,
    status_hidden_by_pipe,
    verification_kind,
)
from soba_bench.corpora.importers.writer import write_corpus
from soba_bench.corpora.truth import read_truth, scrub_secrets
from tests.unit.corpora.helpers import facts_of


@pytest.mark.parametrize(
    ("command", "kind"),
    [
        ("pytest -q", "test"),
        ("cd /testbed && python -m pytest tests/test_x.py -x", "test"),
        ("uv run pytest", "test"),
        ("timeout 120 python -m unittest discover", "test"),
        ("python tests/test_parse.py", "test"),
        ("go test ./...", "test"),
        ("cargo test --all", "test"),
        ("npm test", "test"),
        ("yarn test --watch=false", "test"),
        ("pnpm run test:unit", "test"),
        ("make test", "test"),
        ("make check", "test"),
        ("tox -e py312", "test"),
        ("make", "build"),
        ("npm run build", "build"),
        ("cargo build --release", "build"),
        ("ruff check .", "lint"),
        ("npx eslint src", "lint"),
        ("black --check .", "lint"),
        ("mypy src", "typecheck"),
        ("npx tsc --noEmit", "typecheck"),
        ("cargo check", "typecheck"),
        ("python reproduce.py", None),
        ("rm reproduce.py", None),
        ("mkdir -p out && touch out/x", None),
        ("ls -F", None),
        ("black .", None),
        ("grep -rn pytest .", None),
        ("cat tests/test_x.py", None),
        ("pip install -e .", None),
    ],
)
def test_verification_kind(command, kind):
    assert verification_kind(command) == kind


@pytest.mark.parametrize(
    ("command", "hidden"),
    [
        ("mix test --seed 0 2>&1 | head -100", True),
        ("pytest -x | tail -5", True),
        ("cargo test 2>&1 | grep FAIL", True),
        ("set -o pipefail; pytest | tail", False),
        ("pytest || echo failed", False),
        ("ls | head", False),
        ("pytest -q", False),
    ],
)
def test_status_hidden_by_pipe(command, hidden):
    # A test run piped into a filter exits with the filter's status.
    assert status_hidden_by_pipe(command) is hidden


def test_split_commands_keeps_quoted_operators():
    assert split_commands('rg -n "a|b" src && echo "x;y"') == [
        ["rg", "-n", "a|b", "src"],
        ["echo", "x;y"],
    ]
    assert split_commands("ls | head\npwd") == [["ls"], ["head"], ["pwd"]]


@pytest.mark.parametrize(
    ("command", "code", "no_match"),
    [
        ('rg -n "a|b" src', 1, True),
        ("cd x && grep -r foo .", 1, True),
        ("rg foo missing/", 2, False),
        ("pytest", 1, False),
        ("grep foo f && pytest", 1, False),
    ],
)
def test_exit_means_no_match(command, code, no_match):
    # grep/rg exit 1 when nothing matched: a search result, not a failure.
    assert exit_means_no_match(command, code) is no_match


def test_file_effects():
    assert file_effects("rm -f a.py b.py && git rm c.py") == (("a.py", "b.py", "c.py"), ())
    assert file_effects("git mv old.py new.py; mv x y") == ((), (("old.py", "new.py"), ("x", "y")))
    assert file_effects("rm -rf build/*") == ((), ())  # globs name no known file


@pytest.mark.parametrize(
    ("command", "reads"),
    [
        ("sed -n '1,220p' /x/SKILL.md", ("/x/SKILL.md",)),
        ("cat a.py && sed -n '70,150p' b.ts", ("a.py", "b.ts")),
        ("nl -ba src/x.ts | sed -n '90,108p'", ("src/x.ts",)),
        ("head -n 20 a.txt; tail -5 log.txt", ("a.txt", "log.txt")),
        (r"sed -n 1,2p /d/Demo\ Prep.vtt", ("/d/Demo Prep.vtt",)),
        ("cat > a.py <<'EOF'\ncat b.py\nEOF", ()),  # a heredoc writes; its body is text
        ("cat a.py > b.py", ()),  # a redirect copies
        ("sed -i 's/a/b/' f.py", ()),
        ("sed -n '/foo/p' f.py", ()),  # a search by pattern
        ("wc -l f.py", ()),
        ("rg -n foo f.py", ()),
        ("cat src/*.py", ()),
        ("git diff | head -50", ()),
    ],
)
def test_file_reads(command, reads):
    # Agents with only a shell (Codex) read files by printing them.
    assert file_reads(command) == reads


def test_output_not_run():
    assert output_not_run("<tool_use_error>Sibling tool call errored</tool_use_error>")
    assert not output_not_run("<tool_use_error>File does not exist.</tool_use_error>")


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        ('Traceback (most recent call last):\n  File "x"\nValueError: bad', "traceback"),
        ("Your proposed edit has introduced new syntax error(s).", "rejected edit"),
        ("\nEXECUTION TIMED OUT", "timeout"),
        ("bash: foo: command not found", "shell error"),
        ("Process exited with code 1\nOutput:\nzsh:1: operation not permitted: ps", "shell error"),
        (
            '[{"text":"Browser Use rejected this action due to browser security policy."}]',
            "rejected",
        ),
        ("Wrong flag!", "rejected"),
        ("===== 1 failed, 2 passed in 0.1s =====", "test failure"),
        ("Ran 3 tests in 0.001s\n\nFAILED (failures=1)", "test failure"),
        ("write_stdin failed: stdin is closed for this session; rerun", "tool error"),
        ("OBSERVATION:\nERROR:\nInvalid `view_range`: [0, 40].", "tool error"),
    ],
)
def test_output_failure(text, cause):
    assert output_failure(text)[0] == cause


def test_output_failure_quotes_the_editor_message_not_its_heading():
    assert output_failure("OBSERVATION:\nERROR:\nNo replacement.\n") == (
        "tool error",
        "No replacement.",
    )


@pytest.mark.parametrize(
    "text",
    [
        "def f():\n    raise ValueError('error: bad')",
        "12:    # an error: here is fine",
        "3 passed in 0.2s",
        "",
        "log line\nwrite_stdin failed: quoted by a program",  # only a tool's own opening
        "a log\nERROR:\nquoted later",
    ],
)
def test_output_without_failure(text):
    assert output_failure(text) is None


@pytest.mark.parametrize(
    ("text", "missing"),
    [
        ("find: \u2018/w/assets/css\u2019: No such file or directory", True),
        ("ls: cannot access 'a': No such file or directory\nls: cannot access 'b': No such file "
         "or directory\n", True),
        # Some paths were found: the command did work, however loud about the others.
        ("find: 'x': No such file or directory\n/w/y.css", False),
        ("", False),
        ("No such file or directory", False),
    ],
)  # fmt: skip
def test_only_missing_paths(text, missing):
    assert only_missing_paths(text) is missing


def _conversation(*turns):
    """A Chat Completions conversation: ('user', text) or (command, output) pairs."""
    messages = [{"role": "user", "content": turns[0][1]}]
    for n, (command, output) in enumerate(turns[1:]):
        call = {
            "id": f"c{n}",
            "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": command})},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": output})
    return json.dumps({"messages": messages}).encode()


def test_blocker_resolves_only_on_the_same_target():
    (session,) = import_bytes(
        "openai-messages",
        _conversation(
            ("user", "fix it"),
            ("python a.py", "Traceback (most recent call last):\nKeyError: 'x'"),
            ("python b.py", "ok"),
            ("pytest -q", "== 1 failed in 0.1s =="),
            ("pytest -q", "== 2 passed in 0.1s =="),
        ),
        "c.json",
    )
    first, second = facts_of(session, "blocker")
    assert first.status == "open" and first.attributes["cause"] == "traceback"
    assert "KeyError: 'x'" in first.text
    assert second.status == "resolved" and second.resolved_at == session.lines[-1]["id"]
    (run,) = facts_of(session, "verification")
    assert [r["result"] for r in run.attributes["runs"]] == ["failed", "passed"]


def test_deleted_and_moved_files_leave_the_modified_set():
    messages = [{"role": "user", "content": "tidy up"}]
    calls = [
        ("write_file", {"path": "/r/tmp.py", "content": "x"}),
        ("write_file", {"path": "/r/old.py", "content": "y"}),
        ("bash", {"command": "cd /r && rm tmp.py && git mv old.py new.py"}),
        ("apply_patch", {"input": "*** Begin Patch\n*** Delete File: /r/gone.py\n*** End Patch"}),
    ]
    for n, (name, args) in enumerate(calls):
        call = {
            "id": f"c{n}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{n}", "content": "done"})
    (session,) = import_bytes(
        "openai-messages", json.dumps({"messages": messages}).encode(), "m.json"
    )
    modified = {f.text: f for f in facts_of(session, "file_modified")}
    assert (
        modified["/r/tmp.py"].status == "superseded"
        and modified["/r/tmp.py"].attributes["deletedAt"]
    )
    assert modified["/r/old.py"].attributes["movedTo"] == "new.py"
    assert modified["new.py"].status == "active"
    (renamed,) = facts_of(session, "file_renamed")
    assert renamed.attributes == {"from": "/r/old.py", "to": "new.py"}
    assert "/r/gone.py" not in modified  # deleted, never modified


def test_secrets_are_scrubbed_from_truth_files_not_from_sessions(tmp_path):
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
    (session,) = import_bytes(
        "openai-messages",
        _conversation(("user", f"deploy with OPENAI_API_KEY={key} please"), ("ls", "ok")),
        "s.json",
    )
    written = write_corpus(
        import_source("openai-messages", _write(tmp_path / "s.json", session)), tmp_path / "out"
    )
    truth_text = (written.root / written.sessions[0].truth_file).read_text()
    assert key not in truth_text and "[REDACTED:openai-key]" in truth_text
    assert key in (written.root / written.sessions[0].file).read_text()
    goal = read_truth(written.root / written.sessions[0].truth_file).of_kind("goal")[0]
    assert goal.text == "deploy with OPENAI_API_KEY=[REDACTED:openai-key] please"


def _write(path, session):
    messages = [{"role": "user", "content": session.lines[1]["item"]["content"][0]["text"]}]
    path.write_text(json.dumps({"messages": messages}))
    return path


def test_scrub_secrets_shapes():
    text = (
        "AKIAABCDEFGHIJKLMNOP ghp_" + "a" * 36 + " password: hunter22 "
        "postgres://bob:s3cretpw@db/x Authorization: Bearer abcdefghijklmnop1234"
    )
    out = scrub_secrets(text)
    for secret in (
        "AKIAABCDEFGHIJKLMNOP",
        "ghp_aaaa",
        "hunter22",
        "s3cretpw",
        "abcdefghijklmnop1234",
    ):
        assert secret not in out
    assert "postgres://bob:" in out and "password: " in out


def test_unknown_kinds_are_listed_not_claimed_none():
    (session,) = import_bytes(
        "openai-messages", _conversation(("user", "hi"), ("ls", "ok")), "u.json"
    )
    truth = session.truth()
    assert {"constraint", "decision", "next_step"} <= set(truth.unknown_kinds)
    assert not {"goal", "blocker", "verification", "file_modified"} & set(truth.unknown_kinds)


def test_codex_unified_exec_polls_belong_to_their_command():
    """exec_command answers with a session id while running; write_stdin on that session
    carries the exit code, which counts for the command that started it."""

    def line(payload):
        return json.dumps(
            {"timestamp": "2026-01-01T00:00:00Z", "type": "response_item", "payload": payload}
        )

    def call(cid, name, args):
        return line(
            {"type": "function_call", "call_id": cid, "name": name, "arguments": json.dumps(args)}
        )

    def out(cid, text):
        return line({"type": "function_call_output", "call_id": cid, "output": text})

    rows = [
        json.dumps({"type": "session_meta", "payload": {"id": "s", "cwd": "/w"}}),
        line(
            {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": "fix it"}],
            }
        ),
        call("c1", "exec_command", {"cmd": "pytest -q"}),
        out("c1", "Process running with session ID 7\nOutput:\n"),
        call("c2", "write_stdin", {"session_id": 7, "chars": ""}),
        out("c2", "Process exited with code 1\nOutput:\n1 failed in 0.1s\n"),
        call("c3", "exec_command", {"cmd": "rg -n 'a|b' src"}),
        out("c3", "Process exited with code 1\nOutput:\n"),
    ]
    (session,) = import_bytes("codex", "\n".join(rows).encode())
    facts = {f.kind: f for f in session.facts}
    assert facts["verification"].text == "pytest -q"
    assert facts["verification"].status == "open"
    (blocker,) = [f for f in session.facts if f.kind == "blocker"]
    assert blocker.text.startswith("`pytest -q` failed (exit code 1)")
