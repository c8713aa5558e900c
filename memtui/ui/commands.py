"""Every action in the command palette: the app's own, and each pane's COMMANDS."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding

from memtui.ui.panes import Pane

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

# (title, help, action, what it needs: "write" = not read-only, or a layout)
APP_COMMANDS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("Search the store", "Full text, CJK included (/)", "search", ()),
    (
        "What the agent loads",
        "Each layout's files at session start, the cut marked (c)",
        "context",
        (),
    ),
    ("Reload the store", "Read every file again (ctrl+r)", "reload", ()),
    (
        "Undo the last operation",
        "Every file it changed put back, after a confirm listing them (z)",
        "undo",
        ("write",),
    ),
    ("Help", "Keys and what they do (?)", "help", ()),
    (
        "Run maintenance (dry run)",
        "Duplicates, near-duplicates and what apply would change; nothing is written",
        "maintain(False)",
        ("dsh",),
    ),
    (
        "Run maintenance and apply",
        "Remove exact duplicate facts, refresh counts",
        "maintain(True)",
        ("dsh", "write"),
    ),
    (
        "Rebuild the dsh index",
        "The automatic segment of index.txt",
        "rebuild_index",
        ("dsh", "write"),
    ),
    ("Add a fact", "To a facts.md section, with its evidence", "add('fact')", ("dsh", "write")),
    (
        "Add an event",
        "To memory/events.md, numbered after the last one",
        "add('event')",
        ("companion", "write"),
    ),
    (
        "Refresh the unresolved block",
        "MEMORY.md's 【最近未解决事项】 from events.md",
        "refresh_unresolved",
        ("companion", "write"),
    ),
)


def commands(app: MemtuiApp) -> Iterator[SystemCommand]:
    """What this store and mode allow: nothing that changes files when read-only, and
    nothing for a layout the store lacks."""
    store = app.store
    layouts = set(store.layouts) if store is not None else None

    def offered(needs: tuple[str, ...]) -> bool:
        if "write" in needs and app.read_only:
            return False
        wanted = [n for n in needs if n != "write"]
        return layouts is None or all(n in layouts for n in wanted)

    for binding in app.BINDINGS:  # the panes, from their keys: title and key said once
        if isinstance(binding, Binding) and binding.tooltip and binding.action.startswith("show_"):
            action = binding.action
            yield SystemCommand(
                binding.tooltip, f"Pane {binding.key}", partial(app.run_action, action)
            )
    for title, help_text, action, needs in APP_COMMANDS:
        if offered(needs):
            yield SystemCommand(title, help_text, partial(app.run_action, action))
    yield from _stores_near(app)
    for pane in app.query(Pane):
        if store is not None and not pane.has_work(store):
            continue
        for title, help_text, action in getattr(pane, "COMMANDS", ()):
            if pane.check_action(action, ()) is not False:  # False: not in this mode
                yield SystemCommand(title, help_text, partial(pane.run_action, action))


def _stores_near(app: MemtuiApp) -> Iterator[SystemCommand]:
    """The stores beside this one (the demo's claude/ folder, a parent store): open one."""
    import os

    from memtui.engine.store import stores_near

    for path, layouts in stores_near(app.root):
        name = os.path.relpath(path, app.root)
        yield SystemCommand(
            f"Open the store {name}",
            f"{path} ({', '.join(layouts)})",
            partial(app.open_store, path),
        )
    from memtui.ui.screens.stores import show_stores

    yield SystemCommand(
        "Stores on this machine",
        "Every store memtui finds in the usual places (memtui stores): pick one to open",
        partial(show_stores, app),
    )
