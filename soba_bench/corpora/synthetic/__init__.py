"""Synthetic long SOBA sessions with ground truth: planted goals, constraints, decisions,
blockers, files, verification runs, clarifications, checkpoints and skills, plus noise
(huge outputs, distractors, secrets, prompt injections), in SOBA's session format.

``generate_session(config, seed, index) -> (Session, GroundTruth)`` and
``generate_corpus(out, config, seed=..., sessions=...)`` are the public entry points.
"""

from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.corpora.synthetic.generate import generate_corpus, generate_session

__all__ = ["SyntheticConfig", "generate_corpus", "generate_session"]
