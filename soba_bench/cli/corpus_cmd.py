"""Corpus folders: generate synthetic sessions with ground truth, list corpora, inspect one.

  soba-bench corpus generate --seed N --sessions K --entries M --out DIR [--name NAME]
                             [--force] [--vary KEY=LO:HI ...] [KEY=VALUE ...]
  soba-bench corpus list [DIR ...] [--json]
  soba-bench corpus inspect DIR [--json]

generate writes K sessions as DIR/sessions/<name>.jsonl.gz with <name>.truth.json ground-truth
sidecars and a DIR/manifest.json; the same seed, count and parameters give byte-identical
files. KEY=VALUE sets a synthetic generator parameter by its field name (entries_spread=0.5,
decisions_per_1k=8, flight_records=false; all of them with their defaults are in
configs/corpus/synthetic-small.yaml); --entries wins over entries=. --vary KEY=LO:HI draws a
numeric parameter per session from a range (seeded by the corpus seed and session index), so
one corpus covers an axis (configs/corpus/synthetic-gate.yaml). list shows the corpora
under corpora/ (or the folders given). inspect verifies every session's sha256 against the
manifest, shows sizes and counts ground-truth facts by kind; it exits 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from soba_bench.corpora.manifest import MANIFEST_NAME, load_corpus, sha256_file
from soba_bench.corpora.synthetic.config import config_from_dict, parse_overrides
from soba_bench.corpora.synthetic.generate import generate_corpus, parse_vary
from soba_bench.corpora.truth import FACT_KINDS, STATUSES, read_truth, truth_path
from soba_bench.errors import InputError
from soba_bench.session import read_session

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPORA = REPO_ROOT / "corpora"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    gen = actions.add_parser("generate", help="write a synthetic corpus with ground truth")
    gen.add_argument("overrides", nargs="*", metavar="KEY=VALUE", help="generator parameters")
    gen.add_argument("--seed", type=int, default=0, help="corpus seed (default 0)")
    gen.add_argument("--sessions", type=int, default=1, help="number of sessions (default 1)")
    gen.add_argument("--entries", type=int, help="target tree entries per session (default 1000)")
    gen.add_argument("--out", type=Path, required=True, help="output folder (new or empty)")
    gen.add_argument("--name", help="corpus name in the manifest (default synthetic-s<seed>)")
    gen.add_argument("--force", action="store_true", help="write into a non-empty folder")
    gen.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KEY=LO:HI",
        help="draw a numeric parameter per session from a range (seeded; repeatable)",
    )
    lst = actions.add_parser("list", help="corpora with their name, version, sessions, source")
    lst.add_argument("dirs", nargs="*", type=Path, metavar="DIR", help="corpus folders")
    lst.add_argument("--json", action="store_true", help="print one JSON object per corpus")
    ins = actions.add_parser("inspect", help="manifest, sizes, verified sha256, fact counts")
    ins.add_argument("dir", type=Path, metavar="DIR", help="corpus folder")
    ins.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    return {"generate": _generate, "list": _list, "inspect": _inspect}[args.action](args)


# ── generate ─────────────────────────────────────────────────────────────────
def _generate(args: argparse.Namespace) -> int:
    params = parse_overrides(args.overrides or [])
    if args.entries is not None:
        params["entries"] = args.entries
    config = config_from_dict(params)
    started = time.perf_counter()
    manifest = generate_corpus(
        args.out,
        config,
        seed=args.seed,
        sessions=args.sessions,
        name=args.name,
        force=args.force,
        vary=parse_vary(args.vary),
    )
    elapsed = time.perf_counter() - started
    total_entries = total_bytes = 0
    for item in manifest["sessions"]:
        total_entries += item["treeEntries"]
        total_bytes += item["bytes"]
        print(
            f"{item['name']:<28} {item['treeEntries']:>7} entries {item['facts']:>5} facts "
            f"{item['bytes']:>10} bytes"
        )
    print(
        f"soba-bench corpus: wrote {len(manifest['sessions'])} sessions ({total_entries} tree "
        f"entries, {total_bytes} bytes) and {MANIFEST_NAME} to {args.out} in {elapsed:.2f} s"
    )
    return 0


# ── list ─────────────────────────────────────────────────────────────────────
def _list(args: argparse.Namespace) -> int:
    explicit = bool(args.dirs)
    roots = args.dirs or sorted(p for p in DEFAULT_CORPORA.iterdir() if p.is_dir())
    rows: list[dict[str, Any]] = []
    for root in roots:
        if not explicit and not (root / MANIFEST_NAME).is_file():
            # Reported, not skipped: a folder under corpora/ without a manifest is not usable.
            rows.append({"name": root.name, "path": str(root), "manifest": False})
            continue
        corpus = load_corpus(root, verify=False)
        rows.append(
            {
                "name": corpus.name,
                "path": str(corpus.root),
                "manifest": True,
                "version": corpus.version,
                "format": corpus.format,
                "sessions": len(corpus.sessions),
                "source": corpus.source,
                "licence": corpus.licence,
            }
        )
    if args.json:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
        return 0
    print(f"{'NAME':<22} {'VERSION':<12} {'SESSIONS':>8}  {'SOURCE':<58}  LICENCE")
    for row in rows:
        if not row["manifest"]:
            print(f"{row['name']:<22} {'-':<12} {'-':>8}  (no {MANIFEST_NAME}: {row['path']})")
            continue
        print(
            f"{row['name']:<22} {row['version']:<12} {row['sessions']:>8}  "
            f"{_cut(row['source'], 58):<58}  {_cut(row['licence'], 60)}"
        )
    return 0


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


# ── inspect ──────────────────────────────────────────────────────────────────
def inspect_corpus(root: Path) -> dict[str, Any]:
    """The inspect report as a plain dict (``ok`` is False on any sha256 mismatch)."""
    corpus = load_corpus(root, verify=False)
    sessions = []
    kinds: dict[str, Counter[str]] = {}
    for item, raw in zip(corpus.sessions, corpus.data["sessions"], strict=True):
        row: dict[str, Any] = {"name": item.name, "file": item.file, "sha256": item.sha256}
        if item.path.is_file():
            actual = sha256_file(item.path)
            row.update(bytes=item.path.stat().st_size, sha256Ok=actual == item.sha256)
            if actual != item.sha256:
                row["actualSha256"] = actual
            entries = raw.get("treeEntries")
            if not isinstance(entries, int):
                entries = len(read_session(item.path, strict=False).tree_entries)
            row["treeEntries"] = entries
        else:
            row.update(bytes=None, sha256Ok=False, missing=True, treeEntries=None)
        tpath = corpus.root / raw["truth"] if raw.get("truth") else truth_path(item.path)
        if tpath.is_file():
            truth = read_truth(tpath)
            row["facts"] = dict(Counter(f.kind for f in truth.facts))
            if isinstance(raw.get("truthSha256"), str):
                row["truthSha256Ok"] = sha256_file(tpath) == raw["truthSha256"]
            for fact in truth.facts:
                kinds.setdefault(fact.kind, Counter())[fact.status] += 1
        sessions.append(row)
    order = {k: i for i, k in enumerate(FACT_KINDS)}
    facts = {
        kind: {"total": sum(c.values()), "byStatus": {s: c[s] for s in STATUSES if c[s]}}
        for kind, c in sorted(kinds.items(), key=lambda kv: order.get(kv[0], len(order)))
    }
    ok = all(r["sha256Ok"] and r.get("truthSha256Ok", True) for r in sessions)
    return {
        "name": corpus.name,
        "version": corpus.version,
        "format": corpus.format,
        "source": corpus.source,
        "licence": corpus.licence,
        "root": str(corpus.root),
        "manifestSha256": corpus.manifest_sha256,
        "generator": corpus.data.get("generator"),
        "sessions": sessions,
        "factsByKind": facts,
        "ok": ok,
    }


def _inspect(args: argparse.Namespace) -> int:
    if not args.dir.is_dir():
        raise InputError("corpus folder not found", path=str(args.dir), expected="a folder")
    report = inspect_corpus(args.dir)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
        return 0 if report["ok"] else 1
    print(f"corpus    {report['name']} (version {report['version']}, format {report['format']})")
    print(f"source    {report['source']}")
    print(f"licence   {report['licence']}")
    print(f"manifest  {report['root']}/{MANIFEST_NAME} sha256 {report['manifestSha256']}")
    generator = report["generator"]
    if isinstance(generator, dict):
        print(
            f"generator {generator.get('name')} v{generator.get('version')}, seed "
            f"{generator.get('seed')}: {generator.get('command')}"
        )
    print(f"{'SESSION':<30} {'BYTES':>10} {'ENTRIES':>8}  SHA256    FACTS")
    for row in report["sessions"]:
        check = "missing" if row.get("missing") else ("ok" if row["sha256Ok"] else "MISMATCH")
        facts = sum(row["facts"].values()) if "facts" in row else "-"
        print(
            f"{row['name']:<30} {row['bytes'] if row['bytes'] is not None else '-':>10} "
            f"{row['treeEntries'] if row['treeEntries'] is not None else '-':>8}  "
            f"{check:<8}  {facts}"
        )
    if report["factsByKind"]:
        print("facts by kind (all sessions):")
        for kind, info in report["factsByKind"].items():
            statuses = ", ".join(f"{n} {s}" for s, n in info["byStatus"].items())
            print(f"  {kind:<14} {info['total']:>6}  ({statuses})")
    if not report["ok"]:
        print("soba-bench corpus inspect: some files do not match the manifest")
        return 1
    return 0
