"""The memory stores on this machine (`memtui stores`), to pick one to open: shown
when the app starts with no store, and from the palette. The list comes first (the
layouts' detection, quick); each store's counts fill in as it is opened."""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from memtui.engine.stores import LOOKED, FoundStore, find, measured
from memtui.i18n import N_, _, tr
from memtui.stores_table import table
from memtui.ui.safe import literal, row
from memtui.ui.widgets.rows import Rows

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp


class StoresScreen(ModalScreen[None]):
    """`first`: the app has no store yet, so leaving quits and the palette (whose
    commands act on the open store) is off until one is picked."""

    DEFAULT_CSS = """
    StoresScreen { align: center middle; }
    StoresScreen > #stores-box {
        width: 95%; height: 90%;
        padding: 1 2; border: thick $accent; background: $surface;
    }
    StoresScreen #stores-title { height: auto; margin-bottom: 1; }
    StoresScreen #stores-heading { height: 1; color: $text-muted; }
    StoresScreen #stores-note { height: auto; }
    StoresScreen #stores-hint { color: $text-muted; height: 1; margin-top: 1; }
    StoresScreen Rows { height: 1fr; }
    """
    BINDINGS = [Binding("escape,q", "leave", N_("Back"), id="stores.leave")]

    @dataclass
    class Listed(Message):
        found: list[FoundStore]

    @dataclass
    class Measured(Message):
        index: int
        store: FoundStore

    def __init__(self, *, first: bool = False, also: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.first = first
        self.also = also  # the stores this app has shown: listed too, so one can go back
        self.found: list[FoundStore] = []
        self._lines: list[str] = []

    @property
    def memtui(self) -> MemtuiApp:
        return self.app  # type: ignore[return-value]

    def compose(self) -> ComposeResult:
        title = (
            _("No store to open here. The memory stores on this machine")
            if self.first
            else _("The memory stores on this machine")
        )
        with Vertical(id="stores-box"):
            yield Static(literal(title), id="stores-title")
            yield Static(literal(_("looking…")), id="stores-note")
            yield Static(id="stores-heading")
            yield Rows(self._row, id="stores-rows")
            hint = (
                _("↑↓ move · enter opens · q quits")
                if self.first
                else _("↑↓ move · enter opens · Esc goes back")
            )
            yield Static(literal(hint), id="stores-hint")

    def on_mount(self) -> None:
        if self.first:
            self.app.use_command_palette = False
            self.app.sub_title = _("no store open")
        self.query_one(Rows).focus()
        self._look()

    @work(thread=True, exclusive=True, group="stores")
    def _look(self) -> None:
        from textual.worker import get_current_worker

        worker = get_current_worker()
        found = find(also=self.also)
        self.post_message(self.Listed(found))
        with closing(measured(found)) as results:  # closed: the stores not begun are dropped
            for index, store in results:
                if worker.is_cancelled:  # the screen or the app closed
                    return
                self.post_message(self.Measured(index, store))

    def on_stores_screen_listed(self, message: Listed) -> None:
        self.found = list(message.found)
        note = self.query_one("#stores-note", Static)
        if self.found:
            note.display = False
        else:
            note.update(
                literal(
                    _(
                        "No memory store found in {places}. "
                        "Quit, and run `memtui demo` for a sample store to try memtui on."
                    ).format(places=LOOKED)
                )
            )
        self._show()

    def on_stores_screen_measured(self, message: Measured) -> None:
        if message.index < len(self.found):
            self.found[message.index] = message.store
            self._show()

    def _show(self) -> None:
        lines = table(self.found) if self.found else []
        self._lines = lines[1:]
        self.query_one("#stores-heading", Static).update(row(lines[0]) if lines else "")
        self.query_one(Rows).set_rows(len(self._lines), self._row)

    def _row(self, index: int) -> Text:
        store = self.found[index] if index < len(self.found) else None
        style = "red" if store is not None and store.problem else ""
        return row(self._lines[index], style) if index < len(self._lines) else Text("")

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        if message.index >= len(self.found):
            return
        store = self.found[message.index]
        if store.problem is not None:
            self.memtui.say(tr(store.problem), severity="warning", title=_("cannot open it"))
            return
        self.app.use_command_palette = True
        self.dismiss(None)
        self.memtui.open_store(store.path)

    def action_leave(self) -> None:
        if self.first:
            self.app.exit()
        else:
            self.dismiss(None)


def show_stores(app: MemtuiApp) -> None:
    """The palette's way in: the list over the open store."""
    app.push_screen(StoresScreen(also=tuple(app.visited)))
