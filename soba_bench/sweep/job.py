"""One job: replay every session of the corpus with the job's engine config, variant, strategy
and summarizer, score it, and write the job's folder (see :mod:`soba_bench.sweep.store`).

Resume: a job whose complete record (same job key) is already in its folder, or, in a sweep,
anywhere under the sweep's results root, is not run again. A job killed half-way left no
``run.json`` (it is written last, atomically), so it is redone from scratch.
"""

from __future__ import annotations

import logging
import sys
import time
import traceback
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.compactors import get_compactor
from soba_bench.errors import OutputError, SobaBenchError
from soba_bench.jsonio import remove_stale_temps
from soba_bench.meter import CachedMeter, share_counts
from soba_bench.replay.output import replayed_session_lines
from soba_bench.runs.layout import RunLayout, write_json, write_jsonl
from soba_bench.scoring import embeddings
from soba_bench.scoring.portable import sanitize_value
from soba_bench.scoring.runner import truth_for, write_scores
from soba_bench.scoring.session import score_replay
from soba_bench.session import read_session
from soba_bench.session.model import Session
from soba_bench.sweep import console
from soba_bench.sweep.inputs import check_unchanged, hash_inputs
from soba_bench.sweep.jobspec import JobSpec
from soba_bench.sweep.progress import job_bar, mark_done
from soba_bench.sweep.record import base_record
from soba_bench.sweep.store import JobIndex
from soba_bench.sweep.tables import write_parquet

log = logging.getLogger("soba_bench.sweep.job")

# Parsed sessions kept per process: a launcher worker runs many jobs over the same corpus, and
# parsing a long session costs more than replaying it. Keyed by file and manifest sha256;
# replays never modify a Session (they copy what they append).
SESSION_CACHE_SIZE = 64
_SESSIONS: OrderedDict[tuple[str, str], Session] = OrderedDict()


def load_session(path: Path, sha256: str) -> Session:
    key = (str(path), sha256)
    session = _SESSIONS.get(key)
    if session is None:
        session = _SESSIONS[key] = read_session(path)
        while len(_SESSIONS) > SESSION_CACHE_SIZE:
            _SESSIONS.popitem(last=False)
    else:
        _SESSIONS.move_to_end(key)
    return session


@dataclass(frozen=True)
class JobContext:
    """Where a job runs and how it reports (filled in by the Hydra app)."""

    out_dir: Path
    job_id: str
    multirun: bool = False
    job_num: int | None = None
    overrides: tuple[str, ...] = ()
    sweep_name: str | None = None
    sweep_dir: Path | None = None  # where the sweep monitor's markers go
    index_root: Path | None = None  # results root searched for complete records by job key
    tables: bool = True  # print the per-session table and scores (single runs)
    bars: bool = False
    bar_position: int = 0


@dataclass
class JobOutcome:
    status: str  # complete | failed | reused
    job_id: str
    folder: Path
    record: dict[str, Any] | None = None
    exit_code: int = 0
    line: str = ""


def run_job(config: dict[str, Any], ctx: JobContext) -> JobOutcome:
    """Run (or resume) one job from its resolved config; never raises for a failed job: the
    failure is recorded in run.json (status ``failed``, ``error``) and returned."""
    started = time.perf_counter()
    layout = RunLayout(ctx.out_dir)
    spec: JobSpec | None = None
    try:
        try:
            layout.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(str(layout.root), exc.strerror or str(exc)) from None
        spec = JobSpec.from_config(config)
        key = spec.key
        # Temp files of writes a kill cut short (pid gone): in this job's folder, and in the
        # index when a job died between writing an entry and renaming it.
        remove_stale_temps(layout.root)
        if ctx.index_root is not None:
            remove_stale_temps(ctx.index_root / ".index")
        if config.get("resume", True):
            reused = _reuse(spec, key, layout, ctx)
            if reused is not None:
                return _finish(ctx, reused)
        layout.clear_outputs()
        record = _execute(spec, key, layout, ctx, started)
        if ctx.index_root is not None:
            JobIndex(ctx.index_root).add(key, layout.root)
        line = console.job_line(ctx.job_id, "complete", record)
        return _finish(ctx, JobOutcome("complete", ctx.job_id, layout.root, record, line=line))
    except Exception as exc:  # recorded, reported, and the sweep goes on
        expected = isinstance(exc, SobaBenchError)
        error = str(exc) if expected else f"{type(exc).__name__}: {exc}"
        record = base_record(
            ctx.job_id,
            kind="corpus-replay",
            status="failed",
            error=error,
            traceback=None if expected else traceback.format_exc(),
            jobKey=spec.key if spec is not None else None,
            job=_job_info(ctx),
            resolvedConfig=config,
            timings={"wallSeconds": round(time.perf_counter() - started, 3)},
        )
        try:
            write_json(layout.record, record)
        except OutputError as write_error:  # read-only folder, full disk: say so, go on
            record["error"] = f"{error}; {write_error}"
        if not expected:
            log.error("job %s failed:\n%s", ctx.job_id, record["traceback"])
        code = exc.exit_code if isinstance(exc, SobaBenchError) else 1
        line = console.job_line(ctx.job_id, "failed", record)
        return _finish(ctx, JobOutcome("failed", ctx.job_id, layout.root, record, code, line))


