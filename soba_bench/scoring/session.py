"""Scoring one replayed session: a loop over the configured scorers (each one module under
:mod:`soba_bench.scoring.scorers`), sharing one :class:`ScoreContext` so the evaluation
points and the capsule moments are built once. Nothing here replays or calls a model: stored
capsules and barrier logs are re-scored as they are."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from soba_bench.corpora.truth import GroundTruth
from soba_bench.gc_pause import frozen_heap
from soba_bench.scoring import scorers as _builtins  # noqa: F401  (registers the scorers)
from soba_bench.scoring.scorer import (
    FINAL,
    SCORERS,
    SOBA,
    ScoreConfig,
    ScoreContext,
    Scorer,
    SessionScores,
)
from soba_bench.session.entries import Entry

__all__ = [
    "FINAL",
    "SCORERS",
    "SOBA",
    "ScoreConfig",
    "ScoreContext",
    "Scorer",
    "SessionScores",
    "score_replay",
]


def score_replay(
    session_name: str,
    replayed: Sequence[Entry],
    truth: GroundTruth | None,
    config: ScoreConfig | None = None,
    barriers: Sequence[Any] = (),
) -> SessionScores:
    """Scores for one replay. ``replayed`` is the replayed branch (original entries with their
    ids plus the engine's capsules: ``trace.entries`` or a written replay session);
    ``barriers`` its barrier log (config, check and attempt lines, or the trace's records):
    the evaluation points are its requests.

    A rival strategy's replay (its log's config line names ``replayStrategy``) is scored on
    its own model input under its own name; the comparison view of the same name is left out
    (the replayed strategy stands in for it). Scorers that need a ground truth are skipped
    for a session without one."""
    config = config or ScoreConfig()
    # The replay, its session and a worker's caches are alive before scoring starts and
    # outlive it: collections that walked them again and again were about a sixth of a sweep
    # job's scoring (issue 18). What scoring allocates is still collected.
    with frozen_heap():
        ctx = ScoreContext(session_name, replayed, truth, config, barriers)
        moments, capsules = ctx.moment_counts()
        out = SessionScores(session_name, moments=moments, capsules=capsules)
        for name in config.scorers:
            scorer = SCORERS.get(name)
            if scorer.needs_truth and truth is None:
                continue
            scorer().score(ctx, out)
    return out
