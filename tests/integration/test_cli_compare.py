"""``soba-bench compare`` end to end on real runs: a sweep compared with itself exits 0 with
every delta 0; SOBA as shipped compared with its newest-blockers fix exits 1 (more refused
requests); truncation against SOBA's capsules exits 1 on a capsule diagnostic; improvements
pass; too few sessions for the default gate exit 3; bad input exits 2.

Six sessions are too few for the 17 default tests (Holm needs 9 pairs there), so each test
names the one or two metrics it gates on: with one or two tests, six pairs reach the level.

The corpus: six generated 800-entry sessions with many blockers (16 per 1,000 entries, about 13
per session) on a 64k window, where SOBA's blocker quirk bites: its capsule keeps the 10
*oldest* blockers, so once they are resolved they are shown as current (blocker staleness), and
after 10 failures compaction keeps failing ``lost_blocker`` until requests are refused at the
hard limit (blocked requests).
Blocker *recall* does not move there: the capsules that do get written still hold the live
blockers; the quirk shows as staleness and refusals.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.integration.sweeps import cli, cli_in_process

VARIANTS = ("soba-0.6.14", "soba-0.6.14+newest-blockers")
# `compare` reads each job's own views, not the baseline strategies' that the default scorer
# adds at every capsule moment (its deltas are the same without them): not scored here, which
# takes about 40 % off these jobs.
SCORER = ["scorer.baselines=[]"]


def compare(*args: str) -> subprocess.CompletedProcess[str]:
    """``soba-bench compare ARGS`` in this process (the first test runs it through the console
    entry point too)."""
    return cli_in_process("compare", *args)


@pytest.fixture(scope="module")
def blocker_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("compare")
    corpus = root / "corpus"
    made = cli(
        "corpus", "generate", "--seed", "5", "--sessions", "6", "--entries", "800",
        "--out", str(corpus), "blockers_per_1k=16",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    sweep = root / "sweep"
    done = cli(
        "run", "-m", "hydra/launcher=basic", "corpus=path", f"corpus.paths=[{corpus}]",
        "engine=64k-8k", f"variant={','.join(VARIANTS)}", f"hydra.sweep.dir={sweep}",
        f"paths.cache_dir={root / 'cache'}", *SCORER,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    jobs = {}
    for folder in sweep.iterdir():
        if (folder / "run.json").is_file():
            jobs[json.loads((folder / "run.json").read_text())["variant"]] = folder
    assert set(jobs) == set(VARIANTS)
    truncation = cli(
        "run", "corpus=path", f"corpus.paths=[{corpus}]", "engine=64k-8k", "strategy=truncation",
        f"paths.results_dir={root / 'truncation'}", f"paths.cache_dir={root / 'cache'}", *SCORER,
    )  # fmt: skip
    assert truncation.returncode == 0, truncation.stderr
    (jobs["truncation"],) = (p.parent for p in (root / "truncation").rglob("run.json"))
    return sweep, jobs


def test_a_sweep_compared_with_itself_exits_0_with_zero_deltas(blocker_sweep):
    sweep, _ = blocker_sweep
    default = cli("compare", str(sweep), str(sweep))
    assert default.returncode == 3, default.stderr  # six sessions: the default gate cannot test
    assert "cannot test" in default.stdout and "✅" not in default.stdout
    done = compare(str(sweep), str(sweep), "--metric", "availability", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["verdict"] == "no regression" and data["flagged_metrics"] == []
    assert data["tested"] == [] and data["schema_version"] == 2
    assert len(data["pairs"]) == 2 and all(p["sessions"] == 6 for p in data["pairs"])
    assert all(p["same_points"] == 6 for p in data["pairs"])
    measured = [d for d in data["deltas"] if d["delta"] is not None]
    assert len(measured) == 6  # availability and the two costs, on two pairs
    assert all(d["delta"] == 0 and d["low"] == 0 and d["high"] == 0 for d in measured)


def test_soba_as_shipped_regresses_against_the_blocker_fix(blocker_sweep, tmp_path):
    _, jobs = blocker_sweep
    out = tmp_path / "comment.md"
    args = [str(jobs["soba-0.6.14+newest-blockers"]), str(jobs["soba-0.6.14"])]
    done = compare(*args, "--metric", "refused_requests", "--out", str(out))
    assert done.returncode == 1, done.stdout + done.stderr
    assert out.read_text() == done.stdout
    assert "`variant` soba-0.6.14+newest-blockers → soba-0.6.14" in done.stdout
    data = json.loads(compare(*args, "--metric", "refused_requests", "--format", "json").stdout)
    assert data["flagged_metrics"] == ["refused_requests"] and data["exit_code"] == 1
    (refused,) = [d for d in data["deltas"] if d["metric"] == "refused_requests"]
    assert refused["delta"] > 0 and refused["p_worse"] <= 0.05 and refused["mde"] is not None
    assert "`refused_requests`" in done.stdout


def test_truncation_regresses_against_soba_capsules(blocker_sweep):
    _, jobs = blocker_sweep
    done = compare(
        str(jobs["soba-0.6.14"]), str(jobs["truncation"]),
        "--metric", "recall.decision", "--metric", "capsule_recall", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    data = json.loads(done.stdout)
    assert {t["key"]: t["cand"] for t in data["tested"]}["strategy"] == "truncation"
    # what the model sees without the capsule: the dropped head's decisions
    assert data["flagged_metrics"] == ["recall.decision"]
    by_name = {d["metric"]: d for d in data["deltas"]}
    assert by_name["capsule_recall"]["delta"] is None  # truncation writes no capsule


def test_improvements_do_not_fail_the_gate(blocker_sweep):
    _, jobs = blocker_sweep
    done = compare(
        str(jobs["soba-0.6.14"]), str(jobs["soba-0.6.14+newest-blockers"]),
        "--metric", "refused_requests", "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(done.stdout)
    by_name = {d["metric"]: d for d in data["deltas"]}
    assert by_name["refused_requests"]["delta"] < 0 and by_name["refused_requests"]["improved"]
    assert data["verdict"] == "improvement"


def test_a_generous_max_drop_lets_the_drop_pass(blocker_sweep):
    _, jobs = blocker_sweep
    args = [str(jobs["soba-0.6.14+newest-blockers"]), str(jobs["soba-0.6.14"])]
    strict = compare(*args, "--metric", "refused_requests")
    assert strict.returncode == 1
    loose = compare(*args, "--metric", "refused_requests", "--max-drop", "100000")
    assert loose.returncode == 0, loose.stdout
    assert "no regression" in loose.stdout


def test_bad_input_exits_2_with_a_message(blocker_sweep, tmp_path):
    sweep, jobs = blocker_sweep
    unknown = compare(str(sweep), str(sweep), "--metric", "recall.blockers")
    assert unknown.returncode == 2
    assert "unknown compare metric 'recall.blockers'" in unknown.stderr
    assert "recall.blocker," in unknown.stderr  # the valid names are listed
    bad_drop = compare(str(sweep), str(sweep), "--max-drop", "lots")
    assert bad_drop.returncode == 2 and "--max-drop" in bad_drop.stderr
    (tmp_path / "empty").mkdir()
    empty = compare(str(sweep), str(tmp_path / "empty"))
    assert empty.returncode == 2 and "run.json" in empty.stderr
    # CAND's jobs differ in a setting that varies within the side: nothing pairs
    for n, folder in enumerate(jobs.values()):
        record = json.loads((folder / "run.json").read_text())
        record["variant"] = f"other-{n}"
        (tmp_path / "other" / str(n)).mkdir(parents=True)
        (tmp_path / "other" / str(n) / "run.json").write_text(json.dumps(record))
    unpaired = compare(str(sweep), str(tmp_path / "other"))
    assert unpaired.returncode == 2 and "no config pairs" in unpaired.stderr
