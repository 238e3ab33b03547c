"""The Hydra config tree: SOBA's names and defaults in the engine group, every group option
composes against its schema and validates as a job, the named grids and experiments say what
they sweep, and the CLI's shorthands map onto it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from soba_bench.cli.run_cmd import shorthand, translate
from soba_bench.engine.config import DEFAULT_COMPACTION, load_engine_config
from soba_bench.errors import InputError
from soba_bench.summarizers import SUMMARIZERS
from soba_bench.sweep.app import CONFIG_DIR, compose_config, job_id
from soba_bench.sweep.callbacks import secret_keys
from soba_bench.sweep.jobspec import SOBA_KEYS, JobSpec, case_data
from tests.builders import REPO


def options(group: str) -> list[str]:
    return sorted(p.stem for p in (CONFIG_DIR / group).glob("*.yaml"))


def test_engine_group_defaults_are_sobas_and_keys_are_sobas_names():
    config = compose_config()
    assert set(config["engine"]) == set(SOBA_KEYS)
    spec = JobSpec.from_config(config)
    assert spec.engine.compaction == DEFAULT_COMPACTION
    assert (
        spec.engine.to_dict()
        == load_engine_config(REPO / "configs" / "engine" / "soba-defaults.json").to_dict()
    )


@pytest.mark.parametrize(
    ("preset", "window", "output"),
    [
        ("128k-32k", 128_000, 32_768),
        ("200k-32k", 200_000, 32_768),
        ("64k-8k", 64_000, 8_192),
        ("1m-64k", 1_000_000, 65_536),
    ],
)
def test_engine_presets(preset, window, output):
    spec = JobSpec.from_config(compose_config([f"engine={preset}"]))
    assert (spec.engine.contextWindow, spec.engine.maxOutputTokens) == (window, output)


def test_64k_preset_matches_the_bundled_case_file():
    spec = JobSpec.from_config(compose_config(["engine=64k-8k"]))
    case = load_engine_config(REPO / "configs" / "engine" / "window-64k.json")
    assert spec.engine.to_dict() == case.to_dict()


def test_engine_keys_override_verbatim_and_map_to_the_case_shape():
    config = compose_config(["engine.keepRecentTokens=8000", "engine.contextWindow=64000"])
    data = case_data(config["engine"])
    assert data["contextWindow"] == 64000 and data["compaction"]["keepRecentTokens"] == 8000
    assert "backgroundTimeoutMs" not in data["compaction"]  # unset alias stays unset


def test_engine_values_are_type_checked_by_the_schema():
    with pytest.raises(Exception, match="keepRecentTokens"):
        compose_config(["engine.keepRecentTokens=lots"])


def test_sobas_own_rules_give_sobas_message():
    config = compose_config(["engine.timeoutMs=0"])
    with pytest.raises(Exception, match="Invalid compaction config: timeoutMs must be > 0"):
        JobSpec.from_config(config)


@pytest.mark.parametrize("group", ["engine", "variant", "strategy", "corpus", "scorer"])
def test_every_option_of_every_group_composes_into_a_valid_job(group):
    names = options(group)
    assert names
    for name in names:
        overrides = [f"{group}={name}"]
        if name == "path":
            overrides.append(f"corpus.paths=[{REPO / 'corpora' / 'synthetic-small'}]")
        spec = JobSpec.from_config(compose_config(overrides))
        assert len(spec.key) == 64


def test_variant_options_are_the_registered_variants():
    from soba_bench.engine.variants import VARIANTS

    assert options("variant") == VARIANTS.names()


def test_summarizer_group_offers_every_registered_summarizer():
    for name in SUMMARIZERS:
        assert compose_config([f"summarizer={name}"])["summarizer"]["name"] == name


def test_unknown_names_list_the_valid_ones():
    config = compose_config(["strategy.name=masking"])
    valid = r"valid names: .*hybrid, none, observation_masking, .*soba"
    with pytest.raises(Exception, match=valid):
        JobSpec.from_config(config)


def test_named_sweeps_and_experiments_declare_grids():
    assert {"keep_recent", "roi", "timeout", "window", "full", "peers"} <= set(options("sweep"))
    assert len(options("experiment")) >= 2
    for group in ("sweep", "experiment"):
        for name in options(group):
            if name == "adhoc":
                continue
            data = yaml.safe_load((CONFIG_DIR / group / f"{name}.yaml").read_text())
            params = data["hydra"]["sweeper"]["params"]
            assert params and data["sweep"]["name"] == name
            for key in params:
                assert (
                    key in ("engine", "variant", "strategy")
                    or key.removeprefix("engine.") in SOBA_KEYS
                )


def test_job_key_ignores_locations_but_not_settings():
    base = JobSpec.from_config(compose_config()).key
    moved = compose_config(["paths.cache_dir=/elsewhere", "paths.results_dir=/x"])
    assert JobSpec.from_config(moved).key == base
    assert JobSpec.from_config(compose_config(["engine.keepRecentTokens=8000"])).key != base
    assert JobSpec.from_config(compose_config(["corpus=synthetic-small"])).key != base


def test_job_ids_are_readable_and_filesystem_safe():
    assert job_id(3, "engine.keepRecentTokens=8000,variant=a+b") == (
        "3-keepRecentTokens=8000,variant=a+b"
    )
    assert "/" not in job_id(0, "corpus.name=/tmp/x y")
    long = job_id(1, ",".join(f"engine.k{i}={i}" for i in range(60)))
    assert len(long) < 110 and "~" in long
    assert job_id(0, "") == "0"


def test_bare_soba_keys_are_engine_keys():
    assert shorthand("keepRecentTokens=8000") == "engine.keepRecentTokens=8000"
    assert shorthand("compaction.timeoutMs=5000") == "engine.timeoutMs=5000"
    assert shorthand("keepRecentTokens=8000,20000") == "engine.keepRecentTokens=8000,20000"
    assert shorthand("variant=x") == "variant=x"


def test_legacy_options_become_overrides(tmp_path):
    case = tmp_path / "case.json"
    case.write_text('{"contextWindow": 64000, "compaction": {"keepRecentTokens": 8000}}')
    args = translate(
        [
            "--corpus",
            str(tmp_path),
            "--results",
            str(tmp_path / "r"),
            "--config",
            str(case),
            "--variant",
            "soba-0.6.14+newest-blockers",
            "--no-score",
            "minSavingsRatio=0.1",
            "-m",
        ]
    )
    assert args == [
        "corpus=path",
        f"corpus.paths=[{tmp_path}]",
        f"paths.results_dir={tmp_path / 'r'}",
        "engine.contextWindow=64000",
        "engine.keepRecentTokens=8000",
        "variant=soba-0.6.14+newest-blockers",
        "scorer=none",
        "engine.minSavingsRatio=0.1",
        "-m",
    ]
    with pytest.raises(InputError, match="needs a value"):
        translate(["--results"])


def test_credential_keys_are_found_and_token_counts_are_not():
    data = {
        "engine": {"keepRecentTokens": 8000, "minReclaimableTokens": 1},
        "summarizer": {"api_key_env": "OPENAI_API_KEY", "params": {"api_key": "sk-123"}},
        "other": {"password": ""},
    }
    assert secret_keys(data) == ["summarizer.params.api_key"]


def test_the_synthetic_corpus_config_names_its_folder():
    config = compose_config(["corpus=synthetic-small"])
    assert config["corpus"]["generator"] == "synthetic"
    (corpus,) = JobSpec.from_config(config).corpora
    assert corpus.root == (REPO / "corpora" / "synthetic-small").resolve()


def test_local_overlay_is_git_ignored():
    ignored = (REPO / ".gitignore").read_text()
    assert "configs/local/*" in ignored
    assert Path(CONFIG_DIR / "local" / "README.md").is_file()
