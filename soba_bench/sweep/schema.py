"""Hydra config schemas: plain dataclasses, one per config group, registered in Hydra's
ConfigStore. ``configs/config.yaml`` starts its defaults list with ``base_config`` (the root
schema below), so every group file is type-checked against its dataclass when composed.

The ``engine`` group uses SOBA's key names verbatim and flat (``engine.keepRecentTokens=8000``);
:func:`soba_bench.sweep.jobspec.case_data` maps it to the CASE.json shape that
``build_engine_config`` validates with SOBA's own messages. The ``summarizer`` group gets one
ConfigStore entry per name in ``SUMMARIZERS`` (YAML files in ``configs/summarizer/`` with the
same name take precedence and may add params).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hydra.core.config_store import ConfigStore
from omegaconf import MISSING, DictConfig, OmegaConf

from soba_bench.engine.config import DEFAULT_COMPACTION, EngineConfig
from soba_bench.engine.variants import DEFAULT_VARIANT
from soba_bench.meter import DEFAULT_METER

_E = EngineConfig()
_C = DEFAULT_COMPACTION


@dataclass
class EngineConf:
    """SOBA's four model-size keys and ten ``CompactionConfig`` keys, SOBA's defaults."""

    contextWindow: int = int(_E.contextWindow)
    maxOutputTokens: int = int(_E.maxOutputTokens)
    systemPromptTokens: int = int(_E.systemPromptTokens)
    toolSchemaTokens: int = int(_E.toolSchemaTokens)
    auto: bool = _C.auto
    compactOnTurnComplete: bool = _C.compactOnTurnComplete
    compactOnMilestone: bool = _C.compactOnMilestone
    minTokensForAutoCompact: int = int(_C.minTokensForAutoCompact)
    minReclaimableTokens: int = int(_C.minReclaimableTokens)
    minSavingsRatio: float = _C.minSavingsRatio
    keepRecentTokens: int = int(_C.keepRecentTokens)
    safetyReserveTokens: int = int(_C.safetyReserveTokens)
    autoCompactThresholdRatio: float = _C.autoCompactThresholdRatio
    timeoutMs: int = int(_C.timeoutMs)
    # SOBA's deprecated alias of timeoutMs; used only when set (and timeoutMs is not).
    backgroundTimeoutMs: int | None = None


@dataclass
class VariantConf:
    name: str = DEFAULT_VARIANT  # a name in soba_bench.engine.variants.VARIANTS
    description: str = ""


@dataclass
class StrategyConf:
    name: str = "soba"  # a name in soba_bench.compactors.COMPACTORS (the `strategy` group)
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class SummarizerConf:
    name: str = "deterministic"  # a name in soba_bench.summarizers.SUMMARIZERS
    params: dict[str, Any] = field(default_factory=dict)
    # Model responses are cached here, shared by every job and process of every sweep.
    cache_path: str | None = "${paths.cache_dir}/responses.sqlite"
    # The NAME of the environment variable holding the API key, never the key itself.
    api_key_env: str | None = None


@dataclass
class CorpusConf:
    name: str = MISSING
    # Corpus folders (each with a manifest.json); relative paths resolve against the current
    # directory, then against the repository root.
    paths: list[str] = MISSING
    description: str = ""
    # How the corpus was generated, when it was (documentation and provenance; the folder
    # named in ``paths`` is what is replayed).
    generator: str | None = None
    seed: int | None = None
    sessions: int | None = None
    params: dict[str, Any] = field(default_factory=dict)
    # Run part of the corpus: these sessions (name or corpus/name; ``--sessions``), then the
    # first ``limit`` of them (``--limit``). Both are part of the job key.
    select: list[str] = field(default_factory=list)
    limit: int | None = None
    # Parameters drawn per session from [lo, hi] (``corpus generate --vary KEY=LO:HI``).
    vary: dict[str, Any] = field(default_factory=dict)


@dataclass
class ScorerConf:
    name: str = "default"
    # Empty: replay only, no scoring.
    scorers: list[str] = field(
        default_factory=lambda: [
            "availability",
            "outcomes",
            "retention",
            "soba_quality",
            "failure_modes",
        ]
    )
    baselines: list[str] = field(
        default_factory=lambda: ["none", "truncation", "observation_masking"]
    )
    keep_observations: int = 10
    meter: str = DEFAULT_METER
    # Availability is scored on at most this many requests per session: a sample seeded by
    # points_seed, the same for every job of the session (null: all requests).
    max_points: int | None = 1000
    points_seed: int = 0
    # The diagnostics at capsule moments read at most this many per session: the final
    # state and a sample seeded by points_seed (null: every moment).
    max_moments: int | None = 64
    # Parameters of the probes scorer (soba_bench.scoring.probes.ProbeConfig).
    params: dict[str, Any] = field(default_factory=dict)
    # How facts are matched (soba_bench.scoring.matchers: verdict-embedding-nli, the default,
    # verdict-embedding, verdict-nli, verdict, fuzzy, embedding). A scored job's key names it
    # and its model files.
    matcher: str = "verdict-embedding-nli"


@dataclass
class SweepConf:
    name: str = "adhoc"  # results/<name>/<timestamp>/<job id>/
    description: str = ""


@dataclass
class ReplayConf:
    """Replay options beyond SOBA's recorded behaviour (``soba-bench replay`` flags)."""

    usage: str = "none"  # none | recorded | simulated
    simulate_overflow: bool = False
    provider_meter: str | None = None
    commands: bool = True


