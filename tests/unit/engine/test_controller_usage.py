"""test-scenarios 10.1 item 7: provider usage recorded through the controller becomes the
meter's watermark, valid only for the same request fingerprint."""

from soba_bench.engine import Engine, EngineConfig, RequestMetrics
from tests.builders import assistant, user


def test_controller_records_usage_for_later_requests_of_the_same_turn():
    engine = Engine.create(EngineConfig())
    engine.branch.append_item(user("Hello"), entry_id="entry_1")
    engine.controller.record_provider_usage(777, "turn_1", "entry_1")
    engine.branch.append_item(assistant("Hi"), entry_id="entry_2")
    same_turn = engine.controller.preflight(RequestMetrics(10, 5, "turn_1", 1))
    assert same_turn.snapshot.source == "provider_usage"
    assert same_turn.snapshot.effectiveTokens == 777 + 1  # "Hi" trails the watermark
    next_turn = engine.controller.effective_context_tokens(RequestMetrics(10, 5, "turn_2", 2))
    assert next_turn == 10 + 5 + 2 + 1  # estimated: sys + tools + "Hello" + "Hi"


def test_a_response_without_usage_records_nothing():
    engine = Engine.create(EngineConfig())
    engine.branch.append_item(user("Hello"), entry_id="entry_1")
    engine.controller.record_provider_usage(None, "turn_1", "entry_1")
    result = engine.controller.preflight(RequestMetrics(10, 5, "turn_1", 1))
    assert result.snapshot.source == "estimated"
