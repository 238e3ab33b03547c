"""Could the local model judge entailment where the rules fail? The bundled local model
(Qwen2.5-Coder-0.5B-Instruct, `soba-bench serve-model`, the ``[local-llm]`` extra) is asked,
for each calibration case, whether the context states the fact, states its opposite, or does
not mention it; its one-word answer is scored against the case's label beside the default
matcher's verdict on the same cases.

    python benchmarks/local_nli_judge.py [--split fresh4] [--categories negation paraphrase]
        [--limit N]

Prints accuracy per category for the model and the default matcher, the model's confusion
counts, and seconds per case. Needs the ``[local-llm]`` extra; nothing is downloaded.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

from soba_bench.errors import SobaBenchError
from soba_bench.models.local_server import LocalServer
from soba_bench.scoring import calibration
from soba_bench.scoring.matchers import DEFAULT_MATCHER, get_matcher

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "calibration"
ANSWERS = {"yes": "entailed", "no": "contradicted", "absent": "absent"}
SYSTEM = (
    "You check whether notes state a claim. Answer with exactly one word: yes if the notes "
    "say the claim is true (in any words), no if the notes say the opposite of the claim, "
    "absent if the notes do not speak of it."
)
# Two worked examples in other words than any calibration case.
EXAMPLES = (
    ("Notes: - Cache avatars for one hour", "Claim: Avatars are cached for an hour", "yes"),
    ("Notes: - Avatars are never cached", "Claim: Cache avatars for one hour", "no"),
    ("Notes: - Compress the logs with zstd", "Claim: Cache avatars for one hour", "absent"),
)


def ask(base_url: str, context: str, fact: str) -> str:
    messages = [{"role": "system", "content": SYSTEM}]
    for notes, claim, answer in EXAMPLES:
        messages += [
            {"role": "user", "content": f"{notes}\n{claim}"},
            {"role": "assistant", "content": answer},
        ]
    messages.append({"role": "user", "content": f"Notes:\n{context}\nClaim: {fact}"})
    body = {"messages": messages, "temperature": 0, "max_tokens": 3}
    request = urllib.request.Request(
        f"{base_url}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=600) as response:
        reply = json.load(response)
    words = reply["choices"][0]["message"]["content"].strip().lower().split()
    return ANSWERS.get(words[0].strip(".,!") if words else "", "unparsed")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="fresh4")
    parser.add_argument("--categories", nargs="+", default=["negation", "paraphrase"])
    parser.add_argument("--limit", type=int, help="at most this many cases per category")
    args = parser.parse_args()
    try:
        cases = calibration.load_cases(DATA / f"{args.split}.jsonl")
    except SobaBenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    chosen = []
    for category in args.categories:
        picked = [c for c in cases if c.category == category]
        chosen += picked[: args.limit] if args.limit else picked
    default = {o.case.id: o for o in calibration.run(get_matcher(DEFAULT_MATCHER), chosen)}
    model_right: Counter[str] = Counter()
    default_right: Counter[str] = Counter()
    confusion: Counter[tuple[str, str, str]] = Counter()
    start = time.perf_counter()
    with LocalServer() as server:
        for case in chosen:
            answer = ask(server.base_url, "\n\n".join(case.context), case.claim.text)
            model_right[case.category] += answer == case.label
            default_right[case.category] += default[case.id].correct
            confusion[(case.category, case.label, answer)] += 1
    took = time.perf_counter() - start
    print(f"{args.split}: {len(chosen)} cases, {took / max(len(chosen), 1):.1f} s per case")
    print(f"{'category':14s} {'n':>4s} {'local model':>12s} {DEFAULT_MATCHER:>18s}")
    for category in args.categories:
        n = sum(c.category == category for c in chosen)
        print(
            f"{category:14s} {n:4d} {model_right[category] / n:12.3f} "
            f"{default_right[category] / n:18.3f}"
        )
    print("model answers (category, label -> answer: count):")
    for (category, label, answer), count in sorted(confusion.items()):
        print(f"  {category} {label} -> {answer}: {count}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