@dataclass
class PathsConf:
    root_dir: str = "${soba.root:}"
    results_dir: str = "${paths.root_dir}/results"
    cache_dir: str = "${paths.root_dir}/.cache"


@dataclass
class CacheConf:
    # Per-item token counts of cached meters (tiktoken), shared by all jobs and processes.
    token_counts: str | None = "${paths.cache_dir}/token-counts.sqlite"
    # Sentence vectors of the embedding and hybrid matchers, and the cross-encoder's pair
    # probabilities, shared the same way (null: none; $SOBA_BENCH_EMBED_CACHE wins when set).
    embeddings: str | None = "${paths.cache_dir}/embeddings.sqlite"


@dataclass
class ProgressConf:
    # null = auto: progress bars only on a terminal and never in CI.
    bars: bool | None = None
    # null = auto: the per-session tables of a single run; one line per job in a sweep.
    tables: bool | None = None


@dataclass
class SobaBenchConf:
    engine: EngineConf = field(default_factory=EngineConf)
    variant: VariantConf = field(default_factory=VariantConf)
    strategy: StrategyConf = field(default_factory=StrategyConf)
    summarizer: SummarizerConf = field(default_factory=SummarizerConf)
    corpus: CorpusConf = field(default_factory=CorpusConf)
    scorer: ScorerConf = field(default_factory=ScorerConf)
    sweep: SweepConf = field(default_factory=SweepConf)
    replay: ReplayConf = field(default_factory=ReplayConf)
    paths: PathsConf = field(default_factory=PathsConf)
    cache: CacheConf = field(default_factory=CacheConf)
    progress: ProgressConf = field(default_factory=ProgressConf)
    meter: str = DEFAULT_METER  # soba | tiktoken:<encoding>
    seed: int = 0
    # Skip a job whose complete record (same job key) already exists; redo unfinished ones.
    resume: bool = True


GROUP_SCHEMAS = {
    "engine": EngineConf,
    "variant": VariantConf,
    "strategy": StrategyConf,
    "summarizer": SummarizerConf,
    "corpus": CorpusConf,
    "scorer": ScorerConf,
    "sweep": SweepConf,
}


def register_configs() -> None:
    """Store the root schema (which types every group through its fields) and the summarizer
    options in Hydra's ConfigStore."""
    from pathlib import Path

    from soba_bench.summarizers import SUMMARIZERS

    # A summarizer with its own YAML option (configs/summarizer/<name>.yaml) is not stored
    # too: Hydra would match the two by name, a deprecated behaviour it warns about. The YAML
    # is still typed through the root schema's ``summarizer`` field.
    yaml_dir = Path(__file__).resolve().parents[2] / "configs" / "summarizer"
    cs = ConfigStore.instance()
    cs.store(name="base_config", node=SobaBenchConf)
    for name in SUMMARIZERS:
        if not (yaml_dir / f"{name}.yaml").is_file():
            cs.store(group="summarizer", name=name, node=SummarizerConf(name=name))


def plain_config(cfg: DictConfig, *, resolve: bool = True) -> dict[str, Any]:
    """``cfg`` as plain Python containers (resolved: interpolations filled in, a missing
    value is an error). A DictConfig always converts to a dict; its keys are strings."""
    out = OmegaConf.to_container(cfg, resolve=resolve, throw_on_missing=resolve)
    if not isinstance(out, dict):
        raise TypeError(f"expected a mapping config, got {type(out).__name__}")
    return {str(key): value for key, value in out.items()}
