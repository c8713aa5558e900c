"""The app's panes. Each is handed every new immutable Store snapshot."""

from __future__ import annotations

from textual.widget import Widget

from memtui.engine.store import Store


class Pane(Widget):
    """A pane shows one aspect of the store and keeps the user's place across reloads."""

    DEFAULT_CSS = "Pane { height: 1fr; }"

    def show_store(self, store: Store) -> None:
        raise NotImplementedError
