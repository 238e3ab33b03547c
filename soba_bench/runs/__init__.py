"""Run folders: their layout, the typed and versioned records in them (``run.json``,
``sessions.jsonl``, ``reused.json``) and a safe reader for their Parquet tables (JSON and
JSONL files are read with :mod:`soba_bench.jsonio`). Sits below both the
writers (``sweep``) and the readers (``scoring``, ``reports``, ``tune``), so neither imports
the other for it."""

from soba_bench.runs.files import read_parquet
from soba_bench.runs.find import FoundRecord, find_records
from soba_bench.runs.layout import (
    GZIP_LEVEL,
    OUTPUTS,
    SCORE_TABLES,
    RunLayout,
    write_json,
    write_jsonl,
)
from soba_bench.runs.record import (
    RECORD_SCHEMA_VERSION,
    CorpusRef,
    JobInfo,
    ReusedPointer,
    RunRecord,
    SessionRow,
    load_record,
    load_sessions,
)

__all__ = [
    "GZIP_LEVEL",
    "OUTPUTS",
    "RECORD_SCHEMA_VERSION",
    "SCORE_TABLES",
    "CorpusRef",
    "FoundRecord",
    "JobInfo",
    "ReusedPointer",
    "RunLayout",
    "RunRecord",
    "SessionRow",
    "find_records",
    "load_record",
    "load_sessions",
    "read_parquet",
    "write_json",
    "write_jsonl",
]
