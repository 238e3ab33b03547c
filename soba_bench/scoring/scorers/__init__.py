"""The built-in scorers, one module each; importing this package registers them in
:data:`soba_bench.scoring.scorer.SCORERS`."""

from soba_bench.scoring.scorers import (  # noqa: F401
    availability,
    failure_modes,
    outcomes,
    probes,
    retention,
    soba_quality,
)
