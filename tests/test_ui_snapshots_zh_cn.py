"""Screen snapshots of the whole app in Chinese (issue 28), one a pane and screen, at
120x36 and at 80x24: wide characters laid out by cells, nothing cut. The English
snapshots are the other test files'; these are drawn with zh_CN chosen before the app
starts (the `chinese` fixture), on the smallest demo store, today pinned."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from memtui.ui.app import MemtuiApp
from memtui.ui.panes.pending import PendingPane
from memtui.ui.screens.context import ContextScreen
from memtui.ui.screens.help import HelpScreen
from memtui.ui.screens.search import SearchScreen
from tests.ui_helpers import demo_store, store_loaded, until

WIDE, NARROW = (120, 36), (80, 24)
# (name, keys pressed once the store is shown, what is on screen when it is drawn)
SHOTS = {
    "index_and_file": (("1", "down", "enter"), "#pane-file"),
    "events": (("3", "down", "down"), "#pane-events"),
    "mood": (("4",), "#pane-mood"),
    "pending": (("5",), "#pane-pending"),
    "warnings": (("6",), "#pane-warnings"),
    "search": (("slash", *"pytest"), SearchScreen),
    "help": (("question_mark",), HelpScreen),
    "context": (("c",), ContextScreen),
}


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: Any) -> Path:
    # a preview's dry run stamps memory-meta.json with "now": pinned, as test_ui_pending
    from memtui.layouts.dsh import ops  # noqa: F401  (loads every module accept uses)

    for name, module in list(sys.modules.items()):
        if name.startswith(("memtui.engine.ops.", "memtui.layouts.")) and hasattr(
            module, "now_iso"
        ):
            monkeypatch.setattr(module, "now_iso", lambda: "2026-11-29T21:40:00+08:00")
    return demo_store(tmp_path / "demo")


async def shown(pilot: Pilot, keys: tuple[str, ...], what: Any) -> None:
    app: MemtuiApp = pilot.app  # type: ignore[assignment]
    await store_loaded(pilot, app)
    app.sub_title = app.sub_title.replace(str(app.root), "~/demo")  # tmp_path differs
    for key in keys:
        await pilot.press(key)
    if isinstance(what, str):
        await until(pilot, lambda: app.query_one(what).display, what=what)
    else:
        await until(pilot, lambda: isinstance(app.screen, what), what=what.__name__)
    if isinstance(app.screen, SearchScreen):
        await until(pilot, lambda: app.screen.done_query == "pytest", what="the hits")
    if what == "#pane-pending":
        pending = app.query_one(PendingPane)
        await until(pilot, lambda: "+++" in pending.preview_text.plain, what="the preview")
    for box in app.screen.query(Input):  # a blinking cursor makes the picture flaky
        box.cursor_blink = False
    await pilot.pause(0.3)  # debounced previews


@pytest.mark.parametrize("size", [WIDE, NARROW], ids=["120x36", "80x24"])
@pytest.mark.parametrize("name", list(SHOTS))
@pytest.mark.usefixtures("chinese")
def test_snapshot_zh_cn(demo, snap_compare, name, size) -> None:
    keys, what = SHOTS[name]

    async def ready(pilot: Pilot) -> None:
        await shown(pilot, keys, what)

    assert snap_compare(MemtuiApp(str(demo), watch=False), terminal_size=size, run_before=ready)
