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
    about: str  # what it shows, for the help screen
    # the view it shows (Layout.views): its tab is hidden where no layout feeds it
    needs: str | None = None


PANES = (
    PaneSpec(
        "index",
        "Index",
        "Show the index tree",
        "index_tree.IndexPane",
        "the store's files, by layout, as a tree; pick one to open it",
    ),
    PaneSpec(
        "file",
        "File",
        "Show the file viewer",
        "viewer.FilePane",
        "one file's text exactly as stored (control characters made visible)",
    ),
    PaneSpec(
        "events",
        "Events",
        "Show the events timeline",
        "events.EventsPane",
        "a layout's dated entries as a timeline: type, date, stars, status, due",
        "timeline",
    ),
    PaneSpec(
        "mood",
        "Mood",
        "Show the mood chart",
        "mood.MoodPane",
        "the mood history: valence and energy over the snapshots, steps checked",
        "mood",
    ),
    PaneSpec(
        "pending",
        "Pending",
        "Show the pending queue",
        "pending.PendingPane",
        "what agents staged for approval, every queue: accept or reject it",
    ),
    PaneSpec(
        "warnings",
        "Warnings",
        "Show the warnings",
        "warnings.WarningsPane",
        "every finding (errors, warnings, notes) with its file and line",
    ),
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
