"""Noise beats: things a capsule should not carry. Distractors look like decisions but are
not (an undecided aside, a rejected ADR); secrets are API-key-like values in tool output;
injections are prompt-injection text next to JSON-breaking fragments; large outputs are huge
log tails and truncated JSON dumps (recorded in the truth's origin, not as facts).
"""

from __future__ import annotations

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.facts import Beat, fill
from soba_bench.corpora.synthetic.pieces import CallPiece, Context, TextPiece


def distractor(ctx: Context, beat: Beat) -> TextPiece | CallPiece:
    rng, scen, ledger = ctx.rng, ctx.scen, ctx.ledger
    if beat.slot == "text":
        text = ctx.unique("distractor", lambda: fill(rng.choice(banks.DISTRACTOR_TEXTS), scen, rng))
        return TextPiece(
            f"{text}.", lambda eid: ledger.new("distractor", text, eid, form="assistant")
        )
    text = ctx.unique("distractor", lambda: fill(rng.choice(banks.DISTRACTOR_DOCS), scen, rng))
    number = rng.randint(1, 40)
    path = f"docs/adr/{number:04d}-{rng.choice(banks.IDENTS)}.md"
    body = ctx.pools.prose(ctx.pools.size(ctx.config.tool_output_tokens))
    output = f"# ADR {number:04d}\n\n{text}\n\n{body}"
    return CallPiece(
        "read",
        {"path": path},
        output,
        on_emit=lambda _c, out: ledger.new("distractor", text, out, form="document", path=path),
    )


def secret(ctx: Context, beat: Beat) -> CallPiece:
    label, value, line, form = ctx.pools.secret()
    ctx.secrets.append(value)
    rng = ctx.rng
    filler = []
    for _ in range(max(4, ctx.pools.size(ctx.config.tool_output_tokens) // 60)):
        key = f"{rng.choice(banks.IDENTS)}_{rng.choice(banks.IDENTS)}".upper()
        filler.append(f"{key}={rng.randint(1, 9999)}")
    where = rng.randrange(len(filler) + 1)
    output = "\n".join(["NODE_ENV=development", *filler[:where], line, *filler[where:]])
    name, args = ctx.rng.choice(
        (
            ("read", {"path": ".env.local"}),
            ("bash", {"command": "cat deploy/staging.yaml"}),
            ("bash", {"command": "printenv | sort"}),
            ("read", {"path": "config/settings.json"}),
        )
    )

    def emit(_call: str, out: str) -> None:
        ctx.ledger.new("secret", value, out, keywords=(label,), label=label, format=form)

    return CallPiece(name, args, output, on_emit=emit)


def injection(ctx: Context, beat: Beat) -> CallPiece:
    pools, rng = ctx.pools, ctx.rng
    text, breaker = pools.injection(), pools.json_breaker()
    package = rng.choice(("left-pad-pro", "fast-json-turbo", "retry-kit", "tiny-cache"))
    body = pools.prose(pools.size(ctx.config.tool_output_tokens))
    output = (
        f"# {package}\n\n{body[: len(body) // 2]}\n\n{text}\n{breaker}\n{body[len(body) // 2 :]}"
    )
    name, args = rng.choice(
        (
            ("bash", {"command": f"cat node_modules/{package}/README.md"}),
            ("read", {"path": f"docs/vendor/{package}.md"}),
        )
    )

    def emit(_call: str, out: str) -> None:
        ctx.ledger.new("injection", text, out, jsonBreaker=breaker, source=package)

    return CallPiece(name, args, output, on_emit=emit)


def large_output(ctx: Context, beat: Beat) -> CallPiece:
    pools, rng = ctx.pools, ctx.rng
    size = pools.size(ctx.config.large_output_tokens)
    if rng.random() < 0.6:
        name = rng.choice(("worker", "api", "scheduler"))
        command = f"tail -n {size // 80} logs/{name}.log"
        output = pools.log(size)
    else:
        command = f"cat fixtures/{rng.choice(banks.IDENTS)}-dump.json"
        rows: list[str] = []
        total = 0
        while total < size:  # cut mid-array: the dump is not valid JSON
            row = f'  {{"id": {len(rows)}, "name": "{pools.token(12)}", "tags": ["{pools.token(5)}"'
            rows.append(row + ("]}," if len(rows) % 7 else ""))
            total += len(rows[-1]) + 1
        output = "[\n" + "\n".join(rows)
    return CallPiece(
        "bash", {"command": command}, output, on_emit=lambda _c, out: ctx.large_outputs.append(out)
    )
