"""A pane that is a header line, a Rows list and a detail box (Events, Warnings)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from memtui.engine.store import Store
from memtui.i18n import N_, _
from memtui.ui.messages import Say
from memtui.ui.panes import Pane
from memtui.ui.widgets.rows import Rows

GONE = N_(
    "the row you were on is gone (the agent changed the file); nothing is highlighted "
    "until you move (↑/↓), so nothing else is acted on in its place"
)


class ListPane(Pane):
    """Subclasses set KEY (the parts are #KEY-header, #KEY-rows, #KEY-detail) and
    ROWS (the list's class, for its bindings), draw the header and the detail in
    `_header()` / `_detail()` with `show_header` / `show_detail`, and open the
    highlighted row in `action_open()`. The detail follows the cursor."""

    DEFAULT_CSS = """
    ListPane { layout: vertical; }
    ListPane > .list-header { height: 1; background: $boost; padding: 0 1; }
    ListPane > .list-detail {
        border-top: solid $primary-darken-2; padding: 0 1; overflow: hidden;
    }
    """
    KEY = "list"
    ROWS: type[Rows] = Rows

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows = self.ROWS(id=f"{self.KEY}-rows")
        self.store: Store | None = None
        self.header_text = Text()  # what the header and the detail show (tests read them)
        self.detail_text = Text()

    def compose(self) -> ComposeResult:
        yield Static(id=f"{self.KEY}-header", classes="list-header")
        yield self._rows
        yield Static(id=f"{self.KEY}-detail", classes="list-detail")

    @property
    def rows(self) -> Rows:
        return self._rows

    def focus(self, scroll_visible: bool = True) -> ListPane:
        self.rows.focus(scroll_visible)
        return self

    def restyle(self) -> None:
        """Header and detail hold the old theme's colours; the rows are drawn on demand."""
        if self.store is not None:
            self._header()
            self._detail()
            self.rows.refresh()

    def show_header(self, text: Text) -> None:
        self.header_text = text
        self.query_one(f"#{self.KEY}-header", Static).update(text)

    def show_detail(self, text: Text) -> None:
        self.detail_text = text
        self.query_one(f"#{self.KEY}-detail", Static).update(text)

    def _header(self) -> None:
        raise NotImplementedError

    def _detail(self) -> None:
        raise NotImplementedError

    def action_open(self) -> None:
        raise NotImplementedError

    def lost_said(self, verb: str) -> bool:
        """When the row the user was on went away under the cursor, an action key says
        so and does nothing (True); a neighbour is never acted on in its place."""
        if not self.rows.lost:
            return False
        self.post_message(Say(f"{verb}: {_(GONE)}", "warning"))
        return True

    def on_rows_highlighted(self, message: Rows.Highlighted) -> None:
        message.stop()
        self._detail()

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        self.action_open()
