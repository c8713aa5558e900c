"""Which class draws which pane (keys as in the app's 1-6 bindings)."""

from __future__ import annotations

from memtui.ui.panes import Pane


def make_pane(key: str) -> Pane:
    if key == "index":
        from memtui.ui.panes.index_tree import IndexPane as cls
    elif key == "file":
        from memtui.ui.panes.viewer import FilePane as cls  # type: ignore[assignment]
    elif key == "events":
        from memtui.ui.panes.events import EventsPane as cls  # type: ignore[assignment]
    elif key == "mood":
        from memtui.ui.panes.mood import MoodPane as cls  # type: ignore[assignment]
    elif key == "pending":
        from memtui.ui.panes.pending import PendingPane as cls  # type: ignore[assignment]
    else:
        from memtui.ui.panes.warnings import WarningsPane as cls  # type: ignore[assignment]
    return cls(id=f"pane-{key}")
