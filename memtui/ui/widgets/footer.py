"""Textual's Footer, rebuilt once for the binding changes of one refresh, and only when
the keys it would show differ from those it shows; its words in the reader's language."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey, FooterLabel

from memtui.i18n import _


def _keys(screen: Screen[Any]) -> tuple[tuple[object, bool, str], ...]:
    """What the footer's keys are built from: each binding, whether it is enabled, its tooltip."""
    return tuple((b, enabled, tip) for _node, b, enabled, tip in screen.active_bindings.values())


class Footer(TextualFooter):
    """Showing a store changes the bindings six times in a row (each pane, the tabs, the
    tree's cursor), and a cursor move asks again; Textual's Footer rebuilds its keys for
    every ask, some 25 ms each on the UI thread on a large store. Here the asks made
    before the next refresh are one, and it rebuilds only if the keys changed."""

    _rebuild_due = False
    _built_from: tuple[tuple[object, bool, str], ...] | None = None

    def compose(self) -> ComposeResult:
        if self._bindings_ready:
            self._built_from = _keys(self.screen)
        for widget in super().compose():
            yield _translated(widget)

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if self._rebuild_due:
            return
        self._rebuild_due = True
        self.call_after_refresh(self._bindings_settled, screen)

    def _bindings_settled(self, screen: Screen[Any]) -> None:
        self._rebuild_due = False
        if not self.is_attached or screen is not self.screen:
            return  # taken down meanwhile, or another screen's bindings
        if self._built_from != _keys(screen):
            super().bindings_changed(screen)


def _translated(widget: Widget) -> Widget:
    """Bindings are declared in English at import (N_), before the language is chosen:
    their words are translated here, where they are drawn."""
    if isinstance(widget, FooterKey):
        widget.description = _(widget.description) if widget.description else ""
        if widget.tooltip:
            widget.tooltip = _(str(widget.tooltip))
    elif isinstance(widget, FooterLabel):
        return FooterLabel(_(str(widget.content)))
    return widget
