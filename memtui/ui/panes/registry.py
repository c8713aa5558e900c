"""The app's panes, in order: each with its key (1-6), title, palette title and the
class that draws it. The shell's bindings, tabs and palette all come from PANES."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module

from memtui.ui.panes import Pane


@dataclass(frozen=True, slots=True)
class PaneSpec:
    key: str  # its id (`pane-<key>`) and show_pane's argument
    title: str  # the tab's and the Footer's
    tip: str  # the palette's title (the binding's tooltip)
    cls: str  # module:Class, imported when the pane is made
    needs: str | None = None  # the layout it shows; its tab is hidden in a store without it


PANES = (
    PaneSpec("index", "Index", "Show the index tree", "index_tree:IndexPane"),
    PaneSpec("file", "File", "Show the file viewer", "viewer:FilePane"),
    PaneSpec("events", "Events", "Show the events timeline", "events:EventsPane", "companion"),
    PaneSpec("mood", "Mood", "Show the mood chart", "mood:MoodPane", "companion"),
    PaneSpec("pending", "Pending", "Show the pending queue", "pending:PendingPane"),
    PaneSpec("warnings", "Warnings", "Show the warnings", "warnings:WarningsPane"),
)
BY_KEY = {spec.key: spec for spec in PANES}


def absent(layouts: tuple[str, ...]) -> set[str]:
    """The keys of the panes a store with these layouts has nothing for."""
    return {spec.key for spec in PANES if spec.needs is not None and spec.needs not in layouts}


def make_pane(key: str) -> Pane:
    module, _, name = BY_KEY[key].cls.partition(":")
    cls = getattr(import_module(f"memtui.ui.panes.{module}"), name)
    pane: Pane = cls(id=f"pane-{key}")
    return pane
