"""``soba``: SOBA's compaction engine as shipped (or a named variant), replayed over the
session by the agent-loop simulator; the job's summarizer supplies the capsule strategy chain
and the clock."""

from __future__ import annotations

import inspect
from typing import Any

from soba_bench.compactors import COMPACTORS, CompactorContext, SessionRun
from soba_bench.errors import ConfigError
from soba_bench.replay.simulator import replay_session
from soba_bench.session.model import Session
from soba_bench.summarizers import SUMMARIZERS, build_summarizer

# Passed to every summarizer factory that takes them (the sweep config or an experiment sets
# them for all summarizers: `experiment=local_model summarizer=deterministic` keeps the
# experiment's response-cache mode, which a summarizer without a model has no use for); any
# other unknown key is the factory's own error, so typos never pass.
OPTIONAL_KEYS = ("cache_path", "api_key_env", "cache")


def summarizer_kwargs(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """``params`` minus the optional keys the factory of ``name`` does not take."""
    parameters = inspect.signature(SUMMARIZERS.get(name)).parameters.values()
    takes_any = any(p.kind is p.VAR_KEYWORD for p in parameters)
    accepted = {p.name for p in parameters}
    return {k: v for k, v in params.items() if k not in OPTIONAL_KEYS or takes_any or k in accepted}


@COMPACTORS.register("soba")
def soba(session: Session, ctx: CompactorContext) -> SessionRun:
    if ctx.params:  # it takes none: a given one is a typo, never silently ignored
        first = sorted(ctx.params)[0]
        raise ConfigError(
            f"strategy 'soba': unknown parameter(s) {', '.join(sorted(ctx.params))}; valid: "
            f"(none) (field strategy.params.{first}, value {ctx.params[first]!r})"
        )
    # A fresh summarizer per session: model strategies and clocks may keep per-session state.
    params = summarizer_kwargs(ctx.summarizer, dict(ctx.summarizer_params))
    spec = build_summarizer(ctx.summarizer, **params)
    trace = replay_session(session, ctx.engine, ctx.options, chain=spec.chain, clock=spec.clock)
    return SessionRun(trace, spec.record())
