"""The app's panes. Each is handed every new immutable Store snapshot."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from textual.binding import Binding, BindingType
from textual.widget import Widget

from memtui.engine.store import Store
from memtui.i18n import N_
from memtui.ui.style import component_style


class Pane(Widget):
    """A pane shows one aspect of the store and keeps the user's place across reloads."""

    DEFAULT_CSS = "Pane { height: 1fr; }"
    # The app's `?` again, here so the Footer lists it first: at 80 columns the app's
    # own keys, which come last, are cut off.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "app.help", N_("Help"), id="pane.help")
    ]
    LAYOUT: ClassVar[str | None] = None  # the layout its commands need (None: any store)
    read_only = False  # the shell passes it down once mounted (--read-only)

    def show_store(self, store: Store) -> None:
        raise NotImplementedError

    def forget(self) -> None:
        """Another store is shown next: drop the place kept in this one (its file, its
        cursor, what was open), so the new store looks as it does when opened first."""

    def has_work(self, store: Store) -> bool:
        """Whether its palette commands mean anything for this store (its layout's)."""
        return self.LAYOUT is None or self.LAYOUT in store.layouts

    def on_mount(self) -> None:
        # Textual runs this as well as a subclass's own on_mount (handlers run per class).
        self.watch(self.app, "theme", self._theme_changed, init=False)

    def _theme_changed(self) -> None:
        self.call_after_refresh(self.restyle)

    def restyle(self) -> None:
        """The theme changed: draw again whatever holds the old theme's colours (Rich
        Text made with `style_of`). Rows and plain widgets restyle themselves."""

    def style_of(self, name: str) -> Style:
        """A component class's style for Rich Text drawn in this pane (ui.style)."""
        return component_style(self, name)
