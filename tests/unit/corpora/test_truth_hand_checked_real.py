"""Ground truth derived from real logs of seven formats, checked by hand.

Each row is one derived fact with the verdict reached by reading the log lines it comes
from (right / wrong / partly). The set of derived facts is pinned, so a rule change has to be
re-checked by hand; the per-format share of right facts must stay >= 90 %.

Real logs (provenance and licences in ``tests/data/importers/real/README.md``):
aider: an excerpt of aider's own ``tests/fixtures/chat-history.md`` (Apache-2.0);
Codex: a real Codex 0.125.0 rollout kept by codemie-ai/codemie-code (Apache-2.0);
Claude Code: the first 348 lines of a real 2.1.39 transcript kept by marot/spotter (MIT);
OpenHands: the four recorded trajectories of ``tests/runtime/trajs`` and two rows of
``evaluation/benchmarks/multi_swe_bench/examples/output.jsonl`` (MIT);
text-tools and hf: five rows of SWE-bench/SWE-smith-trajectories (MIT) kept as a sample by
agent-data-protocol (MIT); openai-messages: three rows of SWE-Gym/OpenHands-Sampled-Trajectories
kept as a sample by the same repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from soba_bench.corpora.importers import ImportOptions, import_source

REAL = Path(__file__).parents[2] / "data" / "importers" / "real"
R, W, P = "right", "wrong", "partly"
H = "aider.chat.history"

# (session, fact id, kind, status, text starts with, verdict, why)
AIDER = [
    (f"{H}-001", "goal-001", "goal", "active", "# Fix any errors below", R, "L48 lint request"),
    (f"{H}-002", "goal-001", "goal", "active", "Use the Spinner instead", R, "L113"),
    (f"{H}-002", "read-001", "file_read", "active", "aider/utils.py", R, "L110 added"),
    (f"{H}-002", "modified-001", "file_modified", "active", "aider/utils.py", R, "L210 applied"),
    (f"{H}-003", "goal-001", "goal", "active", "hi", R, "L227 --msg hi"),
    (f"{H}-004", "goal-001", "goal", "active", "Add tests for `subtree_only`.", R, "L1691"),
    (f"{H}-004", "read-001", "file_read", "active", "aider/repo.py", R, "L1687"),
    (f"{H}-004", "read-002", "file_read", "active", "tests/basic/test_repo.py", R, "L1688"),
    (f"{H}-004", "modified-001", "file_modified", "active", "tests/basic/test_repo.py", R,
     "L1803 applied, commit 04fff71 is the one /undo leaves"),
    (f"{H}-004", "read-003", "file_read", "active",
     "/Users/gauthier/Projects/aider/tests/basic/test_repomap.py", R,
     "L1808 /add, and L2141 re-added under its relative path after /model (one file, one "
     "fact; it was a second, 'partly' fact before)"),
    (f"{H}-004", "modified-002", "file_modified", "superseded", "tests/basic/test_repomap.py",
     R, "edited from L2061 on; ten /undo (L2664-2700) remove every commit that touched it"),
    (f"{H}-004", "verification-001", "verification", "open", "pytest tests/basic/test_repomap.py",
     R, "/test L2144 and L2407: 1 failed both times"),
    (f"{H}-004", "blocker-001", "blocker", "open", "`pytest tests/basic/test_repomap.py` failed",
     R, "L2230 1 failed; the test never passed"),
    (f"{H}-004", "blocker-002", "blocker", "open", "`pytest tests/basic/test_repomap.py` failed",
     R, "L2495 1 failed; never passed"),
    (f"{H}-005", "goal-001", "goal", "active", "add tests for --map-tokens", R, "L2716"),
    (f"{H}-005", "read-001", "file_read", "active", "tests/basic/test_main.py", R, "L2713"),
    (f"{H}-005", "modified-001", "file_modified", "active", "tests/basic/test_main.py", R,
     "L2786 applied, undone L2903, applied again L3303 onwards"),
    (f"{H}-005", "read-002", "file_read", "superseded",
     "/Users/gauthier/Projects/aider/aider/repomap.py", R, "/add L2912, /drop L3813"),
    (f"{H}-005", "read-003", "file_read", "superseded",
     "/Users/gauthier/Projects/aider/aider/coders/base_coder.py", R, "/add L2913, /drop L3813"),
    *[
        (f"{H}-005", f"blocker-00{n}", "blocker", "resolved",
         "apply_edits on tests/basic/test_main.py failed: # 1 SEARCH/REPLACE block failed", R,
         f"SEARCH block failed to match (L{line}); a later edit of the file applied")
        for n, line in ((1, 2978), (2, 3084), (3, 3375), (4, 3420), (5, 3656), (6, 3925))
    ],
    (f"{H}-006", "modified-001", "file_modified", "active", "tests/basic/test_main.py", R,
     "L4420 and L4610 applied"),
    (f"{H}-006", "verification-001", "verification", "open", "pytest tests/basic/test_main.py",
     R, "/test L4028 2 failed, L4424 1 failed, no later run"),
    (f"{H}-006", "blocker-001", "blocker", "open", "`pytest tests/basic/test_main.py` failed: "
     "========================= 2 failed, 25 passed", R, "L4354; never passed"),
    (f"{H}-006", "blocker-002", "blocker", "open", "`pytest tests/basic/test_main.py` failed: "
     "========================= 1 failed, 26 passed", R, "L4568; never passed"),
]  # fmt: skip

A, B = "ponylang__ponyc-4595", "ponylang__ponyc-4593"
PONY = "/workspace/ponylang__ponyc__0.1/"
OPENHANDS = [
    ("basic", "goal-001", "goal", "active", "Please create a simple 2048 game", R, "id 0"),
    ("basic", "modified-001", "file_modified", "active", "/workspace/game_2048.py", R,
     "id 3 create, observation id 4"),
    ("basic_gui_mode", "goal-001", "goal", "active", "I want to create a VueJS app", R, "id 4"),
    ("basic_gui_mode", "modified-001", "file_modified", "active",
     "/workspace/todo-app/index.html", R, "id 9 create"),
    ("basic_gui_mode", "modified-002", "file_modified", "active", "/workspace/todo-app/app.js",
     R, "id 11 create"),
    ("basic_interactions", "goal-001", "goal", "active", "what's 1+1?", R, "id 0"),
    ("wrong_initial_state", "goal-001", "goal", "active", "Please rename game_2048.py", R,
     "id 0"),
    # id 3 views the folder /workspace: a listing, no file read (no fact since the rule
    # for folder views; it was a "partly" before).
    # output.jsonl (an evaluation output, one instance per row); event ids in the history.
    (A, "goal-001", "goal", "active", "ponyc segfaults when trying to match using a single", R,
     "id 1: the issue's title, the first line of <issue_description>"),
    (A, "read-001", "file_read", "active", PONY + "src/libponyc/ast/parser.c", R, "id 13"),
    (A, "modified-001", "file_modified", "active", PONY + "src/libponyc/ast/parser.c", R,
     "id 31 str_replace applied"),
    (A, "verification-001", "verification", "open", "cd /workspace/ponylang__ponyc__0.1 && make",
     R, "id 37, exit 2"),
    (A, "verification-002", "verification", "open", "make clean && make", R, "id 39, exit 2"),
    (A, "blocker-001", "blocker", "resolved", "str_replace_editor on " + PONY +
     "src/libponyc/ast/parser.c failed: No replacement was performed", R,
     "id 28 old_str not found; id 31 edit of the file applied"),
    (A, "blocker-002", "blocker", "open", '`cd /workspace && echo "type CrashIt', R,
     "id 36 exit 127 ponyc: command not found; never ran"),
    (A, "blocker-003", "blocker", "open", "`cd /workspace/ponylang__ponyc__0.1 && make` failed "
     "(exit code 2): make: *** [Makefile:192: build] Error 2", R, "id 38; never built"),
    (A, "blocker-004", "blocker", "open", "`make clean && make` failed (exit code 2)", R, "id 40"),
    (A, "blocker-005", "blocker", "open", "`cd /workspace && ./ponylang__ponyc__0.1/ponyc", R,
     "id 42 exit 127"),
    (A, "blocker-006", "blocker", "open", "`cd /workspace && /workspace/ponylang__ponyc__0.1/"
     "build/bin/ponyc", R, "id 46 exit 127"),
    (B, "goal-001", "goal", "active", "CommandParser ignores parent default options", R,
     "id 1: the issue's title"),
    (B, "read-001", "file_read", "active", PONY + "packages/cli/cli.pony", R, "id 27"),
    (B, "read-002", "file_read", "active", PONY + "packages/cli/command_parser.pony", R, "id 40"),
    (B, "modified-001", "file_modified", "active", PONY + "packages/cli/command_parser.pony", R,
     "id 64 insert applied"),
    (B, "blocker-001", "blocker", "open", "`ls src/lib` failed (exit code 2)", R,
     "id 8; never listed again (the grep at id 19 exits 1: no match, no blocker)"),
    (B, "blocker-002", "blocker", "resolved", "str_replace_editor of " + PONY +
     "packages/cli/cli.pony failed: Invalid `view_range`",
     R, "id 33; the view at id 34 works"),
    *[
        (B, f"blocker-{n:03d}", "blocker", "resolved", "str_replace_editor on " + PONY +
         "packages/cli/command_parser.pony failed: " + why, R,
         f"id {eid}; the insert at id 64 changes the file")
        for n, eid, why in (
            (3, 43, "Parameter `old_str` is required"), (4, 47, "Parameter `old_str`"),
            (5, 49, "Parameter `old_str`"), (6, 51, "No replacement was performed"),
            (7, 55, "No replacement was performed"), (8, 57, "No replacement was performed"),
            (9, 61, "No replacement was performed"), (10, 63, "Parameter `old_str`"),
        )
    ],
    (B, "blocker-011", "blocker", "open", "str_replace_editor on " + PONY +
     "packages/cli/command_parser.pony failed: No replacement", R, "id 67, after the insert"),
    (B, "blocker-012", "blocker", "open", "str_replace_editor on " + PONY +
     "packages/cli/command_parser.pony failed: No replacement", R, "id 69, never applied later"),
]  # fmt: skip

W4 = "/home/USER/projects/spotter-worktrees/spotter-4te/"
CC = "ae4a77f8-aedd-4bc1-888f-c94edc91af04"
SUB = "agent-a2898e3"
DOV = "/home/USER/projects/spotter-worktrees/spotter-dov/"
CLAUDE = [
    (CC, "goal-001", "goal", "active", "Work on bead spotter-4te.", R, "line 7, the typed prompt"),
    *[
        (CC, f"read-00{n}", "file_read", "active", W4 + path, R, f"Read, line {line}")
        for n, path, line in (
            (1, "mix.exs", 45), (2, "lib/spotter/application.ex", 49),
            (3, "config/config.exs", 53), (4, "config/dev.exs", 57), (5, "config/test.exs", 61),
            (6, "config/runtime.exs", 65),
            (7, "deps/opentelemetry_bandit/lib/opentelemetry_bandit.ex", 226),
            (8, "lib/spotter/telemetry/otel.ex", 261),
        )
    ],
    *[
        (CC, f"modified-00{n}", "file_modified", "active", W4 + path, R, f"{tool}, line {line}")
        for n, path, tool, line in (
            (1, "mix.exs", "Edit", 129), (2, "lib/spotter/telemetry/otel.ex", "Write", 152),
            (3, "lib/spotter/application.ex", "Edit", 165), (4, "config/config.exs", "Edit", 278),
            (5, "config/dev.exs", "Edit", 291), (6, "config/test.exs", "Edit", 304),
            (7, "config/runtime.exs", "Edit", 317),
        )
    ],
    (CC, "verification-001", "verification", "active", "mix compile", R,
     "line 330, result line 337 not an error, empty output"),
    (CC, "verification-002", "verification", "unknown", "mix test --seed 0 2>&1 | head -100", R,
     "line 339: piped into head, the first 100 lines are dependency compilation, no verdict"),
    (CC, "blocker-001", "blocker", "resolved", "Edit on " + W4 + "lib/spotter/telemetry/otel.ex "
     "failed: <tool_use_error>String to replace not found", R,
     "line 259 is_error; the Edit of the same file at line 266 succeeds"),
    # A subagent transcript (an Explore task of another session, 144 lines).
    (SUB, "goal-001", "goal", "active", "Very thorough exploration. I need to understand:", R,
     "line 1, the Task prompt the subagent got"),
    *[
        (SUB, f"read-00{n}", "file_read", "active", DOV + path, R, f"Read, result line {line}")
        for n, path, line in (
            (1, "lib/spotter_web/live/session_live.ex", 6),
            (2, "lib/spotter_web/live/subagent_live.ex", 60),  # its first Read was cancelled
            (3, "lib/spotter_web/live/pane_list_live.ex", 64),
            (4, "lib/spotter/services/transcript_renderer.ex", 68),
            (5, "test/spotter/services/transcript_renderer_test.exs", 72),
            (6, "test/spotter_web/live/session_live_test.exs", 76),
            (7, "assets/js/app.js", 80),
            (8, "priv/static/assets/spotter.css", 139),
        )
    ],
    (SUB, "blocker-001", "blocker", "open", "Read of " + DOV + "lib/spotter_web/live/"
     "session_live.html.heex failed: <tool_use_error>File does not exist.", R,
     "line 8; the Glob at 24 finds no such file and the agent moves on. The seven parallel "
     "Reads cancelled with 'Sibling tool call errored' (10-22) never ran: no blockers"),
    (SUB, "blocker-002", "blocker", "open", "`find " + DOV + "assets/css -name", R,
     "result line 111: only \"No such file or directory\" though is_error is false (it was "
     "missed before); the folder never exists, the agent searches assets/ instead (112)"),
]  # fmt: skip

CX = "rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799"
CX2 = "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80"
NPM = "npm test -- --run src/agents/plugins/__tests__/codemie-code-reasoning.test.ts"
SKILLS = "/Users/Sample_User/.codex/plugins/cache/"
UI = "/Users/Sample_User/repos/codemie-ai/codemie-ui/src/"
CP = "src/agents/plugins/"
CODEX = [
    (CX, "goal-001", "goal", "active", "show tools", P,
     "line 7 is the first prompt, but the task of the session is the second (line 23, set "
     "the compaction default to 90); one goal per session cannot say so"),
    # Files read with `sed -n 'A,Bp' F`, `cat F`, `nl -ba F | sed ...` (Codex has only a
    # shell); the output is polled with write_stdin and holds the file's lines.
    *[
        (CX, f"read-{n:03d}", "file_read", "active", path, R, f"exec_command line {line}")
        for n, path, line in (
            (1, SKILLS + "openai-curated/superpowers/63976030/skills/using-superpowers/SKILL.md",
             9),
            (2, SKILLS + "openai-curated/superpowers/63976030/skills/brainstorming/SKILL.md", 27),
            (3, SKILLS + "openai-curated/superpowers/63976030/skills/test-driven-development/"
             "SKILL.md", 27),
            (4, CP + "codemie-code-hooks/shell-hooks-source.ts", 64),
            (5, "src/utils/config.ts", 66),
            (6, CP + "opencode/opencode.plugin.ts", 121),
            (7, CP + "codemie-code.plugin.ts", 149),
            (8, "docs/AGENTS.md", 151),
            (9, CP + "__tests__/codemie-code-reasoning.test.ts", 181),
            (10, "node_modules/@codemieai/codemie-opencode/README.md", 202),
            (11, "node_modules/@codemieai/codemie-opencode-darwin-arm64/README.md", 202),
            (12, "package.json", 310),
        )
    ],
    (CX, "modified-001", "file_modified", "active",
     "src/agents/plugins/__tests__/codemie-code-reasoning.test.ts", R, "apply_patch 257, ok 260"),
    (CX, "modified-002", "file_modified", "active", "src/agents/plugins/codemie-code.plugin.ts",
     R, "apply_patch 276, ok 279"),
    (CX, "modified-003", "file_modified", "active",
     "src/agents/plugins/opencode/opencode.plugin.ts", R, "apply_patch 280, ok 283"),
    (CX, "verification-001", "verification", "resolved", NPM + ' -t "Compaction Config"', R,
     "exec 263 polled by write_stdin: exit 1 at 272 (1 failed), rerun 289 exits 0 at 295"),
    (CX, "verification-002", "verification", "active", NPM, R, "296, exit 0 at 305, 16 passed"),
    (CX, "verification-003", "verification", "active", "npm run build", R,
     "327, polled six times, exit 0 at 350"),
    (CX, "blocker-001", "blocker", "resolved", "`sed -n '1,220p' " + SKILLS, R,
     "37: write_stdin failed: stdin is closed for this session (Ctrl-C to the sed of line 27; "
     "missed before); the next poll of that session at 38 gets its output, exit 0 (39)"),
    (CX, "blocker-003", "blocker", "resolved", f'`{NPM} -t "Compaction Config"` failed (exit '
     "code 1): Tests  1 failed | 15 skipped (16)", R,
     "272: the new test fails first (red); the rerun at 289 passes (295)"),
    (CX, "blocker-002", "blocker", "open", '`rg -n "compact|compaction|compacting|summar|context"'
     " node_modules/opencode-ai node_modules/opencode", R,
     "exit 2 at 142: both paths missing; never rerun (the rg runs that exit 1 found no match "
     "and are no blockers)"),
    # A Codex Desktop 0.128 rollout: prompts only as event_msg user_message, exec_command
    # outputs inline, a `js` browser tool.
    (CX2, "goal-001", "goal", "active", "\n# Files mentioned by the user:", P,
     "line 2, analyse a meeting transcript; the prompts at 31 and 33 turn it into writing a "
     "demo scenario, which one goal cannot say"),
    *[
        (CX2, f"read-{n:03d}", "file_read", "active", path, R, f"sed/cat at line {line}")
        for n, path, line in (
            (1, SKILLS + "openai-curated/superpowers/63976030/skills/using-superpowers/SKILL.md",
             4),
            (2, "/Users/Sample_User/Downloads/Sample BiS SampleProject.ai Demo Prep.vtt",
             12),  # eight sed -n ranges, 12-15 and 21-24
            (3, SKILLS + "openai-bundled/browser-use/0.1.0-alpha1/skills/browser/SKILL.md", 35),
            (4, SKILLS + "openai-curated/superpowers/63976030/skills/brainstorming/SKILL.md", 36),
            (5, UI + "pages/analytics/AnalyticsPage.tsx", 63),
            (6, UI + "pages/analytics/components/AIAdoptionTab.tsx", 64),
            (7, UI + "pages/analytics/components/CLIInsightsTab.tsx", 65),
            (8, UI + "pages/settings/administration/projectsManagement/ProjectBudgetsSection.tsx",
             66),
            (9, UI + "pages/settings/administration/projectsManagement/components/"
             "ProjectBudgetCard.tsx", 72),
            (10, UI + "pages/settings/administration/components/ProjectBudgetModal.tsx", 73),
            (11, UI + "pages/settings/administration/ProjectDetailsPage.tsx", 74),
            (12, UI + "pages/settings/administration/projectsManagement/ProjectMembersManager.tsx",
             79),
            (13, UI + "pages/settings/administration/projectsManagement/components/"
             "MemberAllocationOverrideModal.tsx", 80),
            (14, UI + "pages/analytics/components/AnalyticsFilters.tsx", 81),
            (15, UI + "pages/analytics/components/InsightsTab.tsx", 82),
            (16, UI + "pages/analytics/components/AnalyticsDashboard.tsx", 90),
            (17, UI + "types/analytics.ts", 91),
            (18, UI + "pages/analytics/components/cliInsights/CLIInsightsUserDetailsModal.tsx",
             92),
            (19, UI + "types/entity/projectBudget.ts", 93),
        )
    ],
    (CX2, "blocker-001", "blocker", "resolved", '`ps -ef | rg -i "Google Chrome|chrome.*remote|'
     'codemie|codemie-ui"` failed (exit code 1): zsh:1: operation not permitted: ps', R,
     "47: the sandbox refused ps (rg's exit 1 is not a no-match here); the escalated rerun "
     "at 49 exits 0 (50)"),
    (CX2, "blocker-002", "blocker", "open", "js failed: rejected this action due to browser "
     "security policy. Reason: The user has requested that http://localhost:5173", R,
     "53; the agent gives up on the browser (99)"),
    (CX2, "blocker-003", "blocker", "open", "js failed: rejected this action due to browser "
     "security policy. Reason: Browser Use cannot determine", R,
     "56; no later browser call"),
]  # fmt: skip

# SWE-smith rows (function calls written as text, results as OBSERVATION: messages); the
# message index of each row's `messages` list is given.
T = "swe-smith-trajectories-00"
ARROW, DSET, SQLF = "/testbed/arrow/", "/testbed/dataset/", "/testbed/src/sqlfluff/core/templaters/"
TEXT_TOOLS = [
    (f"{T}1", "goal-001", "goal", "active", "f-string formatting with empty format string", R,
     "message 1: the PR description's title (its '# ' heading)"),
    (f"{T}1", "read-001", "file_read", "active", ARROW + "arrow.py", R, "views at 4, 8, 10, 12"),
    (f"{T}1", "modified-001", "file_modified", "superseded", "/testbed/reproduce.py", R,
     "created 14, removed by the rm at 28"),
    (f"{T}1", "modified-002", "file_modified", "active", ARROW + "arrow.py", R, "str_replace 18"),
    (f"{T}1", "modified-003", "file_modified", "superseded", "/testbed/edge_cases.py", R,
     "created 22, removed at 28"),
    (f"{T}2", "goal-001", "goal", "active", "String formatting issue in chunked update", R,
     "message 1: the PR description's title"),
    (f"{T}2", "read-001", "file_read", "active", DSET + "table.py", R, "views 4, 6"),
    (f"{T}2", "read-002", "file_read", "active", DSET + "chunked.py", R, "view 8"),
    (f"{T}2", "read-003", "file_read", "active", DSET + "util.py", R, "view 10"),
    (f"{T}2", "modified-001", "file_modified", "superseded", "/testbed/reproduce_error.py", R,
     "created 12, edited 16-26, removed at 44"),
    (f"{T}2", "modified-002", "file_modified", "active", DSET + "table.py", R, "22, 34, 36"),
    (f"{T}2", "modified-003", "file_modified", "superseded", "/testbed/test_edge_cases.py", R,
     "created 30, removed at 44 (its runs are the agent's scratch checks: no verification)"),
    (f"{T}2", "blocker-001", "blocker", "resolved", "`cd /testbed && python reproduce_error.py` "
     "failed: Error: TypeError: can't multiply sequence", R,
     "15 reproduces the bug; the run at 25 after the fix at 22 succeeds"),
    (f"{T}2", "blocker-002", "blocker", "resolved", "`cd /testbed && python reproduce_error.py` "
     "failed: Error: TypeError", R, "21; fixed at 25"),
    (f"{T}2", "blocker-003", "blocker", "resolved", "`cd /testbed && python test_edge_cases.py` "
     "failed: Error: KeyError: 'id'", R, "33 test case 3 fails; after the edit at 36 the run "
     "at 39 handles it"),
    (f"{T}3", "goal-001", "goal", "active", "Unexpected Behavior in IntermediateFileSlice", R,
     "message 1: the title, '### Issue: ' cut"),
    (f"{T}3", "read-001", "file_read", "active", SQLF + "python.py", R, "views 4, 6, 8"),
    (f"{T}3", "modified-001", "file_modified", "superseded", "/testbed/reproduce_issue.py", R,
     "created 10, removed at 34"),
    (f"{T}3", "modified-002", "file_modified", "active", SQLF + "python.py", R, "14, 18, 26"),
    (f"{T}3", "modified-003", "file_modified", "superseded", "/testbed/edge_case_test.py", R,
     "created 22, removed at 34; `python /testbed/edge_case_test.py` is no verification"),
]  # fmt: skip

LP = "pyutils__line_profiler.a646bf0f.100__pyutils__line_profiler.a646bf0f.100.toiq5elr"
MOTO = "getmoto__moto.694ce1f4.pr_6055__getmoto__moto.694ce1f4.pr_6055.vtqmgmtg"
REPRO = "`python /testbed/reproduce_error.py` failed: "
ATHENA = "/testbed/moto/athena/"
HF = [
    (LP, "goal-001", "goal", "active", "`is_coroutine` function incorrectly identifies", R,
     "message 1: the first line after the '**Issue Text**' label"),
    # The view of the folder /testbed at 2 is a listing: no read.
    (LP, "read-001", "file_read", "active", "/testbed/line_profiler/line_profiler.py", R, "4"),
    (LP, "modified-001", "file_modified", "active", "/testbed/reproduce_error.py", R,
     "created 6, never removed in this row"),
    (LP, "modified-002", "file_modified", "active", "/testbed/line_profiler/line_profiler.py", R,
     "16, 24, 32, 34, 38, 40"),
    (LP, "blocker-001", "blocker", "resolved", REPRO + "ImportError: The line_profiler.", R,
     "9 the C extension is not built; pip install -e at 10, later runs import it"),
    (LP, "blocker-002", "blocker", "resolved", REPRO + "Error with generator: 'coroutine' object "
     "is not iterable", R, "15, the bug reproduced (the text was the asyncio warning printed "
     "after it, a 'partly', before the rule took the script's own error line); 19 works"),
    (LP, "blocker-003", "blocker", "resolved", REPRO + "TypeError: 'async for' requires an object "
     "with __aiter__ method, got coroutine", R, "27; the run at 43 works"),
    (LP, "blocker-004", "blocker", "resolved", REPRO + "TypeError: 'async for' requires an object "
     "with __aiter__ method, got generator", R, "37; fixed by the edits at 38-40 (43)"),
    (MOTO, "goal-001", "goal", "active", "Missing primary workgroup and prepared statements", R,
     "message 1: the PR description's title"),
    (MOTO, "read-001", "file_read", "active", ATHENA + "models.py", R, "4, 60, 62"),
    (MOTO, "read-002", "file_read", "active", ATHENA + "responses.py", R, "6, 64"),
    (MOTO, "read-003", "file_read", "active", ATHENA + "urls.py", R, "8"),
    (MOTO, "modified-001", "file_modified", "superseded", "/testbed/reproduce.py", R,
     "created 10, removed at 74"),
    (MOTO, "modified-002", "file_modified", "superseded", "/testbed/test_athena.py", R,
     "created 24, removed at 74"),
    (MOTO, "read-004", "file_read", "active", "/testbed/tests/test_athena/test_athena.py", R,
     "36-42, 58"),
    (MOTO, "modified-003", "file_modified", "active", ATHENA + "models.py", R, "44-50, 66"),
    (MOTO, "modified-004", "file_modified", "active", ATHENA + "responses.py", R, "52"),
    (MOTO, "verification-001", "verification", "resolved",
     "cd /testbed && python -m pytest tests/test_athena/test_athena.py -v", R,
     "57: 1 failed, 22 passed; 69: 23 passed"),
    (MOTO, "blocker-001", "blocker", "superseded", "`cd /testbed && python reproduce.py` failed: "
     "Error listing named queries: Unable to locate credentials", R,
     "13; the agent gives reproduce.py up (never runs it after 22) and deletes it at 74"),
    (MOTO, "blocker-002", "blocker", "superseded", "`cd /testbed && python reproduce.py` failed: "
     "ImportError: cannot import name 'mock_athena'", R, "17; same script"),
    (MOTO, "blocker-003", "blocker", "superseded", "`cd /testbed && python reproduce.py` failed: "
     "ImportError: cannot import name 'mock_boto3'", R,
     "23; same script. The probe at 26 ends in `|| echo ...`: its traceback is an answer, "
     "no blocker"),
    (MOTO, "blocker-004", "blocker", "resolved", "`cd /testbed && python -m pytest tests/"
     "test_athena/test_athena.py -v` failed: =", R, "57; 69 passes"),
]  # fmt: skip

# SWE-Gym OpenHands runs (gpt-4o) kept as Chat Completions message lists with tool_calls; the
# index into each row's `messages` is given. Results end in "[Command finished with exit code
# N]"; the editor's refusals start "ERROR:".
G = "swe-gym-openhands-sampled-00"
MYPY, MONAI, MONAI2 = (
    "/workspace/python__mypy__1.6/",
    "/workspace/Project-MONAI__MONAI__1.1/",
    ("/workspace/Project-MONAI__MONAI__1.2/"),
)
TASK = "<uploaded_files>\n/workspace/"
VIEW_DIR = "failed: The `view_range` parameter is not allowed when `path` points to a directory"
OPENAI = [
    (f"{G}1", "goal-001", "goal", "active", "attrs & dataclasses false positive error", R,
     "message 1: the PR's title (attrs slots and __traceback__)"),
    (f"{G}1", "modified-001", "file_modified", "active", MYPY + "reproduce_error.py", R,
     "created 10, never removed"),
    (f"{G}1", "read-001", "file_read", "active", MYPY + "mypy/plugins/attrs.py", R,
     "views 19, 25 (the views of the folders at 4 and 8 are listings: no reads)"),
    (f"{G}1", "read-002", "file_read", "active", MYPY + "mypy/plugins/dataclasses.py", R,
     "views 19, 25"),
    (f"{G}1", "modified-002", "file_modified", "active", MYPY + "mypy/plugins/attrs.py", R,
     "str_replace 30, edited (31)"),
    (f"{G}1", "modified-003", "file_modified", "active", MYPY + "mypy/plugins/dataclasses.py", R,
     "str_replace 32, edited (33)"),
    (f"{G}1", "verification-001", "verification", "resolved", "mypy " + MYPY + "reproduce_error.py",
     R, "14: exit 1, 2 errors (the bug); 34: exit 0, no issues found"),
    (f"{G}1", "blocker-001", "blocker", "resolved", "str_replace_editor of /workspace/python__mypy"
     "__1.6 " + VIEW_DIR, R, "3; the view without a range at 4 lists the folder"),
    (f"{G}1", "blocker-002", "blocker", "resolved", "str_replace_editor of " + MYPY + "mypy " +
     VIEW_DIR, R, "7; 8 lists it"),
    (f"{G}1", "blocker-003", "blocker", "resolved", "`mypy " + MYPY + "reproduce_error.py` failed "
     "(exit code 1): " + MYPY + "reproduce_error.py:14: error: Trying to assign name", R,
     "15, the bug reproduced; after the edits mypy passes at 35"),
    (f"{G}1", "blocker-004", "blocker", "resolved", "str_replace_editor of " + MYPY + "mypy/"
     "plugins/attrs.py failed: Invalid `view_range`: [0, 40]", R, "17; the view at 19 works (20)"),
    (f"{G}1", "blocker-005", "blocker", "resolved", "str_replace_editor of " + MYPY + "mypy/"
     "plugins/dataclasses.py failed: Invalid `view_range`: [0, 40]", R, "18; 19 works (21)"),
    (f"{G}2", "goal-001", "goal", "active", "SSIMLoss result does not have gradient", R,
     "message 1: the PR's title"),
    (f"{G}2", "modified-001", "file_modified", "active", MONAI + "reproduce_ssimloss_issue.py", R,
     "created 6"),
    (f"{G}2", "read-001", "file_read", "active", MONAI + "monai/losses/ssim_loss.py", R, "view 10"),
    (f"{G}2", "read-002", "file_read", "active", MONAI + "monai/metrics/regression.py", R,
     "view 12 (clipped by the tool, still a read)"),
    (f"{G}2", "modified-002", "file_modified", "active", MONAI + "monai/losses/ssim_loss.py", R,
     "str_replace 14, edited (15)"),
    (f"{G}2", "blocker-001", "blocker", "resolved", "str_replace_editor of /workspace/Project-"
     "MONAI__MONAI__1.1 " + VIEW_DIR, R, "3; 4 lists the folder"),
    (f"{G}3", "goal-001", "goal", "active", "`convert_to_contiguous` converts tuple to list", R,
     "message 1: the PR's title (collate error with a list of tensors)"),
    (f"{G}3", "read-001", "file_read", "active", MONAI2 + "monai/transforms/utils.py", R, "view 8"),
    (f"{G}3", "read-002", "file_read", "active", MONAI2 + "monai/data/utils.py", R, "views 8, 11"),
    (f"{G}3", "modified-001", "file_modified", "active", MONAI2 + "reproduce_error.py", R,
     "created 13"),
    (f"{G}3", "modified-002", "file_modified", "active", MONAI2 + "monai/transforms/utils.py", R,
     "str_replace 17. Not derived (a miss, no row): the run at 15 exits 0 but its script "
     "prints the caught 'Error occurred: stack expects each tensor...'; 19 prints no error"),
    (f"{G}3", "blocker-001", "blocker", "resolved", "str_replace_editor of /workspace/Project-"
     "MONAI__MONAI__1.2 " + VIEW_DIR, R, "3; 4 lists the folder"),
]  # fmt: skip

# `claude -p --output-format stream-json` events printed by hive-mind's solver logs (the -p
# prompt is not in the stream: no goal fact); event numbers (1-based lines) are given.
RV, P4 = "hive-mind-pr-4-revert-session-", "hive-mind-pr-4-session-1"
T1, T2, T3 = (
    "/tmp/gh-issue-solver-" + n for n in ("1760502938519/", "1760538943756/", "1761373813994/")
)
T4 = "/tmp/gh-issue-solver-1760318094163"
STREAM = [
    *[
        (f"{RV}1", f"read-00{n}", "file_read", "active", T1 + path, R, f"Read, result {line}")
        for n, path, line in ((1, "package.json", 13), (2, "README.md", 14), (3, "index.js", 15),
                              (4, ".github/workflows/test.yml", 25))
    ],
    (f"{RV}1", "modified-001", "file_modified", "active", T1 + ".github/workflows/publish.yml",
     R, "Write 38, created (39)"),
    (f"{RV}1", "modified-002", "file_modified", "active", T1 + "package.json", R, "Edit 43/44"),
    (f"{RV}1", "verification-001", "verification", "active", "npm test 2>&1 | tee", R,
     "48: the pipe hides the status but node --test's TAP summary says '# pass 6 / # fail 0' "
     "(49; it was 'unknown' before the TAP rule)"),
    (f"{RV}2", "read-001", "file_read", "active", T2 + "package.json", R, "Read 11/13"),
    (f"{RV}2", "read-002", "file_read", "superseded", T2 + ".github/workflows/test.yml", R,
     "Read 17/19, removed by the rm at 30 (it was 'active' before deleted reads left the set)"),
    (f"{RV}2", "read-003", "file_read", "superseded", T2 + ".github/workflows/publish.yml", R,
     "Read 18/20, removed at 30"),
    (f"{RV}2", "modified-001", "file_modified", "active", T2 + ".github/workflows/ci-cd.yml", R,
     "Write 25/26, committed 37"),
    (f"{RV}2", "read-004", "file_read", "active", "/tmp/pr-diff.txt", R,
     "54: gh pr diff > /tmp/pr-diff.txt && head -200 /tmp/pr-diff.txt"),
    (f"{RV}3", "read-001", "file_read", "active", "/tmp/pr-diff.txt", R, "Read 12/13"),
    (f"{RV}3", "read-002", "file_read", "active", T3 + "README.md", R, "Read 42/43"),
    (f"{RV}3", "read-003", "file_read", "active", "/tmp/new-pr-diff.txt", R, "Read 59/60"),
    (f"{RV}3", "blocker-001", "blocker", "resolved", "`gh pr checks 4 --repo link-foundation/"
     "test-anywhere` failed: Test on", R, "57 is_error: checks still pending; `sleep 30 && gh pr "
     "checks 4` at 62 succeeds (63; it stayed 'open' before the sleep prefix rule)"),
    *[
        (P4, f"read-00{n}", "file_read", "active", f"{T4}/{path}", R, why)
        for n, path, why in (
            (1, "README.md", "Read, result 21"),
            (2, "P_VS_NP_TASK_DESCRIPTION.md", "Read 18; its result is the log line cut at "
             "2,000 characters, after the excerpt (the full log shows the file's lines)"),
            (3, "DETAILED_SOLUTION_PLAN.md", "Read 19; result after the excerpt, succeeded"),
            (4, "TOOLS_AND_METHODOLOGIES.md", "Read 20; result after the excerpt, succeeded"),
        )
    ],
    (P4, "blocker-001", "blocker", "open", f"Read of {T4} failed: EISDIR", R,
     "the Read of the folder itself (is_error); the agent globs and reads its files instead"),
]  # fmt: skip

# A real architect-mode history this project made by running aider 0.86.2 against a local
# Qwen2.5-Coder-0.5B (README there): handoff auto-accepted, two "Add file to the chat?" answers.
A = "aider.chat.history"
ARCHITECT = [
    (A, "goal-001", "goal", "active", "Add a function multiply(a, b) to calc/ops.py", R,
     "L18, the one typed request (not the L50 handoff, not the y answers)"),
    (A, "read-001", "file_read", "active", "calc/ops.py", R, "L19-20 Add file to the chat? y"),
    (A, "read-002", "file_read", "active", "tests/test_ops.py", R, "L21-22 Add file? y"),
]  # fmt: skip

FORMATS = {
    "claude-code-stream": STREAM,
    "aider-architect": ARCHITECT,
    "aider": AIDER,
    "openai-messages": OPENAI,
    "claude-code": CLAUDE,
    "codex": CODEX,
    "openhands": OPENHANDS,
    "text-tools": TEXT_TOOLS,
    "hf": HF,
}
# hf reads a local JSON-lines export of the dataset with the dataset's own mapping.
OPTIONS = {"hf": ImportOptions(hf_mapping="SWE-bench/SWE-smith-trajectories")}
# Fixture folders read by another format's importer.
IMPORTER = {"claude-code-stream": "claude-code", "aider-architect": "aider"}
MIN_RIGHT = 0.9  # lowest share of right facts accepted per format


@pytest.fixture(scope="module", params=sorted(FORMATS))
def imported(request):
    fmt = request.param
    result = import_source(IMPORTER.get(fmt, fmt), str(REAL / fmt), OPTIONS.get(fmt))
    return fmt, {s.name: s for s in result.sessions}


def test_every_derived_fact_is_checked(imported):
    fmt, sessions = imported
    derived = {(name, f.id) for name, s in sessions.items() for f in s.facts}
    assert derived == {(row[0], row[1]) for row in FORMATS[fmt]}


def test_checked_facts_and_accuracy(imported):
    fmt, sessions = imported
    rows = FORMATS[fmt]
    for name, fact_id, kind, status, text, _verdict, _why in rows:
        (fact,) = [f for f in sessions[name].facts if f.id == fact_id]
        assert (fact.kind, fact.status) == (kind, status), (name, fact_id)
        assert fact.text.startswith(text), (name, fact_id, fact.text[:120])
        assert fact.introduced_at in fact.entry_ids  # each fact names its source entry
    # >= 20 facts per format: a second sample of a format counts with the first.
    family = [r for f, rs in FORMATS.items() if IMPORTER.get(f, f) == IMPORTER.get(fmt, fmt)
              for r in rs]  # fmt: skip
    right = sum(row[5] == R for row in rows)
    assert len(family) >= 20 and right / len(rows) >= MIN_RIGHT


def _items(session):
    return [line["item"] for line in session.lines if line.get("type") == "item"]


def _calls(session, name=None):
    return [
        i for i in _items(session) if i["type"] == "function_call" and name in (None, i["name"])
    ]


def _as_source(session, written):
    """The call names as the session wrote them, each checked against the source's name:
    the same, or renamed to SOBA's tool and counted so in the origin (soba_tools)."""
    renamed = session.origin.get("toolNames", {})
    return lambda sources: (
        len(written) == len(sources)
        and all(w == s or f"{s} -> {w}" in renamed for w, s in zip(written, sources, strict=True))
    )


