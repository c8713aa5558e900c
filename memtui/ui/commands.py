"""Every action in the command palette: the app's own, the commands the store's layouts
declare (engine.commands), and each pane's COMMANDS."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.binding import Binding

from memtui.i18n import N_, _, tr
from memtui.ui.panes import Pane

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

# (title, help, action, what it needs: "write" = not read-only); translated when listed
APP_COMMANDS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (N_("Search the store"), N_("Full text, CJK included (/)"), "search", ()),
    (
        N_("What the agent loads"),
        N_("Each layout's files at session start, the cut marked (c)"),
        "context",
        (),
    ),
    (N_("Reload the store"), N_("Read every file again (ctrl+r)"), "reload", ()),
    (
        N_("Undo the last operation"),
        N_("Every file it changed put back, after a confirm listing them (z)"),
        "undo",
        ("write",),
    ),
    (N_("Help"), N_("Keys and what they do (?)"), "help", ()),
)


def translated(found: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's commands with their title and help in the reader's language."""
    for command in found:
        yield command._replace(title=_(command.title), help=_(command.help))


def commands(app: MemtuiApp) -> Iterator[SystemCommand]:
    """What this store and mode allow: nothing that changes files when read-only, and
    nothing for a layout the store lacks."""
    from memtui.engine.commands import declared

    store = app.store

    for binding in app.BINDINGS:  # the panes, from their keys: title and key said once
        if isinstance(binding, Binding) and binding.tooltip and binding.action.startswith("show_"):
            action = binding.action
            yield SystemCommand(
                _(binding.tooltip),
                _("Pane {key}").format(key=binding.key),
                partial(app.run_action, action),
            )
    for title, help_text, action, needs in APP_COMMANDS:
        if not ("write" in needs and app.read_only):
            yield SystemCommand(_(title), _(help_text), partial(app.run_action, action))
    for _layout, command in declared(store.layouts if store is not None else None):
        if command.title and not (command.writes and app.read_only):
            run = partial(app.run_action, f"command({command.id!r})")
            yield SystemCommand(tr(command.title), tr(command.about), run)
    yield from _stores_near(app)
    for pane in app.query(Pane):
        if store is not None and not pane.has_work(store):
            continue
        for title, help_text, action in getattr(pane, "COMMANDS", ()):
            if pane.check_action(action, ()) is not False:  # False: not in this mode
                yield SystemCommand(_(title), _(help_text), partial(pane.run_action, action))


def _stores_near(app: MemtuiApp) -> Iterator[SystemCommand]:
    """The stores beside this one (the demo's agent folders, a parent store): open one."""
    import os

    from memtui.engine.store import stores_near

    for path, layouts in stores_near(app.root):
        name = os.path.relpath(path, app.root)
        yield SystemCommand(
            _("Open the store {name}").format(name=name),
            f"{path} ({', '.join(layouts)})",
            partial(app.open_store, path),
        )
    from memtui.ui.screens.stores import show_stores

    yield SystemCommand(
        _("Stores on this machine"),
        _("Every store memtui finds in the usual places (memtui stores): pick one to open"),
        partial(show_stores, app),
    )
