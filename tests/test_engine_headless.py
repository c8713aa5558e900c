"""The engine and the layout packages are headless: importing any of them never loads
textual or rich."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, pkgutil, sys
import memtui.engine, memtui.layouts, memtui.demo
names = []
for pkg in (memtui.engine, memtui.layouts, memtui.demo):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        __import__(info.name)
        names.append(info.name)
print(json.dumps({
    "modules": names,
    "ui": sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich")),
}))
"""


def test_engine_and_layouts_import_without_textual_or_rich():
    got = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert got.returncode == 0, got.stderr
    report = json.loads(got.stdout)
    modules = set(report["modules"])
    assert {
        "memtui.engine.store",
        "memtui.engine.textfile",
        "memtui.engine.frontmatter",
        "memtui.engine.layouts",
        "memtui.layouts.companion.parse",
        "memtui.layouts.dsh.parse",
        "memtui.layouts.workspace.parse",
    } <= modules
    assert report["ui"] == []