def _finish(ctx: JobContext, outcome: JobOutcome) -> JobOutcome:
    if ctx.multirun and ctx.sweep_dir is not None:
        mark_done(ctx.sweep_dir, ctx.job_id, outcome.status, outcome.line)
    return outcome


def _job_info(ctx: JobContext) -> dict[str, Any]:
    return {
        "id": ctx.job_id,
        "num": ctx.job_num,
        "overrides": list(ctx.overrides),
        "sweep": ctx.sweep_name,
        "multirun": ctx.multirun,
    }


def _reuse(spec: JobSpec, key: str, layout: RunLayout, ctx: JobContext) -> JobOutcome | None:
    """A complete record of this job key: in this folder, or indexed under the results root."""
    found = layout.complete_record(key)
    if found is not None:
        if ctx.index_root is not None:  # a kill may have come between run.json and the index
            JobIndex(ctx.index_root).add(key, layout.root)
        line = console.job_line(ctx.job_id, "reused", found.raw, "already complete")
        return JobOutcome("reused", ctx.job_id, layout.root, found.raw, line=line)
    if ctx.index_root is None:
        return None
    folder = JobIndex(ctx.index_root).lookup(key)
    if folder is None or folder.resolve() == layout.root.resolve():
        return None
    found = RunLayout(folder).complete_record(key)
    if found is None:  # removed or damaged since the index was read
        return None
    record = found.raw
    write_json(
        layout.reused,
        {"status": "reused", "jobKey": key, "record": str(folder.resolve() / "run.json")},
    )
    line = console.job_line(ctx.job_id, "reused", record, f"complete in {folder}")
    return JobOutcome("reused", ctx.job_id, layout.root, record, line=line)


def _outcome_kind(attempt: dict[str, Any]) -> str:
    return "/".join(str(attempt.get(k) or "-") for k in ("outcome", "strategy", "quality"))


def _meters(spec: JobSpec, config: dict[str, Any]) -> list[CachedMeter]:
    """Attach the shared token-count store to the job's cached meters (tiktoken)."""
    path = (config.get("cache") or {}).get("token_counts")
    if not path:
        return []
    names = {spec.options.meter, spec.options.provider_meter or spec.options.meter}
    if spec.score is not None:
        names.add(spec.score.meter)
    meters = [share_counts(name, path) for name in sorted(names)]
    return [m for m in meters if m is not None]


