"""Pilot helpers shared by the UI tests (tests/test_ui_*.py): a host app, running a test
body in it, and waiting for the app; hosts with only some panes (PaneHost: one companion
pane; TreeAndFile: the index tree and the File pane) and the moves their tests share.

Import as `from tests.ui_helpers import ...`, the same way as `from tests.helpers import ...`.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.pilot import Pilot
from textual.widgets import Footer, Input, TabbedContent, TabPane
from textual.widgets.tree import TreeNode

from memtui.demo import write_demo
from memtui.ui.app import MemtuiApp
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.index_tree import IndexPane, IndexTree, Node
from memtui.ui.panes.mood import MoodPane
from memtui.ui.panes.viewer import FilePane
from memtui.ui.panes.warnings import WarningsPane
from memtui.ui.screens.search import SearchScreen
from tests.conftest import write_tree
from tests.helpers import EVENTS, TODAY_DATE, WAIT

SIZE = (120, 36)  # the terminal of every UI test and picture

Body = Callable[[Pilot, Any], Awaitable[None]]


class HostApp(MemtuiApp):
    """The real app (its loading, run_op and reload; no file watcher) with only what a
    subclass composes. What it says is recorded in `said` as (severity, text); the widget
    matching `focus_first` (a selector), if set, has the focus once mounted."""

    focus_first: str | None = None

    def __init__(self, root: str | Path, **kwargs: Any) -> None:
        super().__init__(str(root), watch=False, **kwargs)
        self.said: list[tuple[str, str]] = []

    def on_mount(self) -> None:
        super().on_mount()
        if self.focus_first is not None:
            self.query_one(self.focus_first).focus()

    def say(self, text: str, *, severity: Any = "information", title: str = "") -> None:
        self.said.append((str(severity), text))
        super().say(text, severity=severity, title=title)


def demo_store(root: Path) -> Path:
    """The smallest demo store (`memtui demo`), dated TODAY_DATE, written at root."""
    write_demo(root, size=1, today=TODAY_DATE)
    return root


def run(app: MemtuiApp, body: Body, *, loaded: bool = False, size: tuple[int, int] = SIZE) -> None:
    """Run `app` under Pilot at `size` and await body(pilot, app); with `loaded`, the
    body starts once the store is loaded."""

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            if loaded:
                await store_loaded(pilot, app)
            await body(pilot, app)

    asyncio.run(main())


async def until(
    pilot: Pilot, check: Callable[[], object], timeout: float = WAIT, what: str = ""
) -> None:
    """Let the app run until `check()` holds (workers, messages, timers); fail naming
    `what` (or the check's source line) once `timeout` seconds have passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            waited = what or _told(check)
            raise AssertionError(f"timed out after {timeout:g} s waiting for {waited}")
        await pilot.pause(0.05)


def _told(check: Callable[[], object]) -> str:
    """The source of a lambda check, so a timeout says which wait it was."""
    try:
        return inspect.getsource(check).strip()
    except (OSError, TypeError):
        return repr(check)


async def press_until(pilot: Pilot, key: str, check: Callable[[], bool]) -> None:
    """Press `key`, then let the app run until `check()` holds."""
    await pilot.press(key)
    await until(pilot, check)


async def store_loaded(pilot: Pilot, app: MemtuiApp) -> None:
    """Wait for the app's store, then let the panes show it."""
    await until(pilot, lambda: app.store is not None)
    await pilot.pause()


async def answer_confirm(pilot: Pilot, app: MemtuiApp, key: str) -> str:
    """Wait for the real ConfirmScreen, check that "No" has the focus (a stray Enter
    destroys nothing), press `key` ("y", "enter", "n", "escape") and wait for it to
    close; returns the question it asked."""
    from memtui.ui.screens.confirm import ConfirmScreen

    await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), what="the confirm dialog")
    screen = app.screen
    assert isinstance(screen, ConfirmScreen)

    def on_no() -> bool:  # the screen may still be composing when it is pushed
        no = screen.query("#confirm-no")
        return bool(no) and app.focused is no.first()

    await until(pilot, on_no, what="the focus on No")
    await pilot.press(key)
    await until(pilot, lambda: app.screen is not screen, what="the confirm dialog to close")
    return screen.question


# --- one pane of the companion (events, mood, warnings) in the real app -----------------

HOSTILE = "[@click=app.quit]点我[/] [bold]粗[/] \x1b[2J\x1b]52;c;SGVsbG8=\x07 \x9b31m"


PANES = {"events": EventsPane, "mood": MoodPane, "warnings": WarningsPane}


