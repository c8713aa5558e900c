"""The whole app (every pane, MemtuiApp as `memtui` starts it) on the demo store: the keys
that switch panes reach them, and one path through each (events, mood, warnings; the tree,
search and the viewer)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from memtui.engine.search import search
from memtui.engine.store import open_store
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.mood import MoodPane
from memtui.ui.panes.viewer import FilePane
from memtui.ui.panes.warnings import WarningsPane
from memtui.ui.screens.search import SearchScreen
from tests import demo_facts as facts
from tests.ui_helpers import (
    CJK,
    demo_store,
    event_block,
    loaded,
    open_search,
    press_on,
    press_until,
    rows_plain,
    searched,
    until,
)
from tests.ui_helpers import run_loaded as run


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "s")


def test_full_app_events_mood_and_warnings_tabs(demo: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        from textual.widgets import TabbedContent

        await pilot.press("3")
        events = app.query_one(EventsPane)
        await until(pilot, lambda: app.focused is events.rows)
        overdue = [r.split()[1] for r in rows_plain(events) if r.startswith("!")]
        assert overdue == list(facts.OVERDUE)
        store = app.store
        await press_until(pilot, "d", lambda: app.store is not store)
        assert "**状态**：已完成" in event_block(demo, facts.NEWEST)
        # the app's history screen for events.md
        await press_until(pilot, "h", lambda: type(app.screen).__name__ == "HistoryScreen")
        await press_until(pilot, "escape", lambda: app.focused is events.rows)

        await pilot.press("4")
        mood = app.query_one(MoodPane)
        assert "off (consecutive_g4c_count 1" in mood.summary_text.plain

        await pilot.press("6")
        warnings = app.query_one(WarningsPane)
        await until(pilot, lambda: app.focused is warnings.rows)
        assert len(warnings.findings) == len(open_store(demo).findings)
        await press_until(pilot, "enter", lambda: app.query_one(TabbedContent).active == "tab-file")
        assert app.query_one("#pane-file").rel == "memory.md"  # type: ignore[attr-defined]
        assert app.is_running

    run(MemtuiApp(str(demo), watch=False), body)


def test_whole_app_tree_search_and_viewer(demo: Path) -> None:
    expected = next(search(demo, CJK))

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        tree = await loaded(pilot, app)
        assert [n.label.plain for n in tree.root.children][:3] == [  # type: ignore[union-attr]
            "Workspace",
            "Companion",
            "Dsh",
        ]
        tree.focus()
        await press_on(pilot, tree, "facts.md", "enter")
        assert app.query_one(FilePane).rel == "facts.md"
        await searched(pilot, await open_search(pilot, app), CJK)
        await press_until(pilot, "enter", lambda: not isinstance(app.screen, SearchScreen))
        viewer = app.query_one(FilePane)
        assert (viewer.rel, viewer.rows.cursor + 1) == (expected.file, expected.line)

    run(MemtuiApp(str(demo), watch=False), body)


def test_a_snapshot_arriving_while_the_app_quits_is_dropped(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quitting takes the panes down children first; a load that ends then (the reload
    after a write, say) must not reach a pane whose widgets are gone."""
    from memtui.ui.messages import StoreLoaded

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        store = app.store
        assert store is not None
        await app.query_one("#mood-summary").remove()  # as shutdown leaves it, midway
        monkeypatch.setattr(MemtuiApp, "is_running", property(lambda self: False))
        app.on_store_loaded(StoreLoaded(store, 0.0))
        monkeypatch.undo()
        assert app.store is store

    run(MemtuiApp(str(demo), watch=False), body)