def _execute(
    spec: JobSpec, key: str, layout: RunLayout, ctx: JobContext, started: float
) -> dict[str, Any]:
    config = spec.config
    meters = _meters(spec, config)
    before = {id(m): (m.hits, m.misses) for m in meters}
    embeddings.use_store((config.get("cache") or {}).get("embeddings"))  # resets its stats
    # JobSpec loads its corpora verified; checked again before run.json is written.
    input_hashes = hash_inputs(spec.corpora, verified=True)
    strategy = get_compactor(spec.strategy)
    columns = {
        "jobId": ctx.job_id,
        "jobKey": key,
        "variant": spec.options.variant,
        "jobStrategy": spec.strategy,  # "strategy" in attempt lines is the capsule strategy
        "summarizer": spec.context.summarizer,
        **{k: v for k, v in config["engine"].items() if v is not None},
    }
    engine = spec.engine
    for note in engine.adaptations():  # once per job: SOBA itself adapts silently
        print(f"soba-bench run: warning: {note}", file=sys.stderr)
    total = sum(len(c.sessions) for c in spec.corpora)
    # Two sessions mapping to one output file would overwrite each other: refuse up front.
    layout.output_paths([f"{c.name}/{item.name}" for c in spec.corpora for item in c.sessions])
    if ctx.tables:
        names = ", ".join(f"{c.name} ({len(c.sessions)} sessions)" for c in spec.corpora)
        print(
            f"soba-bench run: {names}; engine {spec.options.variant}, window "
            f"{engine.contextWindow}/{engine.maxOutputTokens}, hard limit {engine.hardLimit}"
        )
        print(console.header_row())
    bar = job_bar(total, ctx.job_id, ctx.bars, ctx.bar_position, leave=not ctx.multirun)
    rows: list[dict[str, Any]] = []
    attempts: list[dict[str, Any]] = []
    barriers: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    all_scores = []
    summarizer: dict[str, Any] = {}
    replay_s = score_s = 0.0
    for corpus in spec.corpora:
        for item in corpus.sessions:
            name = f"{corpus.name}/{item.name}"
            session = load_session(item.path, item.sha256)
            tick = time.perf_counter()
            run = strategy(session, spec.context)
            replay_s += time.perf_counter() - tick
            trace, summarizer = run.trace, run.summarizer
            row = {
                **console.session_row(name, trace),
                "corpus": corpus.name,
                "file": item.file,
                "corpusRoot": str(corpus.root),
            }
            rows.append(row)
            if ctx.tables:
                bar.write(console.format_row(row), file=None)
            write_jsonl(layout.replay(name), replayed_session_lines(session, trace), raw=True)
            checks = trace.check_lines()
            write_jsonl(layout.barriers(name), checks)
            # Exported capsules get SOBA's sanitizer (replays/ keep the raw record for scoring).
            write_jsonl(
                layout.capsules(name), [sanitize_value(c) for c in trace.capsules], raw=True
            )
            where = {**columns, "corpus": corpus.name, "session": name}
            barriers += [{**where, **b.to_line()} for b in trace.barriers]
            attempts += [{**where, **a} for a in trace.attempts]
            events += [{"session": name, **e} for e in trace.events]
            if spec.score is not None:
                tick = time.perf_counter()
                truth = truth_for(item.path)
                all_scores.append(score_replay(name, trace.entries, truth, spec.score, checks))
                score_s += time.perf_counter() - tick
            bar.update(1)
    bar.close()
    totals = {n: sum(r[n] for r in rows) for n in console.TOTAL_COLUMNS}
    tick = time.perf_counter()
    scoring = (
        write_scores(layout, all_scores, spec.options.seed, config=spec.score)
        if all_scores and spec.score is not None
        else None
    )
    write_jsonl(layout.events, events)
    write_parquet(layout.table("attempts"), attempts)
    write_parquet(layout.table("barriers"), barriers)
    write_jsonl(layout.sessions, rows)
    for meter in meters:
        meter.flush()
    embeddings.flush_store()
    write_s = time.perf_counter() - tick
    input_files = check_unchanged(input_hashes, spec.corpora)
    if not summarizer:  # an empty corpus still says what would have written the capsules
        summarizer = {"name": spec.context.summarizer}
    cache_stats = {}
    for meter in meters:
        hits0, misses0 = before[id(meter)]
        hits, misses = meter.hits - hits0, meter.misses - misses0
        cache_stats[meter.name] = {
            "hits": hits,
            "misses": misses,
            "hitRate": round(hits / (hits + misses), 6) if hits + misses else None,
            "store": str(meter.store.path) if meter.store is not None else None,
        }
    elapsed = time.perf_counter() - started
    record = base_record(
        ctx.job_id,
        kind="corpus-replay",
        status="complete",
        error=None,
        jobKey=key,
        job=_job_info(ctx),
        config=engine.to_dict(),
        compactionRequested=engine.compactionRequested.to_dict(),
        variant=spec.options.variant,
        meter=spec.options.meter,
        strategy=spec.strategy,
        summarizer=summarizer,
        seed=spec.options.seed,
        corpus={"name": config["corpus"]["name"]},
        corpora=[
            {
                "name": c.name,
                "version": c.version,
                "manifestSha256": c.manifest_sha256,
                "root": str(c.root),
                "sessions": len(c.sessions),
            }
            for c in spec.corpora
        ],
        inputsUnchanged=True,
        # outcome/strategy/quality per attempt: degraded fallbacks and failures are counted
        attemptOutcomes=dict(Counter(_outcome_kind(a) for a in attempts)),
        inputFiles=input_files,
        totals=totals,
        scoring=scoring,
        caches={"tokenCounts": cache_stats, "embeddings": embeddings.store_stats()},
        timings={
            "wallSeconds": round(elapsed, 3),
            "replaySeconds": round(replay_s, 3),
            "scoreSeconds": round(score_s, 3),
            "writeSeconds": round(write_s, 3),
        },
        resolvedConfig=config,
    )
    write_json(layout.record, record)  # last: a folder with a complete run.json is done
    if ctx.tables:
        print(console.format_row({"session": "total", **totals}))
        if scoring:
            print(console.format_scores(scoring))
        print(f"replayed {totals['entries']} entries in {elapsed:.2f} s")
        print(f"run record: {layout.record}")
    return record
