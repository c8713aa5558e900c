"""The layout follows the terminal: at 120 columns the index sits beside the tabs;
below 100 it is a full-width page behind `1` (the first page a narrow start shows),
with a compact footer whose keys all fit; back at 120 it is beside the tabs again."""

from __future__ import annotations

import itertools
from pathlib import Path

from textual.pilot import Pilot

from memtui.ui.app import MemtuiApp
from tests.ui_helpers import demo_store, run, until


def test_narrow_then_wide_again_shows_the_index_beside_the_tabs(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        index, tabs = app.query_one("#pane-index"), app.query_one("#panes")
        assert index.display and tabs.display
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not index.display and tabs.display  # narrow: the tabs, the index behind 1
        await pilot.press("1")
        await pilot.pause()
        assert index.display and not tabs.display
        await pilot.press("2")
        await pilot.pause()
        assert not index.display and tabs.display
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        assert index.display and tabs.display and index.size.width > 0

    run(MemtuiApp(str(root), watch=False), body)


def test_a_narrow_start_opens_on_the_index_with_the_focus_and_the_footer_fits(
    tmp_path: Path,
) -> None:
    from textual.widgets._footer import FooterKey

    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        index, tabs = app.query_one("#pane-index"), app.query_one("#panes")
        assert index.display and not tabs.display and index.size.width > 0
        focused = app.focused
        assert focused is not None and index in focused.ancestors_with_self
        keys = list(app.screen.query(FooterKey))
        assert keys, "the footer shows keys"
        spans = sorted((k.region.x, k.region.right, k.key_display) for k in keys)
        assert all(right <= 80 for _x, right, _k in spans), spans  # none cut off at the edge
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(spans)), spans  # none covered
        assert {"q", "?", "/"} <= {k for _x, _r, k in spans}
        await pilot.press("2")  # the tabs, as before
        await pilot.pause()
        assert not index.display and tabs.display

    async def main() -> None:
        app = MemtuiApp(str(root), watch=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await body(pilot, app)

    import asyncio

    asyncio.run(main())


def test_a_dsh_only_store_has_no_events_or_mood_tab(tmp_path: Path) -> None:
    from textual.widgets import TabbedContent

    from tests.conftest import write_tree
    from tests.helpers import ACCEPT_STORE

    root = write_tree(tmp_path / "dsh", ACCEPT_STORE)

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        assert app.store.layouts == ("dsh",)  # type: ignore[union-attr]
        tabs = app.query_one(TabbedContent)
        shown = [t.id for t in tabs.query("Tab") if t.display]
        assert shown == ["--content-tab-tab-file", "--content-tab-tab-pending",
                         "--content-tab-tab-warnings"]  # fmt: skip
        await pilot.press("3")  # Events: nothing to show, the key does nothing
        await pilot.pause()
        assert tabs.active == "tab-file"

    run(MemtuiApp(str(root), watch=False), body)


def test_a_store_with_every_layout_keeps_every_tab(tmp_path: Path) -> None:
    from textual.widgets import TabbedContent

    root = demo_store(tmp_path / "store")

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        tabs = app.query_one(TabbedContent)
        assert all(t.display for t in tabs.query("Tab"))
        await pilot.press("3")
        await pilot.pause()
        assert tabs.active == "tab-events"

    run(MemtuiApp(str(root), watch=False), body)


def test_narrow_enter_on_an_index_row_keeps_the_file_pane_with_the_focus(
    tmp_path: Path,
) -> None:
    """After `5` then `1`, Enter opened the file, then the Pending tab came back (the
    focus sent to the tab still active while the index hid), with nothing focused."""
    import asyncio

    from textual.widgets import TabbedContent

    root = demo_store(tmp_path / "store") / "openclaw"

    async def main() -> None:
        app = MemtuiApp(str(root), watch=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.store is not None)
            await pilot.pause()
            for key in ("5", "1", "right", "down"):
                await pilot.press(key)
                await pilot.pause()
            tree = app.query_one("#index-tree")
            assert tree.cursor_node.data.rel == "AGENTS.md"  # type: ignore[attr-defined]
            await pilot.press("enter")
            file_pane = app.query_one("#pane-file")
            await until(pilot, lambda: file_pane.rel == "AGENTS.md")  # type: ignore[attr-defined]
            for _ in range(3):  # the deferred focus calls and tab messages have all run
                await pilot.pause()
            assert app.query_one(TabbedContent).active == "tab-file"
            focused = app.focused
            assert focused is not None and file_pane in focused.ancestors_with_self

    asyncio.run(main())


def test_a_store_with_no_queue_has_no_pending_tab_and_only_working_pane_keys(
    tmp_path: Path,
) -> None:
    """A Claude folder: nothing is ever queued, so no Pending tab; no companion, so no
    Events or Mood; the Footer lists only the pane keys that work."""
    from textual.widgets import TabbedContent

    root = demo_store(tmp_path / "store") / "claude"

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: app.store is not None)
        await pilot.pause()
        tabs = app.query_one(TabbedContent)
        shown = [t.id for t in tabs.query("Tab") if t.display]
        assert shown == ["--content-tab-tab-file", "--content-tab-tab-warnings"]
        keys = {b.binding.key for b in app.screen.active_bindings.values() if b.enabled}
        assert {"1", "2", "6"} <= keys and not {"3", "4", "5"} & keys
        await pilot.press("5")
        await pilot.pause()
        assert tabs.active == "tab-file"

    run(MemtuiApp(str(root), watch=False), body)


def test_at_80_columns_every_panes_footer_keeps_search_and_quit_apart(tmp_path: Path) -> None:
    """Each pane's own keys leave room for `/` and `q`, and the pane keys' label stands
    apart from the next key (was `123456 Panes/ Search`, Events cut off Search and Quit)."""
    import asyncio

    from tests.ui_helpers import screen_text

    root = demo_store(tmp_path / "store")

    async def main() -> None:
        app = MemtuiApp(str(root), watch=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.store is not None)
            for key in "123456":
                await pilot.press(key)
                await pilot.pause()
                footer = screen_text(app).splitlines()[-1]
                assert "Panes / Search" in footer and footer.rstrip().endswith("q Quit"), (
                    key,
                    footer,
                )

    asyncio.run(main())


def test_at_80_columns_the_context_views_cut_line_wraps_whole(tmp_path: Path) -> None:
    """The cut's sentence (OpenClaw's is ~200 characters) was cut off at the edge."""
    import asyncio

    from memtui.engine.context_rows import CUT
    from memtui.ui.screens.context import ContextScreen

    root = demo_store(tmp_path / "store") / "openclaw"

    async def main() -> None:
        app = MemtuiApp(str(root), watch=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.store is not None)
            await pilot.press("c")
            await until(pilot, lambda: isinstance(app.screen, ContextScreen))
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ContextScreen)
            said = [text for kind, text in screen.rows if kind == CUT]
            shown = [text for kind, text in screen.shown if kind == CUT]
            assert said and max(len(s) for s in said) > 80
            assert all(len(s) <= 78 for s in shown)
            assert " ".join(shown).split() == " ".join(said).split()  # every word kept

    asyncio.run(main())
