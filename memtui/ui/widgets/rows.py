"""A virtual list: one row a line, rendered only where visible (the Line API).

ListView needs a widget a row (78 s for 10,000 items); this draws rows on
demand from a function, so 20,000 events scroll as fast as 20.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Self

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from memtui.i18n import N_

RowFn = Callable[[int], Text]
STRIPS_MAX = 2000  # drawn rows kept; a screen holds about 50
CENTRE_TRIES = 20  # refreshes a row to centre waits for the list to be able to scroll


class Rows(ScrollView, can_focus=True):
    """Rows 0..count-1, drawn by `render_row(i)`; a cursor, and an optional selection.

    The cursor can be `lost`: the row it was on went away under it (the agent wrote).
    No row is current then (`current` is None, none is drawn as the cursor) until the
    user moves: a neighbour is never acted on in its place."""

    DEFAULT_CSS = """
    Rows { height: 1fr; }
    Rows > .rows--cursor { background: $accent 40%; }
    Rows:focus > .rows--cursor { background: $accent; color: $text; }
    Rows > .rows--selected { color: $success; text-style: bold; }
    """
    COMPONENT_CLASSES = {"rows--cursor", "rows--selected"}
    BINDINGS = [
        Binding("up,k", "move(-1)", N_("Up"), show=False),
        Binding("down,j", "move(1)", N_("Down"), show=False),
        Binding("pageup", "page(-1)", N_("Page up"), show=False),
        Binding("pagedown", "page(1)", N_("Page down"), show=False),
        Binding("home,g", "jump(0)", N_("First"), show=False),
        Binding("end,G", "jump(-1)", N_("Last"), show=False),
        Binding("enter", "choose", N_("Open"), show=False),
        Binding("left", "scroll_left", N_("Scroll left"), show=False),
        Binding("right", "scroll_right", N_("Scroll right"), show=False),
    ]

    # No repaint on change: watch_cursor redraws just the two rows (a full repaint
    # of the visible rows cost ~8 ms a key).
    cursor: reactive[int] = reactive(0, always_update=True, init=False, repaint=False)

    @dataclass
    class Highlighted(Message):
        rows: Rows
        index: int

    @dataclass
    class Chosen(Message):
        rows: Rows
        index: int

    def __init__(self, render_row: RowFn | None = None, *, id: str | None = None) -> None:
        # Drawn rows by (index, on the cursor, selected), for one width and x scroll:
        # a scroll by one row then draws one new row, not the whole screen of them.
        self._strips: dict[tuple[int, bool, bool], Strip] = {}
        self._strips_for = (-1, -1)
        self._fitting = False
        super().__init__(id=id)
        self._render_row: RowFn = render_row or (lambda i: Text(""))
        self.count = 0
        self.selected: set[int] = set()
        self.lost = False
        # The horizontal scroll range is the widest row drawn, not the widget's width
        # (which counts the vertical scrollbar's columns too, so a horizontal bar
        # appeared whenever a vertical one did): no bar unless a row is wider.
        self.widest = 0
        self._measured_at = -1  # the content width the rows were measured at
        self._fit_due = False
        self._centre_due: int | None = None  # a row to centre once the list has a size
        self._centre_tries = 0

    def set_rows(self, count: int, render_row: RowFn, keep_cursor: bool = True) -> None:
        self._render_row = render_row
        self.count = count
        if not keep_cursor:
            self.widest = 0  # other rows (another file): measured again as drawn
            self.lost = False
        self.selected = {i for i in self.selected if i < count}
        self.virtual_size = Size(self.widest, count)
        self.cursor = min(self.cursor if keep_cursor else 0, max(0, count - 1))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if width != self._measured_at:
            # A row may be drawn to the width (pending's evidence column): a vertical
            # scrollbar or a resize makes it narrower, so measure again.
            self._measured_at = width
            self.widest = 0
            self._fit_later()
        if index >= self.count:
            return Strip.blank(width, self.rich_style)
        if self._strips_for != (width, self.scroll_offset.x) or len(self._strips) > STRIPS_MAX:
            self._strips.clear()
            self._strips_for = (width, self.scroll_offset.x)
        key = (index, self._on_cursor(index), index in self.selected)
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = self._draw(index, width)
        return strip

    def _draw(self, index: int, width: int) -> Strip:
        text = self._render_row(index)
        if text.style and not text.spans:  # Text.render ignores a bare base style
            text.stylize(text.style)
        text.no_wrap = True
        text.end = ""
        self._measure(text)
        style = self.rich_style
        if index in self.selected:
            style += self.get_component_rich_style("rows--selected")
        segments = list(text.render(self.app.console))
        if self._on_cursor(index):
            style += self.get_component_rich_style("rows--cursor")
            segments = [Segment(t, _on_cursor(s), c) for t, s, c in segments]
        strip = Strip(segments).apply_style(style) if style else Strip(segments)
        return strip.crop_extend(self.scroll_offset.x, self.scroll_offset.x + width, style)

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        if repaint and not regions and not self._fitting:  # the rows may have changed
            self._strips.clear()
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._strips.clear()  # a theme or CSS change restyles every row
        super().notify_style_update()

    def _measure(self, text: Text) -> None:
        """Rows are measured as they are drawn (measuring 50,000 lines up front would
        cost a third of a second on every reload); the scroll range grows to fit.
        Trailing blanks (a padded last column) need no scrolling to be seen."""
        plain = text.plain
        cells = text.cell_len - (len(plain) - len(plain.rstrip(" ")))
        if cells > self.widest:
            self.widest = cells
            self._fit_later()

    def _fit_later(self) -> None:
        if not self._fit_due:  # once, after the rows being drawn now are measured
            self._fit_due = True
            self.call_later(self._fit)

    def _fit(self) -> None:
        self._fit_due = False
        if self.virtual_size.width != self.widest:
            self._fitting = True  # a wider scroll range changes no drawn row
            try:
                self.virtual_size = Size(self.widest, self.count)
            finally:
                self._fitting = False

    def _on_cursor(self, index: int) -> bool:
        return index == self.cursor and not self.lost

    @property
    def current(self) -> int | None:
        """The row the user is on; None when there is none, or the cursor is lost."""
        return None if self.lost or not self.count else self.cursor

    def follow(self, index: int | None) -> None:
        """Put the cursor on `index`, the row the user was on in the rows set before;
        None: it is gone, so the cursor is lost where it was until the user moves."""
        if index is not None:
            if index != self.cursor or self.lost:
                self.cursor = index
            return
        if not self.lost:
            self.lost = True
            self.refresh_line_of(self.cursor)

    def watch_cursor(self, old: int, new: int) -> None:
        self.lost = False  # set: on a row again
        self.scroll_to_region_row(new)
        self.refresh_line_of(old)
        self.refresh_line_of(new)
        self.post_message(self.Highlighted(self, new))

    def refresh_line_of(self, index: int) -> None:
        if 0 <= index - self.scroll_offset.y < self.size.height:
            self.refresh_line(index)  # ScrollView's refresh_line takes the virtual row

    def scroll_to_region_row(self, index: int) -> None:
        top = self.scroll_offset.y
        height = max(1, self.scrollable_content_region.height)
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def centre_on(self, index: int) -> None:
        """Scroll so row `index` is mid-screen. A list not laid out yet (its tab just
        shown, the screen over it just closed) cannot scroll: it is centred once it
        can, unless the user moves first."""
        self._centre_due = index
        self._centre_tries = CENTRE_TRIES
        self.call_after_refresh(self._centre)

    def _centre(self) -> None:
        index = self._centre_due
        height = self.scrollable_content_region.height
        if index is None or height <= 0:
            return  # on_resize tries again
        target = min(max(0, index - height // 2), self.max_scroll_y)
        self.scroll_to(y=target, animate=False, immediate=True)
        if self.scroll_offset.y == target:
            self._centre_due = None
        elif self._centre_tries > 0:  # no scrollbar worked out yet: after the next layout
            self._centre_tries -= 1
            self.call_after_refresh(self._centre)

    def on_resize(self, event: events.Resize) -> None:
        if self._centre_due is not None:
            self.call_after_refresh(self._centre)

    def _user_moved(self) -> None:
        self._centre_due = None

    def action_move(self, step: int) -> None:
        self._user_moved()
        if self.count:
            # lost: the rows that closed up sit at the cursor (down) and above it (up)
            start = self.cursor - 1 if self.lost and step > 0 else self.cursor
            self.cursor = max(0, min(self.count - 1, start + step))

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.scrollable_content_region.height - 1))

    def action_jump(self, index: int) -> None:
        self._user_moved()
        if self.count:
            self.cursor = index if index >= 0 else self.count - 1

    def action_choose(self) -> None:
        if self.current is not None:
            self.post_message(self.Chosen(self, self.cursor))

    def toggle_selected(self, index: int | None = None) -> None:
        index = self.cursor if index is None else index
        self.selected ^= {index}
        self.refresh_line_of(index)

    def on_click(self, event: events.Click) -> None:
        self._user_moved()
        index = self.scroll_offset.y + event.y
        if 0 <= index < self.count:
            if index == self.cursor and event.chain > 1:
                self.post_message(self.Chosen(self, index))
            self.cursor = index


def _on_cursor(style: Style | None) -> Style | None:
    """A span's style on the cursor row: its text colour and dim go, so the row is drawn
    in the cursor's colours (an $accent id would vanish on the $accent cursor); bold,
    italic, underline and a background (a search match) stay."""
    if style is None:
        return None
    return Style(
        bgcolor=style.bgcolor,
        bold=style.bold,
        italic=style.italic,
        underline=style.underline,
        strike=style.strike,
    )
