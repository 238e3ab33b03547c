"""Ground truth an importer can derive mechanically, and nothing more (the rules are
documented in ``corpora/README.md``, "Imported ground truth").

* goal: the first real user message (the importer says which messages qualify); when it
  hands the agent an issue or PR text in a wrapper (SWE-bench-style prompts), the title of
  that text (:func:`task_title`; the message is the fact's entry);
* file_read / file_modified: one fact per path, from tool calls whose meaning is known and
  whose result did not fail; a path a later command deletes (``rm``, ``git rm``, a patch's
  ``Delete File``) leaves the modified set (status ``superseded``, ``attributes.deletedAt``),
  a moved path is replaced by a ``file_renamed`` fact and its destination; where the session
  names its working folder (``cwd``), a file fact lists the path's other spelling under it in
  ``attributes.aliases`` (see :func:`cwd_aliases`);
* verification: one fact per test / build / lint / typecheck command (``commands``), with
  every run's exit status; ``active`` when its last run passed and none failed,
  ``resolved`` when it failed and then passed, ``open`` when its last run failed,
  ``unknown`` when the last run's outcome is not recorded; ``attributes.aliases`` spells the
  check without a ``cd`` before it or the plumbing of its output (``check_spelling``);
* blocker: every failing tool result (a non-zero exit code, an error status, a traceback, a
  rejected edit, a timeout, a shell error); ``open`` until a later successful result on the
  same target (the same command, or an edit of the same file), then ``resolved``.

Every fact names the entries it comes from (``entryIds``; ``introducedAt`` is the source
entry). Kinds an importer cannot know are listed in ``unknownKinds``.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field, replace
from typing import Any

from soba_bench.corpora.importers.commands import (
    check_spelling,
    exit_means_no_match,
    failure_handled,
    file_effects,
    file_reads,
    output_failure,
    output_not_run,
    output_passed,
    python_scripts,
    status_hidden_by_pipe,
    verification_kind,
)
from soba_bench.corpora.truth import FACT_KINDS, Fact
from soba_bench.engine.failures import tool_failure_output

DERIVED_KINDS = ("goal", "file_read", "file_modified", "file_renamed", "verification", "blocker")
UNKNOWN_KINDS = tuple(k for k in FACT_KINDS if k not in DERIVED_KINDS)
_MAX_FACT_TEXT = 300
_EXIT_LINE = re.compile(r"^(?:Exit code:? -?\d+|Process exited with code -?\d+)$")
_SPACES = re.compile(r"\s+")
_HARNESS_LINE = re.compile(
    r"^(?:\(Open file: .*\)|\(Current directory: .*\)|\S*[$#>]|\[File: .*\])$"
)


@dataclass(frozen=True)
class ToolUse:
    """What a tool call does, as far as its name and arguments say. ``deletes`` / ``moves``
    are file effects of non-shell tools (a patch deleting or moving a file); shell commands
    get theirs from the command text."""

    reads: tuple[str, ...] = ()
    modifies: tuple[str, ...] = ()
    command: str | None = None
    deletes: tuple[str, ...] = ()
    moves: tuple[tuple[str, str], ...] = ()
    target: str | None = None  # what a failure of this call is about, when not a path/command


@dataclass
class _Run:
    tool: str
    use: ToolUse
    call_entry: str
    output_entry: str | None = None
    exit_code: int | None = None
    failed: bool | None = None  # None: the source does not say
    detector: str | None = None
    cause: str | None = None  # traceback, rejected edit, timeout... when the text says
    failure_text: str = ""
    passed_text: bool = False
    not_run: bool = False  # cancelled before it ran: no effect, no failure, no fix

    @property
    def command(self) -> str | None:
        return self.use.command

    @property
    def targets(self) -> tuple[str, ...]:
        """What a failure of this run is about: the command (a leading wait such as
        `sleep 30 &&` does not make it another check), else the files it changes."""
        if self.use.command:
            return (_LEADING_SLEEP.sub("", _SPACES.sub(" ", self.use.command.strip())),)
        if self.use.modifies:
            return tuple(f"file:{p}" for p in self.use.modifies)
        if self.use.target:
            return (self.use.target,)
        return tuple(f"read:{p}" for p in self.use.reads) or (f"tool:{self.tool}",)


def _summary_line(text: str) -> str:
    """The last non-blank line of a failed output (where test runners and tracebacks put
    the verdict), skipping bare "Exit code N" lines and shell prompts or status lines an
    agent harness appends; cut for the fact text only."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line and not _EXIT_LINE.match(line) and not _HARNESS_LINE.match(line):
            return line if len(line) <= _MAX_FACT_TEXT else line[: _MAX_FACT_TEXT - 3] + "..."
    return ""


