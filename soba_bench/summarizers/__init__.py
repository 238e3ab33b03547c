"""Summarizers stage: what writes the capsule (SOBA's deterministic strategy, model-backed
strategies with their prompts; the model client, cache and latency models they use live in
:mod:`soba_bench.models`) and the comparison strategies scored on the same footing as SOBA
(no compaction, truncation, observation masking).

One registry, ``SUMMARIZERS``: a name -> a factory returning a :class:`SummarizerSpec`, i.e.
the engine's strategy chain plus what a run record must say about it (prompt id, clock).
"""

from soba_bench.summarizers.registry import SUMMARIZERS, SummarizerSpec, build_summarizer

__all__ = ["SUMMARIZERS", "SummarizerSpec", "build_summarizer"]
