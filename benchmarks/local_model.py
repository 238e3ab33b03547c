"""The local summarizer model, measured: load time, prompt and generation speed, and how
often its replies parse and validate as SOBA capsules, per prompt file.

Replays small synthetic sessions (150 entries, a window that compacts once) through the
"local" summarizer for each prompt, with a response cache (``--cache``; a rerun only
re-reads it) and a fixed 1 s simulated latency, so no virtual-clock timeout interferes.

    python benchmarks/local_model.py [--prompts soba-0.6.14 anchored-iterative ...]
        [--seeds 0 1] [--cache /tmp/local-model-bench.sqlite] [--model qwen2.5-coder-0.5b]
        [--frequency-penalty 0.5]

Per prompt it prints: calls, mean prompt/completion tokens (the server's count), mean latency,
prompt-processing and generation speeds (from llama.cpp's own timings, measured with a direct
call per session), the share of replies that parse as the portable state (j.2) and the engine's
verdict per compaction: ``portable`` (parsed and valid), ``degraded`` (unparseable: the
slot's internal deterministic fallback) or ``invalid->deterministic`` (parsed but rejected by
the validator, so the chain moved on).
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import time
from collections import Counter

from soba_bench.corpora.synthetic import generate_session
from soba_bench.corpora.synthetic.config import SyntheticConfig
from soba_bench.engine.config import build_engine_config
from soba_bench.engine.strategies.portable_only import (
    StateParseError,
    coerce_state,
    extract_json_object,
)
from soba_bench.models.local_server import ServerOptions, shared_local_server, stop_local_servers
from soba_bench.replay.simulator import replay_session
from soba_bench.summarizers import build_summarizer

CONFIG = {
    "contextWindow": 18_000,
    "maxOutputTokens": 512,
    "systemPromptTokens": 200,
    "toolSchemaTokens": 200,
    "compaction": {"keepRecentTokens": 2000, "safetyReserveTokens": 512},
}


def parses(text: str) -> bool:
    try:
        coerce_state(extract_json_object(text))
    except (StateParseError, ValueError):
        return False
    return True


def verdict(attempt: dict) -> str:
    if attempt.get("strategy") == "portable_only":
        return "portable" if attempt.get("quality") == "portable" else "degraded"
    return f"{attempt.get('outcome')}:{attempt.get('strategy')}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--prompts",
        nargs="+",
        default=["soba-0.6.14", "soba-0.6.14-json-schema", "anchored-iterative"],
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1])
    parser.add_argument("--cache", default="/tmp/soba-bench-local-model.sqlite")
    parser.add_argument("--model", default="qwen2.5-coder-0.5b")
    parser.add_argument("--frequency-penalty", type=float, help="sent with every request")
    args = parser.parse_args()

    started = time.perf_counter()
    server = shared_local_server(ServerOptions(args.model))
    print(
        f"server ready in {time.perf_counter() - started:.1f}s (model load "
        f"{server.load_seconds}s) at {server.base_url}"
    )
    config = build_engine_config(CONFIG)
    requests: list[dict] = []
    sessions = [generate_session(SyntheticConfig(entries=150), seed, 0)[0] for seed in args.seeds]
    for prompt in args.prompts:
        spec = build_summarizer(
            "local",
            model=args.model,
            prompt=prompt,
            cache_path=args.cache,
            frequency_penalty=args.frequency_penalty,
            latency={"kind": "fixed", "ms": 1000},
        )
        verdicts: Counter[str] = Counter()
        for session in sessions:
            trace = replay_session(session, config, chain=spec.chain, clock=spec.clock)
            verdicts.update(verdict(a) for a in trace.attempts if a.get("strategy"))
        keys = sorted(set(spec.chain[0].invoker.keys))
        db = sqlite3.connect(args.cache)
        rows = [
            db.execute(
                "SELECT text, latency_ms, usage, request FROM responses WHERE key = ?", (k,)
            ).fetchone()
            for k in keys
        ]
        requests.extend(json.loads(r[3]) for r in rows)
        usage = [json.loads(r[2]) for r in rows if r[2]]
        prompt_tokens = [u.get("prompt_tokens", 0) for u in usage]
        completion = [u.get("completion_tokens", 0) for u in usage]
        latency = [r[1] for r in rows]
        print(f"\n{spec.prompt_id}: {len(rows)} cached replies")
        if rows:
            mean_s = statistics.mean(latency) / 1000
            print(
                f"  prompt tokens {statistics.mean(prompt_tokens):.0f}, completion tokens "
                f"{statistics.mean(completion):.0f}, latency {mean_s:.1f}s, "
                f"overall {sum(prompt_tokens) + sum(completion)} tokens in "
                f"{sum(latency) / 1000:.0f}s"
            )
            print(f"  replies that parse: {sum(parses(r[0]) for r in rows)}/{len(rows)}")
        print(f"  engine verdicts: {dict(verdicts)}")
    if requests:
        speeds(server.base_url, requests[0])
    stop_local_servers()


def speeds(base_url: str, request: dict) -> None:
    """llama.cpp's own prompt-processing and generation speeds for one summary request, sent
    again with its prompt cache off so the whole prompt is processed."""
    import openai

    client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0, timeout=900)
    reply = client.chat.completions.create(**request, extra_body={"cache_prompt": False})
    timings = (reply.model_extra or {}).get("timings", {})
    print(
        f"\nspeeds: prompt {timings.get('prompt_n')} tokens at "
        f"{timings.get('prompt_per_second', 0):.1f} tok/s, generation "
        f"{timings.get('predicted_n')} tokens at {timings.get('predicted_per_second', 0):.1f} tok/s"
    )


if __name__ == "__main__":
    main()
