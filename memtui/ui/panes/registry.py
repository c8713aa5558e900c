"""The app's panes, in order: each with its key (1-6), title, palette title and the
class that draws it. The shell's bindings, tabs and palette all come from PANES.
Its words are English here (N_, made at import) and translated where drawn."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from memtui.engine.store import Store
from memtui.engine.views import views
from memtui.i18n import N_
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
        N_("Index"),
        N_("Show the index tree"),
        "index_tree.IndexPane",
        N_("the store's files, by layout, as a tree; pick one to open it"),
    ),
    PaneSpec(
        "file",
        N_("File"),
        N_("Show the file viewer"),
        "viewer.FilePane",
        N_("one file's text exactly as stored (control characters made visible)"),
    ),
    PaneSpec(
        "events",
        N_("Events"),
        N_("Show the events timeline"),
        "events.EventsPane",
        N_("a layout's dated entries as a timeline: type, date, stars, status, due"),
        "timeline",
    ),
    PaneSpec(
        "mood",
        N_("Mood"),
        N_("Show the mood chart"),
        "mood.MoodPane",
        N_("the mood history: valence and energy over the snapshots, steps checked"),
        "mood",
    ),
    PaneSpec(
        "pending",
        N_("Pending"),
        N_("Show the pending queue"),
        "pending.PendingPane",
        N_("what agents staged for approval, every queue: accept or reject it"),
    ),
    PaneSpec(
        "warnings",
        N_("Warnings"),
        N_("Show the warnings"),
        "warnings.WarningsPane",
        N_("every finding (errors, warnings, notes) with its file and line"),
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