def test_aider_nothing_lost():
    """Every typed user line, /test run and applied or rejected edit block is in a session."""
    text = (REAL / "aider" / ".aider.chat.history.md").read_text()
    sessions = import_source("aider", str(REAL / "aider")).sessions
    tests = len(re.findall(r"^#### /test ", text, re.MULTILINE))
    applied = len(re.findall(r"^> Applied edit to ", text, re.MULTILINE))
    rejected = len(re.findall(r"^> # \d+ SEARCH/REPLACE block", text, re.MULTILINE))
    assert sum(len(_calls(s, "bash")) for s in sessions) == tests == 4
    assert sum(len(_calls(s, "apply_edits")) for s in sessions) == applied + rejected == 22
    loss = [s.origin["loss"].get("user (####)", {}) for s in sessions]
    skipped: dict[str, int] = {}
    for row in loss:
        for reason, n in row.get("skipped", {}).items():
            skipped[reason] = skipped.get(reason, 0) + n
    assert set(skipped) == {"command"}  # only aider's own slash commands are left out
    records = sum(row.get("records", 0) for row in loss)
    entries = sum(row.get("entries", 0) for row in loss)
    # Every typed line is a user message, a /test call, or a skipped aider command.
    assert records == entries + skipped["command"]
    assert entries == tests + len(
        [i for s in sessions for i in _items(s) if i.get("role") == "user"]
    )


