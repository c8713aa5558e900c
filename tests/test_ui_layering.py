"""The app renders what the engine hands it: no module of memtui/ui imports a layout's
parser module, except the panes that exist for one layout or are still being moved."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[1] / "memtui" / "ui"
# the mood chart exists for the companion layout alone
ALLOWED = {"panes/mood.py"}


def layout_imports(path: Path) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "memtui.engine.layouts"
        ):
            found.append(node.module or "")
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("memtui.engine.layouts")]
    return found


def test_no_ui_module_imports_a_layout_module():
    offenders = {
        rel: mods
        for path in sorted(UI.rglob("*.py"))
        if (rel := path.relative_to(UI).as_posix()) not in ALLOWED
        and (mods := layout_imports(path))
    }
    assert offenders == {}
