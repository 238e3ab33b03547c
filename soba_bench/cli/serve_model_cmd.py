"""Serve a local GGUF model on 127.0.0.1 with an OpenAI-compatible API, until Ctrl-C.

  soba-bench serve-model [--model NAME] [--port P] [--ctx N] [--threads N] [--batch N]
                        [--url-file F]

The model comes from an installed package (the local-llm extra; nothing is downloaded): its
parts are joined once into ~/.cache/soba-bench/models (or $SOBA_BENCH_MODEL_DIR) and checked
against a pinned sha256. Point the "model" summarizer at the printed base URL
(base_url=http://127.0.0.1:P/v1, model=NAME), or let the "local" summarizer start its own.
--port 0 (the default) picks a free port; --url-file writes {"url", "base_url", "model",
"loadSeconds"} as JSON once the server answers /health.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from soba_bench.models.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS
from soba_bench.models.local_server import ServerOptions, serve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        default=DEFAULT_LOCAL_MODEL,
        help=f"local model name (default {DEFAULT_LOCAL_MODEL}; one of "
        + ", ".join(LOCAL_MODELS.names())
        + ")",
    )
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    parser.add_argument("--ctx", type=int, default=ServerOptions.n_ctx, help="context tokens")
    parser.add_argument("--threads", type=int, help="CPU threads (default: all available)")
    parser.add_argument("--parallel", type=int, default=1, help="concurrent request slots")
    parser.add_argument(
        "--batch",
        type=int,
        default=ServerOptions.batch,
        help="prompt tokens per decoding step (a cancelled request stops between steps)",
    )
    parser.add_argument("--url-file", type=Path, help="write the server's URLs here when ready")
    parser.add_argument(
        "--exit-with-parent", action="store_true", help="stop when the starting process exits"
    )


def run(args: argparse.Namespace) -> int:
    LOCAL_MODELS.get(args.model)  # unknown names list the valid ones
    options = ServerOptions(
        args.model, args.port, args.ctx, args.threads, args.parallel, args.batch
    )
    serve(options, args.url_file, exit_with_parent=args.exit_with_parent)
    return 0
