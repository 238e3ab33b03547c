"""Session stage: the SOBA transcript model, JSONL read/write, branch/leaf, model input."""

from soba_bench.session.entries import Entry
from soba_bench.session.jsonl import read_session, write_session
from soba_bench.session.model import LineIssue, Session

__all__ = ["Entry", "LineIssue", "Session", "read_session", "write_session"]
