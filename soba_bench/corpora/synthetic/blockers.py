"""Blockers: a failing tool result opens one, the same failure may repeat, and a later
successful run of the same call resolves it (or nothing does, and it is still open at the end).

Failures come from verification commands (test, lint, build, typecheck: bash results with
status ``failed``) or from other tools (a missing file, a stale edit, a busy port, a refused
connection: outputs whose first line is ``Error: ...``). The blocker's text is always the
failing output's first line, which is what SOBA's deterministic strategy quotes.
"""

from __future__ import annotations

from typing import Any

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.facts import Beat
from soba_bench.corpora.synthetic.pieces import (
    CallPiece,
    Context,
    passing_output,
    verification_candidates,
)

_TOOL_ERRORS = ("missing_file", "stale_edit", "port", "connection")


def blocker_open(ctx: Context, beat: Beat) -> CallPiece:
    rng = ctx.rng
    state: dict[str, Any] = {"open_at_end": beat.params.get("open_at_end", False)}
    candidates = verification_candidates(ctx)
    if candidates and rng.random() < 0.65:
        command = rng.choice(candidates)
        state.update(kind="verification", key=command, name="bash", args={"command": command})
        state["first"] = _verification_failure(ctx, command)
    else:
        _tool_error(ctx, state, rng.choice(_TOOL_ERRORS))
    ctx.busy.add(state["key"])
    ctx.chains[beat.chain] = state
    piece = _failing(ctx, state)

    def emit(call: str, out: str) -> None:
        state["fid"] = ctx.ledger.new(
            "blocker",
            state["first"],
            out,
            status="open",
            tool=state["name"],
            cause=state["kind"],
            callEntryId=call,
            openAtEnd=state["open_at_end"],
            **({"command": state["key"]} if state["name"] == "bash" else {"path": state["key"]}),
        )

    piece.on_emit = emit
    return piece


def blocker_again(ctx: Context, beat: Beat) -> CallPiece:
    state = ctx.chains[beat.chain]
    piece = _failing(ctx, state)
    piece.on_emit = lambda _call, out: ctx.ledger.see(state["fid"], out)
    return piece


def blocker_resolve(ctx: Context, beat: Beat) -> CallPiece:
    state = ctx.chains[beat.chain]
    name, args = state["name"], dict(state["args"])
    kind = state["kind"]
    if kind == "verification":
        output = passing_output(ctx, state["key"])
    elif kind == "missing_file":
        name = "write"
        content = ctx.pools.code(ctx.pools.size(ctx.config.edit_tokens * 2))
        args = {"path": state["key"], "content": content}
        output = f"Wrote {len(content.encode())} bytes to {state['key']}"
        ctx.scen.files.append(state["key"])
    elif kind == "stale_edit":
        path = state["key"]
        old = ctx.rng.choice(ctx.pools.file_lines(path)).strip() or "}"
        args = {"path": path, "edits": [{"oldText": old, "newText": args["edits"][0]["newText"]}]}
        output = f"Edit applied successfully to {path}"
    elif kind == "port":
        output = f" Container {ctx.scen.project}-db-1  Started"
    else:
        output = '{"status": "ok", "uptime": ' + str(ctx.rng.randint(1, 90)) + "}"

    def emit(_call: str, out: str) -> None:
        ctx.ledger.resolve(state["fid"], out, see=False)
        ctx.busy.discard(state["key"])
        ctx.recent_completed.append("Fixed: " + state["first"][:80])

    return CallPiece(name, args, output, on_emit=emit)


def _failing(ctx: Context, state: dict[str, Any]) -> CallPiece:
    body = ctx.pools.log(ctx.pools.size(ctx.config.tool_output_tokens) // 2)
    output = f"{state['first']}\n{state.get('detail', '')}\n{body}"
    return CallPiece(state["name"], dict(state["args"]), output, failed=True)


def _verification_failure(ctx: Context, command: str) -> str:
    rng, scen = ctx.rng, ctx.scen
    path = rng.choice(ctx.sources())
    where = f"{path}:{rng.randint(2, 400)}:{rng.randint(1, 60)}"
    if " test " in f" {command} ":
        test = command.split(" ")[-1]
        area = next((a for a in scen.areas if test.endswith(f"/{a[3]}.test.ts")), scen.areas[0])

        def make() -> str:
            return f"FAIL {test} > {area[1]} > handles {rng.choice(banks.CASES)}"

    elif command.endswith("lint"):

        def make() -> str:
            ident = rng.choice(banks.IDENTS) + rng.choice(banks.IDENTS).capitalize()
            return f"{where}  error  '{ident}' is assigned a value but never used  no-unused-vars"

    elif command.endswith("build"):

        def make() -> str:
            module = rng.choice(banks.IDENTS)
            return f"error TS2307: Cannot find module './{module}' ({where})"

    else:

        def make() -> str:
            kind = rng.choice(banks.TYPES)
            return (
                f"error TS2345: Argument of type 'string' is not assignable to '{kind}' ({where})"
            )

    return ctx.unique("blocker", make)


def _tool_error(ctx: Context, state: dict[str, Any], kind: str) -> None:
    rng, scen = ctx.rng, ctx.scen
    state["kind"] = kind
    if kind == "missing_file":
        area = rng.choice(scen.areas)
        path = f"{area[0]}/{rng.choice(banks.IDENTS)}-{rng.choice(banks.IDENTS)}.ts"
        while path in scen.files or path in ctx.busy:
            path = f"{area[0]}/{rng.choice(banks.IDENTS)}-{rng.randint(2, 999)}.ts"
        state.update(key=path, name="read", args={"path": path})
        state["first"] = f"Error: ENOENT: no such file or directory, open '{path}'"
    elif kind == "stale_edit":
        free = [p for p in ctx.sources() if p not in ctx.busy] or ctx.sources()
        path = rng.choice(free)
        edit = {
            "oldText": ctx.pools.code(60),
            "newText": ctx.pools.code(ctx.pools.size(ctx.config.edit_tokens)),
        }
        state.update(key=path, name="edit", args={"path": path, "edits": [edit]})
        state["first"] = ctx.unique(
            "blocker", lambda: f"Error: oldText not found in {path} (edit {rng.randint(2, 99)})"
        )
    elif kind == "port":
        port = rng.randint(5400, 5499)
        command = f"docker compose up -d db --wait --timeout {rng.randint(20, 90)}"
        state.update(key=command, name="bash", args={"command": command})
        state["first"] = f"Error: bind: address already in use (port {port} for service db)"
    else:
        port = rng.randint(3000, 3999)
        command = f"curl -sf localhost:{port}/healthz"
        state.update(key=command, name="bash", args={"command": command})
        state["first"] = f"Error: connect ECONNREFUSED 127.0.0.1:{port}"
    if kind in ("port", "connection"):
        state["first"] = ctx.unique("blocker", lambda: state["first"])
    state["detail"] = ""
