"""Editing an entry and browsing a file's history from the app.

The app's `edit_entry(entry_id)` and `show_history(rel)` delegate here; these
push `EditScreen` / `HistoryScreen`. The small helpers below are shared by
those screens: what they want of the shell goes up as a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import App

# Re-exported: code that imports these from memtui.ui.editing keeps working.
from memtui.editor import EditorFailed as EditorFailed
from memtui.editor import run_editor as run_editor
from memtui.ui.messages import Say, StoreChanged

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

# --- services of the host app, asked for with a message (ui.messages) -----------


def say(app: App[Any], text: str, *, severity: Any = "information", title: str = "") -> None:
    """A toast through the shell's `say` (store text shown literally)."""
    app.post_message(Say(text, str(severity), title))


def reload_store(app: App[Any]) -> None:
    """Ask the shell to read the store again (it does so in its own worker)."""
    app.post_message(StoreChanged(()))


def ask(app: App[Any], question: str, then: Callable[[], None]) -> None:
    """Ask first (ConfirmScreen); run `then` on yes. The app's `confirm` is this too."""
    from memtui.ui.screens.confirm import ConfirmScreen

    def answered(yes: bool | None) -> None:
        if yes:
            then()

    app.push_screen(ConfirmScreen(question), answered)


# --- what the app calls -----------------------------------------------------------


def edit_entry(app: MemtuiApp, entry_id: str, line: int | None = None) -> None:
    """Open the in-app editor on an entry of the app's current store snapshot; `line`
    (1-based, in the entry's file): the line the user was on, where the cursor starts."""
    from memtui.engine.entries import EntryNotFound, entry_text, resolve
    from memtui.engine.ops.edit import is_l0
    from memtui.ui.screens.edit import EditScreen

    store = app.store
    if store is None:
        say(app, "the store is still loading; try again in a moment", severity="warning")
        return
    try:
        entry = resolve(store, entry_id)
    except EntryNotFound as exc:
        say(app, str(exc), severity="error")
        return
    seen = entry_text(store, entry)
    if seen is None:
        say(app, f"{entry.file} cannot be read as text; it is never edited", severity="error")
        return
    guarded = is_l0(store.root, entry.file)  # the engine's rule, asked, not restated
    app.push_screen(
        EditScreen(
            entry.id,
            seen,
            app.root,
            file=entry.file,
            read_only=app.read_only,
            guarded=guarded,
            at_row=_row_in(entry, line),
        )
    )


def _row_in(entry: Any, line: int | None) -> int:
    """The row of the entry's text that is `line` of its file (0: its first)."""
    if line is None:
        return 0
    start = entry.span.start if entry.span is not None else 0  # spans count from 0
    return max(0, line - 1 - start)


def show_history(app: MemtuiApp, rel: str) -> None:
    """Open a file's snapshots, diffs and rollback."""
    from memtui.ui.screens.history import HistoryScreen

    app.push_screen(HistoryScreen(app.root, rel, read_only=app.read_only))
