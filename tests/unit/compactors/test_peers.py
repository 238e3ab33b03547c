"""The peer strategies (Codex, Claude Code, OpenHands, Gemini CLI, pi, opencode): each
policy's trigger and cut on small hand-built sessions, with the arithmetic worked out here.

Sizes use SOBA's estimator, ceil(chars / 3.5) per item: ``text(n)`` is exactly ``n`` tokens,
and a ``function_call(cid, "f", "{}")`` with a two-character id is 2 tokens.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from soba_bench.compactors.claude_code import ClaudeCode
from soba_bench.compactors.codex import Codex
from soba_bench.compactors.gemini_cli import GeminiCli, split_point
from soba_bench.compactors.opencode import OpenCode, usable_tokens
from soba_bench.compactors.openhands import OpenHands
from soba_bench.compactors.peer import PeerBranch, item_chars
from soba_bench.compactors.pi import Pi
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import ConfigError
from tests.builders import assistant, chain, function_call, function_output, session_of, user
from tests.unit.compactors.helpers import METER, moment_inputs, run, tokens


def text(n: int, tag: str = "") -> str:
    """A text of exactly ``n`` SOBA tokens (floor(3.5 n) characters)."""
    return tag + "x" * (int(3.5 * n) - len(tag))


def u(n: int, tag: str = "u") -> dict:
    return user(text(n, tag))


def a(n: int, tag: str = "a") -> dict:
    return assistant(text(n, tag))


def call(cid: str) -> dict:
    return function_call(cid, "f", "{}")


def out(cid: str, n: int) -> dict:
    return function_output(cid, text(n, cid))


def branch_of(items: list[dict]) -> PeerBranch:
    return PeerBranch("s", meter=METER, entries=list(session_of(chain(items)).active_branch))


def manager_of(branch: PeerBranch):
    return SimpleNamespace(branch=branch)  # the cut rules read only the branch


def snap(effective: float, hard: float = 1e9):
    return SimpleNamespace(effectiveTokens=effective, hardLimit=hard)


def test_sizes_are_what_the_worked_numbers_assume():
    assert METER.count_item(u(100)) == 100
    assert METER.count_item(a(7)) == 7
    assert METER.count_item(out("c1", 200)) == 200
    assert METER.count_item(call("c1")) == 2


# ── triggers ─────────────────────────────────────────────────────────────────


def test_codex_triggers_at_90_percent_of_the_window():
    codex = Codex(limit=90_000, user_budget=20_000)  # floor(0.9 x 100,000)
    branch = branch_of([u(1)])
    assert codex.triggered(snap(89_999), branch) is None
    assert codex.triggered(snap(90_000), branch) is not None


def test_claude_code_threshold_is_window_minus_output_reserve_minus_buffer():
    # 128,000 - min(32,768, 20,000) - 13,000 = 95,000
    cc = ClaudeCode(threshold=128_000 - min(32_768, 20_000) - 13_000)
    assert cc.threshold_tokens(87_040) == 95_000
    assert cc.triggered(snap(94_999), branch_of([u(1)])) is None
    assert cc.triggered(snap(95_000), branch_of([u(1)])) is not None


def test_pi_triggers_strictly_above_window_minus_reserve():
    pi = Pi(window=100_000, reserve=16_384, keep=20_000)  # threshold 83,616
    branch = branch_of([u(1)])
    assert pi.triggered(snap(83_616), branch) is None
    assert pi.triggered(snap(83_617), branch) is not None


def test_gemini_triggers_at_half_the_window():
    gem = GeminiCli(threshold=64_000, preserve=0.3)  # floor(0.5 x 128,000)
    assert gem.triggered(snap(63_999), branch_of([u(1)])) is None
    assert gem.triggered(snap(64_000), branch_of([u(1)])) is not None


def test_opencode_usable_window():
    # 128,000 - min(32,768, 32,000) - min(20,000, 32,000) = 76,000
    assert usable_tokens(128_000, 32_768, 32_000, 20_000) == 76_000
    # a small output reserve caps the buffer too: 40,000 - 1,000 - min(20,000, 1,000)
    assert usable_tokens(40_000, 1_000, 32_000, 20_000) == 38_000


def test_openhands_counts_events_not_tokens():
    oh = OpenHands(max_size=12, keep_first=3)
    # the view is the system prompt event + 11 items = 12: not more than max_size
    assert oh.triggered(snap(10**9), branch_of([u(1)] * 11)) is None
    # + 12 items = 13 > 12
    assert oh.triggered(snap(0), branch_of([u(1)] * 12)) is not None


# ── cuts ─────────────────────────────────────────────────────────────────────


def test_codex_keeps_the_newest_user_messages_that_fit_and_summarizes_everything():
    items = [
        u(100, "u0"),  # 0
        a(100),  # 1
        call("c1"),  # 2
        out("c1", 1000),  # 3
        u(300, "u1"),  # 4
        a(100),  # 5
        u(200, "u2"),  # 6
        call("c2"),  # 7
        out("c2", 1000),  # 8
        a(100),  # 9
    ]
    branch = branch_of(items)
    # newest first with 500 tokens: u2 (200, 300 left), u1 (300, 0 left), u0 (100) stops.
    cut = Codex(limit=1, user_budget=500).cut(manager_of(branch), None)
    assert cut.pinned == [4, 6]
    assert cut.kept_from == len(items)  # no verbatim tail
    assert cut.summarized == list(range(10))


def test_openhands_keeps_head_and_newest_events_around_the_forgotten_middle():
    items = [u(5, "u0"), a(5), u(5, "u1"), call("c1"), out("c1", 5), a(5)]
    items += [u(5, "u2"), call("c2"), out("c2", 5), a(5), u(5, "u3"), a(5)]
    branch = branch_of(items)
    # max_size 12, keep_first 3: head = 3 - 1 (the system prompt) = items 0, 1;
    # tail = 12 // 2 - 3 - 1 = 2 newest items: 10, 11; forgotten 2..9.
    cut = OpenHands(max_size=12, keep_first=3).cut(manager_of(branch), None)
    assert (cut.pinned, cut.kept_from, cut.summarized) == ([0, 1], 10, list(range(2, 10)))


def test_openhands_moves_boundaries_off_a_tool_pair():
    items = [u(5), call("c0"), out("c0", 5), a(5), u(5), a(5), u(5), a(5), u(5)]
    items += [call("c3"), out("c3", 5), a(5)]  # 9, 10, 11
    branch = branch_of(items)
    # head would be items 0, 1 (a call whose output is item 2): it shrinks to item 0;
    # tail would be items 10, 11 (an output whose call is item 9): it shrinks to item 11.
    cut = OpenHands(max_size=12, keep_first=3).cut(manager_of(branch), None)
    assert (cut.pinned, cut.kept_from, cut.summarized) == ([0], 11, list(range(1, 11)))


def test_gemini_split_point_worked():
    # target 0.7 x 500 = 350: user contents at 0 (0 before), 2 (200 before), 4 (400 before).
    assert split_point([100] * 5, [True, False, True, False, True], 0.7, False) == 4
    # target 0.7 x 700 = 490 is never reached at a user content: compress everything when
    # the last content is a model answer, else split at the last user content (2).
    chars, split = [100, 100, 100, 400], [True, False, True, False]
    assert split_point(chars, split, 0.7, True) == 4
    assert split_point(chars, split, 0.7, False) == 2


def test_gemini_cut_on_a_branch_keeps_the_newest_30_percent_by_characters():
    items = [u(100, "u0"), a(100), u(100, "u1"), a(100), u(100, "u2"), a(100), u(100, "u3")]
    items += [a(100)]
    branch = branch_of(items)
    sizes = [item_chars(i) for i in items]
    total = sum(sizes)
    before = [sum(sizes[:k]) for k in range(len(items))]
    # the first user message (0, 2, 4, 6) with at least 70 % of the characters before it
    expected = next(k for k in (0, 2, 4, 6) if before[k] >= 0.7 * total)
    assert expected == 6
    cut = GeminiCli(threshold=1, preserve=0.3).cut(manager_of(branch), None)
    assert (cut.kept_from, cut.summarized) == (6, list(range(6)))


def test_pi_cuts_at_the_first_message_at_or_after_the_budget():
    items = [u(100), a(100), call("c1"), out("c1", 200), a(100), u(100), a(50)]
    branch = branch_of(items)
    # back from the end: 50, 150, 250 at item 4 (>= 250): item 4 is an assistant message.
    cut = Pi(window=0, reserve=0, keep=250).cut(manager_of(branch), None)
    assert (cut.kept_from, cut.summarized) == (4, [0, 1, 2, 3])
    # 300: reached at item 3 (450), a tool output; the next valid cut point is item 4.
    cut = Pi(window=0, reserve=0, keep=300).cut(manager_of(branch), None)
    assert cut.kept_from == 4
    # never reached: pi keeps from the first message, nothing to summarize.
    assert isinstance(Pi(window=0, reserve=0, keep=10_000).cut(manager_of(branch), None), str)


def test_pi_never_cuts_between_a_call_and_its_output():
    items = [u(100), call("c1"), a(100), out("c1", 100), u(100), a(100)]
    branch = branch_of(items)
    # back: 100, 200 at item 4 -> cut point 4 is safe; keep=300 reaches item 3 (300) ->
    # next point 4; keep=350 reaches item 2 (400): item 2 splits c1 (call 1, output 3) -> 4.
    cut = Pi(window=0, reserve=0, keep=350).cut(manager_of(branch), None)
    assert cut.kept_from == 4


def test_opencode_prune_protects_two_turns_and_the_newest_outputs():
    items = []
    for t in range(5):  # turn t: user, call, output (200 tokens), answer; output at 4t + 2
        items += [u(10, f"t{t}"), call(f"c{t}"), out(f"c{t}", 200), a(10)]
    branch = branch_of(items)
    oc = OpenCode(
        usable=10**9,
        preserve=0,
        prune={"prune_minimum": 150, "prune_protect": 300, "protect_turns": 2},
    )
    # turns 4 and 3 are protected; then outputs of turns 2 (total 200 <= 300, kept),
    # 1 (400 > 300, pruned) and 0 (600, pruned): 400 pruned tokens > 150.
    assert oc.prunable(branch) == ([2, 6], 400)
    high = OpenCode(
        usable=10**9,
        preserve=0,
        prune={"prune_minimum": 400, "prune_protect": 300, "protect_turns": 2},
    )
    assert not high.on_turn_complete(snap(0), branch).shouldCompact  # 400 is not > 400
    assert oc.on_turn_complete(snap(0), branch).shouldCompact


def test_opencode_tail_keeps_whole_turns_then_splits_the_next():
    items = [u(100, "u0"), a(100)]  # turn 0: 0, 1
    items += [u(100, "u1"), call("c1"), out("c1", 200), a(100)]  # turn 1: 2..5 (402 tokens)
    items += [u(100, "u2"), a(100)]  # turn 2: 6, 7 (200 tokens)
    branch = branch_of(items)
    # budget 350: turn 2 fits (200); turn 1 (402) does not; 150 left: the shortest suffix
    # of turn 1 that fits is its answer (item 5, 100 tokens): the tail starts there.
    cut = OpenCode(usable=1, preserve=350, prune=None).cut(manager_of(branch), None)
    assert (cut.kept_from, cut.summarized) == (5, [0, 1, 2, 3, 4])
    # a budget the whole history fits: opencode summarizes everything, keeps no tail
    cut = OpenCode(usable=1, preserve=10_000, prune=None).cut(manager_of(branch), None)
    assert (cut.kept_from, cut.summarized) == (len(items), list(range(8)))


# ── on the replay walk ───────────────────────────────────────────────────────

WIDE = {  # hard limit 40,000 - 1,000 - 500 = 38,500: every peer's own trigger comes first
    "contextWindow": 40_000,
    "maxOutputTokens": 1_000,
    "systemPromptTokens": 500,
    "toolSchemaTokens": 500,
    "compaction": {"safetyReserveTokens": 500, "keepRecentTokens": 3_000},
}


def growing_session(turns: int = 60):
    items = []
    for t in range(turns):
        items += [u(50, f"goal {t}"), call(f"c{t}"), out(f"c{t}", 1_000), a(30)]
    return session_of(chain(items))


@pytest.mark.parametrize(
    ("name", "params", "output", "threshold", "strict"),
    [
        ("codex", {}, 1_000, 36_000, False),  # floor(0.9 x 40,000)
        ("claude_code", {}, 1_000, 26_000, False),  # 40,000 - 1,000 - 13,000
        ("gemini_cli", {}, 1_000, 20_000, False),  # 0.5 x 40,000
        ("pi", {}, 1_000, 23_616, True),  # > 40,000 - 16,384
        # 40,000 - 4,000 - min(20,000, 4,000) = 32,000 (hard limit 35,500)
        ("opencode", {"prune": False}, 4_000, 32_000, False),
    ],
)
def test_the_first_compaction_is_at_the_first_barrier_past_the_threshold(
    name, params, output, threshold, strict
):
    engine = build_engine_config({**WIDE, "maxOutputTokens": output})
    trace = run(name, growing_session(), engine, **params)
    lines = [x for x in trace.check_lines() if x.get("kind") in ("check", "attempt")]
    first = next(n for n, x in enumerate(lines) if x["kind"] == "attempt")
    past = (lambda v: v > threshold) if strict else (lambda v: v >= threshold)
    assert lines[first]["trigger"] == "auto_threshold"
    assert lines[first]["outcome"] == "completed"
    assert past(lines[first]["tokensBefore"])
    assert not any(past(x["effectiveTokens"]) for x in lines[:first])
    assert lines[first]["softLimit"] == threshold
    assert not any(x["canProceed"] is False for x in lines)


def test_openhands_condenses_when_the_view_passes_max_size():
    engine = build_engine_config(WIDE)
    trace = run("openhands", growing_session(20), engine, max_size=30, keep_first=3)
    attempts = [x for x in trace.check_lines() if x.get("kind") == "attempt"]
    assert attempts and attempts[0]["outcome"] == "completed"
    # a view of 1 + n items passes 30 at n = 30. Turn t is items 4t..4t+3 (user, call,
    # output, answer) and the model is asked before the call and before the answer, so the
    # first request with 30 items before it is the one before item 31 (turn 7's answer).
    # The head would be items 0, 1, but item 1 is a call whose output is item 2: item 0 alone
    # stays pinned.
    assert attempts[0]["entryIndex"] == 31
    assert attempts[0]["pinnedEntryIds"] == ["e0"]
    for line, items in moment_inputs(trace):
        assert 1 + len(items) <= 30 // 2  # system prompt + capsule + head + tail
        assert line["measuredTokensAfter"] == 1_000 + tokens(items)


def test_a_summary_that_keeps_no_tail_still_counts_what_comes_after_it():
    engine = build_engine_config(WIDE)
    trace = run("claude_code", growing_session(), engine)
    moments = moment_inputs(trace)
    assert len(moments) >= 2
    for line, items in moments:
        assert items[0]["role"] == "system"  # the capsule
        assert len(items) == 1  # nothing verbatim right after compacting
        assert line["measuredTokensAfter"] == 1_000 + tokens(items)
    # between two compactions the effective tokens grew by what was appended
    lines = [x for x in trace.check_lines() if x.get("kind") in ("check", "attempt")]
    first = next(n for n, x in enumerate(lines) if x["kind"] == "attempt")
    assert lines[first + 1]["effectiveTokens"] > lines[first]["measuredTokensAfter"]


def test_opencode_prunes_after_a_turn_before_it_summarizes():
    engine = build_engine_config(WIDE)
    trace = run("opencode", growing_session(), engine, prune_minimum=2_000, prune_protect=4_000)
    attempts = [x for x in trace.check_lines() if x.get("kind") == "attempt"]
    first = attempts[0]
    assert first["trigger"] == "turn_complete" and first["outcome"] == "completed"
    assert first["maskedThroughEntryId"] is not None and first["pinnedEntryIds"] == []
    assert not any(x.get("canProceed") is False for x in trace.check_lines())


def test_peer_parameters_are_checked():
    engine = build_engine_config(WIDE)
    with pytest.raises(ConfigError, match="keep_first"):
        run("openhands", growing_session(2), engine, max_size=8, keep_first=3)
    with pytest.raises(ConfigError, match="unknown parameter"):
        run("codex", growing_session(2), engine, keep=3)
    with pytest.raises(ConfigError, match="preserve_fraction"):
        run("gemini_cli", growing_session(2), engine, preserve_fraction=1)
