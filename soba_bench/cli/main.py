"""``soba-bench`` entry point. Commands register themselves in one registry."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from soba_bench import __version__
from soba_bench.errors import SobaBenchError

# name -> module under soba_bench.cli; each module has add_arguments(parser) and run(args).
# Hydra commands (HYDRA_COMMANDS) also have main(argv): their arguments go to Hydra unparsed.
COMMANDS = {
    "run": "soba_bench.cli.run_cmd",
    "main-job": "soba_bench.cli.main_job_cmd",
    "sweep": "soba_bench.cli.sweep_cmd",
    "inspect": "soba_bench.cli.inspect_cmd",
    "replay": "soba_bench.cli.replay_cmd",
    "score": "soba_bench.cli.score_cmd",
    "report": "soba_bench.cli.report_cmd",
    "view": "soba_bench.cli.view_cmd",
    "compare": "soba_bench.cli.compare_cmd",
    "corpus": "soba_bench.cli.corpus_cmd",
    "import": "soba_bench.cli.import_cmd",
    "serve-model": "soba_bench.cli.serve_model_cmd",
    "tune": "soba_bench.cli.tune_cmd",
}

HYDRA_COMMANDS = ("run", "sweep", "tune")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The CLI's parser; with ``only``, that command's alone. Each command's module is imported
    to build its part, and together they import numpy, the scorers, reports and the sweep
    stage: a process that runs one command (most do: a script, a test, a sweep's helper)
    imports only that one's, which saves up to a second and a half of start-up (``replay
    --help`` 0.4 s instead of 1.9)."""
    parser = argparse.ArgumentParser(
        prog="soba-bench",
        description="Replay, score and benchmark SOBA's context compaction on long agent sessions.",
    )
    parser.add_argument("--version", action="version", version=f"soba-bench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            continue
        module = importlib.import_module(module_name)
        doc = (module.__doc__ or "").strip().splitlines()[0]
        cmd = sub.add_parser(
            name,
            help=doc,
            description=(module.__doc__ or "").strip(),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(cmd)
        cmd.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in HYDRA_COMMANDS:
        return importlib.import_module(COMMANDS[argv[0]]).main(argv[1:])
    parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
    # KEY=VALUE overrides may come after options (argparse would reject them there).
    args, extra = parser.parse_known_args(argv)
    if extra:
        if hasattr(args, "overrides") and all("=" in x and not x.startswith("-") for x in extra):
            args.overrides = [*(args.overrides or []), *extra]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        return int(args._run(args) or 0)
    except SobaBenchError as exc:
        print(f"soba-bench {args.command}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
