"""Textual's Footer, rebuilt once for the binding changes of one refresh."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer as TextualFooter


class Footer(TextualFooter):
    """Showing a store changes the bindings several times in a row (each pane, the tabs,
    the tree's cursor), and Textual's Footer rebuilds its keys for every change: five
    rebuilds, some 25 ms each on the UI thread, after a large store's load. Here the
    changes made before the next refresh are one rebuild, a refresh later."""

    _rebuild_due = False

    def bindings_changed(self, screen: Screen) -> None:
        if self._rebuild_due:
            return
        self._rebuild_due = True
        self.call_after_refresh(self._bindings_settled, screen)

    def _bindings_settled(self, screen: Screen) -> None:
        self._rebuild_due = False
        super().bindings_changed(screen)
