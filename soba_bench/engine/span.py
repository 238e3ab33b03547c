"""The compaction span, digested as it grows (issue 18: linear replay of failing sessions).

Once SOBA's compaction starts failing (for example when its blocker list is saturated), every
barrier runs a new attempt over the span from the window start to the cut point, and that span
only grows at its end. Re-reading it each time makes a long replay quadratic. A
:class:`SpanDigest` reads each item once, when it joins the span, and keeps what the
deterministic strategy and the validator derive from it (checkpoint facts, completions,
decisions, next steps, blockers, the goal, the artifact ledger, answered clarifications,
failed verification, tool call ids). An attempt then combines these in time that does not
depend on the span's length. The answers are the same as the straightforward per-span
functions in ``strategies/deterministic.py`` and ``validator.py``, which stay the reference
path (``ContextManager.incremental_spans = False`` uses them; property tests compare both).

Bounded lists are kept bounded: only the first ``LIST_CAP`` distinct item completions and
decisions can ever reach a capsule (checkpoint values come first and the result is capped), and
the newest failures or next-step messages are kept in recency order so the newest few are read
from the end.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any

from soba_bench.engine.artifacts import ArtifactScan, parse_arguments, parse_checkpoint_facts
from soba_bench.engine.capsule_memo import CapsuleMemo
from soba_bench.engine.failures import tool_failure_output
from soba_bench.engine.reducer import ClarificationScan, Lexicon, is_superseded_wait
from soba_bench.engine.strategies.deterministic import (
    LIST_CAP,
    _contains_any,
    _summarize,
    _text_blocks,
)
from soba_bench.engine.validator import (
    call_ids,
    compacted_call_kept_output,
    kept_call_compacted_output,
)
from soba_bench.jscompat import js_join, js_slice, js_trim
from soba_bench.session import entries as E

_NEWEST_BLOCKERS = 5  # the deterministic strategy's blockers per span
_SOURCE_BLOCKERS = 3  # the validator's lost_blocker check
_NEXT_STEPS_FROM_ITEMS = 5
_LEXICON = Lexicon()


class SpanDigest:
    """What one compaction span yields, for the items of ``branch.entries[start:end]``.

    ``extend_to(stop)`` feeds the entries that joined the span. If an item makes an
    extraction throw (malformed input SOBA would stumble on), the digest is marked ``broken``
    and the engine falls back to the reference path, which throws at the same place.
    """

    def __init__(
        self, branch: Any, start: int, capsule_index: int, *, memoize: bool = False
    ) -> None:
        self.branch = branch
        self.start = start
        self.end = start
        self.capsule_index = capsule_index
        self.broken = False
        self.ids: list[Any] = []
        self.items: list[dict[str, Any]] = []
        self.artifacts = ArtifactScan()
        self.clarifications = ClarificationScan()
        self.goal: str | None = None
        self.failed_verification = False
        # checkpoint facts, deduplicated as the per-span functions push them
        self._cp_completed: dict[str, None] = {}
        self._cp_pending: dict[str, None] = {}
        self._cp_steps: dict[str, None] = {}
        self._cp_decisions: dict[str, str] = {}  # decision text -> rationale
        # assistant text facts: the first LIST_CAP distinct ones are all a capsule can use
        self._item_completed: dict[str, None] = {}
        self._item_decisions: dict[str, None] = {}
        # recency-ordered: a value moves to the end each time it shows up again
        self._steps_recent: dict[str, int] = {}  # next-step text -> newest message number
        self._failures_recent: dict[str, None] = {}  # failure text (200 units)
        self._source_failures: deque[str] = deque(maxlen=_SOURCE_BLOCKERS)  # 100 units
        self._calls: dict[Any, tuple[int, Any]] = {}  # call id -> (first position, as seen)
        self._outputs: dict[Any, None] = {}
        self._messages = 0
        self._superseded: dict[str, bool] = {}
        self._superseded_facts = 0
        # the engine's SplitIndex of the window this span starts (set per attempt): when it
        # says the cut splits no call from its output, the boundary check has no finding
        self.split_index: Any = None
        # the deterministic capsule between attempts (engine/capsule_memo.py), when asked
        self.memo = CapsuleMemo(self) if memoize else None

    def matches(self, branch: Any, start: int, stop: int) -> bool:
        """Whether this digest can grow into the span ``entries[start:stop]``."""
        return (
            self.branch is branch
            and self.start == start
            and self.capsule_index == branch.last_capsule_index
            and self.end <= stop
        )

    def extend_to(self, stop: int) -> None:
        entries = self.branch.entries
        for index in range(self.end, stop):
            entry = entries[index]
            item = entry.item
            if item is None:
                continue
            self.ids.append(entry.id)
            self.items.append(item)
            if not self.broken:
                try:
                    self._feed(item)
                except Exception:  # the reference path reproduces the failure itself
                    self.broken = True
        self.end = stop

    # ── reading one item ────────────────────────────────────────────────────────
    def _feed(self, item: dict[str, Any]) -> None:
        self.artifacts.feed(item)
        self.clarifications.feed(item)
        kind = item.get("type")
        if kind == "function_call" and item.get("name") == "checkpoint":
            self._feed_checkpoint(item)
        if kind == "message":
            role = item.get("role")
            if role == "assistant":
                self._feed_assistant(item)
            elif role == "user":
                self._feed_user(item)
        failure = tool_failure_output(item)
        if failure:  # str | None, so JS and Python truthiness agree
            key = js_slice(failure, 0, 200)
            self._failures_recent.pop(key, None)
            self._failures_recent[key] = None
            self._source_failures.append(js_slice(failure, 0, 100))
        if kind == E.LOCAL_SHELL_CALL_OUTPUT and "exit_code" in item:
            code = item["exit_code"]
            if not (code == 0 and code is not False):
                self.failed_verification = True
        if kind in E.CALL_TYPES:
            call_id = item.get("call_id")
            if call_id not in self._calls:
                self._calls[call_id] = (len(self._calls), call_id)
        elif kind in E.OUTPUT_TYPES:
            self._outputs.setdefault(item.get("call_id"), None)

    def _feed_checkpoint(self, item: dict[str, Any]) -> None:
        try:
            facts = parse_checkpoint_facts(parse_arguments(item.get("arguments")))
        except (ValueError, RecursionError):
            return
        if facts is None:
            return
        for value in facts["completed"]:
            self._cp_completed.setdefault(value, None)
        for value in facts["pending"]:
            self._cp_pending.setdefault(value, None)
        if facts["nextDirection"]:
            self._cp_steps.setdefault(facts["nextDirection"], None)
        for value in facts["pending"]:
            self._cp_steps.setdefault(value, None)
        if facts["kind"] == "plan_pivot":
            text = f"Plan pivot: {facts['nextDirection'] or facts['reason']}"
            self._cp_decisions.setdefault(text, facts["reason"])

    def _feed_assistant(self, item: dict[str, Any]) -> None:
        self._messages += 1
        final = item.get("phase") == "final_answer"
        steps: dict[str, None] = {}
        for text in _text_blocks(item):
            if len(self._item_completed) < LIST_CAP:
                if final:
                    summary = _summarize(text, 400)
                    if summary:
                        self._item_completed.setdefault(summary, None)
                elif _contains_any(text, ("completed", "done", "finished")):
                    self._item_completed.setdefault(js_slice(text, 0, 200), None)
            if len(self._item_decisions) < LIST_CAP and _contains_any(
                text, ("decided", "decision", "chose")
            ):
                self._item_decisions.setdefault(js_slice(text, 0, 200), None)
            if _contains_any(text, ("next", "todo", "pending")):
                steps.setdefault(js_slice(text, 0, 200), None)
        for step in steps:
            self._steps_recent.pop(step, None)
            self._steps_recent[step] = self._messages

    def _feed_user(self, item: dict[str, Any]) -> None:
        content = item.get("content")
        if isinstance(content, list):
            text = js_join(
                (b["text"] for b in content if isinstance(b, dict) and "text" in b), "\n"
            )
            if js_trim(text):
                self.goal = js_slice(text, 0, 500)

    # ── answers, as the per-span functions give them ────────────────────────────
    def completed(self) -> list[str]:
        out = list(islice(self._cp_completed, LIST_CAP))
        for value in self._item_completed:
            if len(out) >= LIST_CAP:
                break
            if value not in self._cp_completed:
                out.append(value)
        return out

    def pending(self) -> list[str]:
        return list(islice(self._cp_pending, LIST_CAP))

    def decisions(self) -> list[dict[str, Any]]:
        out = [
            {"decision": text, "rationale": rationale}
            for text, rationale in islice(self._cp_decisions.items(), LIST_CAP)
        ]
        for text in self._item_decisions:
            if len(out) >= LIST_CAP:
                break
            if text not in self._cp_decisions:
                out.append({"decision": text})
        return out

    def next_steps(self) -> list[str]:
        steps = list(self._cp_steps)
        present = dict(self._cp_steps)
        for group in self._newest_step_messages():
            if len(steps) >= _NEXT_STEPS_FROM_ITEMS:
                break
            for text in group:
                if text not in present:
                    present[text] = None
                    steps.append(text)
        return steps

    def _newest_step_messages(self) -> Iterator[list[str]]:
        """Each message's next-step texts (those no newer message repeats), newest first."""
        group: list[str] = []
        current = None
        for text, message in reversed(self._steps_recent.items()):
            if message != current and group:
                yield group[::-1]
                group = []
            current = message
            group.append(text)
        if group:
            yield group[::-1]

    def blockers(self) -> list[str]:
        return list(islice(reversed(self._failures_recent), _NEWEST_BLOCKERS))

    def source_blockers(self) -> list[str]:
        return list(reversed(self._source_failures))

    def superseded(self, value: str) -> bool:
        """:func:`is_superseded_wait` against this span's answered clarifications (default
        lexicon), remembered until a new clarification joins: a failing compaction asks
        about the same few state values at every barrier."""
        facts = self.clarifications.facts
        if not isinstance(value, str):  # SOBA throws on these; let the reference throw too
            return is_superseded_wait(value, facts, _LEXICON)
        if self._superseded_facts != len(facts):
            self._superseded_facts = len(facts)
            self._superseded.clear()
        answer = self._superseded.get(value)
        if answer is None:
            answer = self._superseded[value] = is_superseded_wait(value, facts, _LEXICON)
        return answer

    def tool_call_boundary(self, kept: Sequence[dict[str, Any]]) -> str | None:
        """The validator's boundary finding for this span and the ``kept`` items after it
        (the rest of the window)."""
        index = self.split_index
        if (
            index is not None
            and index.plain_ids  # else raw-id matching (True == 1) may pair differently
            and index.low == self.start
            and not index.splits(self.end)
        ):
            return None
        kept_calls, kept_outputs = call_ids(kept, E.CALL_TYPES), call_ids(kept, E.OUTPUT_TYPES)
        found = [self._calls[c] for c in kept_outputs if c in self._calls]
        if found:
            return compacted_call_kept_output(min(found, key=lambda f: f[0])[1])
        for call_id in kept_calls:
            if call_id in self._outputs:
                return kept_call_compacted_output(call_id)
        return None
