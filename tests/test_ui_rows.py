"""The virtual list (ui/widgets/rows.py): a cursor move redraws only the rows it
touches, at the right place even when the list is scrolled; a full refresh, a
selection and a theme change draw rows anew."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.app import App, ComposeResult

from memtui.ui.widgets.rows import Rows


class RowsApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[int] = []
        self.label = "row"

    def compose(self) -> ComposeResult:
        yield Rows(id="rows")

    def on_mount(self) -> None:
        rows = self.query_one(Rows)
        rows.set_rows(1000, self.draw)
        rows.focus()

    def draw(self, index: int) -> Text:
        self.drawn.append(index)
        return Text(f"{self.label} {index:04d}")


def screen_lines(app: App[None]) -> list[str]:
    return [line.text for line in app.screen._compositor.render_strips()]


def on_cursor(app: App[None], rows: Rows, label: str) -> bool:
    """Whether the row showing `label` is drawn, on screen, in the cursor's colours."""
    cursor = rows.get_component_rich_style("rows--cursor").bgcolor
    for strip in app.screen._compositor.render_strips():
        if label in strip.text:
            return any(seg.style and seg.style.bgcolor == cursor for seg in strip)
    raise AssertionError(f"{label!r} is not on screen")


def run(body) -> None:  # type: ignore[no-untyped-def]
    async def main() -> None:
        app = RowsApp()
        async with app.run_test(size=(40, 10)) as pilot:
            await pilot.pause()
            await body(app, app.query_one(Rows), pilot)

    asyncio.run(main())


def test_cursor_move_draws_only_the_two_rows_even_when_scrolled() -> None:
    async def body(app: RowsApp, rows: Rows, pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press(*["down"] * 25)  # scrolled: row 16 is at the top of 10 lines
        await pilot.pause()
        top = rows.scroll_offset.y
        assert top > 0 and rows.cursor == 25
        app.drawn.clear()
        await pilot.press("up")
        await pilot.pause()
        assert set(app.drawn) <= {24, 25}  # the new cursor row may be kept from before
        assert rows.scroll_offset.y == top  # no scroll, so nothing else was drawn
        assert on_cursor(app, rows, "row 0024") and not on_cursor(app, rows, "row 0025")

    run(body)


def test_scrolling_by_a_row_draws_one_new_row() -> None:
    async def body(app: RowsApp, rows: Rows, pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.press(*["down"] * 9)  # the cursor on the last visible row
        await pilot.pause()
        app.drawn.clear()
        await pilot.press("down")
        await pilot.pause()
        assert rows.scroll_offset.y == 1
        assert set(app.drawn) <= {9, 10}  # the old cursor row plain (kept), the new one
        assert on_cursor(app, rows, "row 0010") and not on_cursor(app, rows, "row 0009")

    run(body)


def test_full_refresh_and_theme_change_draw_rows_anew() -> None:
    async def body(app: RowsApp, rows: Rows, pilot) -> None:  # type: ignore[no-untyped-def]
        app.label = "changed"
        rows.refresh()
        await pilot.pause()
        assert "changed 0003" in "\n".join(screen_lines(app))
        app.drawn.clear()
        app.theme = "textual-light" if app.theme != "textual-light" else "textual-dark"
        await pilot.pause()
        assert set(range(10)) <= set(app.drawn)

    run(body)


def test_selection_redraws_its_row() -> None:
    async def body(app: RowsApp, rows: Rows, pilot) -> None:  # type: ignore[no-untyped-def]
        app.drawn.clear()
        rows.toggle_selected(2)
        await pilot.pause()
        assert app.drawn == [2]

    run(body)


def test_a_lost_cursor_is_on_no_row_until_a_move() -> None:
    """The row the cursor was on went away: none is current or drawn as the cursor; down
    goes to the row now in its place, up to the one above it."""

    async def body(app: RowsApp, rows: Rows, pilot) -> None:  # type: ignore[no-untyped-def]
        rows.cursor = 3
        await pilot.pause()
        rows.follow(None)
        await pilot.pause()
        assert rows.lost and rows.current is None
        assert not on_cursor(app, rows, "row 0003")
        await pilot.press("down")
        await pilot.pause()
        assert rows.current == 3 and on_cursor(app, rows, "row 0003")
        rows.follow(None)
        await pilot.press("up")
        assert rows.current == 2
        rows.follow(7)
        assert rows.current == 7 and not rows.lost

    run(body)