def test_aider_architect_nothing_lost():
    """The typed request is the one user turn; the two answers to "Add file to the chat?" and
    the auto-accepted handoff (a #### block repeating the architect's reply) are not."""
    (session,) = import_source("aider", str(REAL / "aider-architect")).sessions
    users = [i for i in _items(session) if i.get("role") == "user"]
    replies = [i for i in _items(session) if i.get("role") == "assistant"]
    assert len(users) == 1 and users[0]["content"][0]["text"].startswith("Add a function")
    assert len(replies) == 2  # the architect's reply and the editor's
    skipped = session.origin["loss"]["user (####)"]["skipped"]
    assert skipped == {"architect handoff to the editor (repeats the reply)": 1, "command": 2}


def test_openhands_nothing_lost():
    """Every user message and every agent tool action becomes an entry."""
    cases = [
        (json.loads(path.read_text()), import_source("openhands", str(path)).sessions[0], path)
        for path in sorted((REAL / "openhands").glob("*.json"))
    ]
    rows = (REAL / "openhands" / "output.jsonl").read_text().splitlines()
    sessions = import_source("openhands", str(REAL / "openhands" / "output.jsonl")).sessions
    assert len(sessions) == len(rows) == 2
    cases += [
        (json.loads(row)["history"], session, session.name)
        for row, session in zip(rows, sessions, strict=True)
    ]
    for events, session, path in cases:
        users = [e for e in events if e.get("source") == "user" and e.get("action") == "message"]
        actions = [e for e in events if e.get("action") in ("run", "edit", "read")]
        messages = [i for i in _items(session) if i.get("role") == "user"]
        # An error observation that answers no tool call reaches the model as a user
        # message (OpenHands sends it so); id 29 of ponyc-4593 is one.
        errors = [
            e for e in events if e.get("observation") == "error" and "tool_call_metadata" not in e
        ]
        assert len(messages) == len(users) + len(errors), path
        calls = [c for c in _calls(session) if c["name"] not in ("finish", "think")]
        assert len(calls) == len(actions), path


