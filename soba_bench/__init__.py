"""soba-bench: evaluate and benchmark context-compaction strategies of LLM agents.

The pipeline, one subpackage per stage (data flows top to bottom):

``corpora`` -> ``session`` -> ``meter`` -> ``engine`` -> ``replay`` -> ``scoring`` ->
``sweep`` -> ``reports``.

Core stages (session, meter, engine, replay) import neither pandas, matplotlib nor Hydra.
"""

__version__ = "0.1.0"

SOBA_VERSION = "0.6.14"
