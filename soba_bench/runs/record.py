"""The typed, versioned records of a run folder: ``run.json`` (:class:`RunRecord`), the rows
of ``sessions.jsonl`` (:class:`SessionRow`) and a resumed job's ``reused.json``
(:class:`ReusedPointer`).

Every reader of run folders (``score``, ``report``, ``compare``, ``tune``) loads these through
:func:`load_record` and friends, so a damaged or foreign file is rejected once, at the door,
with one message naming the file, the field and the value, instead of failing somewhere deep in
a report with a ``KeyError`` or ``AttributeError``. The parsed JSON stays available as
``raw`` for the writers' own fields that no reader needs typed (timings, caches, scoring).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from soba_bench.errors import InputError
from soba_bench.jsonio import iter_jsonl, read_json_object

# 2: status complete|failed, error, jobKey, job, caches. Readers accept exactly the versions
# they know; an older record is named as such (re-run the job), a newer one asks for an
# upgrade, rather than being read with fields it may not have.
RECORD_SCHEMA_VERSION = 2
READABLE_VERSIONS = frozenset({2})
STATUSES = ("complete", "failed")


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def _check(
    data: Mapping[str, Any], key: str, kind: str, path: Path, *, required: bool = False
) -> Any:
    """``data[key]`` if it has the JSON type ``kind`` (null allowed unless required)."""
    where = str(path)
    if key not in data or data[key] is None:
        if required:
            raise InputError("missing field", path=where, field=key, expected=_a(kind))
        return None
    value = data[key]
    ok = isinstance(value, _TYPES[kind])
    if kind in ("integer", "number") and isinstance(value, bool):
        ok = False  # JSON true is not a number
    if ok and kind == "number" and not math.isfinite(value):
        ok = False
    if not ok:
        raise InputError(
            "wrong type",
            path=where,
            field=key,
            value=value,
            has_value=True,
            expected=_a(kind) + ("" if required else " or null"),
        )
    return value


def _path(data: Mapping[str, Any], dotted: str, kind: str, path: Path) -> Any:
    """A nested value (``resolvedConfig.scorer.scorers``) if every level has the right type:
    the objects on the way must be objects, the leaf of JSON type ``kind`` (or absent/null)."""
    node: Any = data
    parts = dotted.split(".")
    for depth, part in enumerate(parts):
        name = ".".join(parts[: depth + 1])
        last = depth == len(parts) - 1
        value = _check({name: node.get(part)}, name, kind if last else "object", path)
        if value is None:
            return None
        node = value
    return node


def _strings(data: Mapping[str, Any], dotted: str, path: Path) -> tuple[str, ...]:
    values = _path(data, dotted, "array", path) or []
    for value in values:
        if not isinstance(value, str):
            raise InputError(
                "wrong type",
                path=str(path),
                field=dotted,
                value=value,
                has_value=True,
                expected="an array of strings",
            )
    return tuple(values)


def _numbers(data: Mapping[str, Any], key: str, path: Path) -> dict[str, float]:
    """An object whose values are all numbers (or null), e.g. ``totals``."""
    obj = _check(data, key, "object", path) or {}
    for name, value in obj.items():
        if value is not None and (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise InputError(
                "wrong type",
                path=str(path),
                field=f"{key}.{name}",
                value=value,
                has_value=True,
                expected="a number",
            )
    return obj


@dataclass(frozen=True)
class JobInfo:
    """``job`` of a run record: where the job sat in its sweep."""

    id: str | None = None
    num: int | None = None
    overrides: tuple[str, ...] = ()
    sweep: str | None = None
    multirun: bool = False

    @classmethod
    def parse(cls, data: Mapping[str, Any] | None, path: Path) -> JobInfo:
        if data is None:
            return cls()
        prefixed = {f"job.{k}": v for k, v in data.items()}
        overrides = _check(prefixed, "job.overrides", "array", path) or []
        for value in overrides:
            if not isinstance(value, str):
                raise InputError(
                    "wrong type",
                    path=str(path),
                    field="job.overrides",
                    value=value,
                    has_value=True,
                    expected="an array of strings",
                )
        return cls(
            id=_check(prefixed, "job.id", "string", path),
            num=_check(prefixed, "job.num", "integer", path),
            overrides=tuple(overrides),
            sweep=_check(prefixed, "job.sweep", "string", path),
            multirun=bool(_check(prefixed, "job.multirun", "boolean", path)),
        )


@dataclass(frozen=True)
class CorpusRef:
    """One entry of ``corpora``: the corpus a job read and its manifest hash."""

    name: str | None
    manifest_sha256: str | None
    root: str | None = None
    version: str | None = None
    sessions: int | None = None

    @classmethod
    def parse(cls, data: Any, index: int, path: Path) -> CorpusRef:
        if not isinstance(data, dict):
            raise InputError(
                "wrong type",
                path=str(path),
                field=f"corpora[{index}]",
                value=data,
                has_value=True,
                expected="an object",
            )
        d = {f"corpora[{index}].{k}": v for k, v in data.items()}
        p = f"corpora[{index}]."
        return cls(
            name=_check(d, p + "name", "string", path),
            manifest_sha256=_check(d, p + "manifestSha256", "string", path),
            root=_check(d, p + "root", "string", path),
            version=_scalar_text(d.get(p + "version")),
            sessions=_check(d, p + "sessions", "integer", path),
        )


def _scalar_text(value: Any) -> str | None:
    return None if value is None or isinstance(value, dict | list) else str(value)


@dataclass(frozen=True)
class RunRecord:
    """``run.json``: what produced a job's results (see :mod:`soba_bench.sweep.record`)."""

    path: Path
    schema_version: int
    status: str
    run_id: str | None = None
    created_at: str | None = None
    git_revision: str | None = None
    error: str | None = None
    job_key: str | None = None
    job: JobInfo = field(default_factory=JobInfo)
    config: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None
    meter: str | None = None
    strategy: str | None = None
    summarizer: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    corpus_name: str | None = None
    corpora: tuple[CorpusRef, ...] = ()
    inputs_unchanged: bool | None = None
    totals: dict[str, float] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    scoring: dict[str, Any] | None = None
    resolved_config: dict[str, Any] = field(default_factory=dict)
    package: dict[str, Any] = field(default_factory=dict)
    python: str | None = None
    prompt_id: str | None = None
    summarizer_chain: tuple[str, ...] = ()
    scorers: tuple[str, ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def summarizer_name(self) -> str | None:
        return self.summarizer.get("name")

    @property
    def engine_compaction(self) -> dict[str, Any]:
        """The ``compaction`` block of the engine config (SOBA's CompactionConfig keys)."""
        return self.config.get("compaction") or {}

    @property
    def complete(self) -> bool:
        return self.status == "complete"

    @classmethod
    def parse(cls, data: Any, path: Path) -> RunRecord:
        """Validate a parsed ``run.json``; an InputError names the field and its value."""
        if not isinstance(data, dict):
            raise InputError(
                "run.json is not a JSON object",
                path=str(path),
                value=type(data).__name__,
                has_value=True,
                expected="an object {...} written by 'soba-bench run'",
            )
        version = _check(data, "schemaVersion", "integer", path, required=True)
        if version not in READABLE_VERSIONS:
            older = version < min(READABLE_VERSIONS)
            raise InputError(
                "run record from an older soba-bench; re-run the job to read it"
                if older
                else "run record from a newer soba-bench; upgrade soba-bench to read it",
                path=str(path),
                field="schemaVersion",
                value=version,
                has_value=True,
                expected=f"schema version {', '.join(map(str, sorted(READABLE_VERSIONS)))}",
            )
        status = _check(data, "status", "string", path, required=True)
        if status not in STATUSES:
            raise InputError(
                "unknown status",
                path=str(path),
                field="status",
                value=status,
                has_value=True,
                expected=" or ".join(STATUSES),
            )
        corpus = _check(data, "corpus", "object", path) or {}
        corpora = _check(data, "corpora", "array", path) or []
        summarizer = _check(data, "summarizer", "object", path) or {}
        for key in ("name", "promptId", "model"):
            _path(data, f"summarizer.{key}", "string", path)
        _path(data, "config.compaction", "object", path)
        _path(data, "scoring.findings", "object", path)
        _path(data, "resolvedConfig.strategy.name", "string", path)
        for key in ("name", "version", "sobaVersion"):
            _path(data, f"package.{key}", "string", path)
        return cls(
            path=path,
            schema_version=version,
            status=status,
            run_id=_check(data, "runId", "string", path),
            created_at=_check(data, "createdAt", "string", path),
            git_revision=_check(data, "gitRevision", "string", path),
            error=_scalar_text(data.get("error")),
            job_key=_check(data, "jobKey", "string", path),
            job=JobInfo.parse(_check(data, "job", "object", path), path),
            config=_check(data, "config", "object", path) or {},
            variant=_check(data, "variant", "string", path),
            meter=_check(data, "meter", "string", path),
            strategy=_check(data, "strategy", "string", path),
            summarizer=summarizer,
            seed=_check(data, "seed", "integer", path),
            corpus_name=_check({"corpus.name": corpus.get("name")}, "corpus.name", "string", path),
            corpora=tuple(CorpusRef.parse(c, i, path) for i, c in enumerate(corpora)),
            inputs_unchanged=_check(data, "inputsUnchanged", "boolean", path),
            totals=_numbers(data, "totals", path),
            timings=_numbers(data, "timings", path),
            scoring=_check(data, "scoring", "object", path),
            resolved_config=_check(data, "resolvedConfig", "object", path) or {},
            package=_check(data, "package", "object", path) or {},
            python=_check(data, "python", "string", path),
            prompt_id=summarizer.get("promptId"),
            summarizer_chain=_strings(data, "summarizer.chain", path),
            scorers=_strings(data, "resolvedConfig.scorer.scorers", path),
            raw=data,
        )


def load_record(path: Path) -> RunRecord:
    """Read and validate a ``run.json``."""
    return RunRecord.parse(read_json_object(Path(path), "run record (run.json)"), Path(path))


def check_session_name(name: Any, path: Path, line: int | None = None) -> str:
    """A session name as written into a run folder (``corpus/session``): a relative path
    that cannot leave the folder it is joined to."""
    parts = PurePosixPath(name).parts if isinstance(name, str) else ()
    if (
        not isinstance(name, str)
        or not name
        or name.startswith("/")
        or "\\" in name
        or "\x00" in name
        or any(p in ("..", ".") for p in parts)
    ):
        raise InputError(
            "not a session name",
            path=str(path),
            line=line,
            field="session",
            value=name,
            has_value=True,
            expected="a relative name like 'corpus/session' with no '..'",
        )
    return name


@dataclass(frozen=True)
class SessionRow:
    """One row of ``sessions.jsonl``: a replayed session, where its source lives, its counts."""

    session: str
    corpus: str | None
    file: str | None
    corpus_root: str | None
    counts: dict[str, float]
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def source(self) -> Path | None:
        """The corpus file this session was replayed from (for its ground truth), if recorded."""
        if self.file is None or self.corpus_root is None:
            return None
        return Path(self.corpus_root) / self.file

    @classmethod
    def parse(cls, data: dict[str, Any], path: Path, line: int) -> SessionRow:
        where = Path(f"{path}:{line}")
        name = check_session_name(data.get("session"), path, line)
        counts = {}
        for key, value in data.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                counts[key] = value
        return cls(
            session=name,
            corpus=_check(data, "corpus", "string", where),
            file=_check(data, "file", "string", where),
            corpus_root=_check(data, "corpusRoot", "string", where),
            counts=counts,
            raw=data,
        )


def load_sessions(path: Path) -> list[SessionRow]:
    """Every row of a ``sessions.jsonl``; two rows naming one session are an error (their
    replays would be one file)."""
    rows: list[SessionRow] = []
    seen: dict[str, int] = {}
    for line, data in iter_jsonl(Path(path), "sessions.jsonl"):
        row = SessionRow.parse(data, Path(path), line)
        if row.session in seen:
            raise InputError(
                f"session listed twice (also row {seen[row.session]})",
                path=str(path),
                line=line,
                field="session",
                value=row.session,
                has_value=True,
            )
        seen[row.session] = line
        rows.append(row)
    return rows


@dataclass(frozen=True)
class ReusedPointer:
    """``reused.json``: a resumed job whose complete record lives in another folder."""

    path: Path
    job_key: str | None
    record: Path

    @classmethod
    def load(cls, path: Path) -> ReusedPointer:
        data = read_json_object(Path(path), "reused.json")
        record = data.get("record")
        if not isinstance(record, str) or not record:
            raise InputError(
                "reused.json has no record path",
                path=str(path),
                field="record",
                value=record,
                has_value=True,
                expected="the path of the complete run.json it reuses",
            )
        return cls(Path(path), _check(data, "jobKey", "string", Path(path)), Path(record))


# scores/scored.json: written by whoever wrote the score tables beside it (the job, or a later
# 'soba-bench score'), so a reader knows which tables hold scores. The run record cannot say:
# it lists the scorers the job ran, and a re-score with other scorers leaves it unchanged.
SCORED_SCHEMA_VERSION = 1
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class ScoredTables:
    """``scores/scored.json``: the scorers whose tables were written, the failure-mode
    detectors that ran (a silent detector is a 0, a detector that did not run is missing),
    each table's sha256, the matcher that judged the facts and the model files it rested on
    (None in a list written before they were recorded; None models: rules alone). Scores of
    two matchers, or of one matcher with two models, are not comparable: ``compare`` refuses
    such a pair.

    It is written after the tables, so a re-score cut short (killed between two tables)
    leaves the previous list beside newer tables: the digests let a reader see that
    instead of mixing two scorings."""

    path: Path
    scorers: tuple[str, ...]
    detectors: tuple[str, ...]
    tables: dict[str, str] = field(default_factory=dict)
    matcher: str | None = None
    matcher_models: str | None = None
    # scoring.scorer.SCORES_REVISION when written (None: a list written before it existed)
    revision: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "schemaVersion": SCORED_SCHEMA_VERSION,
            "scorers": list(self.scorers),
            "detectors": list(self.detectors),
            "tables": dict(sorted(self.tables.items())),
        }
        if self.matcher is not None:
            out["matcher"] = self.matcher
        if self.matcher_models is not None:
            out["matcherModels"] = self.matcher_models
        if self.revision is not None:
            out["scoresRevision"] = self.revision
        return out

    def check_tables(self) -> None:
        """Raise unless every listed table is the file that was written."""
        for name, digest in self.tables.items():
            table = self.path.parent / name
            try:
                actual = hashlib.sha256(table.read_bytes()).hexdigest()
            except OSError as exc:
                actual = f"unreadable ({exc.strerror or exc})"
            if actual != digest:
                raise InputError(
                    "score table is not the one scores/scored.json lists (changed after "
                    "scoring, or a scoring cut short); run 'soba-bench score' on the run again",
                    path=str(table),
                    field=f"tables.{name}",
                    value=actual,
                    has_value=True,
                    expected=f"sha256 {digest}",
                )

    @classmethod
    def parse(cls, data: dict[str, Any], path: Path) -> ScoredTables:
        version = _check(data, "schemaVersion", "integer", path, required=True)
        if version != SCORED_SCHEMA_VERSION:
            raise InputError(
                "score list from another soba-bench version; score the run again",
                path=str(path),
                field="schemaVersion",
                value=version,
                has_value=True,
                expected=f"schema version {SCORED_SCHEMA_VERSION}",
            )
        _check(data, "scorers", "array", path, required=True)
        tables = _check(data, "tables", "object", path, required=True)
        for name, digest in tables.items():
            # A bare file name: the list must not point a reader outside scores/.
            if "/" in name or "\\" in name or name in ("", ".", ".."):
                raise InputError(
                    "not a table file name",
                    path=str(path),
                    field="tables",
                    value=name,
                    has_value=True,
                    expected="a file name like 'rows.jsonl'",
                )
            if not isinstance(digest, str) or not _SHA256.fullmatch(digest):
                raise InputError(
                    "not a sha256",
                    path=str(path),
                    field=f"tables.{name}",
                    value=digest,
                    has_value=True,
                    expected="64 lowercase hex digits",
                )
        return cls(
            path=path,
            scorers=_strings(data, "scorers", path),
            detectors=_strings(data, "detectors", path),
            tables=dict(tables),
            matcher=_check(data, "matcher", "string", path),
            matcher_models=_check(data, "matcherModels", "string", path),
            revision=_check(data, "scoresRevision", "integer", path),
        )


def load_scored(path: Path, check_tables: bool = True) -> ScoredTables:
    """Read and validate a ``scores/scored.json``, and check the tables it lists (unless a
    reader that reads the tables too checks them there)."""
    scored = ScoredTables.parse(
        read_json_object(Path(path), "score list (scores/scored.json)"), Path(path)
    )
    if check_tables:
        scored.check_tables()
    return scored