@pytest.mark.parametrize(
    ("rel", "n_calls"),
    [(f"{CC}.jsonl", 39), (f"4d5611e5-241a-462a-8d15-5122611a9569/subagents/{SUB}.jsonl", 33)],
)
def test_claude_code_nothing_lost(rel, n_calls):
    """Every typed prompt and every tool_use block of the transcript is in the session."""
    path = REAL / "claude-code" / rel
    records = [json.loads(line) for line in path.read_text().splitlines()]
    uses = [
        b
        for r in records
        if r.get("type") == "assistant"
        for b in r["message"]["content"]
        if b.get("type") == "tool_use"
    ]
    prompts = [
        r
        for r in records
        if r.get("type") == "user"
        and isinstance(r["message"]["content"], str)
        and not r.get("isMeta")
    ]
    (session,) = import_source("claude-code", str(path)).sessions
    calls = _calls(session)
    assert _as_source(session, [c["name"] for c in calls])([u["name"] for u in uses])
    assert len(calls) == n_calls
    texts = [i["content"][0]["text"] for i in _items(session) if i.get("role") == "user"]
    for prompt in prompts:
        assert prompt["message"]["content"].strip() in [t.strip() for t in texts]
    loss = session.origin["loss"]
    assert loss["user"]["skipped"] == {} and loss["assistant"]["skipped"] == {}


