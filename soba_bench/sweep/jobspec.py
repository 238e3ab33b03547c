"""One job, resolved: a Hydra config (as a plain dict) turned into the engine config, variant,
strategy, summarizer, corpora, scorer and replay options, validated once, plus the job key
that resume uses. No Hydra here: the dict may come from anywhere."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from soba_bench import __version__
from soba_bench.compactors import CompactorContext, get_compactor
from soba_bench.compactors.soba import summarizer_kwargs
from soba_bench.corpora.manifest import Corpus, load_corpus
from soba_bench.corpora.subset import select_sessions
from soba_bench.engine.config import (
    LEGACY_TIMEOUT_KEY,
    TOP_LEVEL_KEYS,
    CompactionConfig,
    EngineConfig,
    build_engine_config,
)
from soba_bench.engine.variants import VARIANTS
from soba_bench.errors import InputError
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.match import DEFAULT_MATCH, MatchConfig
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.points import DEFAULT_MAX_POINTS
from soba_bench.scoring.probes import ProbeConfig
from soba_bench.scoring.scorer import DEFAULT_MAX_MOMENTS, SCORES_REVISION
from soba_bench.scoring.session import ScoreConfig
from soba_bench.summarizers.registry import check_summarizer_params

REPO_ROOT = Path(__file__).resolve().parents[2]


def _subset(corpus: dict[str, Any]) -> dict[str, Any]:
    """The corpus subset a job runs (``corpus.select`` / ``corpus.limit``), empty for all."""
    out: dict[str, Any] = {}
    if corpus.get("select"):
        out["select"] = [str(n) for n in corpus["select"]]
    if corpus.get("limit") is not None:
        out["limit"] = corpus["limit"]
    return out


COMPACTION_KEYS = tuple(f.name for f in fields(CompactionConfig))
SOBA_KEYS = (*TOP_LEVEL_KEYS, *COMPACTION_KEYS)
# Config keys that say where things go, not what is computed: outside the job key.
SUMMARIZER_LOCATION_KEYS = ("cache_path", "api_key_env")


def case_data(engine: dict[str, Any]) -> dict[str, Any]:
    """The flat ``engine`` group -> the CASE.json shape (top-level keys + ``compaction``)."""
    unknown = sorted(set(engine) - set(SOBA_KEYS))
    if unknown:
        raise InputError(
            "unknown engine key",
            field=f"engine.{unknown[0]}",
            expected="one of " + ", ".join(SOBA_KEYS),
        )
    data: dict[str, Any] = {k: engine[k] for k in TOP_LEVEL_KEYS if k in engine}
    data["compaction"] = {
        k: engine[k]
        for k in COMPACTION_KEYS
        if k in engine and not (k == LEGACY_TIMEOUT_KEY and engine[k] is None)
    }
    return data


def resolve_path(text: str) -> Path:
    """A path as given: absolute, relative to the current directory, or (for the bundled
    corpora) relative to the repository root."""
    path = Path(text).expanduser()
    if path.is_absolute() or path.exists():
        return path.resolve()
    return (REPO_ROOT / path).resolve()


def canonical_hash(value: Any) -> str:
    payload = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


@dataclass(frozen=True)
class JobSpec:
    """Everything one job computes from, validated."""

    config: dict[str, Any]  # the resolved Hydra config of the job (plain data)
    engine: EngineConfig
    corpora: tuple[Corpus, ...]
    options: ReplayOptions
    strategy: str
    score: ScoreConfig | None
    context: CompactorContext
    extras: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> JobSpec:
        """Validate every part of a resolved job config once, here (SOBA's messages for
        SOBA's rules, the list of valid names for unknown names)."""
        engine = build_engine_config(case_data(config["engine"]), source="engine config group")
        variant = config["variant"]["name"]
        VARIANTS.get(variant)
        strategy = config["strategy"]["name"]
        get_compactor(strategy)
        summ = config["summarizer"]
        check_summarizer_params(
            summ["name"], summarizer_kwargs(summ["name"], dict(summ.get("params") or {}))
        )
        replay = config.get("replay") or {}
        options = ReplayOptions(
            variant=variant,
            meter=config["meter"],
            seed=int(config["seed"]),
            usage=replay.get("usage", "none"),
            provider_meter=replay.get("provider_meter"),
            simulate_overflow=bool(replay.get("simulate_overflow", False)),
            commands=bool(replay.get("commands", True)),
        )
        paths = config["corpus"]["paths"]
        if not paths:
            raise InputError(
                "the corpus names no folder", field="corpus.paths", expected="[DIR, ...]"
            )
        corpora = tuple(load_corpus(resolve_path(p)) for p in paths)
        subset = _subset(config["corpus"])
        if subset:
            corpora = select_sessions(corpora, subset.get("select", ()), subset.get("limit"))
        scorer = config["scorer"]
        score = None
        if scorer["scorers"]:
            score = ScoreConfig(
                scorers=tuple(scorer["scorers"]),
                baselines=tuple(scorer["baselines"]),
                keep_observations=int(scorer["keep_observations"]),
                meter=scorer["meter"],
                probes=ProbeConfig.from_params(scorer.get("params")),
                max_points=scorer.get("max_points", DEFAULT_MAX_POINTS),
                points_seed=int(scorer.get("points_seed", 0)),
                max_moments=scorer.get("max_moments", DEFAULT_MAX_MOMENTS),
                match=MatchConfig(prose_matcher=scorer.get("matcher", DEFAULT_MATCH.prose_matcher)),
            )
        params = dict(summ.get("params") or {})
        for key in SUMMARIZER_LOCATION_KEYS:
            if summ.get(key) is not None:
                params[key] = summ[key]
        context = CompactorContext(
            engine=engine,
            options=options,
            summarizer=summ["name"],
            summarizer_params=params,
            params=dict(config["strategy"].get("params") or {}),
        )
        return cls(config, engine, corpora, options, strategy, score, context)

    def _matcher(self) -> dict[str, Any]:
        # A scored job names its matcher and the matcher's model files, the default's too: a
        # sweep never resumes a job scored by another matcher, or another model file of it.
        if not self.config["scorer"].get("scorers"):
            return {}
        matcher = self.config["scorer"].get("matcher", DEFAULT_MATCH.prose_matcher)
        return {"matcher": matcher, "matcherModels": get_matcher(matcher).models}

    def _scores_revision(self) -> dict[str, Any]:
        # A scored job depends on what the scorers write: a job an earlier revision scored is
        # never resumed as this one's (a job that scores nothing keeps its key).
        return {"scoresRevision": SCORES_REVISION} if self.config["scorer"].get("scorers") else {}

    def key_material(self) -> dict[str, Any]:
        """What the job's results depend on: the resolved config minus locations, plus the
        corpora's manifest hashes, the package version and the scorers' revision."""
        summ = self.config["summarizer"]
        return {
            "package": __version__,
            "engine": self.engine.to_dict(),
            "variant": self.options.variant,
            "strategy": {"name": self.strategy, "params": dict(self.context.params)},
            "summarizer": {"name": summ["name"], "params": summ.get("params") or {}},
            "corpora": [
                {"name": c.name, "manifestSha256": c.manifest_sha256} for c in self.corpora
            ],
            # Empty probe params are left out, so jobs keyed before they existed still match.
            "scorer": {
                k: v
                for k, v in self.config["scorer"].items()
                if k not in ("name", "matcher") and (k != "params" or v)
            }
            | self._matcher()
            | self._scores_revision(),
            "replay": {
                "meter": self.options.meter,
                "usage": self.options.usage,
                "providerMeter": self.options.provider_meter,
                "simulateOverflow": self.options.simulate_overflow,
                "commands": self.options.commands,
            },
            "seed": self.options.seed,
            # Only when a subset is asked for, so the keys of whole-corpus jobs stay as they were.
            **({"subset": subset} if (subset := _subset(self.config["corpus"])) else {}),
        }

    @property
    def key(self) -> str:
        return canonical_hash(self.key_material())
