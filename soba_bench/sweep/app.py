"""The Hydra app: ``soba-bench run [-m] [OVERRIDES]`` (see soba_bench.cli.run_cmd) calls
:func:`main`. Thin on purpose: it reads the Hydra runtime (output folder, job number, mode)
and hands the resolved config, as plain data, to :func:`soba_bench.sweep.job.run_job`.

Configs: ``configs/config.yaml`` and its groups; schemas: :mod:`soba_bench.sweep.schema`.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import hydra
from hydra.core.hydra_config import HydraConfig
from hydra.types import RunMode
from omegaconf import DictConfig, OmegaConf

from soba_bench.sweep.job import JobContext, JobOutcome, run_job
from soba_bench.sweep.progress import bars_enabled
from soba_bench.sweep.schema import plain_config, register_configs

REPO_ROOT = Path(__file__).resolve().parents[2]
CONFIG_DIR = REPO_ROOT / "configs"
MAX_JOB_ID = 96

# Outcomes of the jobs run in this process (a single run: the CLI's exit code).
OUTCOMES: list[JobOutcome] = []


def job_id(num: Any, override_dirname: Any = "") -> str:
    """``<num>-<overrides>``: short, readable, filesystem-safe; long ones end in a hash."""
    text = str(override_dirname or "").replace("engine.", "")
    text = re.sub(r"[^A-Za-z0-9._=,+-]", "_", text)
    if len(text) > MAX_JOB_ID:
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        text = f"{text[: MAX_JOB_ID - 9]}~{digest}"
    return f"{num}-{text}" if text else str(num)


def _uid() -> str:
    import uuid

    return uuid.uuid4().hex[:6]


def register_resolvers() -> None:
    """Resolvers used by configs/config.yaml (also needed in launcher worker processes,
    which import this module to unpickle the task function)."""
    resolvers: dict[str, tuple[Callable[..., Any], bool]] = {
        "soba.root": (lambda: str(REPO_ROOT), False),
        "soba.uid": (_uid, True),  # one value per config: the run folder name is stable
        "soba.job_id": (job_id, False),
    }
    for name, (fn, cache) in resolvers.items():
        if not OmegaConf.has_resolver(name):
            OmegaConf.register_new_resolver(name, fn, use_cache=cache)


register_resolvers()
register_configs()


# Configs the sweeper composed to check a batch, for the basic launcher to run: (the sweep's
# master config, one job's overrides, its composed config), in the batch's order.
_CHECKED: list[tuple[DictConfig, tuple[str, ...], DictConfig]] = []
BASIC_LAUNCHER = "hydra._internal.core_plugins.basic_launcher.BasicLauncher"


def compose_each_job_once() -> None:
    """Hydra's basic sweeper composes every job's config before launching a batch, to stop
    on a bad override before any job runs (``Sweeper.validate_batch_is_legal``); the basic
    launcher, which runs the jobs in this process, then composed each one again. At about
    0.3 s a composition on the 2-core machine, that was a third of a small grid's time
    (issue 16). Here the check keeps the configs it composed and the basic launcher takes
    them: the same configs (same call, same master config), the same early stop. Launchers
    that run jobs in other processes (joblib, Ray, submitit) compose their own there; for
    them the check composes only the jobs that cover every override (:func:`covering_jobs`).
    Hydra 1.3's internals, pinned in constraints.txt; tests/unit/sweep/test_compose_once.py
    counts the compositions."""
    from hydra._internal.config_loader_impl import ConfigLoaderImpl
    from hydra.plugins.sweeper import Sweeper

    if getattr(Sweeper.validate_batch_is_legal, "_soba_bench", False):
        return
    load = ConfigLoaderImpl.load_sweep_config

    def validate_batch_is_legal(self: Any, batch: Any) -> None:
        _CHECKED.clear()
        # By name: Hydra's plugin scan loads the launcher's module anew, so its class is
        # not the one an import here would give.
        launcher = type(getattr(self, "launcher", None))
        loader = self.hydra_context.config_loader
        if f"{launcher.__module__}.{launcher.__qualname__}" != BASIC_LAUNCHER:
            for overrides in covering_jobs(batch):
                load(loader, self.config, list(overrides))
            return
        for overrides in batch:
            config = load(loader, self.config, list(overrides))
            _CHECKED.append((self.config, tuple(overrides), config))

    def load_sweep_config(self: Any, master_config: DictConfig, sweep_overrides: Any) -> Any:
        if _CHECKED:
            master, overrides, config = _CHECKED[0]
            if master is master_config and overrides == tuple(sweep_overrides):
                del _CHECKED[0]
                return config
        return load(self, master_config, sweep_overrides)

    validate_batch_is_legal._soba_bench = True  # type: ignore[attr-defined]
    Sweeper.validate_batch_is_legal = validate_batch_is_legal  # type: ignore[method-assign]
    ConfigLoaderImpl.load_sweep_config = load_sweep_config  # type: ignore[method-assign]


compose_each_job_once()


def _sets_a_value(override: str) -> bool:
    """``a.b=v``: a value under a key. Anything else (``corpus=path``, ``hydra/launcher=x``,
    ``+a=1``, ``~a``, ``seed=1``) may choose a config group, which changes what the other
    overrides are checked against."""
    key = override.split("=", 1)[0]
    return "." in key and not key.startswith(("+", "~")) and not any(c in key for c in "/@")


def covering_jobs(batch: Sequence[Sequence[str]]) -> list[Sequence[str]]:
    """The jobs whose composition checks every override of the batch: for each choice of
    groups, each value override at least once. Whether ``a.b=v`` composes depends on the
    key, the value and the groups chosen (the schema they give), not on the other values;
    so a grid of n x m values needs about n + m compositions, not n * m. Launchers that run
    jobs in other processes (joblib, Ray, submitit) compose every job again there; this
    check is only the early stop before any job runs, and Hydra's own check composed every
    job in this process, one after another, before the first one started: about 0.3 s
    each, 9 s of a 25-job grid (issue 18)."""
    seen: set[tuple[tuple[str, ...], str | None]] = set()
    chosen = []
    for overrides in batch:
        groups = tuple(sorted(o for o in overrides if not _sets_a_value(o)))
        wanted = {(groups, None)} | {(groups, o) for o in overrides if _sets_a_value(o)}
        if not wanted <= seen:
            chosen.append(overrides)
            seen |= wanted
    return chosen


def job_context(cfg: DictConfig) -> JobContext:
    hc = HydraConfig.get()
    multirun = hc.mode == RunMode.MULTIRUN
    out_dir = Path(hc.runtime.output_dir)
    sweep_dir = Path(hc.sweep.dir).resolve() if multirun else None
    index_root = None
    if sweep_dir is not None:
        # Default layout results/<sweep>/<timestamp>/: sibling runs of the same sweep share
        # finished jobs. An explicit hydra.sweep.dir resumes within itself.
        named = (Path(cfg.paths.results_dir) / str(cfg.sweep.name)).resolve()
        index_root = named if sweep_dir.parent == named else sweep_dir
    tables = cfg.progress.tables
    return JobContext(
        out_dir=out_dir,
        job_id=out_dir.name,
        multirun=multirun,
        job_num=int(hc.job.num) if multirun else None,
        overrides=tuple(hc.overrides.task),
        sweep_name=str(cfg.sweep.name) if multirun else None,
        sweep_dir=sweep_dir,
        index_root=index_root,
        tables=(not multirun) if tables is None else bool(tables),
        bars=bars_enabled(cfg.progress.bars),
        bar_position=(int(hc.job.num) % 8) + 1 if multirun else 0,
    )


@hydra.main(version_base="1.3", config_path=str(CONFIG_DIR), config_name="config")
def main(cfg: DictConfig) -> str:
    """One job of a run or sweep. Failures are recorded in the job's run.json, not raised, so
    one bad grid point does not stop a sweep."""
    ctx = job_context(cfg)
    config = plain_config(cfg)
    keep_warm_worker()
    outcome = run_job(config, ctx)
    OUTCOMES.append(outcome)
    if outcome.status == "failed" and not ctx.multirun:
        # (an unexpected error's traceback has been logged by the job)
        print(f"soba-bench run: error: {(outcome.record or {}).get('error')}", file=sys.stderr)
    return outcome.status


# What a joblib (loky) worker may grow after its first job before loky takes it for a leak.
_WORKER_GROWTH = 2 * 1024**3


def keep_warm_worker() -> None:
    """In a joblib worker, let it keep its caches. Loky measures a worker after its first
    task and replaces it once it has grown 300 MB beyond that. A scoring worker's caches
    (parsed texts, word sets, token counts; each bounded) reach that after about ten jobs
    of a grid, and the new worker starts cold: each replacement cost a 2,000-entry
    10-session job 3 s -> 10 s in benchmarks/sweep_bench.py (issue 18). The bound raised
    here is loky's module setting (joblib, pinned in constraints.txt); elsewhere nothing
    changes."""
    executor = sys.modules.get("joblib.externals.loky.process_executor")
    limit = getattr(executor, "_MAX_MEMORY_LEAK_SIZE", None)
    if isinstance(limit, int) and limit < _WORKER_GROWTH:
        executor._MAX_MEMORY_LEAK_SIZE = _WORKER_GROWTH  # type: ignore[union-attr]


def compose_config(overrides: list[str] | None = None) -> dict[str, Any]:
    """The resolved job config for these overrides, without running anything (for notebooks
    and tests): what a job of ``soba-bench run OVERRIDES`` would receive."""
    from hydra import compose, initialize_config_dir

    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):
        cfg = compose(config_name="config", overrides=list(overrides or []))
    return plain_config(cfg)
