"""Any Hugging Face dataset, through ``datasets.load_dataset``: a hub name, or local
parquet / JSON / JSONL files (read with the packaged loaders, no network), one session per
row. A column mapping says which column holds the conversation and how to read it:

* ``openai-messages``: a ``messages`` list of Chat Completions messages (the default);
* ``sharegpt``: a ``conversations`` list of ``{from, value}`` (human / gpt / system / tool);
* ``nebius/SWE-agent-trajectories``: ``trajectory`` = list of ``{role, text, system_prompt}``
  with roles system / user / ai from SWE-agent's text-action format: an ``ai`` message's last
  fenced code block is its action (a ``bash`` call), the rest its thought; the next ``user``
  message is the observation. ``instance_id`` and ``model_name`` name the session.

* ``text-tools`` (and ``SWE-bench/SWE-smith-trajectories``): a ``messages`` list (or JSON
  string) whose tool calls are written as text, ``<function=NAME>`` blocks answered by
  ``OBSERVATION:`` messages (``text_tools``).

``--column KEY=VALUE`` overrides a mapping's ``messages``, ``id`` (comma-separated
columns), ``role`` or ``content`` key. ``datasets`` is the optional extra ``hf``.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from soba_bench.corpora.importers.base import (
    ImportedSession,
    Importer,
    ImportOptions,
    ImportResult,
    IssueLog,
    SourceFile,
    digest,
    safe_name,
)
from soba_bench.corpora.importers.builder import SessionBuilder
from soba_bench.corpora.importers.openai_messages import MessageConverter
from soba_bench.corpora.importers.source import (
    Where,
    expect_object,
    get,
    iter_jsonl,
    load_json,
    looks_like_jsonl,
    parse_json_text,
)
from soba_bench.corpora.importers.swe_agent import SweConversion, text_of
from soba_bench.corpora.importers.text_tools import TextToolConverter
from soba_bench.errors import InputError, SobaBenchError
from soba_bench.registry import Registry

INSTALL_HINT = "pip install 'soba-bench[hf]' (or: pip install datasets)"
LOCAL_BUILDERS = {".parquet": "parquet", ".json": "json", ".jsonl": "json"}
_FENCE = re.compile(r"^```[^\n`]*$", re.MULTILINE)


class MissingExtraError(SobaBenchError):
    """An optional dependency is not installed."""


@dataclass(frozen=True)
class HFMapping:
    """How one dataset's rows become sessions."""

    name: str
    messages: str
    id_columns: tuple[str, ...] = ()
    role_key: str = "role"
    content_key: str = "content"
    roles: tuple[tuple[str, str], ...] = ()
    style: str = "chat"  # chat (Chat Completions) | swe-agent-text | text-tools
    metadata: tuple[str, ...] = ()

    def with_columns(self, columns: tuple[tuple[str, str], ...]) -> HFMapping:
        fields = {"messages": "messages", "role": "role_key", "content": "content_key"}
        changes: dict[str, Any] = {}
        for key, value in columns:
            if key == "id":
                changes["id_columns"] = tuple(c for c in value.split(",") if c)
            elif key in fields:
                changes[fields[key]] = value
            else:
                raise InputError(
                    "unknown column mapping key",
                    field="column",
                    value=key,
                    has_value=True,
                    expected="messages, id, role or content",
                )
        return replace(self, **changes)


HF_MAPPINGS: Registry[HFMapping] = Registry("hf column mapping")
for _mapping in (
    HFMapping("openai-messages", "messages", ("id",)),
    HFMapping(
        "sharegpt",
        "conversations",
        ("id",),
        "from",
        "value",
        (("human", "user"), ("gpt", "assistant"), ("system", "system"), ("tool", "tool")),
    ),
    HFMapping(
        "nebius/SWE-agent-trajectories",
        "trajectory",
        ("instance_id", "model_name"),
        "role",
        "text",
        (("ai", "assistant"),),
        "swe-agent-text",
        ("instance_id", "model_name", "target", "exit_status"),
    ),
    HFMapping("text-tools", "messages", ("instance_id", "id"), style="text-tools"),
    HFMapping(
        "SWE-bench/SWE-smith-trajectories",
        "messages",
        ("instance_id", "traj_id"),
        style="text-tools",
        metadata=("instance_id", "traj_id", "model", "resolved"),
    ),
):
    HF_MAPPINGS.add(_mapping.name, _mapping)


