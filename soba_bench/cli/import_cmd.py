"""Import sessions from another agent's format into a SOBA corpus folder.

FORMAT is one of the registered importers (claude-code, codex, swe-agent, openhands, aider,
openai-messages, text-tools, hf). SRC is a file, a folder (searched recursively for that format's
files) or, for hf, a dataset name or local parquet/json files. Writes <name>.jsonl (SOBA
session JSONL), <name>.truth.json (ground truth derived mechanically) per session and a
manifest.json into --out, and prints a loss report per session (source records by kind ->
entries written, what was skipped and why). Nothing is written unless the whole import
succeeds: a bad record, a record whose user message or tool call cannot be converted, or a
session that would be empty fails with exit status 2 naming the file, line and record kind;
--lenient skips bad records instead (counted in each sidecar's origin and in the report).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from soba_bench.corpora.importers import IMPORTERS, ImportOptions, import_source
from soba_bench.corpora.importers.base import TOOL_NAMES
from soba_bench.corpora.importers.hf import HF_MAPPINGS
from soba_bench.corpora.importers.writer import write_corpus
from soba_bench.errors import InputError


def _column(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key or not value:
        raise argparse.ArgumentTypeError(f"expected KEY=COLUMN, got {text!r}")
    return key, value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("format", metavar="FORMAT", help=f"one of {', '.join(IMPORTERS)}")
    parser.add_argument("src", metavar="SRC", help="source file, folder, or (hf) dataset")
    parser.add_argument("--out", type=Path, required=True, help="output corpus folder")
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="skip bad records (counted in the sidecars) instead of failing",
    )
    parser.add_argument(
        "--max-output-chars",
        type=int,
        metavar="N",
        help="cut tool outputs longer than N characters (counted in the sidecars); "
        "default: keep everything",
    )
    parser.add_argument(
        "--tool-names",
        choices=TOOL_NAMES,
        default="soba",
        help="soba (default): write a call that is one of SOBA's tools (a file read, one "
        "file's edit, a shell command) as that tool, so SOBA's engine lists its files and "
        "checks in a capsule's artifacts; source: keep the source's tool names and arguments",
    )
    hf = parser.add_argument_group("hf options")
    hf.add_argument("--mapping", help=f"column mapping ({', '.join(HF_MAPPINGS)})")
    hf.add_argument(
        "--column",
        action="append",
        type=_column,
        default=[],
        metavar="KEY=COLUMN",
        help="override a mapping key: messages, id, role, content",
    )
    hf.add_argument("--split", default="train", help="dataset split (default train)")
    hf.add_argument("--limit", type=int, metavar="N", help="import at most N rows")


def loss_lines(origin: dict) -> list[str]:
    """The loss report of one session: per source record kind, records read -> entries
    written, then what was skipped and why; what a lenient import lost, if anything."""
    out = []
    for kind, tally in origin.get("loss", {}).items():
        line = f"{kind}: {tally['records']} records -> {tally['entries']} entries"
        if tally["skipped"]:
            line += " (skipped: " + ", ".join(f"{r} x{n}" for r, n in tally["skipped"].items())
            line += ")"
        out.append(line)
    renamed = origin.get("toolNames") or {}
    if renamed:
        out.append("as SOBA's tools: " + ", ".join(f"{r} x{n}" for r, n in renamed.items()))
    lost = origin.get("lost") or {}
    if lost:
        out.append("LOST (lenient): " + ", ".join(f"{n} {what}" for what, n in lost.items()))
    return out


def run(args: argparse.Namespace) -> int:
    IMPORTERS.get(args.format)  # unknown names fail here, listing the valid ones
    if args.out.exists() and not args.out.is_dir():
        raise InputError("output is not a folder", path=str(args.out), expected="a folder")
    options = ImportOptions(
        lenient=args.lenient,
        max_output_chars=args.max_output_chars,
        tool_names=args.tool_names,
        hf_mapping=args.mapping,
        hf_columns=tuple(args.column),
        hf_split=args.split,
        hf_limit=args.limit,
    )
    result = import_source(args.format, args.src, options)
    corpus = write_corpus(result, args.out)
    print(f"soba-bench import: {args.format} -> {corpus.root} ({len(corpus.sessions)} sessions)")
    width = max(len(w.name) for w in corpus.sessions)
    for w in corpus.sessions:
        origin = w.session.origin
        skipped = origin.get("issues", {}).get("skipped", 0)
        print(
            f"  {w.name:<{width}}  {origin['items']:>6} items  {len(w.session.facts):>4} facts  "
            f"{origin['flightRecords']:>4} usage  {len(w.session.compactions):>3} compactions"
            + (f"  {skipped} bad records skipped" if skipped else "")
        )
        for line in loss_lines(origin):
            print(f"      {line}")
    for message in result.skipped_files:
        print(f"  skipped file: {message}")
    print(f"manifest: {corpus.root / 'manifest.json'}")
    return 0
