"""Replay one session through the SOBA engine and report every compaction decision.

Writes the conformance formats: --decisions (config line, one attempt line per compaction
attempt, summary line), --checks (one line per barrier), --capsules (the context_capsule
entries appended). KEY=VALUE overrides any config key by its SOBA name, e.g.
contextWindow=64000 keepRecentTokens=8000. Without --decisions/--checks/--capsules it prints
a short summary. Outputs are written all together or not at all.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from soba_bench.corpora.sniff import read_session_or_hint
from soba_bench.engine.config import build_engine_config, read_config_data, with_overrides
from soba_bench.engine.variants import DEFAULT_VARIANT, VARIANTS
from soba_bench.meter import DEFAULT_METER
from soba_bench.replay.output import jsonl_payload, replayed_session_lines, write_all
from soba_bench.replay.provider import USAGE_MODES, USAGE_NONE
from soba_bench.replay.rules import ReplayOptions
from soba_bench.replay.simulator import replay_session
from soba_bench.replay.trace import ReplayTrace


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("session", help="SOBA session file (.jsonl or .jsonl.gz)")
    parser.add_argument(
        "overrides", nargs="*", metavar="KEY=VALUE", help="config overrides by SOBA key name"
    )
    parser.add_argument("--config", help="CASE.json config (conformance format)")
    parser.add_argument("--decisions", type=Path, help="write the decision log here")
    parser.add_argument("--capsules", type=Path, help="write the appended capsules here")
    parser.add_argument("--checks", type=Path, help="write the barrier log here")
    parser.add_argument(
        "--write-session",
        type=Path,
        metavar="DIR",
        help="write the replayed session (capsules included) into DIR",
    )
    parser.add_argument(
        "--variant",
        default=DEFAULT_VARIANT,
        help=f"engine variant (default {DEFAULT_VARIANT}; one of {', '.join(VARIANTS.names())})",
    )
    parser.add_argument("--meter", default=DEFAULT_METER, help="token meter (default soba)")
    parser.add_argument("--seed", type=int, default=0, help="seed for checkpoint ids")
    parser.add_argument(
        "--usage",
        choices=USAGE_MODES,
        default=USAGE_NONE,
        help="provider-reported input tokens: none (SOBA's estimated meter, the default), "
        "recorded (the transcript's model_request records), simulated (the simulated "
        "provider's count)",
    )
    parser.add_argument(
        "--provider-meter",
        help="tokenizer of the simulated provider (default: --meter), e.g. tiktoken:cl100k_base",
    )
    parser.add_argument(
        "--simulate-overflow",
        action="store_true",
        help="the simulated provider answers context_overflow when input + maxOutputTokens "
        "exceeds contextWindow, driving SOBA's recovery path",
    )
    parser.add_argument(
        "--no-commands",
        action="store_true",
        help="treat '/compact ...' user messages as plain messages instead of the command",
    )
    parser.add_argument(
        "--lenient",
        action="store_true",
        help="skip unreadable session lines (counted) instead of failing",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def load_config_data(path: str | None) -> dict:
    """The CASE.json object given with --config, or an empty one (SOBA's defaults)."""
    return read_config_data(path) if path is not None else {}


def format_summary(trace: ReplayTrace) -> str:
    s = trace.summary()
    lines = [
        f"session    {trace.config_line['session']}  ({s['branchEntries']} branch entries, "
        f"{s['turns']} turns)",
        f"engine     {trace.config_line['variant']}, hard limit {trace.config_line['hardLimit']}",
        f"barriers   {s['preflights']} ({s['flushPreflights']} flush), "
        f"{s['blockedRequests']} refused requests",
        f"attempts   {s['attempts']}",
    ]
    for trigger, count in sorted(s["byTrigger"].items()):
        outcomes: dict[str, int] = {}
        for a in trace.attempts:
            if a["trigger"] == trigger:
                outcomes[a["outcome"]] = outcomes.get(a["outcome"], 0) + 1
        detail = ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items()))
        lines.append(f"  {trigger:<16} {count:>5}  ({detail})")
    lines += [
        f"capsules   {s['capsules']}, {s['reclaimedTokens']} tokens reclaimed",
        f"context    final {s['finalEffectiveTokens']} tokens, max {s['maxEffectiveTokens']}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    data = with_overrides(load_config_data(args.config), args.overrides)
    config = build_engine_config(data, source=args.config)
    for note in config.adaptations():
        print(f"soba-bench replay: warning: {note}", file=sys.stderr)
    VARIANTS.get(args.variant)
    session = read_session_or_hint(args.session, strict=not args.lenient)
    options = ReplayOptions(
        variant=args.variant,
        meter=args.meter,
        seed=args.seed,
        usage=args.usage,
        provider_meter=args.provider_meter,
        simulate_overflow=args.simulate_overflow,
        commands=not args.no_commands,
    )
    trace = replay_session(session, config, options)
    files = {}
    if args.decisions:
        files[args.decisions] = jsonl_payload(args.decisions, trace.decision_lines())
    if args.checks:
        files[args.checks] = jsonl_payload(args.checks, trace.check_lines())
    if args.capsules:
        files[args.capsules] = jsonl_payload(args.capsules, trace.capsules)
    if args.write_session:
        name = Path(args.session).name.removesuffix(".gz").removesuffix(".jsonl") + ".jsonl"
        target = args.write_session / name
        files[target] = jsonl_payload(target, replayed_session_lines(session, trace))
    write_all(files)
    if args.json:
        print(json.dumps(trace.summary()))
    elif not (args.decisions or args.checks or args.capsules):
        print(format_summary(trace))
    return 0
