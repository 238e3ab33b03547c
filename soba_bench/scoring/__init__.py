"""Scoring replayed sessions: the scorer plug-ins (:mod:`soba_bench.scoring.scorers`, one
module each, registered in :data:`soba_bench.scoring.scorer.SCORERS`), the fixed evaluation
points they share (:mod:`soba_bench.scoring.points`), matching, statistics and tables.

Kept import-free on purpose: ``soba_bench.scoring.stats`` and the matchers are used by
modules that must not load the whole scoring stack."""
