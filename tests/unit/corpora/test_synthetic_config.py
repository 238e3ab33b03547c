"""The synthetic generator's config: defaults, KEY=VALUE overrides, errors that name the
parameter, and the documented YAML kept in step with the dataclass."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

import pytest

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.config import (
    SyntheticConfig,
    config_from_dict,
    field_names,
    parse_overrides,
)
from soba_bench.errors import ConfigError, InputError
from tests.builders import REPO

YAML = REPO / "configs" / "corpus" / "synthetic-small.yaml"


def read_flat_yaml(text: str) -> tuple[dict, dict]:
    """(top-level scalars, params) of the flat YAML file (no PyYAML dependency needed)."""
    top: dict = {}
    params: dict = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        key, _, value = line.strip().partition(":")
        if not value.strip():  # blank, comment or the "params:" header
            continue
        value = value.strip()
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value
        (params if raw.startswith("  ") else top)[key] = parsed
    return top, params


def test_defaults_are_valid_and_every_field_is_typed_explicitly():
    config = SyntheticConfig()
    assert config.entries == 1000
    assert {f.type for f in fields(config)} <= {"int", "float", "bool"}
    # Every field but the later flags that are off (written only when on).
    assert set(config.to_dict()) == set(field_names()) - {"revisions_name_replaced"}


def test_per_1k_rates_scale_with_the_target_and_plant_at_least_one():
    config = SyntheticConfig()
    assert config.count(5.0, 20_000) == 100
    assert config.count(5.0, 100) == 1
    assert config.count(0.0, 20_000) == 0


def test_overrides_parse_json_values_and_set_fields():
    values = parse_overrides(["entries=5000", "flight_records=false", "parallel_share=0.5"])
    config = config_from_dict(values)
    assert (config.entries, config.flight_records, config.parallel_share) == (5000, False, 0.5)
    assert config.non_defaults() == {
        "entries": 5000,
        "parallel_share": 0.5,
        "flight_records": False,
    }


def test_integral_floats_are_accepted_for_integer_fields():
    assert config_from_dict({"entries": 2e3}).entries == 2000


def test_unknown_parameter_lists_the_valid_ones():
    with pytest.raises(InputError) as err:
        config_from_dict(parse_overrides(["entires=500"]))
    message = str(err.value)
    assert "unknown synthetic generator parameter" in message and "'entires'" in message
    assert "decisions_per_1k" in message and "flight_records" in message


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("entries=many", "an integer"),
        ("entries=12.5", "an integer"),
        ("flight_records=1", "true or false"),
        ("parallel_share=high", "a number"),
    ],
)
def test_wrong_types_name_the_field_and_the_accepted_type(override, expected):
    with pytest.raises(InputError) as err:
        config_from_dict(parse_overrides([override]))
    key = override.split("=")[0]
    assert f"field '{key}'" in str(err.value) and expected in str(err.value)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"entries": 10}, "entries must be between 50 and"),
        ({"min_iterations": 5, "max_iterations": 3}, "max_iterations must be >= min_iterations"),
        ({"parallel_share": 1.5}, "parallel_share must be between 0 and 1"),
        ({"decisions_per_1k": -1.0}, "decisions_per_1k must be >= 0"),
        ({"max_parallel_calls": 0}, "max_parallel_calls must be between 1 and 8"),
        ({"tool_output_tokens": 0}, "tool_output_tokens must be >= 1"),
    ],
)
def test_out_of_range_values_are_config_errors(values, message):
    with pytest.raises(ConfigError) as err:
        config_from_dict(values)
    assert str(err.value).startswith("Invalid synthetic generator config: ")
    assert message in str(err.value)


def test_override_without_equals_sign_is_rejected():
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_overrides(["entries"])


def test_the_documented_yaml_lists_every_parameter_with_its_default():
    top, params = read_flat_yaml(YAML.read_text(encoding="utf-8"))
    assert list(params) == field_names()
    defaults = asdict(SyntheticConfig())
    overridden = {k for k, v in params.items() if v != defaults[k]}
    assert overridden == {"entries", "entries_spread"}  # the two marked "(default ...)"
    assert asdict(config_from_dict(params)) == params
    assert (top["seed"], top["sessions"], top["name"]) == (7, 3, "synthetic-small")


def test_filler_banks_never_contain_words_soba_extracts():
    filler = (
        *banks.VOCAB,
        *banks.IDENTS,
        *banks.FILLER_USER,
        *banks.RATIONALES,
        *banks.CASES,
        *banks.MILESTONES,
    )
    for text in filler:
        lower = text.lower()
        assert not any(word in lower for word in banks.TRIGGER_WORDS), text


def test_vary_draws_each_session_parameter_in_its_range_and_rejects_bad_ranges():
    from soba_bench.corpora.synthetic.generate import parse_vary, session_config

    vary = parse_vary(["entries=150:900", "blockers_per_1k=0:10"])
    assert vary == {"entries": (150.0, 900.0), "blockers_per_1k": (0.0, 10.0)}
    base = SyntheticConfig()
    drawn = [session_config(base, vary, 17, i) for i in range(12)]
    assert all(150 <= c.entries <= 900 and isinstance(c.entries, int) for c in drawn)
    assert all(0 <= c.blockers_per_1k <= 10 for c in drawn)
    assert len({c.entries for c in drawn}) > 6  # really varies from session to session
    assert drawn == [session_config(base, vary, 17, i) for i in range(12)]  # seeded
    assert session_config(base, {}, 17, 0) is base  # no vary: the corpus is unchanged
    for bad in ("entries=900:150", "entries=a:b", "flight_records=0:1", "nope=1:2", "entries"):
        with pytest.raises(InputError, match="--vary"):
            parse_vary([bad])


def test_a_later_flag_is_recorded_only_when_on_so_bundled_records_are_unchanged():
    assert "revisions_name_replaced" not in SyntheticConfig().to_dict()
    assert SyntheticConfig(revisions_name_replaced=True).to_dict()["revisions_name_replaced"]
    on = config_from_dict({"revisions_name_replaced": True})
    assert on.revisions_name_replaced is True