@pytest.mark.parametrize(("name", "n_calls", "n_prompts"), [(CX, 105, 2), (CX2, 38, 3)])
def test_codex_nothing_lost(name, n_calls, n_prompts):
    """Every tool call (function, custom, web search) and every typed prompt is an entry."""
    path = REAL / "codex" / f"{name}.jsonl"
    payloads = [json.loads(line).get("payload", {}) for line in path.read_text().splitlines()]
    kinds = ("function_call", "custom_tool_call", "web_search_call")
    calls = [p for p in payloads if p.get("type") in kinds]
    prompts = [p["message"] for p in payloads if p.get("type") == "user_message"]
    (session,) = import_source("codex", str(path)).sessions
    assert len(_calls(session)) == len(calls) == n_calls
    texts = [
        "".join(b.get("text", "") for b in i["content"])
        for i in _items(session)
        if i.get("role") == "user"
    ]
    assert all(any(p.strip() in t for t in texts) for p in prompts) and len(prompts) == n_prompts
    loss = session.origin["loss"]
    assert all(not loss.get(f"response_item:{k}", {}).get("skipped") for k in kinds)


def test_openai_messages_nothing_lost():
    """Every user message, every tool_calls entry and every tool result is an entry."""
    path = REAL / "openai-messages" / "swe-gym-openhands-sampled.jsonl"
    rows = [json.loads(line) for line in path.open()]
    sessions = import_source("openai-messages", str(path)).sessions
    assert len(sessions) == len(rows) == 3
    for row, session in zip(rows, sessions, strict=True):
        messages = row["messages"]
        calls = [c for m in messages for c in m.get("tool_calls") or []]
        items = _items(session)
        written = [c["name"] for c in _calls(session)]
        assert _as_source(session, written)([c["function"]["name"] for c in calls])
        outputs = [i for i in items if i["type"] == "function_call_output"]
        assert len(outputs) == len([m for m in messages if m["role"] == "tool"])
        users = [i["content"][0]["text"] for i in items if i.get("role") == "user"]
        assert users == [m["content"] for m in messages if m["role"] == "user"]
        for row_loss in session.origin["loss"].values():
            assert row_loss["skipped"] == {}