def split_action(text: str) -> tuple[str, str | None]:
    """(thought, action): SWE-agent's rule, the last fenced code block is the action."""
    fences = list(_FENCE.finditer(text))
    if len(fences) < 2:
        return text, None
    pairs = [(fences[i], fences[i + 1]) for i in range(0, len(fences) - 1, 2)]
    start, end = pairs[-1]
    action = text[start.end() + 1 : end.start()].removesuffix("\n")
    thought = text[: start.start()] + text[end.end() :]
    return thought.strip("\n"), action


def _datasets():
    try:
        import datasets
    except ImportError:
        raise MissingExtraError(
            f"the hf importer needs the optional 'datasets' package: {INSTALL_HINT}"
        ) from None
    return datasets


@contextlib.contextmanager
def _quiet(datasets) -> Iterator[None]:
    enabled = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if enabled:
            datasets.enable_progress_bars()


class HFImporter(Importer):
    name = "hf"
    description = "Hugging Face datasets (hub name, or local parquet/json/jsonl files)"
    patterns = ("*.parquet", "*.jsonl", "*.json")

    def import_file(self, source: SourceFile, options: ImportOptions) -> list[ImportedSession]:
        if not Path(source.path).is_file():
            raise InputError(
                "the hf importer reads dataset files or hub names, not in-memory content",
                path=source.path,
                expected="a local parquet/json/jsonl file",
            )
        return list(self.import_source(source.path, options).sessions)

    def mapping_for(self, src: str, options: ImportOptions) -> HFMapping:
        name = options.hf_mapping or (src if src in HF_MAPPINGS else "openai-messages")
        return HF_MAPPINGS.get(name).with_columns(options.hf_columns)

    def import_source(self, src: str, options: ImportOptions) -> ImportResult:
        mapping = self.mapping_for(src, options)
        datasets = _datasets()
        path = Path(src)
        sessions: list[ImportedSession] = []
        issues = IssueLog(options.lenient)
        with _quiet(datasets), tempfile.TemporaryDirectory(prefix="soba-hf-") as cache:
            if path.exists():
                files = self.discover(src)
                if path.is_dir() and any(f.suffix == ".parquet" for f in files):
                    files = [f for f in files if f.suffix == ".parquet"]  # not *_info.json
                builders = {LOCAL_BUILDERS.get(f.suffix) for f in files}
                if None in builders or len(builders) != 1:
                    raise InputError(
                        "local dataset files must all be parquet, or all json/jsonl",
                        path=src,
                        expected="*.parquet or *.json / *.jsonl files",
                    )
                identity = hashlib.sha256(
                    b"".join(SourceFile.read(f).sha256.encode() for f in files)
                ).hexdigest()
                labels = tuple(f.name for f in files)
                rows = self._load(
                    datasets, src, builders.pop(), [str(f) for f in files], options, cache, issues
                )
            else:
                identity, labels = digest("hf", src, options.hf_split), (src,)
                rows = self._load(datasets, src, src, None, options, None)
            for index, row in rows:
                where = Where(src, None, f"rows[{index}]")
                try:
                    sessions.append(
                        self._row(index, row, mapping, identity, labels, options, issues, where)
                    )
                except InputError as err:
                    issues.record(err)
        if not sessions:
            raise InputError(
                "no rows could be imported",
                path=src,
                expected=f"rows with a '{mapping.messages}' list column",
            )
        description = f"imported from hf: {src} (split {options.hf_split}, mapping {mapping.name})"
        return ImportResult(self.name, tuple(sessions), labels, (), description)

    def _load(
        self, datasets, src, builder, files, options, cache, issues=None
    ) -> Iterator[tuple[int, Any]]:
        if builder == "json" and files is not None:
            # Local JSON rows are read here rather than by the datasets JSON builder: its
            # native reader crashed the process (segfault) on ragged, mixed-type rows, and a
            # bad row must be an InputError naming the file and line, never a crash.
            yield from self._local_json_rows(files, options, issues or IssueLog(options.lenient))
            return
        try:
            if files is not None:
                ds = datasets.load_dataset(
                    builder,
                    data_files=files,
                    split=options.hf_split,
                    cache_dir=cache,
                    keep_in_memory=True,
                )
            else:
                ds = datasets.load_dataset(builder, split=options.hf_split, streaming=True)
            for index, row in enumerate(ds):
                if options.hf_limit is not None and index >= options.hf_limit:
                    break
                yield index, row
        except (InputError, MissingExtraError):
            raise
        except Exception as exc:  # the loaders raise many types; all mean "cannot load"
            raise InputError(
                f"cannot load dataset ({type(exc).__name__}: {exc})",
                path=src,
                expected="a hub dataset name, or local parquet/json/jsonl files",
            ) from None

    def _local_json_rows(self, files, options, issues) -> Iterator[tuple[int, Any]]:
        index = 0
        for name in files:
            source = SourceFile.read(Path(name))
            rows: Iterable[Any]
            if looks_like_jsonl(source.content):
                rows = (row for _, row in iter_jsonl(source, issues))
            else:
                document = load_json(source)
                rows = document if isinstance(document, list) else [document]
            for row in rows:
                if options.hf_limit is not None and index >= options.hf_limit:
                    return
                yield index, row
                index += 1

    def _row(self, index, row, mapping, identity, labels, options, issues, where):
        row = expect_object(row, where, "a dataset row")
        ids = [row.get(c) for c in mapping.id_columns]
        name = "__".join(str(v) for v in ids if v is not None and v != "")
        b = SessionBuilder(
            "hf",
            seed=digest("hf", identity, str(index), name),
            source_label=", ".join(labels),
            source_sha256=identity,
            options=options,
            issues=issues,
        )
        b.origin.update({"mapping": mapping.name, "row": index, "split": options.hf_split})
        for column in mapping.metadata:
            value = row.get(column)
            if isinstance(value, str | int | float | bool) or value is None:
                b.notes.setdefault("columns", {})[column] = value
        column = row.get(mapping.messages)
        if isinstance(column, str) and column.lstrip().startswith("["):
            # Some datasets store the conversation as a JSON string column.
            row = {
                **row,
                mapping.messages: parse_json_text(
                    row[mapping.messages], where.at(mapping.messages)
                ),
            }
        messages = get(row, mapping.messages, "list", where, required=True)
        mw = where.at(mapping.messages)
        roles = dict(mapping.roles)
        if mapping.style == "text-tools":
            TextToolConverter(b).run(messages, mw, mapping.role_key, mapping.content_key, roles)
        elif mapping.style == "swe-agent-text":
            self._swe_text(b, messages, mapping, roles, mw)
        else:
            normalized = [self._chat(m, mapping, roles, mw.at(i)) for i, m in enumerate(messages)]
            MessageConverter(b).run(normalized, mw)
        return b.finish(safe_name(name, f"row-{index:05d}"))

    def _chat(self, message, mapping, roles, where) -> dict[str, Any]:
        message = expect_object(message, where, "a message object")
        role = get(message, mapping.role_key, "string", where, required=True)
        out = {
            k: v
            for k, v in message.items()
            if k in ("tool_calls", "tool_call_id", "name", "function_call", "reasoning_content")
        }
        out["role"] = roles.get(role, role)
        out["content"] = message.get(mapping.content_key)
        return out

    def _swe_text(self, b, messages, mapping, roles, where) -> None:
        conv = SweConversion(b, where)
        for i, message in enumerate(messages):
            mw = where.at(i)
            role = message.get(mapping.role_key) if isinstance(message, dict) else None
            b.at(f"message:{role}" if isinstance(role, str) else "message", mw)
            try:
                message = expect_object(message, mw, "a trajectory message object")
                role = get(message, mapping.role_key, "string", mw, required=True)
                role = roles.get(role, role)
                text = text_of(message.get(mapping.content_key), mw.at(mapping.content_key))
                if role == "system":
                    prompt = get(message, "system_prompt", "string", mw)
                    b.message("system", text or prompt or "", key=f"t{i}")
                elif role == "assistant":
                    thought, action = split_action(text)
                    if action is not None and action.strip():
                        conv.action(f"swe-{i}", thought, action, f"t{i}")
                    else:
                        b.message("assistant", text, key=f"t{i}")
                elif role == "user":
                    if conv.pending is not None:
                        conv.output(conv.pending[0], text, f"t{i}")
                    else:
                        b.message("user", text, key=f"t{i}", goal=True)
                        conv.files.observe(text)
                else:
                    raise mw.at(mapping.role_key).error(
                        "unknown role", value=role, has_value=True, expected="system, user, ai"
                    )
            except InputError as err:
                b.record(err)
