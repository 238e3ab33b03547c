"""What a shell command means for the ground truth, from its text alone.

* :func:`verification_kind`: whether a command runs tests, a build, a linter or a type
  checker (``test`` / ``build`` / ``lint`` / ``typecheck``), else None. A compound command
  (``cd x && pytest -q``) counts when any of its simple commands does. Scripts the agent wrote
  to reproduce a bug (``python reproduce.py``), file housekeeping (``rm``, ``mkdir``, ``ls``)
  and searches are not verification.
* :func:`file_effects`: the paths a command deletes (``rm``, ``git rm``, ``unlink``) and the
  moves it makes (``mv``, ``git mv``), so the truth can take them out of the modified set.
* :func:`file_reads`: the files a command prints whole or in part (``cat``, ``head``,
  ``tail``, ``nl``, ``sed -n '1,80p'``): agents that only have a shell (Codex) read files so.
* :func:`failure_handled`: a line ending in ``|| echo ...`` / ``|| true`` (it exits 0).
* :func:`output_not_run`: an output saying the call was never executed (Claude Code cancels
  the parallel siblings of a failed call), which is neither a failure nor a success.
* :func:`output_failure`: an explicit failure in a tool's output text when the source records
  no exit code (a traceback, a rejected edit, a timeout, a shell error...).
"""

from __future__ import annotations

import re
import shlex

# Words that only prefix the real command (wrappers, runners, environment setters).
_WRAPPERS = frozenset(
    {"sudo", "env", "time", "nice", "nohup", "xvfb-run", "command", "exec", "stdbuf"}
)
_RUNNERS = (
    ("uv", "run"),
    ("poetry", "run"),
    ("pipenv", "run"),
    ("pdm", "run"),
    ("hatch", "run"),
    ("rye", "run"),
    ("bundle", "exec"),
    ("npx",),
    ("pnpx",),
    ("bunx",),
    ("yarn", "dlx"),
    ("pnpm", "exec"),
    ("pnpm", "dlx"),
    ("conda", "run"),
)
_ASSIGN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\||\n)\s*")
_PY = re.compile(r"^(?:python(?:\d(?:\.\d+)?)?|py|pypy3?)$")
_TEST_SCRIPT = re.compile(r"(?:^|/)(?:test_[^/]*|[^/]*_test|tests?|runtests)\.py$")
_PKG_SCRIPTS = {
    "test": "test",
    "tests": "test",
    "e2e": "test",
    "coverage": "test",
    "build": "build",
    "compile": "build",
    "lint": "lint",
    "format:check": "lint",
    "typecheck": "typecheck",
    "type-check": "typecheck",
    "types": "typecheck",
    "tsc": "typecheck",
    "check": "lint",
}
_DIRECT = {
    # tests
    **dict.fromkeys(
        (
            "pytest",
            "py.test",
            "tox",
            "nox",
            "jest",
            "vitest",
            "mocha",
            "ava",
            "karma",
            "playwright",
            "cypress",
            "rspec",
            "phpunit",
            "ctest",
            "nosetests",
            "trial",
            "behave",
            "bats",
            "runtests",
        ),
        "test",
    ),
    # lint
    **dict.fromkeys(
        (
            "ruff",
            "flake8",
            "pylint",
            "eslint",
            "biome",
            "golangci-lint",
            "shellcheck",
            "rubocop",
            "stylelint",
            "hadolint",
            "yamllint",
            "markdownlint",
            "black",
            "isort",
            "prettier",
            "clippy-driver",
            "pre-commit",
            "bandit",
            "vulture",
            "pyflakes",
            "pycodestyle",
        ),
        "lint",
    ),
    # type checks
    **dict.fromkeys(("mypy", "pyright", "pytype", "pyre", "tsc", "vue-tsc", "flow"), "typecheck"),
}
_SUBCOMMANDS = {
    "go": {"test": "test", "build": "build", "vet": "lint"},
    "cargo": {
        "test": "test",
        "nextest": "test",
        "build": "build",
        "check": "typecheck",
        "clippy": "lint",
        "fmt": "lint",
    },
    "make": {"test": "test", "tests": "test", "check": "test", "lint": "lint", "build": "build"},
    "mvn": {"test": "test", "verify": "test", "compile": "build", "package": "build"},
    "gradle": {"test": "test", "check": "test", "build": "build"},
    "./gradlew": {"test": "test", "check": "test", "build": "build"},
    "dotnet": {"test": "test", "build": "build"},
    "swift": {"test": "test", "build": "build"},
    "mix": {"test": "test", "compile": "build"},
    "deno": {"test": "test", "lint": "lint", "check": "typecheck"},
    "bun": {"test": "test"},
    "zig": {"test": "test", "build": "build"},
    "stack": {"test": "test", "build": "build"},
    "cabal": {"test": "test", "build": "build"},
    "bazel": {"test": "test", "build": "build"},
    "ninja": {},
    "cmake": {"--build": "build"},
    "gofmt": {"-l": "lint"},
}
_PKG_MANAGERS = ("npm", "yarn", "pnpm", "bun")


