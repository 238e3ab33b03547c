"""Progress: bars only on a terminal and never in CI; the sweep monitor turns the markers of
finished jobs (written by any process) into one line each and counts them."""

from __future__ import annotations

import io

from soba_bench.sweep.progress import SweepMonitor, bars_enabled, mark_done


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bars_only_on_a_terminal_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert bars_enabled(None, Terminal()) is True
    assert bars_enabled(None, io.StringIO()) is False
    monkeypatch.setenv("CI", "true")
    assert bars_enabled(None, Terminal()) is False
    assert bars_enabled(True, io.StringIO()) is True  # explicit setting wins
    assert bars_enabled(False, Terminal()) is False


def test_monitor_prints_one_line_per_finished_job_and_counts_them(tmp_path, capsys):
    (tmp_path / ".progress").mkdir()
    mark_done(tmp_path, "old", "complete", "a marker of an earlier run")
    monitor = SweepMonitor(tmp_path, total=3, bars=False, name="t").start()
    mark_done(tmp_path, "0-a", "complete", "[complete] 0-a: fine")
    mark_done(tmp_path, "1-b", "failed", "[failed] 1-b: broken")
    mark_done(tmp_path, "2-c", "reused", "[reused] 2-c: done before")
    counts = monitor.stop()
    out = capsys.readouterr().out
    assert counts == {"complete": 1, "failed": 1, "reused": 1}
    assert out.count("\n") == 3 and "[failed] 1-b: broken" in out
    assert "earlier run" not in out
    assert not (tmp_path / ".progress").exists()
