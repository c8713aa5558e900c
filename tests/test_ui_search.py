"""The search screen (`/`) driven by Pilot over the demo store: CJK found and enter opening
its line, a bad regular expression said plainly, the cap on hits, escape."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from memtui.engine.search import search
from memtui.ui.panes.viewer import FilePane
from memtui.ui.screens.search import CAP, SearchScreen
from tests.conftest import write_tree
from tests.ui_helpers import (
    CJK,
    SIZE,
    TreeAndFile,
    demo_store,
    loaded,
    open_search,
    press_until,
    run,
    searched,
    until,
)


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def test_search_finds_cjk_and_enter_opens_the_line(demo: Path) -> None:
    expected = next(search(demo, CJK))

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        screen = await open_search(pilot, app)
        await searched(pilot, screen, CJK)
        first = screen.hits[0]
        assert (first.file, first.line) == (expected.file, expected.line)
        row = screen._render_hit(0)
        assert row.plain.startswith(f"{expected.file}:{expected.line}: ")
        match = tuple(screen.rows.style_of("match") == s.style for s in row.spans)
        assert any(match)
        await press_until(pilot, "enter", lambda: not isinstance(app.screen, SearchScreen))
        viewer = app.query_one(FilePane)
        assert viewer.rel == expected.file
        assert viewer.rows.cursor == expected.line - 1

    run(TreeAndFile(str(demo)), body)


def test_search_bad_regex_and_escape(demo: Path) -> None:
    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        screen = await open_search(pilot, app)
        await searched(pilot, screen, "re:(unclosed")
        status = screen.query_one("#search-status")
        assert status.has_class("-error")
        assert "bad regular expression" in str(status.render())
        await searched(pilot, screen, r"re:E0\d\d")
        assert screen.hits and all(h.file for h in screen.hits)
        assert not status.has_class("-error")
        await searched(pilot, screen, "re:.")  # every non-empty line: more than the cap
        assert screen.more and len(screen.hits) == CAP
        assert f"first {CAP:,}" in str(status.render())
        await press_until(pilot, "escape", lambda: not isinstance(app.screen, SearchScreen))
        assert app.is_running

    run(TreeAndFile(str(demo)), body)


def test_search_sees_a_claude_memory_in_a_subfolder(tmp_path: Path) -> None:
    """The app's search lists every file the store has, here a Claude memory two folders
    down (Layout.folders), and enter opens it at the line."""
    memory = "---\nname: nested\ndescription: in a folder\ntype: project\n---\nthe needle\n"
    root = write_tree(
        tmp_path / "memory",
        {
            "MEMORY.md": "- [Nested](project/notes/nested.md) — in a folder\n",
            "project/notes/nested.md": memory,
        },
    )

    async def body(pilot: Pilot, app: TreeAndFile) -> None:
        await loaded(pilot, app)
        screen = await open_search(pilot, app)
        await searched(pilot, screen, "needle")
        assert [(h.file, h.line) for h in screen.hits] == [("project/notes/nested.md", 6)]
        await press_until(pilot, "enter", lambda: not isinstance(app.screen, SearchScreen))
        viewer = app.query_one(FilePane)
        await until(pilot, lambda: viewer.rel == "project/notes/nested.md" and not viewer.loading)
        assert viewer.rows.cursor == 5

    run(TreeAndFile(str(root)), body)


def test_snapshot_search(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        app: TreeAndFile = pilot.app  # type: ignore[assignment]
        await loaded(pilot, app)
        await searched(pilot, await open_search(pilot, app), "pytest")
        for box in app.screen.query(Input):  # a blinking cursor makes the picture flaky
            box.cursor_blink = False
        await pilot.pause()

    assert snap_compare(TreeAndFile(str(demo)), terminal_size=SIZE, run_before=ready)
