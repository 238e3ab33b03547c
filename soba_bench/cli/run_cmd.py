"""Replay the corpora through the SOBA engine and score them: one job, or with -m a sweep.

One job replays every session of the corpora under one engine config, variant, strategy and
summarizer, scores it and summarizes; -m runs a sweep of such jobs (a Hydra multirun).

    soba-bench run [OPTIONS] [OVERRIDES]        one job
    soba-bench run -m [OPTIONS] [OVERRIDES]     one job per combination of swept values

OVERRIDES are Hydra overrides over configs/config.yaml: engine.keepRecentTokens=8000,
engine=64k-8k, variant=soba-0.6.14+newest-blockers, corpus=synthetic-small, scorer=none,
hydra/launcher=ray, hydra.sweep.dir=DIR ... A bare SOBA key is short for its engine key
(keepRecentTokens=8000 is engine.keepRecentTokens=8000). Defaults: the bundled corpora
(corpora/soba-conformance, and corpora/synthetic-small which has ground truth) under SOBA's
default config (a 128k window), offline and without an API key. A single run writes
results/run-<timestamp>-<id>/, a sweep results/<sweep name>/<timestamp>/<job id>/: the run
record, one row per session, replays, barrier logs, capsules, the event log, attempt and
barrier tables (Parquet) and score tables. --help lists the config groups (Hydra's help).

Options kept from the pre-Hydra command (each becomes an override):
  --corpus DIR     corpus folder with a manifest.json, repeatable (corpus=path corpus.paths=[...])
  --results DIR    where run folders go (paths.results_dir=DIR)
  --config FILE    a CASE.json config (its keys become engine.KEY overrides)
  --variant NAME   engine variant (variant=NAME)
  --meter NAME     token meter (meter=NAME)
  --no-score       replay only (scorer=none)
  --sessions A,B   only these sessions (name or corpus/name; corpus.select=[A,B])
  --limit N        only the first N sessions (corpus.limit=N)
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from soba_bench.engine.config import TOP_LEVEL_KEYS, read_config_data
from soba_bench.errors import InputError, OutputError, SobaBenchError
from soba_bench.sweep.console import format_scores  # noqa: F401  (re-exported for score_cmd)
from soba_bench.sweep.jobspec import COMPACTION_KEYS, SOBA_KEYS

LEGACY_VALUE_OPTIONS = (
    "--corpus",
    "--results",
    "--config",
    "--variant",
    "--meter",
    "--sessions",
    "--limit",
)
MULTIRUN_FLAGS = ("-m", "--multirun")
_PLAIN = re.compile(r"^[A-Za-z0-9_./:+@-]+$")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """For ``soba-bench --help`` only: the arguments go to Hydra unparsed (see main)."""
    parser.add_argument("overrides", nargs="*", metavar="OVERRIDE", help="Hydra overrides")


def quote(value: str) -> str:
    """A value as a Hydra override string (quoted unless plain)."""
    if _PLAIN.match(value):
        return value
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _json_value(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else quote(value)


def case_overrides(path: str) -> list[str]:
    """A CASE.json file's keys as engine.KEY overrides."""
    data = read_config_data(path)
    out = []
    for key, value in data.items():
        if key == "compaction":
            if not isinstance(value, dict):
                raise InputError("'compaction' must be an object", path=path, field="compaction")
            for ckey, cvalue in value.items():
                if ckey not in COMPACTION_KEYS:
                    raise InputError(
                        "unknown compaction key",
                        path=path,
                        field=f"compaction.{ckey}",
                        expected="one of " + ", ".join(COMPACTION_KEYS),
                    )
                out.append(f"engine.{ckey}={_json_value(cvalue)}")
        elif key in TOP_LEVEL_KEYS:
            out.append(f"engine.{key}={_json_value(value)}")
        else:
            raise InputError(
                "unknown config key",
                path=path,
                field=key,
                expected="one of " + ", ".join((*TOP_LEVEL_KEYS, "compaction")),
            )
    return out


def shorthand(arg: str) -> str:
    """``keepRecentTokens=8000`` (or ``compaction.keepRecentTokens=8000``) ->
    ``engine.keepRecentTokens=8000``; anything else unchanged."""
    key, sep, value = arg.partition("=")
    bare = key.removeprefix("compaction.")
    if sep and bare in SOBA_KEYS:
        return f"engine.{bare}={value}"
    return arg


# Top-level keys that are config groups without a schema field of their own.
_GROUP_ONLY = ("experiment", "local")


def _known_keys() -> dict[str, tuple[str, ...] | None]:
    """Top-level config key -> its sub-keys (None where any sub-key goes: params dicts)."""
    from soba_bench.sweep.schema import SobaBenchConf

    known: dict[str, tuple[str, ...] | None] = dict.fromkeys(_GROUP_ONLY)
    for top in dataclasses.fields(SobaBenchConf):
        kind = top.default_factory if top.default_factory is not dataclasses.MISSING else None
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            known[top.name] = tuple(f.name for f in dataclasses.fields(kind))
        else:
            known[top.name] = ()
    return known