@pytest.mark.parametrize("fmt", ["text-tools", "hf"])
def test_text_tools_nothing_lost(fmt):
    """Every `<function=...>` block is a call, every OBSERVATION message its output, and the
    task is the one user message."""
    rows = [json.loads(line) for line in (REAL / fmt / "swe-smith-trajectories.jsonl").open()]
    sessions = import_source(fmt, str(REAL / fmt), OPTIONS.get(fmt)).sessions
    assert len(sessions) == len(rows)
    for row, session in zip(rows, sessions, strict=True):
        blocks = sum(
            m["content"].count("<function=") for m in row["messages"] if m["role"] == "assistant"
        )
        answers = [
            m for m in row["messages"][2:] if m["role"] == "user"
        ]  # observations (and "Your command ran successfully" with no prefix)
        items = _items(session)
        assert len(_calls(session)) == blocks
        assert len([i for i in items if i["type"] == "function_call_output"]) == len(answers)
        users = [i["content"][0]["text"] for i in items if i.get("role") == "user"]
        assert users == [row["messages"][1]["content"]]  # no answer became a user turn
        for row_loss in session.origin["loss"].values():
            assert row_loss["skipped"] == {}


def test_claude_code_stream_json_with_uuids_nothing_lost():
    """A real `claude -p --output-format stream-json` log whose events carry a `uuid` (as
    Claude Code's do since 1.x) is read as a stream, not as a transcript: every tool_use
    block is a call and every tool_result its output (21 complete events: the log that keeps
    them cut longer lines). Its facts are also rows of the STREAM table."""
    path = REAL / "claude-code-stream" / "hive-mind-pr-4-session-1.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert all(isinstance(r.get("uuid"), str) for r in records)
    blocks = [b for r in records if r["type"] in ("assistant", "user")
              for b in r["message"]["content"] if isinstance(b, dict)]  # fmt: skip
    (session,) = import_source("claude-code", str(path)).sessions
    assert session.origin["variant"] == "stream-json"
    uses = [b["name"] for b in blocks if b.get("type") == "tool_use"]
    assert _as_source(session, [c["name"] for c in _calls(session)])(uses) and len(uses) == 11
    outputs = [i for i in _items(session) if i["type"] == "function_call_output"]
    assert len(outputs) == len([b for b in blocks if b.get("type") == "tool_result"]) == 8
    work = "/tmp/gh-issue-solver-1760318094163"
    # Read calls (the last three reads' results are past the excerpt, but the reads ran)
    # and the Read of the folder itself (EISDIR), never read again: all right.
    assert [(f.id, f.status, f.text) for f in session.facts] == [
        ("read-001", "active", f"{work}/README.md"),
        ("read-002", "active", f"{work}/P_VS_NP_TASK_DESCRIPTION.md"),
        ("read-003", "active", f"{work}/DETAILED_SOLUTION_PLAN.md"),
        ("read-004", "active", f"{work}/TOOLS_AND_METHODOLOGIES.md"),
        ("blocker-001", "open",
         f"Read of {work} failed: EISDIR: illegal operation on a directory, read"),
    ]  # fmt: skip
