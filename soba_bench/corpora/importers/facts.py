"""Ground truth an importer can derive mechanically, and nothing more.

* goal: the first real user message (the importer says which messages qualify);
* file_read / file_modified: one fact per path, from tool calls whose meaning is known;
* verification: one fact per executed command, with its exit code when the source records
  one; an earlier run of the same command is superseded by the later one;
* blocker: a failed tool output (non-zero exit code, an explicit error status, or SOBA's own
  ``toolFailureOutput`` rule when the source records neither). Status ``resolved`` only when
  the same command later ran with a known success; otherwise ``unknown``.

Everything else (constraints, decisions, next steps...) is listed in ``unknownKinds``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from soba_bench.corpora.truth import FACT_KINDS, Fact
from soba_bench.engine.failures import tool_failure_output

DERIVED_KINDS = ("goal", "file_read", "file_modified", "verification", "blocker")
UNKNOWN_KINDS = tuple(k for k in FACT_KINDS if k not in DERIVED_KINDS)
_MAX_FACT_TEXT = 300
_EXIT_LINE = re.compile(r"^(?:Exit code:? -?\d+|Process exited with code -?\d+)$")


@dataclass(frozen=True)
class ToolUse:
    """What a tool call does, as far as its name and arguments say."""

    reads: tuple[str, ...] = ()
    modifies: tuple[str, ...] = ()
    command: str | None = None


@dataclass
class _Run:
    tool: str
    command: str | None
    call_entry: str
    output_entry: str | None = None
    exit_code: int | None = None
    failed: bool | None = None  # None: the source does not say
    detector: str | None = None
    failure_text: str = ""


def _summary_line(text: str) -> str:
    """The last non-blank line of a failed output (where test runners and tracebacks put
    the verdict), skipping bare "Exit code N" lines; cut for the fact text only."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line and not _EXIT_LINE.match(line):
            return line if len(line) <= _MAX_FACT_TEXT else line[: _MAX_FACT_TEXT - 3] + "..."
    return ""


@dataclass
class FactCollector:
    """Collects facts while a session is built; :meth:`build` numbers them."""

    goal_text: str | None = None
    goal_entry: str | None = None
    files: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    runs: list[_Run] = field(default_factory=list)
    by_call: dict[str, _Run] = field(default_factory=dict)

    def goal(self, text: str, entry_id: str) -> None:
        if self.goal_text is None and text.strip():
            self.goal_text, self.goal_entry = text, entry_id

    def file(self, kind: str, path: str, entry_id: str) -> None:
        if path:
            ids = self.files.setdefault((kind, path), [])
            if entry_id not in ids:
                ids.append(entry_id)

    def call(self, call_id: str, entry_id: str, tool: str, use: ToolUse) -> None:
        for path in use.reads:
            self.file("file_read", path, entry_id)
        for path in use.modifies:
            self.file("file_modified", path, entry_id)
        run = _Run(tool, use.command, entry_id)
        self.runs.append(run)
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
        if exit_code is not None:
            run.failed, run.detector = exit_code != 0, "exit_code"
        elif failed is not None:
            run.failed, run.detector = failed, "status"
        elif tool_failure_output({"type": "function_call_output", "output": text}) is not None:
            run.failed, run.detector = True, "soba toolFailureOutput"
        if run.failed:
            run.failure_text = _summary_line(text)

    def build(self) -> tuple[Fact, ...]:
        facts: list[Fact] = []
        if self.goal_text is not None:
            facts.append(
                Fact(
                    "goal-001",
                    "goal",
                    self.goal_text,
                    entry_ids=(self.goal_entry,),
                    introduced_at=self.goal_entry,
                    attributes={"derivedFrom": "first user message"},
                )
            )
        for kind, prefix in (("file_read", "read"), ("file_modified", "modified")):
            n = 0
            for (k, path), ids in self.files.items():
                if k == kind:
                    n += 1
                    facts.append(
                        Fact(
                            f"{prefix}-{n:03d}",
                            kind,
                            path,
                            entry_ids=tuple(ids),
                            introduced_at=ids[0],
                            attributes={"path": path},
                        )
                    )
        facts.extend(self._verifications_and_blockers())
        return tuple(facts)

    def _verifications_and_blockers(self) -> list[Fact]:
        commands = [r for r in self.runs if r.command]
        ids = {id(r): f"verification-{i:03d}" for i, r in enumerate(commands, start=1)}
        out: list[Fact] = []
        for i, run in enumerate(commands):
            later = next((r for r in commands[i + 1 :] if r.command == run.command), None)
            entries = (run.call_entry,) + ((run.output_entry,) if run.output_entry else ())
            out.append(
                Fact(
                    ids[id(run)],
                    "verification",
                    run.command or "",
                    status="superseded" if later else "active",
                    entry_ids=entries,
                    introduced_at=run.call_entry,
                    superseded_by=ids[id(later)] if later else None,
                    attributes={
                        "command": run.command,
                        "tool": run.tool,
                        "exitCode": run.exit_code,
                        "passed": None if run.failed is None else not run.failed,
                    },
                )
            )
        n = 0
        for i, run in enumerate(self.runs):
            if not run.failed:
                continue
            n += 1
            fixed = None
            if run.command:
                fixed = next(
                    (
                        r
                        for r in self.runs[i + 1 :]
                        if r.command == run.command and r.failed is False and r.output_entry
                    ),
                    None,
                )
            what = f"`{run.command}`" if run.command else run.tool
            text = f"{what} failed"
            if run.exit_code is not None:
                text += f" (exit code {run.exit_code})"
            if run.failure_text:
                text += f": {run.failure_text}"
            entries = (run.call_entry,) + ((run.output_entry,) if run.output_entry else ())
            out.append(
                Fact(
                    f"blocker-{n:03d}",
                    "blocker",
                    text,
                    status="resolved" if fixed else "unknown",
                    entry_ids=entries,
                    introduced_at=run.output_entry,
                    resolved_at=fixed.output_entry if fixed else None,
                    attributes={
                        "tool": run.tool,
                        "command": run.command,
                        "exitCode": run.exit_code,
                        "detector": run.detector,
                    },
                )
            )
        return out
