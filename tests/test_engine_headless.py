"""The engine is headless: importing any of it never loads textual or rich."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import json, pkgutil, sys
import memtui.engine
names = []
for info in pkgutil.walk_packages(memtui.engine.__path__, "memtui.engine."):
    __import__(info.name)
    names.append(info.name)
print(json.dumps({
    "modules": names,
    "ui": sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich")),
}))
"""


def test_engine_imports_without_textual_or_rich():
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
        "memtui.engine.layouts.companion",
        "memtui.engine.layouts.dsh",
        "memtui.engine.layouts.workspace",
    } <= modules
    assert report["ui"] == []
