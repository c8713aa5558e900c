"""The app's panes, in order: each with its key (1-6), title, palette title and the
class that draws it. The shell's bindings, tabs and palette all come from PANES."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from memtui.engine.store import Store
from memtui.engine.views import views
from memtui.ui.panes import Pane


@dataclass(frozen=True, slots=True)
class PaneSpec:
    key: str  # its id (`pane-<key>`) and show_pane's argument
    title: str  # the tab's and the Footer's
    tip: str  # the palette's title (the binding's tooltip)
    cls: str  # module.Class under ui.panes, imported when the pane is made
    # the view it shows (Layout.views): its tab is hidden where no layout feeds it
    needs: str | None = None


PANES = (
    PaneSpec("index", "Index", "Show the index tree", "index_tree.IndexPane"),
    PaneSpec("file", "File", "Show the file viewer", "viewer.FilePane"),
    PaneSpec("events", "Events", "Show the events timeline", "events.EventsPane", "timeline"),
    PaneSpec("mood", "Mood", "Show the mood chart", "mood.MoodPane", "mood"),
    PaneSpec("pending", "Pending", "Show the pending queue", "pending.PendingPane"),
    PaneSpec("warnings", "Warnings", "Show the warnings", "warnings.WarningsPane"),
)
BY_KEY = {spec.key: spec for spec in PANES}


def absent(store: Store) -> set[str]:
    """The keys of the panes this store has nothing for."""
    fed = views(store)
    return {spec.key for spec in PANES if spec.needs is not None and spec.needs not in fed}


def make_pane(key: str) -> Pane:
    module, _, name = BY_KEY[key].cls.rpartition(".")
    cls = getattr(import_module(f"memtui.ui.panes.{module}"), name)
    pane: Pane = cls(id=f"pane-{key}")
    return pane
