"""The in-app editor's keys, driven by Pilot over demo stores: it opens at the line the
File pane's cursor was on; ctrl+home / ctrl+end go to the start / end; ctrl+q with
unsaved text asks (the real ConfirmScreen) as escape does; ctrl+k deletes to the end
of the line even during a conflict (keep mine is ctrl+t)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.widgets import TabbedContent, TabPane

from memtui.ui.panes.viewer import FilePane
from memtui.ui.screens.confirm import ConfirmScreen
from memtui.ui.screens.edit import EditScreen
from tests.ui_helpers import HostApp, answer_confirm, demo_store, run, until

TOPIC = "memory_draft_ideas.md"


class FileOnly(HostApp):
    """The real app (its edit_entry and quit) with only the File pane."""

    def compose(self) -> ComposeResult:
        with TabbedContent(id="panes"), TabPane("File", id="tab-file"):
            yield FilePane(id="pane-file")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


async def open_editor_at(pilot, app, rel: str, line: int) -> EditScreen:
    app.open_file(rel, line)
    pane = app.query_one(FilePane)
    await until(pilot, lambda: pane.rel == rel and pane.rows.cursor == line - 1)
    await pilot.press("e")
    await until(pilot, lambda: isinstance(app.screen, EditScreen), what="the editor")
    await pilot.pause()
    return app.screen


def test_the_editor_opens_at_the_line_the_file_pane_was_on(demo) -> None:
    lines = (demo / TOPIC).read_text(encoding="utf-8").splitlines()
    line = len(lines) - 1  # near the end: not where a plain open would put the cursor
    app = FileOnly(demo)

    async def body(pilot, app) -> None:
        screen = await open_editor_at(pilot, app, TOPIC, line)
        row, _col = screen.buffer.cursor_location
        assert screen.buffer.document.get_line(row) == lines[line - 1]
        assert row > 0

    run(app, body, loaded=True)


def test_ctrl_home_and_ctrl_end_go_to_the_start_and_end(demo) -> None:
    app = FileOnly(demo)

    async def body(pilot, app) -> None:
        screen = await open_editor_at(pilot, app, TOPIC, 3)
        await pilot.press("ctrl+end")
        assert screen.buffer.cursor_location == screen.buffer.document.end
        await pilot.press("ctrl+home")
        assert screen.buffer.cursor_location == (0, 0)

    run(app, body, loaded=True)


def test_ctrl_q_with_unsaved_text_asks_and_no_keeps_the_text(demo) -> None:
    app = FileOnly(demo)

    async def body(pilot, app) -> None:
        screen = await open_editor_at(pilot, app, TOPIC, 1)
        await pilot.press("x", "y", "z")
        typed = screen.buffer.text
        await pilot.press("ctrl+q")
        question = await answer_confirm(pilot, app, "n")
        assert "unsaved changes" in question
        assert app.screen is screen and screen.buffer.text == typed
        assert app.is_running

    run(app, body, loaded=True)


def test_ctrl_q_without_unsaved_text_quits_without_asking(demo) -> None:
    app = FileOnly(demo)

    async def body(pilot, app) -> None:
        await open_editor_at(pilot, app, TOPIC, 1)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_code is not None, what="the app to quit")
        assert not isinstance(app.screen, ConfirmScreen)

    run(app, body, loaded=True)


def test_ctrl_k_deletes_to_the_end_of_the_line_during_a_conflict(demo) -> None:
    app = FileOnly(demo)

    async def body(pilot, app) -> None:
        screen = await open_editor_at(pilot, app, TOPIC, 1)
        screen.conflict, screen.theirs = True, "their text"  # as a refused save leaves it
        screen.refresh_bindings()
        await pilot.press("ctrl+home")
        first = screen.buffer.document.get_line(0)
        await pilot.press("right", "ctrl+k")
        assert screen.buffer.document.get_line(0) == first[:1]
        assert screen.conflict  # ctrl+k did not "keep mine"
        await pilot.press("ctrl+t")
        assert not screen.conflict and screen.seen_text == "their text"

    run(app, body, loaded=True)