def check_key(arg: str) -> None:
    """Stop a misspelled setting before Hydra sees it: Hydra would suggest ``+key=...``, which
    adds a junk key that nothing reads. Appends (``+``), deletions (``~``), Hydra's own keys
    and group paths (``hydra/launcher=...``) pass through."""
    key, sep, _ = arg.partition("=")
    if not sep or key[:1] in "+~-" or "/" in key or key.startswith("hydra"):
        return
    known = _known_keys()
    if key.startswith("compaction."):  # SOBA's nesting; shorthand() maps the valid ones
        key = "engine." + key.removeprefix("compaction.")
    top, _, sub = key.partition(".")
    if top not in known:
        names = [*SOBA_KEYS, *known]
        close = difflib.get_close_matches(top, names, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise InputError(
            f"unknown setting '{key}'{hint}",
            expected=f"a SOBA key ({', '.join(SOBA_KEYS)}) or a group or key of the config "
            f"({', '.join(known)})",
        )
    subs = known[top]
    sub_top = sub.partition(".")[0]
    if sub and subs and sub_top not in subs:
        close = difflib.get_close_matches(sub_top, subs, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(f'{top}.{c}' for c in close)}?" if close else ""
        raise InputError(
            f"unknown setting '{key}'{hint}",
            expected="one of " + ", ".join(f"{top}.{s}" for s in subs),
        )


def check_corpus_folder(folder: Path) -> None:
    """A --corpus that is another agent's logs (no manifest) fails with the import command."""
    from soba_bench.corpora.manifest import MANIFEST_NAME
    from soba_bench.corpora.sniff import folder_hint

    if (folder / MANIFEST_NAME).is_file() or folder.name == MANIFEST_NAME:
        return
    hint = folder_hint(folder)
    if hint is not None:
        raise InputError(f"not a corpus folder: {hint}", path=str(folder))


def translate(argv: Sequence[str]) -> list[str]:
    """The command's arguments as Hydra's: legacy options become overrides (placed first, so
    explicit overrides win), bare SOBA keys become engine keys, the rest passes through."""
    legacy: list[str] = []
    rest: list[str] = []
    corpora: list[str] = []
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, inline = arg.partition("=")
        if name in LEGACY_VALUE_OPTIONS:
            if eq:
                value = inline
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                raise InputError(f"option {name} needs a value", field=name)
            if name == "--corpus":
                corpora.append(str(Path(value).expanduser().resolve()))
                check_corpus_folder(Path(corpora[-1]))
            elif name == "--results":
                legacy.append(f"paths.results_dir={quote(str(Path(value).expanduser().resolve()))}")
            elif name == "--config":
                legacy += case_overrides(value)
            elif name == "--variant":
                legacy.append(f"variant={quote(value)}")
            elif name == "--meter":
                legacy.append(f"meter={quote(value)}")
            elif name == "--sessions":
                names = [n.strip() for n in value.split(",") if n.strip()]
                if not names:
                    raise InputError("option --sessions needs names", field=name, value=value)
                legacy.append(f"corpus.select=[{','.join(quote(n) for n in names)}]")
            elif name == "--limit":
                legacy.append(f"corpus.limit={quote(value)}")
        elif arg == "--no-score":
            legacy.append("scorer=none")
        else:
            rest.append(shorthand(arg))
            check_key(rest[-1])
        i += 1
    if corpora:
        legacy = ["corpus=path", f"corpus.paths=[{','.join(quote(c) for c in corpora)}]", *legacy]
    return [*legacy, *rest]


def check_results_dir(hydra_args: list[str]) -> None:
    """Fail with one line when the results folder given (``paths.results_dir=``) cannot be
    written: Hydra creates the job folder before any of our code runs and would answer a
    read-only folder, a file in the way or a full disk with its own traceback."""
    given = [a.split("=", 1)[1] for a in hydra_args if a.startswith("paths.results_dir=")]
    if not given or "${" in given[-1]:
        return
    folder = Path(given[-1].strip("'\""))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise OutputError(str(folder), exc.strerror or str(exc)) from None


def launch(hydra_args: list[str], prog: str = "soba-bench run") -> int:
    """Run the Hydra app with these arguments; the exit code from the jobs' outcomes."""
    from soba_bench.sweep import app, callbacks

    try:
        check_results_dir(hydra_args)
    except SobaBenchError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code

    app.OUTCOMES.clear()
    callbacks.STATE.clear()
    saved = sys.argv
    sys.argv = [prog, *hydra_args]
    try:
        app.main()
    except BrokenPipeError:
        return 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
        # Hydra exits 1 on a composition error (bad override, unknown option): bad input.
        if code and not app.OUTCOMES and "summary" not in callbacks.STATE:
            return 2
        return code
    finally:
        sys.argv = saved
    if any(a in MULTIRUN_FLAGS for a in hydra_args):
        summary = callbacks.STATE.get("summary") or {}
        return 1 if summary.get("byStatus", {}).get("failed") else 0
    if not app.OUTCOMES:
        return 0  # --cfg, --info, --help: nothing ran
    return app.OUTCOMES[-1].exit_code


def main(argv: Sequence[str], *, multirun: bool = False, prog: str = "soba-bench run") -> int:
    try:
        hydra_args = translate(argv)
    except SobaBenchError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return exc.exit_code
    if multirun and not any(a in MULTIRUN_FLAGS for a in hydra_args):
        hydra_args = ["-m", *hydra_args]
    return launch(hydra_args, prog)


def run(args: argparse.Namespace) -> int:
    return main(args.overrides or [])
