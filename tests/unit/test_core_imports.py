"""The core stages (session, meter, engine, replay) import neither pandas, pyarrow, matplotlib
nor Hydra: the sweep stage brings those, and only when it is used."""

from __future__ import annotations

import subprocess
import sys

CORE = (
    "soba_bench.session",
    "soba_bench.meter",
    "soba_bench.engine",
    "soba_bench.replay.simulator",
)
HEAVY = ("pandas", "pyarrow", "matplotlib", "hydra", "omegaconf", "tqdm")


def test_core_stages_import_no_heavy_packages():
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in CORE)
        + f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_the_cli_builds_only_the_command_it_runs():
    # `soba-bench replay` (a core stage) imports only its own command's module: building every
    # command's parser imported numpy, the scorers, reports and the sweep stage too (about
    # 1.5 s of each start-up).
    unneeded = (*HEAVY, "numpy", "soba_bench.scoring", "soba_bench.reports", "soba_bench.sweep")
    code = (
        "import sys\n"
        "import contextlib, io\n"
        "from soba_bench.cli.main import COMMANDS, build_parser, main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main(['replay', '--help'])  # the entry point's own path, stopped after parsing\n"
        f"print(','.join(m for m in {unneeded!r} if m in sys.modules))\n"
        "full = build_parser()._subparsers._group_actions[0].choices\n"
        "assert list(full) == list(COMMANDS), list(full)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
