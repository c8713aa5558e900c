"""Every action in the command palette: the app's own, and each pane's COMMANDS."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand

from memtui.ui.panes import Pane

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

APP_COMMANDS = (
    ("Show the index tree", "Pane 1", "show_pane('index')"),
    ("Show the file viewer", "Pane 2", "show_pane('file')"),
    ("Show the events timeline", "Pane 3", "show_pane('events')"),
    ("Show the mood chart", "Pane 4", "show_pane('mood')"),
    ("Show the pending queue", "Pane 5", "show_pane('pending')"),
    ("Show the warnings", "Pane 6", "show_pane('warnings')"),
    ("Search the store", "Full text, CJK included (/)", "search"),
    ("Reload the store", "Read every file again (ctrl+r)", "reload"),
    ("Help", "Keys and what they do (?)", "help"),
    ("Run maintenance (dry run)", "Duplicates and counts; nothing is written", "maintain(False)"),
    ("Run maintenance and apply", "Remove exact duplicate facts, refresh counts", "maintain(True)"),
    ("Rebuild the dsh index", "The automatic segment of index.txt", "rebuild_index"),
    (
        "Refresh the unresolved block",
        "MEMORY.md's 【最近未解决事项】 from events.md",
        "refresh_unresolved",
    ),
)


def commands(app: MemtuiApp) -> Iterator[SystemCommand]:
    for title, help_text, action in APP_COMMANDS:
        yield SystemCommand(title, help_text, partial(app.run_action, action))
    for pane in app.query(Pane):
        for title, help_text, action in getattr(pane, "COMMANDS", ()):
            yield SystemCommand(title, help_text, partial(pane.run_action, action))