class PaneHost(HostApp):
    """The real app with one pane; what the pane asks of the app is recorded."""

    def __init__(self, root: str, key: str, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.key = key
        self.focus_first = f"#pane-{key}"
        self.opened: list[tuple[str, int | None]] = []
        self.asked: list[str] = []
        self.histories: list[str] = []
        self.edits: list[str] = []

    def compose(self) -> ComposeResult:
        yield PANES[self.key](id=f"pane-{self.key}")
        yield Footer()

    def open_file(self, rel: str, line: int | None = None) -> None:
        self.opened.append((rel, line))

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        self.asked.append(question)
        super().confirm(question, then)  # the real dialog: the test answers it

    def show_history(self, rel: str) -> None:
        self.histories.append(rel)

    def edit_entry(self, entry_id: str, line: int | None = None) -> None:
        self.edits.append(entry_id)


def run_loaded(app: MemtuiApp, body: Body) -> None:
    """run(), the body starting once the store is loaded."""
    run(app, body, loaded=True)


def screen_text(app: MemtuiApp) -> str:
    """What the terminal shows, as plain text."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text(styles=False)


def rows_plain(pane: EventsPane | WarningsPane) -> list[str]:
    return [pane.render_row(i).plain for i in range(pane.rows.count)]


def event_block(root: Path, label: str) -> str:
    text = (root / EVENTS).read_text("utf-8")
    start = text.index(f"### [{label}]")
    stop = text.find("\n### ", start + 1)
    return text[start : stop if stop >= 0 else len(text)]


def hostile_store(root: Path) -> Path:
    """A companion store whose event and mood snapshot hold HOSTILE text."""
    return write_tree(
        root,
        {
            EVENTS: "# 事件\n\n"
            f"### [E001] 2026-11-20 · 约定\n**类型**：约定\n**内容**：{HOSTILE}\n"
            "**状态**：待跟进\n**到期日**：2026-11-01\n\n"
            "### [E000] 2026-11-28T22:00 · last_active\n",
            "memory/mood_state.md": "valence: 0.1\nenergy: 0.5\n\n"
            "### 2026-11-28T22:00 · source=conversation\n"
            f"valence: 0.1\nenergy: 0.5\nnote: {HOSTILE}\n",
            ".mood_state_aux": "last_decay_written_at: [@click=app.quit]t[/]\n"
            "consecutive_g4c_count: 2\n",
        },
    )


def assert_literal(plain: str) -> None:
    assert "[@click=app.quit]点我[/] [bold]粗[/]" in plain
    assert "\\x1b[2J" in plain and "\\x9b31m" in plain and "\\x07" in plain
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", plain)


# --- the index tree and the File pane in the real app, and the search screen ------------

CJK = "季度报告"  # on one line of the demo's memory.md


class TreeAndFile(HostApp):
    """The real app with only the index and File panes; the history and editor screens
    the panes ask for are recorded instead (a confirm is the real dialog)."""

    focus_first = "#pane-index"

    def __init__(self, root: str, **kwargs: Any) -> None:
        super().__init__(root, **kwargs)
        self.calls: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="body"):
            yield IndexPane(id="pane-index")
            with TabbedContent(id="panes"), TabPane("File", id="tab-file"):
                yield FilePane(id="pane-file")
        yield Footer()

    def show_history(self, rel: str) -> None:
        self.calls.append(("history", rel))

    def edit_entry(self, entry_id: str, line: int | None = None) -> None:
        self.calls.append(("edit", entry_id))


async def loaded(pilot: Pilot, app: MemtuiApp) -> IndexTree:
    await store_loaded(pilot, app)
    return app.query_one(IndexTree)


def visible(tree: IndexTree) -> list[TreeNode[Node]]:
    return [n for i in range(tree.last_line + 1) if (n := tree.get_node_at_line(i)) is not None]


def labels(tree: IndexTree) -> list[str]:
    return [n.label.plain.split("  ")[0] for n in visible(tree)]  # type: ignore[union-attr]


def find(tree: IndexTree, start: str) -> TreeNode[Node]:
    for node in visible(tree):
        if node.label.plain.startswith(start):  # type: ignore[union-attr]
            return node
    raise AssertionError(f"no visible node starting {start!r}")


async def cursor_to(pilot: Pilot, tree: IndexTree, start: str) -> TreeNode[Node]:
    node = find(tree, start)
    tree.move_cursor(node)
    await pilot.pause()
    return node


async def press_on(pilot: Pilot, tree: IndexTree, start: str, key: str) -> None:
    """Move the cursor to the visible node starting `start`, press `key` (right expands,
    enter opens the file), let the app settle."""
    await cursor_to(pilot, tree, start)
    await pilot.press(key)
    await pilot.pause()


def built(tree: IndexTree) -> list[TreeNode[Node]]:
    """Every node that exists (expanded or not)."""
    out, stack = [], list(tree.root.children)
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(node.children)
    return out


async def open_search(pilot: Pilot, app: MemtuiApp) -> SearchScreen:
    await press_until(pilot, "slash", lambda: isinstance(app.screen, SearchScreen))
    return app.screen  # type: ignore[return-value]


async def searched(pilot: Pilot, screen: SearchScreen, query: str) -> None:
    screen.query_one(Input).value = query
    await until(pilot, lambda: screen.done_query == query and not screen.searching)
    await pilot.pause()
