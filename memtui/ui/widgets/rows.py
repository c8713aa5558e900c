"""A virtual list: one row a line, rendered only where visible (the Line API).

ListView needs a widget a row (78 s for 10,000 items); this draws rows on
demand from a function, so 20,000 events scroll as fast as 20.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

RowFn = Callable[[int], Text]


class Rows(ScrollView, can_focus=True):
    """Rows 0..count-1, drawn by `render_row(i)`; a cursor, and an optional selection."""

    DEFAULT_CSS = """
    Rows { height: 1fr; }
    Rows > .rows--cursor { background: $accent 40%; }
    Rows:focus > .rows--cursor { background: $accent; color: $text; }
    Rows > .rows--selected { color: $success; text-style: bold; }
    """
    COMPONENT_CLASSES = {"rows--cursor", "rows--selected"}
    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home,g", "jump(0)", "First", show=False),
        Binding("end,G", "jump(-1)", "Last", show=False),
        Binding("enter", "choose", "Open", show=False),
    ]

    cursor: reactive[int] = reactive(0, always_update=True, init=False)

    @dataclass
    class Highlighted(Message):
        rows: Rows
        index: int

    @dataclass
    class Chosen(Message):
        rows: Rows
        index: int

    def __init__(self, render_row: RowFn | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._render_row: RowFn = render_row or (lambda i: Text(""))
        self.count = 0
        self.selected: set[int] = set()

    def set_rows(self, count: int, render_row: RowFn, keep_cursor: bool = True) -> None:
        self._render_row = render_row
        self.count = count
        self.selected = {i for i in self.selected if i < count}
        self.virtual_size = Size(self.size.width, count)
        self.cursor = min(self.cursor if keep_cursor else 0, max(0, count - 1))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        if index >= self.count:
            return Strip.blank(width, self.rich_style)
        text = self._render_row(index)
        if text.style and not text.spans:  # Text.render ignores a bare base style
            text.stylize(text.style)
        text.no_wrap = True
        text.end = ""
        style = self.rich_style
        if index in self.selected:
            style += self.get_component_rich_style("rows--selected")
        if index == self.cursor:
            style += self.get_component_rich_style("rows--cursor")
        segments = list(text.render(self.app.console))
        strip = Strip(segments).apply_style(style) if style else Strip(segments)
        return strip.crop_extend(self.scroll_offset.x, self.scroll_offset.x + width, style)

    def watch_cursor(self, old: int, new: int) -> None:
        self.scroll_to_region_row(new)
        self.refresh_line_of(old)
        self.refresh_line_of(new)
        self.post_message(self.Highlighted(self, new))

    def refresh_line_of(self, index: int) -> None:
        y = index - self.scroll_offset.y
        if 0 <= y < self.size.height:
            self.refresh_line(y)

    def scroll_to_region_row(self, index: int) -> None:
        top = self.scroll_offset.y
        height = max(1, self.scrollable_content_region.height)
        if index < top:
            self.scroll_to(y=index, animate=False)
        elif index >= top + height:
            self.scroll_to(y=index - height + 1, animate=False)

    def action_move(self, step: int) -> None:
        if self.count:
            self.cursor = max(0, min(self.count - 1, self.cursor + step))

    def action_page(self, direction: int) -> None:
        self.action_move(direction * max(1, self.scrollable_content_region.height - 1))

    def action_jump(self, index: int) -> None:
        if self.count:
            self.cursor = index if index >= 0 else self.count - 1

    def action_choose(self) -> None:
        if self.count:
            self.post_message(self.Chosen(self, self.cursor))

    def toggle_selected(self, index: int | None = None) -> None:
        index = self.cursor if index is None else index
        self.selected ^= {index}
        self.refresh_line_of(index)

    def on_click(self, event: events.Click) -> None:
        index = self.scroll_offset.y + event.y
        if 0 <= index < self.count:
            if index == self.cursor and event.chain > 1:
                self.post_message(self.Chosen(self, index))
            self.cursor = index
