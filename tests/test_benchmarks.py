"""The benchmark command's smoke test: quick mode on a tiny store, the JSON summary's shape.

Timings are never asserted (they live in benchmarks/, not in tests): only that
every figure of the issue's table is there, with a number, its target and a verdict.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ALL = Path(__file__).resolve().parent.parent / "benchmarks" / "all.py"
FIGURES = {
    "open",
    "check",
    "warm_open",
    "warm_check",
    "search",
    "bulk_accept",
    "maintain_long_line",
    "app_fully_shown",
    "app_bulk_accept",
    "app_bulk_reject",
    "app_first_screen",
    "app_key_to_frame",
    "app_idle_cpu",
}


def test_quick_run_ends_with_a_json_summary_of_every_figure(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ALL), "--quick", "--json", "--dir", str(tmp_path / "stores")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr  # 1: a gate missed, not a crash
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert set(summary) == FIGURES
    for name, row in summary.items():
        assert set(row) == {"ratio", "target", "ok"}, name
        assert isinstance(row["ratio"], float) and row["ratio"] > 0, name
        assert isinstance(row["target"], float), name
        assert row["ok"] is (row["ratio"] <= row["target"]), name
    assert (proc.returncode == 0) is all(row["ok"] for row in summary.values())
    for name in FIGURES:  # the human table names every figure too, with a verdict
        line = next(x for x in proc.stdout.splitlines() if x.startswith(name + " "))
        assert line.rstrip().endswith(("ok", "MISS", "moonshot")), line