_LEADING_SLEEP = re.compile(r"^(?:sleep [\d.]+[smh]? *(?:&&|;) *)+")

# The editor tools of OpenHands and SWE-agent answer a `view` of a folder so.
_DIRECTORY_LISTING = re.compile(
    r"^\s*(?:OBSERVATION:\s*)?Here's the files and directories up to \d+ levels? deep in "
)
_ERROR_WORD = re.compile(r"\berror\b", re.IGNORECASE)
_BARE_ERROR = re.compile(r"^\W*error\W*$", re.IGNORECASE)


def _error_line(text: str) -> str:
    """For a failure no explicit pattern named: the last line that says "error" (a script's
    own report; warnings printed after it are not the failure), else ""."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        # A bare "ERROR:" header says nothing; the line under it does (the last line).
        if (
            _ERROR_WORD.search(line)
            and not _BARE_ERROR.match(line)
            and not _HARNESS_LINE.match(line)
        ):
            return line if len(line) <= _MAX_FACT_TEXT else line[: _MAX_FACT_TEXT - 3] + "..."
    return ""


_EXCEPTION_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit)\b(?::.*)?$")


def _exception_line(text: str) -> str:
    """A traceback's verdict: the last ``SomeError: message`` line (a warning printed
    after it, as asyncio does, is not the failure)."""
    for line in reversed(text.splitlines()):
        if _EXCEPTION_LINE.match(line.rstrip()):
            line = line.strip()
            return line if len(line) <= _MAX_FACT_TEXT else line[: _MAX_FACT_TEXT - 3] + "..."
    return ""


def _unprefixed(target: str) -> str:
    for prefix in ("file:", "read:", "tool:"):
        if target.startswith(prefix):
            return target[len(prefix) :]
    return target


def _same_path(known: str, named: str) -> bool:
    """A path named by a command (often relative) is a known path when equal, or when the
    known path ends with it at a folder boundary."""
    named = named.removeprefix("./")
    if known == named:
        return True
    if not named.startswith("/"):
        return known.endswith("/" + named)
    return not known.startswith("/") and named.endswith("/" + known.removeprefix("./"))


def cwd_aliases(path: str, cwd: str | None) -> list[str]:
    """The other spelling of ``path`` given the session's working folder: relative to it for
    an absolute path under it, under it for a relative one. A tool named the file one way, a
    summary may name it the other; both name one file, so the pair is exact, unlike a suffix
    rule that would read ``a.ts`` as every ``*/a.ts``. None for a path outside the folder
    (``../x`` included), a home-relative path, or a folder that is not an absolute POSIX path
    other than ``/``."""
    root = (cwd or "").rstrip("/")
    if not root.startswith("/") or not path or path.startswith("~"):
        return []
    if path.startswith("/"):
        inside = path[len(root) + 1 :].strip("/") if path.startswith(root + "/") else ""
        return [inside] if inside else []
    joined = posixpath.normpath(posixpath.join(root, path))
    return [joined] if joined.startswith(root + "/") else []


# Where a first message hands the agent an issue or PR text (SWE-bench-style prompts of
# OpenHands, SWE-agent, SWE-Gym, SWE-smith): the text follows one of these, its title first.
_TASK_MARKERS = ("<pr_description>", "<issue_description>", "<issue>", "\nISSUE:\n")
# A section label before the title ("**Issue Text**", "## Describe the bug"), not the title.
_SECTION_LABEL = re.compile(
    r"^(?:issue(?: text| description)?|(?:bug |problem )?description|describe the bug|"
    r"bug report|summary|(?:current )?problem|bug)$",
    re.IGNORECASE,
)
_TITLE_LEAD = re.compile(r"^(?:issue|bug|problem)\s*:\s*", re.IGNORECASE)
_TITLE_MAX = 240


def task_title(message: str) -> str | None:
    """The title of the issue or PR text a first message wraps, as the goal a summary can
    state: ``<pr_description>`` / ``<issue_description>`` / ``ISSUE:`` then its first line
    that is not a comment or a section label, without heading marks and an ``Issue:`` lead
    (``attrs & dataclasses false positive error with slots=True ...``). The whole message,
    thousands of characters of issue template, code and logs, is found in no summary that
    words the task itself. None when the message wraps no such text, or its first line is
    not a title (longer than a sentence of ``_TITLE_MAX`` characters)."""
    at, marker = next(((message.find(m), m) for m in _TASK_MARKERS if m in message), (-1, ""))
    if at < 0:
        return None
    in_comment = False
    for raw in message[at + len(marker) :].splitlines():
        line = raw.strip()
        if in_comment or line.startswith("<!--"):
            in_comment = "-->" not in line
            continue
        if line.startswith("</"):
            return None  # the wrapper closed: no title in it
        text = line.lstrip("#").strip().strip("*").strip()
        if not text or _SECTION_LABEL.match(text.rstrip(":").strip()):
            continue
        text = _TITLE_LEAD.sub("", text)
        if len(text) > _TITLE_MAX:
            end = text.find(". ", 0, _TITLE_MAX)
            return text[: end + 1] if end > 0 else None
        return text
    return None


def _runs_scratch(command: str | None, scratch: tuple[str, ...]) -> bool:
    """Whether a ``python X.py`` line runs a script the agent wrote and later deleted."""
    return any(_same_path(known, script) for script in python_scripts(command) for known in scratch)


@dataclass
class FactCollector:
    """Collects facts while a session is built; :meth:`build` numbers them."""

    goal_text: str | None = None
    goal_entry: str | None = None
    cwd: str | None = None  # the session's working folder, for the paths' other spelling
    runs: list[_Run] = field(default_factory=list)
    by_call: dict[str, _Run] = field(default_factory=dict)
    # Everything with a file effect, in session order: ("extra", (kind, path, entry)) for
    # facts not tied to a call (kind "deleted" for a deletion the source reports), and
    # ("run", run) for tool calls.
    timeline: list[tuple[str, Any]] = field(default_factory=list)

    def goal(self, text: str, entry_id: str) -> None:
        if self.goal_text is None and text.strip():
            self.goal_text, self.goal_entry = text, entry_id

    def file(self, kind: str, path: str, entry_id: str) -> None:
        """A file fact not tied to a tool call (aider's "Added F to the chat"); kind
        ``deleted`` or ``reverted`` (aider's /undo) takes a path out of the modified set,
        ``dropped`` (aider's /drop) out of the read set."""
        if path:
            self.timeline.append(("extra", (kind, path, entry_id)))

    def call(self, call_id: str, entry_id: str, tool: str, use: ToolUse) -> None:
        run = _Run(tool, use, entry_id)
        self.runs.append(run)
        self.timeline.append(("run", run))
        self.by_call[call_id] = run

    def output(
        self,
        call_id: str,
        entry_id: str,
        text: Any,
        *,
        exit_code: int | None = None,
        failed: bool | None = None,
    ) -> None:
        run = self.by_call.get(call_id)
        if run is None or run.output_entry is not None:
            return
        run.output_entry, run.exit_code = entry_id, exit_code
        text = text if isinstance(text, str) else ""
        if output_not_run(text):
            run.not_run = True
            return
        if run.use.reads and _DIRECTORY_LISTING.match(text):
            # The "file" was a folder: nothing was read, but a failed view of it is fixed.
            folder = f"read:{run.use.reads[0]}" if len(run.use.reads) == 1 else None
            run.use = replace(run.use, reads=(), target=run.use.target or folder)
        found = output_failure(text)
        if exit_code is not None:
            no_match = exit_means_no_match(run.command, exit_code) and not found
            run.failed, run.detector = exit_code != 0 and not no_match, "exit_code"
        elif failed is not None:
            run.failed, run.detector = failed, "status"
        elif found and not failure_handled(run.command):
            run.failed, run.detector = True, found[0]
        elif tool_failure_output({"type": "function_call_output", "output": text}) is not None:
            run.failed, run.detector = True, "soba toolFailureOutput"
        if run.failed:
            run.cause = found[0] if found else None
            # A traceback's verdict is its last line; otherwise the line that says what
            # failed (a runner's summary, a rejected edit, a timeout), else the last line.
            if found and found[0] != "traceback":
                run.failure_text = found[1][:_MAX_FACT_TEXT]
            elif found:
                run.failure_text = _exception_line(text) or _summary_line(text)
            else:
                run.failure_text = _error_line(text) or _summary_line(text)
        run.passed_text = output_passed(text)

    # -- building ------------------------------------------------------------------------

    def build(self) -> tuple[Fact, ...]:
        facts: list[Fact] = []
        if self.goal_text is not None and self.goal_entry is not None:  # set together
            title = task_title(self.goal_text)
            facts.append(
                Fact(
                    "goal-001",
                    "goal",
                    title or self.goal_text,
                    entry_ids=(self.goal_entry,),
                    introduced_at=self.goal_entry,
                    # An issue's title states the problem: a summary states its fix.
                    attributes={
                        "derivedFrom": "the task's title in the first user message",
                        "states": "problem",
                    }
                    if title
                    else {"derivedFrom": "first user message"},
                )
            )
        files = self._files()
        # A script the agent wrote and deleted again in the session (reproduce.py,
        # test_edge_cases.py) is its own scratch check, not the project's tests.
        scratch = tuple(
            f.text for f in files if f.kind == "file_modified" and "deletedAt" in f.attributes
        )
        facts.extend(files)
        facts.extend(self._verifications(scratch))
        facts.extend(self._blockers(scratch))
        return tuple(facts)

    def _files(self) -> list[Fact]:
        # (kind, path) -> entry ids, in first-seen order; deletions/moves as they happen.
        files: dict[tuple[str, str], list[str]] = {}
        gone: dict[tuple[str, str], tuple[str, str | None]] = {}  # -> (entry, moved to)
        renames: list[tuple[str, str, str]] = []
        order: list[tuple[str, tuple]] = []
        for what, value in self.timeline:
            if what == "extra":
                kind, path, entry = value
                if kind in ("deleted", "reverted"):
                    order.append(("delete" if kind == "deleted" else "revert", (path, entry)))
                elif kind == "dropped":
                    order.append(("drop", (path, entry)))
                else:
                    order.append(("file", value))
                continue
            run = value
            if run.failed or run.not_run:
                continue  # a failed read, a rejected edit or a cancelled call did not happen
            entry = run.output_entry or run.call_entry
            for path in (*run.use.reads, *file_reads(run.use.command)):
                order.append(("file", ("file_read", path, entry)))
            for path in run.use.modifies:
                order.append(("file", ("file_modified", path, entry)))
            deleted, moves = file_effects(run.use.command)
            for path in (*deleted, *run.use.deletes):
                order.append(("delete", (path, entry)))
            for src, dst in (*moves, *run.use.moves):
                order.append(("move", (src, dst, entry)))
        for what, ev in order:
            if what == "file":
                kind, path, entry = ev
                # One file named absolutely and relatively (aider's `/add /abs/x.py`, then
                # `x.py`) is one fact, under the name it was first seen by.
                if (kind, path) not in files:
                    path = next(
                        (
                            known
                            for k, known in files
                            if k == kind and (_same_path(known, path) or _same_path(path, known))
                        ),
                        path,
                    )
                ids = files.setdefault((kind, path), [])
                if entry not in ids:
                    ids.append(entry)
                gone.pop((kind, path), None)  # written again after a delete: back in the set
            elif what in ("delete", "revert", "drop"):
                # A reverted file (aider's /undo) leaves the modified set, a file dropped from
                # the chat (aider's /drop) the read set, a deleted file both: what was read
                # of it is gone with it.
                path, entry = ev
                kinds = {
                    "delete": ("file_modified", "file_read"),
                    "revert": ("file_modified",),
                    "drop": ("file_read",),
                }[what]
                for key in files:
                    if key[0] in kinds and _same_path(key[1], path):
                        gone[key] = (entry, None)
            else:
                src, dst, entry = ev
                for key in list(files):
                    if key[0] == "file_modified" and _same_path(key[1], src):
                        renames.append((key[1], dst, entry))
                        gone[key] = (entry, dst)
                        ids = files.setdefault(("file_modified", dst), [])
                        ids.append(entry)
        out: list[Fact] = []
        counters = {"file_read": 0, "file_modified": 0}
        prefixes = {"file_read": "read", "file_modified": "modified"}
        for (kind, path), ids in files.items():
            counters[kind] += 1
            attributes: dict[str, Any] = {"path": path}
            if aliases := cwd_aliases(path, self.cwd):
                attributes["aliases"] = aliases
            status = "active"
            if (kind, path) in gone:
                at, moved_to = gone[(kind, path)]
                status = "superseded"
                attributes["movedTo" if moved_to else "deletedAt"] = moved_to or at
                if moved_to:
                    attributes["movedAt"] = at
            out.append(
                Fact(
                    f"{prefixes[kind]}-{counters[kind]:03d}",
                    kind,
                    path,
                    status=status,
                    entry_ids=tuple(ids),
                    introduced_at=ids[0],
                    keywords=(path,),
                    attributes=attributes,
                )
            )
        for n, (src, dst, entry) in enumerate(renames, start=1):
            out.append(
                Fact(
                    f"renamed-{n:03d}",
                    "file_renamed",
                    f"{src} -> {dst}",
                    entry_ids=(entry,),
                    introduced_at=entry,
                    keywords=(src, dst),
                    attributes={
                        "from": src,
                        "to": dst,
                        **({"aliases": a} if (a := cwd_aliases(dst, self.cwd)) else {}),
                    },
                )
            )
        return out

    def _verifications(self, scratch: tuple[str, ...] = ()) -> list[Fact]:
        groups: dict[str, list[_Run]] = {}
        for run in self.runs:
            kind = verification_kind(run.command)
            if kind and not run.not_run and not _runs_scratch(run.command, scratch):
                groups.setdefault(_SPACES.sub(" ", (run.command or "").strip()), []).append(run)
        out: list[Fact] = []
        for n, (command, runs) in enumerate(groups.items(), start=1):
            results = []
            for run in runs:
                result = "unknown"
                # Piped into `head`/`grep`..., a zero exit is the filter's: only the
                # runner's own verdict in the output says the run passed.
                trusted = not status_hidden_by_pipe(run.command)
                if run.failed is True:
                    result = "failed"
                elif (run.failed is False and trusted) or (run.output_entry and run.passed_text):
                    result = "passed"
                results.append(result)
            last = results[-1]
            if last == "failed":
                status = "open"
            elif last == "unknown":
                status = "unknown"
            elif "failed" in results:
                status = "resolved"
            else:
                status = "active"
            resolved_at = None
            if status == "resolved":
                last_fail = max(i for i, r in enumerate(results) if r == "failed")
                ok = next(i for i in range(last_fail + 1, len(runs)) if results[i] == "passed")
                resolved_at = runs[ok].output_entry
            entries: list[str] = []
            for run in runs:
                entries.append(run.call_entry)
                if run.output_entry:
                    entries.append(run.output_entry)
            out.append(
                Fact(
                    f"verification-{n:03d}",
                    "verification",
                    command,
                    status=status,
                    entry_ids=tuple(entries),
                    introduced_at=runs[0].call_entry,
                    resolved_at=resolved_at,
                    keywords=(command,),
                    attributes={
                        "command": command,
                        **({"aliases": [a]} if (a := check_spelling(command)) else {}),
                        "category": verification_kind(command),
                        "tool": runs[-1].tool,
                        "exitCode": runs[-1].exit_code,
                        "passed": {"passed": True, "failed": False}.get(last),
                        "runs": [
                            {
                                "entryId": run.output_entry or run.call_entry,
                                "exitCode": run.exit_code,
                                "result": result,
                            }
                            for run, result in zip(runs, results, strict=True)
                        ],
                    },
                )
            )
        return out

    def _blockers(self, scratch: tuple[str, ...] = ()) -> list[Fact]:
        out: list[Fact] = []
        for i, run in enumerate(self.runs):
            if not run.failed:
                continue
            targets = set(run.targets)
            fixed = next(
                (
                    r
                    for r in self.runs[i + 1 :]
                    if r.output_entry
                    and r.failed is not True
                    and not r.not_run
                    and targets & set(r.targets)
                ),
                None,
            )
            if run.command:
                what = f"`{run.command}`"
            else:
                label = (run.use.target or "").split("\n", 1)[0].strip()
                what = f"`{label}`" if label else run.tool
                if run.use.modifies:
                    what += " on " + ", ".join(run.use.modifies)
                elif run.use.reads:
                    what += " of " + ", ".join(run.use.reads)
            text = f"{what} failed"
            if run.exit_code is not None:
                text += f" (exit code {run.exit_code})"
            if run.failure_text:
                text += f": {run.failure_text}"
            entries = (run.call_entry,) + ((run.output_entry,) if run.output_entry else ())
            out.append(
                Fact(
                    f"blocker-{len(out) + 1:03d}",
                    "blocker",
                    text,
                    # A failing scratch script the agent deleted blocks nothing any more.
                    status="resolved"
                    if fixed
                    else "superseded"
                    if _runs_scratch(run.command, scratch)
                    else "open",
                    entry_ids=entries,
                    introduced_at=run.output_entry or run.call_entry,
                    resolved_at=fixed.output_entry if fixed else None,
                    keywords=tuple(sorted(_unprefixed(t) for t in targets))[:3],
                    attributes={
                        "tool": run.tool,
                        "command": run.command,
                        "path": run.use.modifies[0] if run.use.modifies else None,
                        "exitCode": run.exit_code,
                        "detector": run.detector,
                        "cause": run.cause,
                        "callEntryId": run.call_entry,
                        "openAtEnd": fixed is None,
                    },
                )
            )
        return out
