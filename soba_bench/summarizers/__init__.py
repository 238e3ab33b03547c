"""Summarizers stage: model-backed capsule strategies and the comparison strategies
(no compaction, truncation, observation masking) scored on the same footing as SOBA."""
