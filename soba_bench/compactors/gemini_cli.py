"""``gemini_cli``: Gemini CLI's chat compression, replayed on SOBA's walk.

Source read: ``google-gemini/gemini-cli``,
``packages/core/src/services/chatCompressionService.ts``
(``DEFAULT_COMPRESSION_TOKEN_THRESHOLD = 0.5``, ``COMPRESSION_PRESERVE_THRESHOLD = 0.3``,
``findCompressSplitPoint``, the ``<state_snapshot>`` prompt anchored on the previous
snapshot).

* Trigger: effective tokens >= floor(``compression_threshold`` (0.5) x ``contextWindow``)
  (Gemini compares the last prompt's token count with the threshold times the model's
  token limit).
* Cut: Gemini's split point on characters: walking the history (the previous snapshot
  first, then the items since), the first user message (not a tool output) at which the
  characters before it reach (1 - ``preserve_fraction``) = 70 % of the total; if there is
  none, everything is compressed when the last item is a model message that is not a tool
  call, else the last such user message splits. Characters are each item's JSON length.
  Everything before the split is summarized, everything from it is kept verbatim; a split
  that would part a tool call from its output falls back to the nearest earlier user
  message that does not.
* Summary: the job's summarizer slot, rolling over the previous capsule (the snapshot
  prompt integrates the previous ``<state_snapshot>``). Not replayed: the second
  "verification" summarization call, the 50,000-token budget that truncates old tool
  outputs before splitting, and the short model acknowledgement after the snapshot.
"""

from __future__ import annotations

import math
from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.compactors.peer import (
    PeerCompactor,
    PeerCut,
    crosses,
    is_user_message,
    item_chars,
    peer_branch,
    ratio_param,
    replay_peer,
)
from soba_bench.compactors.rival import compactor_params
from soba_bench.compactors.rival_branch import entry_items
from soba_bench.engine.manager import ContextManager
from soba_bench.engine.outcome import CompactionPlan
from soba_bench.errors import ConfigError
from soba_bench.session import entries as E
from soba_bench.session.capsule_text import capsule_text
from soba_bench.session.model import Session

NAME = "gemini_cli"
DEFAULTS: dict[str, Any] = {"compression_threshold": 0.5, "preserve_fraction": 0.3}


def split_point(chars: list[int], splittable: list[bool], fraction: float, last_is_answer: bool):
    """Gemini's ``findCompressSplitPoint`` on precomputed sizes: the index of the first
    content to keep (``len(chars)`` = compress everything)."""
    target = sum(chars) * fraction
    last_split = 0
    cumulative = 0
    for index, size in enumerate(chars):
        if splittable[index]:
            if cumulative >= target:
                return index
            last_split = index
        cumulative += size
    return len(chars) if last_is_answer else last_split


class GeminiCli(PeerCompactor):
    name = NAME

    def __init__(self, threshold: float, preserve: float) -> None:
        self.threshold = threshold
        self.preserve = preserve

    def threshold_tokens(self, hard: float) -> float:
        return self.threshold

    def describe(self) -> str:
        return f"compression threshold {self.threshold:g}"

    def cut(self, manager: ContextManager, plan: CompactionPlan) -> PeerCut | str:
        branch = peer_branch(manager)
        end = len(branch)
        start = branch.effective_window_start()
        window = branch.item_indexes(start)
        if not window:
            return "gemini_cli: no history since the last snapshot"
        items = entry_items([branch.entries[i] for i in window])  # window: item entries only
        chars = [item_chars(i) for i in items]
        splittable = [is_user_message(i) for i in items]
        offset = 0
        if branch.last_capsule is not None:  # the previous snapshot, a user content
            chars.insert(0, len(capsule_text(branch.last_capsule.data)))
            splittable.insert(0, True)
            offset = 1
        last = items[-1]
        last_is_answer = last.get("type") == E.MESSAGE and last.get("role") == "assistant"
        split = split_point(chars, splittable, 1 - self.preserve, last_is_answer) - offset
        if split >= len(window):
            return PeerCut(kept_from=end, summarized=window)
        # Positions of user messages at or before the split, latest first, that part no pair.
        for position in range(split, 0, -1):
            if splittable[position + offset] and not crosses(branch, start, window[position], end):
                return PeerCut(kept_from=window[position], summarized=window[:position])
        return "gemini_cli: no split point before the preserved history"


@COMPACTORS.register(NAME)
def gemini_cli(session: Session, ctx: CompactorContext) -> SessionRun:
    params = compactor_params(NAME, ctx.params, DEFAULTS)
    ratio = ratio_param(NAME, params, "compression_threshold")
    preserve = ratio_param(NAME, params, "preserve_fraction")
    if preserve >= 1:
        raise ConfigError(
            f"strategy {NAME!r}: strategy.params.preserve_fraction must be below 1 (a split "
            f"needs something to compress), got {preserve!r}"
        )
    threshold = math.floor(ctx.engine.contextWindow * ratio)
    return replay_peer(session, ctx, GeminiCli(threshold, preserve), NAME, params)