def _split_outside_quotes(command: str) -> list[str]:
    """The line cut at ``&&``, ``||``, ``;``, ``|`` and newlines that are not inside quotes
    (``rg "a|b" dir`` is one command)."""
    parts: list[str] = []
    start, i, quote = 0, 0, ""
    while i < len(command):
        ch = command[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "\\":
            i += 1
        else:
            m = _SPLIT.match(command, i)
            if m and (m.group().strip() or "\n" in m.group()):
                parts.append(command[start : m.start()])
                start = i = m.end()
                continue
        i += 1
    parts.append(command[start:])
    return parts


def split_commands(command: str) -> list[list[str]]:
    """The simple commands of a shell line as word lists (quotes respected when possible)."""
    out = []
    for part in _split_outside_quotes(command.strip()):
        part = part.strip().lstrip("(").rstrip(")")
        if not part:
            continue
        try:
            words = shlex.split(part, comments=True)
        except ValueError:
            words = part.split()
        if words:
            out.append(words)
    return out


def _strip_prefixes(words: list[str]) -> list[str]:
    i = 0
    while i < len(words):
        word = words[i]
        if _ASSIGN.match(word) or word in _WRAPPERS:
            i += 1
        elif word == "timeout" and i + 1 < len(words):
            i += 2  # timeout DURATION CMD
            while i < len(words) and words[i].startswith("-"):
                i += 1
        else:
            break
    words = words[i:]
    for runner in _RUNNERS:
        if tuple(words[: len(runner)]) == runner:
            return _strip_prefixes(words[len(runner) :])
    return words


def _simple_kind(words: list[str]) -> str | None:
    words = _strip_prefixes(words)
    if not words:
        return None
    head = words[0].rsplit("/", 1)[-1] if words[0].startswith(("/", "./", "~")) else words[0]
    rest = words[1:]
    if _PY.match(head):
        if len(rest) >= 2 and rest[0] == "-m":
            return _simple_kind(rest[1:]) or (
                "test" if rest[1] in ("unittest", "doctest") else None
            )
        script = next((w for w in rest if not w.startswith("-")), "")
        if script.endswith("setup.py"):
            i = rest.index(script)
            sub = rest[i + 1] if i + 1 < len(rest) else ""
            return {"test": "test", "build": "build", "build_ext": "build"}.get(sub)
        return "test" if _TEST_SCRIPT.search(script) else None
    if head in _DIRECT:
        kind = _DIRECT[head]
        if head in ("black", "isort", "prettier") and not any(
            w in ("--check", "--diff", "-c") for w in rest
        ):
            return None  # formatting in place changes files; it checks nothing
        if head == "ruff" and rest and rest[0] == "format" and "--check" not in rest:
            return None
        return kind
    if head in _PKG_MANAGERS:
        args = [w for w in rest if not w.startswith("-")]
        if args and args[0] == "run" and len(args) > 1:
            script = args[1]
        elif args:
            script = args[0]
        else:
            return None
        for name, kind in _PKG_SCRIPTS.items():
            if script == name or script.startswith(name + ":"):
                return kind
        return None
    subs = _SUBCOMMANDS.get(words[0]) if words[0] in _SUBCOMMANDS else _SUBCOMMANDS.get(head)
    if subs is not None:
        if head == "make":
            targets = [w for w in rest if not w.startswith("-") and "=" not in w]
            if not targets:
                return "build"
            return next((subs[t] for t in targets if t in subs), None)
        subcommand = next((w for w in rest if not w.startswith("-") or w in subs), None)
        if head == "ninja":
            return "build"
        return subs.get(subcommand or "")
    return None


def verification_kind(command: str | None) -> str | None:
    """``test`` / ``build`` / ``lint`` / ``typecheck`` when the command runs one, else None."""
    if not command:
        return None
    for words in split_commands(command):
        kind = _simple_kind(words)
        if kind:
            return kind
    return None


_QUOTED = re.compile(r"'[^']*'|\"(?:\\.|[^\"\\])*\"")
_FALLBACK = re.compile(r"\|\|\s*(?:echo|printf|true|:|exit\s+0)\b[^|&;]*$")


def failure_handled(command: str | None) -> bool:
    """Whether the line ends in a fallback (``cmd || echo "not there"``, ``|| true``): it
    then exits 0 whatever its first part printed, so a traceback in the output is a probe's
    answer, not a failure (for sources that record no exit status)."""
    if not command:
        return False
    last = _QUOTED.sub("''", command.strip()).splitlines()[-1] if command.strip() else ""
    return bool(_FALLBACK.search(last))


def python_scripts(command: str | None) -> tuple[str, ...]:
    """The scripts a line runs with ``python X.py`` (so the truth can tell the agent's own
    scratch scripts from a project's tests)."""
    scripts: list[str] = []
    for words in split_commands(command or ""):
        words = _strip_prefixes(words)
        if words and _PY.match(words[0].rsplit("/", 1)[-1]):
            script = next((w for w in words[1:] if not w.startswith("-")), "")
            if script.endswith(".py") and "-m" not in words[1:2]:
                scripts.append(script)
    return tuple(scripts)


_PIPE = re.compile(r"(?<![|>&])\|(?![|&])")
_FILTERS = frozenset(
    {
        *("head", "tail", "grep", "egrep", "less", "more", "cat", "tee", "sed", "awk", "wc"),
        *("sort", "uniq", "cut", "jq", "tr", "column"),
    }
)


def status_hidden_by_pipe(command: str | None) -> bool:
    """Whether the line pipes a test/build/lint run into a filter (``mix test | head``):
    the exit status is then the filter's, so it says nothing about the run."""
    if not command or "pipefail" in command:
        return False
    for line in command.split("\n"):
        stages = _PIPE.split(line)
        if len(stages) < 2:
            continue
        last = split_commands(stages[-1])
        tail = last[0][0].rsplit("/", 1)[-1] if last and last[0] else ""
        if tail in _FILTERS and any(verification_kind(stage) for stage in stages[:-1]):
            return True
    return False


_CD = re.compile(r"^cd\s+(?:\"[^\"]*\"|'[^']*'|[^\s;&|]+)\s*&&\s*")
_REDIRECTED = re.compile(r"\s+(?:\d?>>?|&>>?)\s*(?:&\d+|[^\s;&|<>]+)\s*$")


def check_spelling(command: str | None) -> str | None:
    """The check a one-line command runs, as a summary names it: without a leading ``cd DIR
    &&`` and without what only shapes its output (a redirection, a pipe into ``head``,
    ``tail``, ``tee``, ``grep``...): ``cd /repo && mix test --seed 0 2>&1 | head -100`` is
    ``mix test --seed 0``. None when the line is already that, spans lines, or is not one
    check (``make clean && make`` stays whole: no part of it is the whole check)."""
    if not command or "\n" in command.strip() or not verification_kind(command):
        return None
    line = " ".join(command.split())
    check = line
    while m := _CD.match(check):
        check = check[m.end() :]
    while True:
        stages = _PIPE.split(check)
        last = split_commands(stages[-1]) if len(stages) > 1 else []
        head = last[0][0].rsplit("/", 1)[-1] if len(last) == 1 and last[0] else ""
        if head not in _FILTERS:
            break
        check = check[: list(_PIPE.finditer(check))[-1].start()].strip()
    while m := _REDIRECTED.search(check):
        check = check[: m.start()]
    check = check.strip()
    if check == line or len(split_commands(check)) != 1 or not verification_kind(check):
        return None
    return check


_SEARCHERS = frozenset({"grep", "egrep", "fgrep", "rg", "ag", "ack"})


def exit_means_no_match(command: str | None, exit_code: int | None) -> bool:
    """Whether exit status 1 is a search that found nothing (grep, rg...: 1 = no match,
    2 = an error), which is the line's status when the search is its last command."""
    if exit_code != 1 or not command:
        return False
    stages = split_commands(command)
    words = _strip_prefixes(stages[-1]) if stages else []
    return bool(words) and words[0].rsplit("/", 1)[-1] in _SEARCHERS


def file_effects(command: str | None) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """(deleted paths, (source, destination) moves) of a shell command."""
    if not command:
        return (), ()
    deleted: list[str] = []
    moves: list[tuple[str, str]] = []
    for words in split_commands(command):
        words = _strip_prefixes(words)
        if words[:2] in (["git", "rm"], ["git", "mv"]):
            words = [words[1], *words[2:]]
        if not words:
            continue
        args = [w for w in words[1:] if not w.startswith("-")]
        if words[0] in ("rm", "unlink") and args:
            deleted.extend(a for a in args if not any(c in a for c in "*?$`"))
        elif words[0] == "mv" and len(args) == 2:
            moves.append((args[0], args[1]))
    return tuple(deleted), tuple(moves)


_PRINTERS = frozenset({"cat", "head", "tail", "nl", "bat", "less", "more"})
_SED_PRINT = re.compile(r"^(?:\d+|\$)(?:,(?:\d+|\$))?p$")
_REDIRECT = re.compile(r"(?<![0-9&])>")


def file_reads(command: str | None) -> tuple[str, ...]:
    """Files a shell command prints: ``cat F``, ``head -n 5 F``, ``tail F``, ``nl -ba F``,
    ``sed -n '10,80p' F``. Only a command's file arguments count: a heredoc or a redirect
    (``cat > F <<EOF``) writes, globs and variables name no known file, and a search
    (``grep``, ``rg``) or a count (``wc``) is not reading the file."""
    if not command or "<<" in command:  # a heredoc's body is text, not commands
        return ()
    reads: list[str] = []
    for part in _split_outside_quotes(command.strip()):
        if _REDIRECT.search(part):
            continue
        for words in split_commands(part):
            words = _strip_prefixes(words)
            if not words:
                continue
            head, rest = words[0].rsplit("/", 1)[-1], words[1:]
            paths: list[str] = []
            if head in _PRINTERS:
                skip_next = False
                for word in rest:
                    if skip_next:
                        skip_next = False
                    elif word in ("-n", "-c", "--lines", "--bytes"):
                        skip_next = head in ("head", "tail")
                    elif not word.startswith("-") and not (head != "nl" and word.isdigit()):
                        paths.append(word)
            elif head == "sed" and "-n" in rest and not any(w.startswith("-i") for w in rest):
                args = [w for w in rest if not w.startswith("-")]
                if args and all(_SED_PRINT.match(s) for s in args[0].split(";") if s):
                    paths = args[1:]
            reads.extend(w for w in paths if w != "-" and not any(c in w for c in "*?$`{}<>"))
    return tuple(dict.fromkeys(reads))


# Failure signals in output text, for sources without exit codes. Each names its cause.
_FAILURE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("traceback", re.compile(r"^Traceback \(most recent call last\):", re.MULTILINE)),
    (
        "rejected edit",
        re.compile(
            r"^(?:Your proposed edit has introduced new syntax error|Your edit was not applied"
            r"|No replacement was performed|ERROR: (?:Edit|Replacement) failed"
            r"|<tool_use_error>)",
            re.MULTILINE,
        ),
    ),
    (
        "timeout",
        re.compile(
            r"^(?:EXECUTION TIMED OUT|Command timed out|The command timed out"
            r"|.*\btimed out after \d+)",
            re.MULTILINE,
        ),
    ),
    (
        "shell error",
        re.compile(
            # bash: "sh: line 1: x: command not found"; zsh: "zsh:1: operation not permitted: ps"
            r"^(?:(?:ba|z)?sh:(?:\d+:)? (?:line \d+: )?.*(?:command not found"
            r"|No such file or directory|Permission denied|operation not permitted|syntax error)"
            r"|.*: command not found$)",
            re.MULTILINE,
        ),
    ),
    ("test failure", re.compile(r"^=+ .*\b\d+ (?:failed|errors?)\b.* =+$", re.MULTILINE)),
    ("test failure", re.compile(r"^FAILED \(.*(?:failures|errors)=\d+", re.MULTILINE)),
    ("test failure", re.compile(r"^\d+ (?:failed|errors?)\b.* in [\d.]+m?s\b", re.MULTILINE)),
    ("test failure", re.compile(r"^(?:--- FAIL: |FAIL\s+\S+\s+[\d.]+s$)", re.MULTILINE)),
    ("test failure", re.compile(r"^test result: FAILED\.", re.MULTILINE)),
    # vitest / jest summaries ("      Tests  1 failed | 15 skipped (16)").
    ("test failure", re.compile(r"^ *Tests:? +\d+ failed\b", re.MULTILINE)),
    ("rejected", re.compile(r"^(?:Wrong flag!?|Incorrect flag)\s*$", re.MULTILINE)),
    # A tool's own policy refusal (Codex's browser tool: "... rejected this action due to
    # browser security policy").
    ("rejected", re.compile(r"\brejected this action due to\b")),
    ("rejected", re.compile(r"^# \d+ SEARCH/REPLACE blocks? failed to match!", re.MULTILINE)),
    ("error", re.compile(r"^(?:Error|ERROR|FATAL|fatal): ", re.MULTILINE)),
    # Codex's own tool errors open the output ("write_stdin failed: stdin is closed for this
    # session"); anchored at its start so a program's output quoting one is no failure.
    (
        "tool error",
        re.compile(r"\A(?:exec_command|write_stdin|apply_patch)(?: verification)? failed: "),
    ),
    # OpenHands' editor answers a refused call with "ERROR:" on a line of its own, first
    # (after the "OBSERVATION:" its chat-completions export puts in front).
    ("tool error", re.compile(r"\A\s*(?:OBSERVATION:\s*)?ERROR:[ \t]*\n\s*(\S)")),
)


