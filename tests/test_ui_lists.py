"""Moving in lists, driven by Pilot over demo stores: g/G and home/end in every list and
in the index tree; the Events pane's overdue filter; the first open from search shows
the hit (scrolled to it, not left at line 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.widgets import Input

from memtui.ui.app import MemtuiApp
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.index_tree import IndexTree
from memtui.ui.panes.viewer import FilePane
from memtui.ui.panes.warnings import WarningsPane
from memtui.ui.screens.search import SearchScreen
from tests import demo_facts as facts
from tests.ui_helpers import HostApp, demo_store, run, until

DEEP = "开源贡献决策记录（重复登记）"  # memory.md's last line: far below the first screen


class EventsAndWarnings(HostApp):
    focus_first = "#pane-events"

    def compose(self) -> ComposeResult:
        yield EventsPane(id="pane-events")
        yield WarningsPane(id="pane-warnings")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


@pytest.mark.parametrize(("first", "last"), [("g", "G"), ("home", "end")])
def test_first_and_last_in_the_lists(demo: Path, first: str, last: str) -> None:
    app = EventsAndWarnings(demo)

    async def body(pilot, app) -> None:
        for pane in (app.query_one(EventsPane), app.query_one(WarningsPane)):
            await until(pilot, lambda pane=pane: pane.rows.count > 2)
            pane.focus()
            await pilot.press(last)
            assert pane.rows.cursor == pane.rows.count - 1
            await pilot.press(first)
            assert pane.rows.cursor == 0

    run(app, body, loaded=True)


@pytest.mark.parametrize(("first", "last"), [("g", "G"), ("home", "end")])
def test_first_and_last_in_the_index_tree(demo: Path, first: str, last: str) -> None:
    app = MemtuiApp(str(demo), watch=False)

    async def body(pilot, app) -> None:
        tree = app.query_one(IndexTree)
        await until(pilot, lambda: tree.last_line > 2)
        tree.focus()
        await pilot.press(last)
        assert tree.cursor_line == tree.last_line
        await pilot.press(first)
        assert tree.cursor_line == 0

    run(app, body, loaded=True)


def test_events_overdue_filter(demo: Path) -> None:
    app = EventsAndWarnings(demo)

    async def body(pilot, app) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)
        await pilot.press("O")
        await until(pilot, lambda: pane.rows.count == len(facts.OVERDUE))
        shown = [pane.timeline.ids[i] for i in pane.view]
        assert shown == list(facts.OVERDUE)
        assert "overdue" in pane.header_text.plain
        await pilot.press("O")
        await until(pilot, lambda: pane.rows.count == facts.EVENTS)

    run(app, body, loaded=True)


def test_the_first_open_from_search_scrolls_to_the_hit(demo: Path) -> None:
    lines = (demo / "memory.md").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if DEEP in text)
    app = MemtuiApp(str(demo), watch=False)

    async def body(pilot, app) -> None:
        await pilot.press("slash")
        await until(pilot, lambda: isinstance(app.screen, SearchScreen))
        screen = app.screen
        screen.query_one(Input).value = DEEP
        await until(pilot, lambda: screen.hits and screen.hits[0].line == line)
        await pilot.press("enter")
        viewer = app.query_one(FilePane)
        await until(pilot, lambda: viewer.rel == "memory.md" and viewer.rows.cursor == line - 1)
        rows = viewer.rows
        await until(
            pilot,
            lambda: rows.scroll_offset.y <= line - 1 < rows.scroll_offset.y + rows.size.height,
            what="the hit's line on the screen",
        )

    run(app, body, loaded=True)
