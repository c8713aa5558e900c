"""The app started with no store to open (no PATH, the current folder is no store, no
~/.dsh/memory) offers the stores on this machine (SPEC §3b) instead of failing: the
list at once, counts as each store is opened, enter opens the chosen store; none found
says so and suggests `memtui demo`. Scripts keep their exit 2."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from textual.pilot import Pilot

from memtui.cli import main
from memtui.ui.app import MemtuiApp
from memtui.ui.screens.stores import StoresScreen
from tests.conftest import run_cli, tree_digest, write_tree
from tests.helpers import ENV
from tests.test_cli_open import Terminal
from tests.test_stores import CLAUDE, CLAUDE_BROKEN, DSH, claude_project, refuse, temporary_home
from tests.test_ui_palette import palette
from tests.ui_helpers import HostApp, run, screen_text, until


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return temporary_home(tmp_path, monkeypatch)


def listing(app: MemtuiApp) -> StoresScreen:
    screen = app.screen
    assert isinstance(screen, StoresScreen), f"the store list, not {screen!r}"
    return screen


def all_measured(app: MemtuiApp) -> bool:
    screen = app.screen
    return (
        isinstance(screen, StoresScreen)
        and bool(screen.found)
        and all(s.measured for s in screen.found)
    )


def test_with_no_store_the_app_offers_the_list_and_enter_opens_the_chosen_one(
    home: Path,
) -> None:
    write_tree(home / ".dsh" / "other-not-a-store", {"x.txt": "x"})
    claude_project(home, "-one", CLAUDE)
    two = claude_project(home, "-two", CLAUDE_BROKEN)
    before = tree_digest(home)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: all_measured(app), what="every store listed and measured")
        screen = listing(app)
        text = screen_text(app)
        assert "No store to open here" in text
        assert "~/.claude/projects/-one/memory" in text and "-two/memory" in text
        rows = [screen._row(i).plain.split() for i in range(2)]
        assert rows[0][:3] == ["~/.claude/projects/-one/memory", "claude", "2"]
        assert rows[1][-2:] == ["1", "0"]  # -two: one error (its missing pointer)
        await pilot.press("down", "enter")
        await until(pilot, lambda: app.store is not None, what="the chosen store loaded")
        assert app.root == str(two) and app.store.root == str(two)
        assert not isinstance(app.screen, StoresScreen) and app.use_command_palette
        assert app.sub_title.startswith(str(two))

    run(HostApp(""), body)
    assert tree_digest(home) == before  # looking and opening wrote nothing


def test_with_none_found_it_says_so_and_suggests_the_demo(home: Path) -> None:
    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: isinstance(app.screen, StoresScreen))
        note = "No memory store found in"
        await until(pilot, lambda: note in screen_text(app), what="the none-found note")

        # the note wraps where the temporary home's path length puts it: read it
        # without the frame's edges and blanks
        def flat() -> str:
            return re.sub(r"[\s█▀▄▌▐│]+", "", screen_text(app))

        # the rest of the note may reach the screen a frame after its first words
        await until(
            pilot,
            lambda: "`memtuidemo`" in flat() and "~/.claude/projects/*/memory" in flat(),
            what="the demo and the places looked in, in the note",
        )
        assert listing(app).found == [] and not app.use_command_palette
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, what="q to quit")

    run(HostApp(""), body)


def test_a_store_that_cannot_be_read_says_why_and_the_list_stays(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = claude_project(home, "-locked", CLAUDE)
    refuse(monkeypatch, str(locked))

    async def body(pilot: Pilot, app: HostApp) -> None:
        await until(pilot, lambda: all_measured(app))
        await pilot.press("enter")
        await until(pilot, lambda: any("cannot be read" in t for _, t in app.said))
        assert isinstance(app.screen, StoresScreen) and app.store is None

    run(HostApp(""), body)


def test_the_palette_lists_the_machines_stores_over_the_open_one(
    home: Path, tmp_path: Path
) -> None:
    dsh = write_tree(home / ".dsh" / "memory", DSH)
    first = claude_project(home, "-first", CLAUDE)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "stores on this", "Stores on this machine")
        await until(pilot, lambda: all_measured(app))
        assert [s.path for s in listing(app).found] == [str(dsh), str(first)]
        await pilot.press("escape")  # back to the open store, nothing else changed
        await until(pilot, lambda: not isinstance(app.screen, StoresScreen))
        assert app.root == str(first)
        await palette(pilot, app, "stores on this", "Stores on this machine")
        await until(pilot, lambda: all_measured(app))
        await pilot.press("enter")
        await until(pilot, lambda: app.store is not None and app.store.root == str(dsh))

    run(HostApp(str(first)), body)


# --- from the command line ----------------------------------------------------------------


def test_memtui_with_no_store_in_a_terminal_starts_on_the_list(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    apps: list[MemtuiApp] = []
    monkeypatch.setattr(MemtuiApp, "run", lambda self, *a, **k: apps.append(self))
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main([]) == 0 and main(["--read-only"]) == 0
    assert [(a.root, a.read_only) for a in apps] == [("", False), ("", True)]


@pytest.mark.parametrize("args", [[], ["--summary"], ["check"], ["list", "--json"]])
def test_scripts_with_no_store_still_exit_2_with_the_message(
    home: Path, tmp_path: Path, args: list[str]
) -> None:
    res = run_cli(*args, cwd=tmp_path / "cwd", env={**ENV, "HOME": str(home)})
    assert res.returncode == 2 and res.stdout == ""
    assert "no memory store here" in res.stderr and "memtui demo" in res.stderr
    assert "Traceback" not in res.stderr


def test_a_path_that_is_no_store_is_still_refused_in_a_terminal(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(MemtuiApp, "run", lambda self, *a, **k: pytest.fail("the app ran"))
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main([str(tmp_path / "cwd")]) == 2


def test_a_store_opened_from_the_palette_is_shown_fresh_as_from_the_command_line(
    tmp_path: Path,
) -> None:
    """The old store's file, index row and folding are not carried over: the new store
    shows no file, its cursor on the first row, its groups open as at a start."""
    from memtui.ui.panes.index_tree import IndexTree
    from memtui.ui.panes.viewer import FilePane
    from tests.ui_helpers import demo_store

    root = demo_store(tmp_path / "demo")
    hermes = root / "hermes"

    def opened(tree: IndexTree) -> set[str]:
        return {n.data.key for n in tree.root.children if n.is_expanded and n.data}

    fresh: set[str] = set()

    async def first(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        fresh.update(opened(app.query_one(IndexTree)))

    run(HostApp(str(hermes)), first)
    assert fresh, "a store opened from the command line starts with its groups open"

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        app.open_file("soul.md")
        tree = app.query_one(IndexTree)
        for _ in range(6):
            tree.action_cursor_down()
        for node in list(tree.root.children):
            node.collapse()
        await pilot.pause()
        await palette(pilot, app, "store hermes", "Open the store hermes")
        await until(pilot, lambda: app.store is not None and app.store.root == str(hermes))
        await pilot.pause()
        assert app.query_one(FilePane).rel is None
        assert tree.cursor_line == 0
        assert opened(tree) == fresh

    run(HostApp(str(root)), body)


def test_the_machines_list_keeps_the_stores_this_app_opened(home: Path, tmp_path: Path) -> None:
    """A store outside the usual places (the demo), left for another from the palette,
    is still in "Stores on this machine": the way back."""
    from tests.ui_helpers import demo_store

    root = demo_store(tmp_path / "demo")
    hermes = root / "hermes"

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await palette(pilot, app, "store hermes", "Open the store hermes")
        await until(pilot, lambda: app.store is not None and app.store.root == str(hermes))
        await palette(pilot, app, "stores on this", "Stores on this machine")
        await until(pilot, lambda: all_measured(app))
        assert [s.path for s in listing(app).found] == [str(root), str(hermes)]

    run(HostApp(str(root)), body)
