"""Fault injection through the real summarizer path: SOBA's model chain
``[portable_only, deterministic]`` against an endpoint on 127.0.0.1 that fails in every way
we could think of, with the virtual and the real clock.

SOBA's rules (engine.md e.2, i, k): a model or parse error degrades inside the portable_only
slot (``completed``, ``portable_only``, ``degraded``); wrong types are coerced (a non-string
goal becomes "Continue working"); the deadline firing runs the deterministic fallback
("Compaction model timed out after <ms>ms; completed using deterministic fallback"); the turn's
abort always wins (``cancelled``, nothing appended, even when the answer arrives later).
"""

from __future__ import annotations

import gzip
import json
from collections import Counter

import pandas as pd
import pytest

from soba_bench.engine.attempt import AbortSignal
from soba_bench.engine.strategies.portable_only import FALLBACK_GOAL
from soba_bench.sweep.app import compose_config
from soba_bench.sweep.job import JobContext, run_job
from tests.reliability.fault_server import FAULTS, FaultServer
from tests.reliability.figures import tally
from tests.unit.summarizers.test_model_summarizers import capsules, manager_for, manual, model_spec

DEGRADED = ("completed", "portable_only", "degraded")
EXPECTED = {
    "http-500": DEGRADED,
    "garbage-text": DEGRADED,
    "non-json-body": DEGRADED,
    "wrong-shape-body": DEGRADED,
    "null-content": DEGRADED,
    "huge-10mb": DEGRADED,
    "drop": DEGRADED,
    "wrong-types-state": ("completed", "portable_only", "portable"),
    "huge-10mb-state": ("completed", "portable_only", "portable"),
    "hang": ("completed", "deterministic", "degraded"),
}
TIMEOUT_MS = {"hang": 400}  # the others get SOBA's 15 s, far more than they take
WAIT_S = 30
# A small window, so a short session makes a dozen compaction attempts.
SMALL_WINDOW = [
    "engine.contextWindow=16000",
    "engine.maxOutputTokens=2000",
    "engine.keepRecentTokens=2000",
    "engine.minTokensForAutoCompact=4000",
    "engine.minReclaimableTokens=1000",
    "engine.safetyReserveTokens=1000",
]


def spec_for(url: str, clock: str):
    # Recorded latency: the virtual clock races the deadline against the measured wait.
    return model_spec(url, clock=clock, max_retries=1, latency={"kind": "recorded"})


@pytest.mark.parametrize("clock", ["virtual", "real"])
@pytest.mark.parametrize("fault", FAULTS)
def test_each_fault_ends_as_soba_specifies(fault, clock):
    assert set(EXPECTED) == set(FAULTS)
    timeout = TIMEOUT_MS.get(fault, 15_000)
    with FaultServer(lambda n: fault, hang_s=1.0) as srv:
        spec = spec_for(srv.base_url, clock)
        manager = manager_for(spec, timeout_ms=timeout, clock=spec.clock)
        before = len(manager.branch.entries)
        outcome = manual(manager)
        assert (outcome.status, outcome.strategy, outcome.quality) == EXPECTED[fault], outcome
        if fault == "hang":
            assert outcome.reason == (
                f"Compaction model timed out after {timeout}ms; completed using "
                "deterministic fallback"
            )
            assert srv.finished.wait(WAIT_S)  # the late answer has been sent...
        assert spec.chain[0].invoker.wait_idle(WAIT_S)
        # ...and nothing but the one capsule was appended, before or after it.
        assert len(manager.branch.entries) == before + 1
        [capsule] = capsules(manager)
        assert capsule["strategy"] == outcome.strategy
        if fault == "wrong-types-state":
            assert capsule["portableState"]["goal"] == FALLBACK_GOAL
    assert srv.served[0] == fault
    tally("summarizer faults", f"{fault} ({clock} clock)")


