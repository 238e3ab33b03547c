"""A misspelled parameter of any plug-in fails, naming the parameter and the valid ones; it is
never accepted silently. One test per kind of plug-in that takes parameters: summarizers,
compaction strategies, scorers (the probe scorer's parameters), latency models, matchers,
importers (the hf column mapping), the synthetic generator and the engine config."""

from __future__ import annotations

import pytest

from soba_bench.corpora.importers.hf import HF_MAPPINGS
from soba_bench.corpora.synthetic.config import config_from_dict
from soba_bench.engine.config import build_engine_config
from soba_bench.errors import ConfigError, InputError, UnknownNameError
from soba_bench.models.latency import LATENCY_MODELS, build_latency_model
from soba_bench.replay.rules import ReplayOptions
from soba_bench.scoring.match import MatchConfig
from soba_bench.scoring.matchers import get_matcher
from soba_bench.scoring.probes import ProbeConfig
from soba_bench.session.model import Session
from soba_bench.summarizers import SUMMARIZERS, build_summarizer

ENGINE = build_engine_config({})


@pytest.mark.parametrize("name", SUMMARIZERS.names())
def test_summarizers_reject_an_unknown_parameter(name: str) -> None:
    with pytest.raises(ConfigError, match=rf"summarizer '{name}' has no parameter promt; it takes"):
        build_summarizer(name, promt="v2")


def test_the_deterministic_summarizer_says_it_takes_nothing() -> None:
    # It used to swallow any keyword; a typo meant for another summarizer now fails.
    with pytest.raises(ConfigError, match="it takes no parameters"):
        build_summarizer("deterministic", model="gpt")
    assert build_summarizer("deterministic").record()["chain"] == ["deterministic"]


def test_a_model_summarizers_error_lists_what_it_takes() -> None:
    with pytest.raises(ConfigError) as info:
        build_summarizer("local", temprature=0.2)
    message = str(info.value)
    assert "temprature" in message and "temperature" in message and "prompt" in message


def _compactors():
    """(names, get, context type) of the job-level registry, which is being renamed from
    strategies to compactors: either spelling works until both branches are merged."""
    try:
        from soba_bench import compactors as c

        return c.compactor_names(), c.get_compactor, c.CompactorContext
    except ImportError:
        from soba_bench import strategies as s

        return s.strategy_names(), s.get_strategy, s.StrategyContext


@pytest.mark.parametrize("name", _compactors()[0])
def test_compactors_reject_an_unknown_parameter(name: str) -> None:
    _, get, context = _compactors()
    # Validated before the session is read, so an empty session is enough.
    ctx = context(engine=ENGINE, options=ReplayOptions(), params={"keep_recnt": 3})
    with pytest.raises(ConfigError, match=rf"'{name}': unknown parameter.*keep_recnt"):
        get(name)(Session(()), ctx)


def test_the_probe_scorer_rejects_an_unknown_parameter_listing_the_valid_ones() -> None:
    with pytest.raises(InputError) as info:
        ProbeConfig.from_params({"judg": "model"})
    assert info.value.field == "judg" and "judge" in (info.value.expected or "")


@pytest.mark.parametrize("kind", LATENCY_MODELS.names())
def test_latency_models_reject_an_unknown_parameter(kind: str) -> None:
    with pytest.raises(ConfigError, match=rf"latency model '{kind}' has no parameter median; it"):
        build_latency_model({"kind": kind, "median": 5})


def test_latency_model_error_names_the_valid_parameters() -> None:
    with pytest.raises(ConfigError, match="it takes median_ms, sigma, seed"):
        build_latency_model({"kind": "lognormal", "median": 5})


def test_matchers_reject_an_unknown_name_listing_the_valid_ones() -> None:
    with pytest.raises(UnknownNameError, match=r"valid names: .*fuzzy.*verdict"):
        get_matcher("verdikt")
    with pytest.raises(UnknownNameError, match="fuzzy"):
        MatchConfig(prose_matcher="fuzy")
    with pytest.raises(TypeError, match="threshhold"):
        MatchConfig(threshhold=0.5)  # type: ignore[call-arg]


def test_importer_column_mapping_rejects_an_unknown_key() -> None:
    mapping = HF_MAPPINGS.get(HF_MAPPINGS.names()[0])
    with pytest.raises(InputError) as info:
        mapping.with_columns((("rol", "speaker"),))
    assert info.value.value == "rol" and "role" in (info.value.expected or "")


def test_synthetic_generator_rejects_an_unknown_parameter() -> None:
    with pytest.raises(InputError, match="unknown synthetic generator parameter") as info:
        config_from_dict({"entriez": 10})
    assert "entries" in (info.value.expected or "")


def test_engine_config_rejects_an_unknown_key() -> None:
    with pytest.raises(InputError, match="unknown compaction key") as info:
        build_engine_config({"compaction": {"keepRecentToken": 8000}})
    assert "keepRecentTokens" in (info.value.expected or "")


def test_a_sweep_job_rejects_a_misspelled_summarizer_parameter_before_it_runs() -> None:
    from soba_bench.sweep.app import compose_config
    from soba_bench.sweep.jobspec import JobSpec

    config = compose_config(["+summarizer.params.promt=v2"])
    with pytest.raises(ConfigError, match="summarizer 'deterministic' has no parameter promt"):
        JobSpec.from_config(config)


def test_an_experiments_cache_mode_does_not_block_a_summarizer_without_a_model() -> None:
    # `experiment=local_model summarizer=deterministic`: the experiment's response-cache mode
    # is shared config a model-free summarizer has no use for; a misspelling still fails.
    from soba_bench.sweep.app import compose_config
    from soba_bench.sweep.jobspec import JobSpec

    spec = JobSpec.from_config(
        compose_config(["experiment=local_model", "summarizer=deterministic"])
    )
    assert spec is not None
    typo = ["experiment=local_model", "summarizer=deterministic", "+summarizer.params.cahce=x"]
    with pytest.raises(ConfigError, match="summarizer 'deterministic' has no parameter cahce"):
        JobSpec.from_config(compose_config(typo))