def output_failure(text: str) -> tuple[str, str] | None:
    """(cause, the line that says so) of an explicit failure in an output's text (its first
    20,000 characters and last 4,000, where runners put verdicts), else None."""
    if not text:
        return None
    sample = text if len(text) <= 24000 else text[:20000] + "\n" + text[-4000:]
    for cause, pattern in _FAILURE_PATTERNS:
        m = pattern.search(sample)
        if m:
            start = m.start(1) if m.lastindex else m.start()  # a group marks the message
            line = sample[start : sample.find("\n", start) % (len(sample) + 1)]
            return cause, line.strip()
    return None


# `find: 'x': No such file or directory`, `ls: cannot access 'x': No such file or directory`
_MISSING_PATH = re.compile(r"^[\w.+-]+: .*: No such file or directory$")


def only_missing_paths(text: str) -> bool:
    """Whether an output is nothing but a command's "No such file or directory" errors: the
    command found nothing to work on, whatever status the tool reported (Claude Code says
    ``is_error: false`` for a `find` whose start folder is missing)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()] if text else []
    return bool(lines) and all(_MISSING_PATH.match(line) for line in lines)


_NOT_RUN = re.compile(r"^<tool_use_error>Sibling tool call errored</tool_use_error>\s*$")


def output_not_run(text: str) -> bool:
    """Whether an output only says the call was cancelled before it ran."""
    return bool(text) and _NOT_RUN.match(text.strip()) is not None


_PASS_PATTERNS = (
    re.compile(r"^=+ .*\b\d+ passed\b.* =+$", re.MULTILINE),
    re.compile(r"^\d+ passed\b.* in [\d.]+m?s\b", re.MULTILINE),
    re.compile(r"^OK(?: \(.*\))?\s*$", re.MULTILINE),
    re.compile(r"^All checks passed!?\s*$", re.MULTILINE),
    re.compile(r"^Success: no issues found", re.MULTILINE),
    re.compile(r"^ok\s+\S+\s+[\d.]+s\s*$", re.MULTILINE),
    re.compile(r"^test result: ok\.", re.MULTILINE),
    # node --test (TAP): "# pass 6" then "# fail 0"
    re.compile(r"^# pass [1-9]\d*\n# fail 0$", re.MULTILINE),
)


def output_passed(text: str) -> bool:
    """A test/lint runner's own success verdict in the output text."""
    return any(p.search(text[-4000:]) for p in _PASS_PATTERNS) if text else False
