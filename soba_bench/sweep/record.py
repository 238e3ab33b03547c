"""Self-describing run records: every run says what produced it (resolved config, package
version, git revision, corpus name and manifest hash, strategy, seed, status, timings).
Reports read these records, never file names."""

from __future__ import annotations

import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from soba_bench import SOBA_VERSION, __version__
from soba_bench.runs.record import RECORD_SCHEMA_VERSION  # the readers check it


def git_revision(path: Path | None = None) -> str | None:
    """The checkout's HEAD commit (with ``-dirty`` when it has changes), or None."""
    cwd = path or Path(__file__).resolve().parent
    try:
        rev = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, timeout=5
        )
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=5,
        )
        return rev.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def base_record(run_id: str, **fields: Any) -> dict[str, Any]:
    """The provenance fields every run.json starts with (read back as RunRecord)."""
    return {
        "schemaVersion": RECORD_SCHEMA_VERSION,
        "runId": run_id,
        "createdAt": datetime.now(UTC).isoformat(timespec="seconds"),
        "package": {"name": "soba-bench", "version": __version__, "sobaVersion": SOBA_VERSION},
        "gitRevision": git_revision(),
        "python": platform.python_version(),
        **fields,
    }
