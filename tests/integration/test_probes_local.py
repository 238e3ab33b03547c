"""The probe scorer on the REAL local model (Qwen2.5-Coder-0.5B on llama.cpp's server,
127.0.0.1): a tiny session with one capsule, probes answered and judged by the local model,
every answer and verdict recorded in the response cache; then the same scoring again with the
cache read-only and no server, which must give identical scores. Prompts are kept to a few
hundred tokens (prompt processing runs at ~50-110 tokens/s on two cores)."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.truth import Fact, GroundTruth
from soba_bench.models import local_server
from soba_bench.models.cache import ResponseCache
from soba_bench.scoring.probes import ProbeConfig
from soba_bench.scoring.session import ScoreConfig, score_replay
from soba_bench.session import read_session
from tests.builders import (
    assistant,
    capsule_line,
    chain,
    function_call,
    function_output,
    header,
    user,
)

pytestmark = pytest.mark.slow

ITEMS = [
    user("Add rate limiting to the API server. Constraint: never touch src/legacy/."),
    assistant("I will edit the server."),
    function_call("c1", "edit", json.dumps({"path": "src/api/server.ts", "old": "a", "new": "b"})),
    function_output("c1", "Edited src/api/server.ts"),
    user("Next step: add a test for the limiter in tests/limiter.test.ts."),
    assistant("Understood."),
]
TRUTH = GroundTruth(
    "tiny",
    "tiny",
    {},
    (
        Fact("g1", "goal", "Add rate limiting to the API server", introduced_at="e0"),
        Fact("c1", "constraint", "never touch src/legacy/", introduced_at="e0"),
        Fact(
            "f1",
            "file_modified",
            "src/api/server.ts",
            introduced_at="e2",
            attributes={"path": "src/api/server.ts"},
        ),
        Fact(
            "n1",
            "next_step",
            "add a test for the limiter in tests/limiter.test.ts",
            introduced_at="e4",
        ),
    ),
)


@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    lines = [header(), *chain(ITEMS)]
    # One capsule after e3 that keeps e2 onwards: the first moment's input is capsule + tail.
    capsule = capsule_line(
        "k1",
        "e3",
        first_kept="e2",
        first_compacted="e0",
        goal="Add rate limiting to the API server",
        constraints=["never touch src/legacy/"],
        modifiedFiles=["src/api/server.ts"],
    )
    lines.insert(5, capsule)
    lines[6] = {**lines[6], "parentId": "k1"}
    path = tmp_path_factory.mktemp("s") / "tiny.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return read_session(path).active_branch


def scores(replayed, **probe):
    probe.setdefault("strategies", ("soba",))  # one input per moment keeps the model calls few
    config = ScoreConfig(scorers=("probes",), probes=ProbeConfig(**probe))
    return score_replay("tiny", replayed, TRUTH, config)


def without_sources(rows):
    return [
        {k: v for k, v in r.items() if k not in ("answerSource", "verdictSource")} for r in rows
    ]


def test_local_answers_and_verdicts_are_cached_and_replay_without_a_server(replayed, tmp_path):
    cache = tmp_path / "responses.sqlite"
    common = {
        "answerer": "local",
        "judge": "local",
        "cache_path": str(cache),
        "budget": 400,
        # Generating is most of a local call's time (~10 tokens/s); what is tested is where
        # answers and verdicts go, not how good they are, so short answers will do.
        "max_answer_tokens": 24,
        "max_probes": 2,
        "seed": 1,
    }
    try:
        live = scores(replayed, **common)
    finally:
        local_server.stop_local_servers()
    moments = {m["generation"] for m in live.probe_moments}
    assert moments == {1, "final"}
    assert len(live.probes) == 4 and {r["answerSource"] for r in live.probes} == {"model"}
    assert all(isinstance(r["answer"], str) for r in live.probes)
    judged = [r for r in live.probes if r["mode"] == "judge"]
    assert judged and all(r["score"] is not None or r["error"] for r in judged)
    # every answer is in the cache under its key; a verdict asked twice (the same answer at
    # two moments) is one cache entry
    recorded = ResponseCache(cache, "read-only")
    keys = {r["answerKey"] for r in live.probes}
    assert len(keys) == len(live.probes) and all(recorded.get(k) is not None for k in keys)
    assert len(keys) < len(recorded) <= len(keys) + len(judged)

    replay = scores(replayed, **{**common, "cache": "read-only"})
    assert not local_server._SERVERS  # nothing was started: every answer came from the cache
    assert {r["answerSource"] for r in replay.probes} == {"cache"}
    assert without_sources(replay.probes) == without_sources(live.probes)
    assert replay.probe_moments == live.probe_moments
