"""Scoring the sessions of a run folder: read what the run stored, score, write the tables.
Used by ``soba-bench run`` (right after replaying) and ``soba-bench score`` (re-scoring stored
capsules with new scorers: no replay, no model call)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from soba_bench.corpora.truth import GroundTruth, read_truth, truth_path
from soba_bench.jsonio import read_jsonl
from soba_bench.runs.layout import RunLayout, write_json, write_jsonl
from soba_bench.runs.record import ScoredTables
from soba_bench.scoring import embeddings
from soba_bench.scoring.aggregate import (
    availability_summary,
    corpus_table,
    findings_table,
    outcome_totals,
    session_table,
)
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.probes import probe_corpus_table, probe_session_table
from soba_bench.scoring.scorer import SCORES_REVISION
from soba_bench.scoring.session import ScoreConfig, SessionScores, score_replay
from soba_bench.session import read_session


def truth_for(session_file: Path) -> GroundTruth | None:
    path = truth_path(session_file)
    return read_truth(path) if path.is_file() else None


def write_scores(
    layout: RunLayout,
    all_scores: list[SessionScores],
    seed: int = 0,
    scores_dir: Path | None = None,
    *,
    config: ScoreConfig,
) -> dict[str, Any]:
    """Write every score table, then the list of scorers they hold with each table's
    sha256, the matcher that judged them and its models and the scorers' revision; return
    the corpus-level summary for the run record."""
    tables: dict[str, list[dict[str, Any]]] = {
        t: [] for t in ("rows", "summaries", "quality", "findings", "drift", "sessions")
    }
    tables.update(probes=[], probe_moments=[], points=[], availability=[], outcomes=[])
    probe_sessions: list[dict[str, Any]] = []
    for scores in all_scores:
        tables["rows"] += scores.rows
        tables["summaries"] += scores.summaries
        tables["quality"] += scores.quality
        tables["findings"] += scores.findings
        tables["drift"] += [{"session": scores.session, **d} for d in scores.drift]
        tables["sessions"] += session_table(scores)
        tables["probes"] += scores.probes
        tables["probe_moments"] += scores.probe_moments
        tables["points"] += scores.points
        tables["availability"] += scores.availability
        tables["outcomes"] += scores.outcomes
        probe_sessions += probe_session_table(scores.session, scores.probe_moments)
    # Probe rows are averaged apart: their metrics are not retention's.
    corpus = corpus_table(tables["sessions"], seed=seed)
    probes = probe_corpus_table(probe_sessions, seed=seed)
    tables["sessions"] += probe_sessions
    digests = {}
    for name, rows in {**tables, "corpus": corpus + probes}.items():
        path = layout.scores(name, scores_dir)
        digests[path.name] = write_jsonl(path, rows)
    findings = findings_table(all_scores)
    scored = ScoredTables(
        layout.scored(scores_dir),
        tuple(config.scorers),
        tuple(findings),
        digests,
        config.match.prose_matcher,
        get_matcher(config.match.prose_matcher).models,
        SCORES_REVISION,
    )
    write_json(scored.path, scored.to_json())
    return {
        "availability": availability_summary(tables["availability"], seed=seed),
        "outcomes": outcome_totals(tables["outcomes"]),
        "corpus": corpus,
        "probes": probes,
        "findings": findings,
        "scoredSessions": len(all_scores),
        "withTruth": sum(1 for s in all_scores if s.summaries or s.quality),
    }


def score_run(
    run_dir: Path, config: ScoreConfig | None = None, scores_dir: Path | None = None
) -> dict[str, Any]:
    """Re-score a run folder from its stored replays and barrier logs."""
    layout = RunLayout(Path(run_dir))
    record = layout.read_record()
    # The store the run itself filled, if it is still there (a copied run folder's may not
    # be): its lines are embedded already.
    stored = (record.resolved_config.get("cache") or {}).get("embeddings")
    embeddings.use_store(stored if isinstance(stored, str) and Path(stored).is_file() else None)
    all_scores = []
    for row in layout.read_sessions():
        name = row.session
        replayed = read_session(layout.replay(name)).active_branch
        barriers = read_jsonl(layout.barriers(name), "barrier log")
        source = row.source
        truth = truth_for(source) if source is not None else None
        all_scores.append(score_replay(name, replayed, truth, config, barriers))
    embeddings.flush_store()
    return write_scores(
        layout, all_scores, record.seed or 0, scores_dir, config=config or ScoreConfig()
    )