@pytest.mark.parametrize("clock", ["virtual", "real"])
def test_an_answer_arriving_after_the_turn_aborted_is_never_appended(clock):
    signal = AbortSignal()
    with FaultServer(
        lambda n: "late", hang_s=0.3, on_request=lambda _: signal.abort("user pressed Esc")
    ) as srv:
        spec = spec_for(srv.base_url, clock)
        manager = manager_for(spec, clock=spec.clock)
        before = [e.id for e in manager.branch.entries]
        outcome = manager.manual_compact(
            None, fingerprint="fp", signal=signal, system_prompt_tokens=10, tool_schema_tokens=5
        )
        # A string abort reason is not an Error, so SOBA reports its generic reason (e.2).
        assert (outcome.status, outcome.reason) == ("cancelled", "Compaction cancelled")
        assert srv.finished.wait(WAIT_S) and spec.chain[0].invoker.wait_idle(WAIT_S)
        assert [e.id for e in manager.branch.entries] == before
        # The engine is not wedged: the next attempt (the server now answers at once) works.
        srv.hang_s = 0
        again = manual(manager)
        assert (again.status, again.strategy, again.quality) == (
            "completed",
            "portable_only",
            "portable",
        )
        assert len(capsules(manager)) == 1
    tally("summarizer faults", f"answer after cancellation ({clock} clock)")


def test_a_sweep_job_over_a_faulty_endpoint_completes_and_counts_every_fault(tmp_path, tiny_corpus):
    """A whole job, the endpoint cycling through every fault: the job completes, each attempt
    ends as SOBA specifies, and the run's tables count the degraded attempts."""
    cycle = [f for f in FAULTS if f != "hang"] + ["ok"]
    with FaultServer(lambda n: cycle[n % len(cycle)]) as srv:
        config = compose_config(
            [
                "corpus=path",
                f"corpus.paths=[{tiny_corpus}]",
                "scorer=none",
                *SMALL_WINDOW,
                "summarizer=model",
                f"+summarizer.params.base_url={srv.base_url}",
                "+summarizer.params.model=fault-model",
                "+summarizer.params.cache=off",
                "+summarizer.params.max_retries=0",
                f"paths.cache_dir={tmp_path / 'cache'}",
            ]
        )
        outcome = run_job(config, JobContext(tmp_path / "job", "job", tables=False))
    assert outcome.status == "complete", outcome.record.get("error")
    record = outcome.record
    attempts = pd.read_parquet(tmp_path / "job" / "tables" / "attempts.parquet")
    completed = attempts[attempts["outcome"] == "completed"]
    served = Counter(srv.served)
    assert set(served) == set(cycle)  # every fault was served
    generated = attempts[attempts["strategy"].notna()]
    # max_retries=0: each model call is one attempt that reached the strategy chain.
    assert len(generated) == len(srv.served)
    degraded_faults = sum(n for f, n in served.items() if EXPECTED.get(f) == DEGRADED)
    kinds = Counter(zip(generated["strategy"], generated["quality"], strict=True))
    # A degraded fault can never yield a portable capsule; a state the model did send may
    # still fail SOBA's validation and fall through to the deterministic slot.
    assert kinds[("portable_only", "portable")] <= len(srv.served) - degraded_faults
    assert kinds[("portable_only", "degraded")] <= degraded_faults
    assert kinds[("portable_only", "degraded")] + kinds[("deterministic", "degraded")] >= (
        degraded_faults
    )
    # The run record counts every attempt by outcome, strategy and quality.
    counts = record["attemptOutcomes"]
    assert sum(counts.values()) == len(attempts)
    assert (
        sum(n for k, n in counts.items() if k.endswith("/portable_only/degraded"))
        == (kinds[("portable_only", "degraded")])
    )
    assert record["totals"]["completed"] == len(completed)
    capsule_lines = sum(
        len(gzip.decompress(p.read_bytes()).splitlines())
        for p in (tmp_path / "job" / "capsules").rglob("*.jsonl.gz")
    )
    assert capsule_lines == len(completed)  # nothing appended twice or late
    tally("summarizer faults", "sweep job attempts", len(attempts))
    for fault, n in served.items():
        tally("summarizer faults in a sweep job", fault, n)
    for kind, n in counts.items():
        tally("summarizer faults in a sweep job", f"attempts {kind}", n)
    json.dumps(record)  # the record stays serialisable
