"""The matcher calibration set (README.md here)."""

# The blind splits, oldest first: each written by a helper session that never read the
# matcher, committed before any matcher ran on it (README.md, "Splits"). A new split is
# added here, and its pins in the matcher tests.
BLIND_SPLITS = (
    "fresh4",
    "fresh5",
    "fresh6",
    "fresh7",
    "fresh8",
    "fresh9",
    "fresh10",
    "fresh11",
    "fresh12",
    "fresh13",
    "fresh14",
    "fresh15",
)
