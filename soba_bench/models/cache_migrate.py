"""Upgrade a response cache file to the current schema, keeping its recorded answers usable.

Version 1 stored request bodies as soba-bench sent them before it matched SOBA's wire shape:
``max_completion_tokens`` always, no ``stream``. Version 2 keys on SOBA's body, so a v1 answer
would be a miss. The migration rewrites each stored request the way :func:`build_request`
now builds it for the same settings (``"stream": false``; ``max_tokens`` unless an active
``reasoning_effort`` keeps ``max_completion_tokens``, where SOBA's openai_chat transport also
drops sampling options) and re-keys the row. That is exact for servers that read both token
limits alike (llama.cpp, vLLM): the recorded answer is the answer to the new body too.

    python -m soba_bench.models.cache_migrate SRC.sqlite DST.sqlite

``DST`` may be ``SRC``; it is written whole to a temporary file and renamed into place, so a
failed migration leaves it untouched. A file already at the current version is copied as is.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from soba_bench.models.cache import SCHEMA_VERSION, canonical_json, request_key
from soba_bench.models.client import SAMPLING_KEYS


def v1_request_to_v2(request: dict[str, Any]) -> dict[str, Any]:
    """The body the current client sends for the settings that produced ``request``."""
    body = dict(request)
    body.setdefault("stream", False)
    effort = body.get("reasoning_effort")
    active = effort is not None and effort != "none"
    if active:
        for key in SAMPLING_KEYS:
            body.pop(key, None)
    elif "max_completion_tokens" in body and "max_tokens" not in body:
        body["max_tokens"] = body.pop("max_completion_tokens")
    return body


def migrate(src: str | Path, dst: str | Path) -> dict[str, int]:
    """Write ``src`` upgraded to the current schema to ``dst`` (atomically); counts rows."""
    src, dst = Path(src), Path(dst)
    if not src.is_file():
        raise FileNotFoundError(f"response cache {src} does not exist")
    fd, tmp_name = tempfile.mkstemp(prefix=dst.name + ".", suffix=".tmp", dir=dst.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        os.chmod(tmp, (dst if dst.exists() else src).stat().st_mode & 0o777)
        source = sqlite3.connect(f"{src.resolve().as_uri()}?mode=ro", uri=True)
        target = sqlite3.connect(tmp)
        try:
            source.backup(target)
            counts = _upgrade(target)
            target.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            target.execute("VACUUM")  # no pages left over from the rewritten rows
        finally:
            source.close()
            target.close()
        os.replace(tmp, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return counts


def _upgrade(conn: sqlite3.Connection) -> dict[str, int]:
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    version = None if row is None else row[0]
    counts = {"rows": 0, "rekeyed": 0, "duplicates": 0}
    if version == str(SCHEMA_VERSION):
        counts["rows"] = conn.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
        return counts
    if version != "1":
        raise ValueError(f"cannot migrate schema version {version}; this reads 1")
    with conn:
        rows = conn.execute("SELECT rowid, key, model, request FROM responses ORDER BY rowid")
        seen: set[str] = set()
        for rowid, key, model, stored in rows.fetchall():
            counts["rows"] += 1
            request = v1_request_to_v2(json.loads(stored))
            new_key = request_key(model, request)
            if new_key in seen:  # two v1 bodies that SOBA's wire makes one: first one wins
                conn.execute("DELETE FROM responses WHERE rowid = ?", (rowid,))
                counts["duplicates"] += 1
                continue
            seen.add(new_key)
            counts["rekeyed"] += new_key != key
            conn.execute(
                "UPDATE responses SET key = ?, request = ? WHERE rowid = ?",
                (new_key, canonical_json(request), rowid),
            )
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),)
        )
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m soba_bench.models.cache_migrate",
        description="Upgrade a soba-bench response cache to the current schema.",
    )
    parser.add_argument("src", help="the cache file to read")
    parser.add_argument("dst", help="where to write the upgraded file (may be SRC)")
    args = parser.parse_args(argv)
    try:
        counts = migrate(args.src, args.dst)
    except (OSError, ValueError, sqlite3.DatabaseError) as exc:
        print(f"error: {args.src}: {exc}", file=sys.stderr)
        return 2
    print(
        f"{args.dst}: schema version {SCHEMA_VERSION}, {counts['rows']} answers, "
        f"{counts['rekeyed']} re-keyed, {counts['duplicates']} duplicates dropped"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
