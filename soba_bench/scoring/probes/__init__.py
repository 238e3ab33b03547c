"""Probe evaluation of compaction: questions from the ground truth (recall, artifact,
continuation, decision), answered from the post-compaction input only, graded exactly or by a
judge. ``extractive`` + ``lexical`` need no model; ``model``/``local`` go through the response
cache and replay offline."""

from soba_bench.scoring.probes.answerers import ANSWERERS, Answer
from soba_bench.scoring.probes.config import DEFAULT_PROBES, ProbeConfig
from soba_bench.scoring.probes.judges import JUDGES, Grade, grade_exact, parse_verdict
from soba_bench.scoring.probes.questions import PROBE_TYPES, Probe, generate_probes
from soba_bench.scoring.probes.render import render_input
from soba_bench.scoring.probes.scorer import (
    PROBE_METRICS,
    PROBE_VIEW,
    Prober,
    get_prober,
    score_moment,
    strategy_inputs,
)
from soba_bench.scoring.probes.tables import probe_corpus_table, probe_session_table

__all__ = [
    "ANSWERERS",
    "DEFAULT_PROBES",
    "JUDGES",
    "PROBE_METRICS",
    "PROBE_TYPES",
    "PROBE_VIEW",
    "Answer",
    "Grade",
    "Probe",
    "ProbeConfig",
    "Prober",
    "generate_probes",
    "get_prober",
    "grade_exact",
    "parse_verdict",
    "probe_corpus_table",
    "probe_session_table",
    "render_input",
    "score_moment",
    "strategy_inputs",
]
