"""Finding the jobs of two result folders and pairing them by config.

A job's config is what its run record says it computed from: the resolved engine keys, the
variant, strategy, summarizer (name, parameters, prompt id), corpora (name and manifest hash),
scorer, replay options and seed. Locations (result and cache paths) and the package version
are left out, so the same config run from two checkouts pairs (the engine-change use case).

The pairing rule: a key whose value is the same for every BASE job and the same for every
CAND job, but differs between the two sides, is *under test* (a prompt id, a variant, a
strategy, an engine key...). Jobs pair when every other key agrees. Keys that vary within a
side are sweep dimensions, so a BASE sweep and a CAND sweep over the same grid pair point by
point, and grid points present on one side only are listed as unpaired.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from soba_bench.errors import InputError
from soba_bench.runs import find_records

_MISSING = "(unset)"


@dataclass(frozen=True)
class Job:
    """One complete job of a result folder."""

    folder: Path
    job_id: str
    job_key: str | None
    config: tuple[tuple[str, str], ...]  # flat, sorted (key, JSON value)

    @property
    def settings(self) -> dict[str, str]:
        return dict(self.config)


@dataclass(frozen=True)
class JobPair:
    """A BASE job and the CAND job with the same config (keys under test aside)."""

    label: str  # the sweep coordinates that tell this pair from the others ("" if alone)
    base: Job
    cand: Job


@dataclass(frozen=True)
class Pairing:
    pairs: tuple[JobPair, ...]
    tested: tuple[tuple[str, str, str], ...]  # (key, base value, cand value)
    unpaired_base: tuple[str, ...]  # job ids
    unpaired_cand: tuple[str, ...]
    failed: tuple[str, ...]  # failed jobs seen on either side (never paired)


def _value(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def show(value: str) -> str:
    """A flat config value for people: strings without their JSON quotes."""
    try:
        decoded = json.loads(value)
    except ValueError:
        return value
    return decoded if isinstance(decoded, str) else value


def _flatten(prefix: str, data: Any, out: dict[str, str]) -> None:
    if isinstance(data, dict):  # an empty mapping sets nothing
        for key, value in data.items():
            _flatten(f"{prefix}.{key}" if prefix else str(key), value, out)
    else:
        out[prefix] = _value(data)


def job_config(record: dict[str, Any]) -> dict[str, str]:
    """The flat config of a run record (dotted keys -> JSON values) used for pairing."""
    resolved = record.get("resolvedConfig") or {}
    engine = dict(record.get("config") or {})
    engine.update(engine.pop("compaction", {}) or {})
    summarizer = record.get("summarizer") or {}
    out: dict[str, str] = {}
    _flatten("engine", engine, out)
    _flatten("variant", record.get("variant"), out)
    _flatten("strategy", record.get("strategy"), out)
    _flatten("strategy.params", (resolved.get("strategy") or {}).get("params") or {}, out)
    _flatten("summarizer", summarizer.get("name"), out)
    _flatten("summarizer.promptId", summarizer.get("promptId"), out)
    _flatten("summarizer.params", (resolved.get("summarizer") or {}).get("params") or {}, out)
    corpora = [f"{c.get('name')}@{c.get('manifestSha256')}" for c in record.get("corpora") or []]
    out["corpora"] = _value(corpora)
    scorer = {k: v for k, v in (resolved.get("scorer") or {}).items() if k != "name"}
    out["scorer"] = _value(scorer)
    _flatten("replay", resolved.get("replay") or {}, out)
    out["meter"] = _value(record.get("meter"))
    out["seed"] = _value(record.get("seed"))
    return out


def find_jobs(path: str | Path, side: str) -> tuple[list[Job], list[str]]:
    """The complete jobs under a run folder or a sweep folder (and the ids of failed ones)."""
    root = Path(path)
    if not root.is_dir():
        raise InputError(
            f"{side} is not a folder", path=str(root), expected="a run or sweep folder"
        )
    jobs: list[Job] = []
    failed: list[str] = []
    seen: set[str | None] = set()  # None (no key) never counts as seen, see below
    found, _notes = find_records(root)
    for item in found:
        record = item.record
        job_id = str((record.get("job") or {}).get("id") or record.get("runId") or item.folder.name)
        if record.get("status") != "complete":
            failed.append(job_id)
            continue
        key: str | None = record.get("jobKey")
        if key is not None and key in seen:
            continue  # the same computation found twice (e.g. two folders reusing one record)
        seen.add(key)
        jobs.append(Job(item.folder, job_id, key, tuple(sorted(job_config(record).items()))))
    if not jobs:
        raise InputError(
            f"no complete run under the {side} folder",
            path=str(root),
            expected="a folder written by 'soba-bench run' (run.json with status complete)",
        )
    return jobs, failed


def _values(jobs: list[Job], key: str) -> set[str]:
    return {j.settings.get(key, _MISSING) for j in jobs}


def pair_jobs(base: list[Job], cand: list[Job], failed: tuple[str, ...] = ()) -> Pairing:
    """Pair by config under the rule in this module's docstring."""
    keys = sorted({k for j in (*base, *cand) for k in j.settings})
    tested = []
    for key in keys:
        b, c = _values(base, key), _values(cand, key)
        if len(b) == 1 and len(c) == 1 and b != c:
            tested.append((key, next(iter(b)), next(iter(c))))
    under_test = {t[0] for t in tested}
    rest = [k for k in keys if k not in under_test]
    varying = [k for k in rest if len(_values(base, k) | _values(cand, k)) > 1]

    def coordinates(job: Job) -> tuple[str, ...]:
        return tuple(job.settings.get(k, _MISSING) for k in rest)

    by_coords: dict[tuple[str, ...], Job] = {}
    for job in base:
        other = by_coords.setdefault(coordinates(job), job)
        if other is not job:
            raise InputError(
                f"two BASE jobs have the same config ({other.job_id}, {job.job_id})",
                path=str(job.folder),
                expected="one job per config on each side",
            )
    pairs, unpaired_cand, used = [], [], set()
    for job in cand:
        coords = coordinates(job)
        match = by_coords.get(coords)
        if match is None or coords in used:
            unpaired_cand.append(job.job_id)
            continue
        used.add(coords)
        label = ",".join(f"{k}={show(match.settings.get(k, _MISSING))}" for k in varying)
        pairs.append(JobPair(label, match, job))
    unpaired_base = [j.job_id for c, j in by_coords.items() if c not in used]
    pairs.sort(key=lambda p: p.label)
    return Pairing(
        tuple(pairs), tuple(tested), tuple(unpaired_base), tuple(unpaired_cand), tuple(failed)
    )
