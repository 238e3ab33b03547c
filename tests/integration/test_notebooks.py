"""The research notebooks: stored without outputs, and each one executes top to bottom with
nbclient on a kernel of this interpreter (nothing registered globally), producing its figures.
Each runs its own small sweep into a temporary results folder (SOBA_BENCH_RESULTS)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest

from soba_bench.tune import load_recommendation

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
# notebook -> how many figures it must display
FIGURES = {
    "threshold_tuning": 3,
    "prompt_regression": 2,
    "strategy_comparison": 3,
    "peer_policies": 3,
}

# notebook -> sessions each of its jobs replays under SOBA_BENCH_CORPUS_LIMIT=1 (the others: 10)
LIMITED = {"threshold_tuning": 1, "strategy_comparison": 1, "peer_policies": 1}


def _kernel_manager(tmp_path: Path):
    """A kernel manager whose only kernelspec runs ipykernel in this interpreter, from a
    private kernelspec folder (no user or system kernelspec is read or written)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    spec_dir = tmp_path / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec = {"argv": argv, "display_name": "soba-bench", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    specs = KernelSpecManager(kernel_dirs=[str(spec_dir.parent)], ensure_native_kernel=False)
    return KernelManager(kernel_name="python3", kernel_spec_manager=specs)


@pytest.fixture
def kernel(tmp_path: Path):
    """A kernel manager for one notebook run, its kernel shut down afterwards: nbclient shuts
    down only kernels of managers it created itself, and one left behind lives (holding its
    memory) until the test worker exits: a CI run had five of them."""
    km = _kernel_manager(tmp_path)
    yield km
    if km.has_kernel:
        km.shutdown_kernel(now=True)
    assert not km.is_alive()


def _outputs(notebook) -> list[dict]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]


def test_every_notebook_is_listed():
    assert sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb")) == sorted(FIGURES)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_stored_notebooks_have_no_outputs(name):
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    nbformat.validate(notebook)
    assert notebook.nbformat == 4
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    assert sum(c.cell_type == "markdown" for c in notebook.cells) >= 3  # the story


@pytest.mark.notebooks
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_notebook_executes_and_draws_its_figures(name, kernel, tmp_path, monkeypatch):
    from nbclient import NotebookClient

    monkeypatch.setenv("SOBA_BENCH_RESULTS", str(tmp_path / "results"))
    monkeypatch.delenv("SOBA_BENCH_RECOMMENDATION", raising=False)
    monkeypatch.setenv("MPLBACKEND", "agg")  # inline is set by the notebook itself
    # The notebooks on synthetic-small replay its first session only: this test shows that
    # a notebook runs and draws, not what it finds, and one session takes a third of the
    # time (prompt_regression generates its own corpus and reads no limit: its gate needs
    # ten sessions).
    monkeypatch.setenv("SOBA_BENCH_CORPUS_LIMIT", "1")
    notebook = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
    client = NotebookClient(notebook, km=kernel, timeout=300, resources={"metadata": {}})
    client.execute()  # raises CellExecutionError on the first failing cell
    outputs = _outputs(notebook)
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= FIGURES[name]
    assert (tmp_path / "results" / name).is_dir()  # the sweep went where it was told
    replayed = [  # sessions per job (sessions.jsonl: one line per session replayed)
        len((job / "sessions.jsonl").read_text().splitlines())
        for job in (tmp_path / "results" / name).iterdir()
        if (job / "run.json").is_file()
    ]
    assert replayed and set(replayed) == {LIMITED.get(name, 10)}, replayed
    text = "".join(o.get("text", "") + o.get("data", {}).get("text/markdown", "") for o in outputs)
    if name == "prompt_regression":
        assert "exit status of `soba-bench compare`: 1" in text
        flagged = text.split("flagged:", 1)[1].splitlines()[0]
        assert "degraded_rate" in flagged
    if name == "threshold_tuning":
        assert "no recommendation to show" in text
    if name == "peer_policies":  # the ranking names every policy, with intervals
        plain = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in outputs)
        for strategy in ("soba", "codex", "claude_code", "openhands", "gemini_cli", "pi"):
            assert strategy in plain
        assert "opencode" in plain and "availability" in plain and "[" in plain


@pytest.mark.notebooks
def test_threshold_notebook_shows_a_recommendation_file(kernel, small_tune, tmp_path, monkeypatch):
    from nbclient import NotebookClient

    # A real (small) tuning run's output folder, as `soba-bench tune` writes it.
    tuned, done = small_tune
    assert done.returncode == 0, done.stderr
    rec = load_recommendation(tuned)
    assert rec.engine is not None
    monkeypatch.setenv("SOBA_BENCH_RESULTS", str(tmp_path / "results"))
    monkeypatch.setenv("SOBA_BENCH_RECOMMENDATION", str(tuned))
    notebook = nbformat.read(NOTEBOOKS / "threshold_tuning.ipynb", as_version=4)
    last = notebook.cells[-1]
    assert "SOBA_BENCH_RECOMMENDATION" in last.source
    # only the setup cell and the last one: the recommendation cell stands alone
    notebook.cells = [notebook.cells[1], last]
    NotebookClient(notebook, km=kernel, timeout=120).execute()
    text = "".join(o.get("text", "") for o in last.outputs)
    assert "run it with: soba-bench run " + " ".join(rec.overrides()) in text
    shown = json.dumps([o.get("data", {}) for o in last.outputs])
    assert "recommended, search" in shown and "baseline, heldOut" in shown
