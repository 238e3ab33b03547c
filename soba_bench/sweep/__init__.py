"""Sweep stage: run records and the results store (the Hydra app builds on these)."""
