"""A local OpenAI-compatible server for a GGUF model: llama.cpp's own HTTP server, embedded
by the ``xllamacpp`` wheel (the ``local-llm`` extra). It listens on 127.0.0.1 only.

* :func:`serve` runs it in this process until SIGTERM/SIGINT (``soba-bench serve-model``).
* :class:`LocalServer` starts ``soba-bench serve-model`` as a child process on a free port,
  waits until ``/health`` answers, and stops it on exit. A child process, not an in-process
  server, so that the model's memory and native threads go away with it and a crash in
  native code cannot take the harness down.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import ConfigError, HarnessFault
from soba_bench.jsonio import atomic_write_bytes
from soba_bench.models.local_models import DEFAULT_LOCAL_MODEL, LOCAL_MODELS, model_path

log = logging.getLogger("soba_bench.models.local_server")

HOST = "127.0.0.1"
READY_TIMEOUT_S = 180.0
STOP_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class ServerOptions:
    model: str = DEFAULT_LOCAL_MODEL
    port: int = 0  # 0: a free port, chosen by the server
    n_ctx: int = 16_384  # SOBA's prompts for a 150-entry span reach ~10k tokens
    threads: int | None = None  # None: every core the process may use
    parallel: int = 1  # one slot: summaries are sequential within a replay
    # Prompt tokens per decoding step. The server notices a cancelled request (its client gone:
    # an abandoned timeout) only between steps, so this bounds how long an abandoned prompt
    # keeps a core busy: a 512-token step took about 20 s on one shared core of the 2-core
    # machine, a 64-token one a few seconds (tests/integration/test_local_model.py).
    batch: int = 512

    def args(self) -> list[str]:
        out = ["--model", self.model, "--port", str(self.port), "--ctx", str(self.n_ctx)]
        if self.threads is not None:
            out += ["--threads", str(self.threads)]
        return [*out, "--parallel", str(self.parallel), "--batch", str(self.batch)]


# llama.cpp's threads meet at a barrier after every layer, so one thread descheduled by
# another busy process stalls them all: with one other busy process on the 2-core machine,
# the probe test (tests/integration/test_probes_local.py) took 61 s on two threads and 49 s
# on one. A count set here applies to servers started without one; unset = every core.
THREADS_ENV = "SOBA_BENCH_LLM_THREADS"


def _threads(requested: int | None) -> int:
    if requested:
        return requested
    raw = os.environ.get(THREADS_ENV, "").strip()
    if raw:
        if not raw.isdigit() or int(raw) < 1:
            raise ConfigError(
                f"environment variable {THREADS_ENV}: value {raw!r} is not a positive integer "
                "(the local model server's thread count; unset it for one per core)"
            )
        return int(raw)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def start_in_process(options: ServerOptions) -> Any:
    """An ``xllamacpp.Server`` serving ``options.model`` (alias = the model name). The server
    stops when the returned object is garbage-collected."""
    try:
        import xllamacpp as xlc
    except ImportError:
        raise HarnessFault(
            "the local model server needs the 'local-llm' extra: pip install -e '.[local-llm]'"
        ) from None
    path = model_path(options.model)
    params = xlc.CommonParams()
    params.model.path = str(path)
    params.hostnames = [HOST]
    params.port = options.port
    params.n_ctx = options.n_ctx
    params.n_parallel = options.parallel
    params.n_batch = options.batch  # ServerOptions.batch says why it is bounded
    params.cpuparams.n_threads = params.cpuparams_batch.n_threads = _threads(options.threads)
    params.ui = False
    params.offline = True  # never fetch anything
    params.model_alias = {options.model}  # a set: a bare str would become its characters
    return xlc.Server(params)


def wait_ready(url: str, timeout_s: float = READY_TIMEOUT_S, process=None) -> None:
    """Poll ``GET /health`` until 200 (it answers 503 while the model loads)."""
    end = time.monotonic() + timeout_s
    while True:
        if process is not None and process.poll() is not None:
            raise HarnessFault(f"the model server exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=5) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        if time.monotonic() > end:
            raise HarnessFault(f"the model server at {url} was not ready after {timeout_s:.0f}s")
        time.sleep(0.2)


def serve(
    options: ServerOptions, url_file: Path | None = None, ready=None, exit_with_parent=False
) -> None:
    """Serve until SIGTERM or SIGINT (or, with ``exit_with_parent``, until the process that
    started this one is gone); print (and optionally write) the base URL when ready."""
    parent = os.getppid()
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    started = time.monotonic()
    server = start_in_process(options)
    url = server.listening_address
    wait_ready(url)
    info = {
        "url": url,
        "base_url": url + "/v1",
        "model": options.model,
        "loadSeconds": round(time.monotonic() - started, 2),
    }
    if url_file is not None:
        # Readers never see a partial file.
        atomic_write_bytes(url_file, json.dumps(info).encode("utf-8"))
    print(f"soba-bench serve-model: {options.model} at {info['base_url']}", flush=True)
    if ready is not None:
        ready(info)
    while not stop.wait(0.5):
        if exit_with_parent and os.getppid() != parent:
            break  # the harness died without stopping us (a signal skips its atexit)
    del server  # xllamacpp stops its HTTP and main loops in the destructor


class LocalServer:
    """``with LocalServer() as srv: srv.base_url`` - a child ``serve-model`` process."""

    def __init__(self, options: ServerOptions | None = None) -> None:
        self.options = options or ServerOptions()
        LOCAL_MODELS.get(self.options.model)  # an unknown name fails here, with the valid ones
        self.process: subprocess.Popen | None = None
        self.url: str | None = None
        self.load_seconds: float | None = None
        self._dir: tempfile.TemporaryDirectory | None = None

    @property
    def base_url(self) -> str:
        if self.url is None:
            raise HarnessFault("the local model server is not running")
        return self.url + "/v1"

    def start(self) -> LocalServer:
        if self.process is not None:
            return self
        model_path(self.options.model)  # join and verify here: a clear error, in this process
        self._dir = tempfile.TemporaryDirectory(prefix="soba-bench-llm-")
        url_file = Path(self._dir.name) / "server.json"
        log_file = open(Path(self._dir.name) / "server.log", "wb")  # noqa: SIM115
        cmd = [sys.executable, "-m", "soba_bench", "serve-model", *self.options.args()]
        cmd += ["--url-file", str(url_file), "--exit-with-parent"]
        self.process = subprocess.Popen(
            cmd, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
        )
        log_file.close()
        end = time.monotonic() + READY_TIMEOUT_S
        while not url_file.is_file():
            if self.process.poll() is not None or time.monotonic() > end:
                tail = self.log_tail()
                self.stop()
                raise HarnessFault(f"the local model server did not start:\n{tail}")
            time.sleep(0.1)
        info = json.loads(url_file.read_text())
        self.url, self.load_seconds = info["url"], info["loadSeconds"]
        wait_ready(self.url, process=self.process)
        return self

    def log_tail(self, lines: int = 20) -> str:
        if self._dir is None:
            return ""
        path = Path(self._dir.name) / "server.log"
        text = path.read_text(errors="replace") if path.is_file() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.url = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def __enter__(self) -> LocalServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# The placeholder host of an auto-started local server: its real port changes every run and
# is not part of the cache key, so records name the model instead of the port.
LOCAL_ORIGIN = "http://127.0.0.1"


# Local servers started on first need (by the "local" summarizer or a "local" probe backend),
# shared per options, so both use one process, and stopped at exit.
_SERVERS: dict[ServerOptions, LocalServer] = {}
_SERVERS_LOCK = threading.Lock()


def shared_local_server(options: ServerOptions) -> LocalServer:
    """The running server for ``options``, started on the first call."""
    with _SERVERS_LOCK:
        server = _SERVERS.get(options)
        if server is None:
            server = _SERVERS[options] = LocalServer(options).start()
        return server


@atexit.register
def stop_local_servers() -> None:
    """Stop every server started through :func:`shared_local_server` (also for tests)."""
    with _SERVERS_LOCK:
        servers = list(_SERVERS.values())
        _SERVERS.clear()
    for server in servers:
        server.stop()
