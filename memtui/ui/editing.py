"""Editing an entry and browsing a file's history from the app.

The app's `edit_entry(entry_id)` and `show_history(rel)` delegate here; these
push `EditScreen` / `HistoryScreen`. The helpers those screens share (what they
want of the shell goes up as a message) are in ui.services.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

# Re-exported: code that imports these from memtui.ui.editing keeps working.
from memtui.editor import EditorFailed as EditorFailed
from memtui.editor import run_editor as run_editor
from memtui.i18n import _
from memtui.ui.said import error_text
from memtui.ui.services import ask as ask
from memtui.ui.services import reload_store as reload_store
from memtui.ui.services import say as say

if TYPE_CHECKING:
    from memtui.ui.app import MemtuiApp

# --- what the app calls -----------------------------------------------------------


def edit_entry(app: MemtuiApp, entry_id: str, line: int | None = None) -> None:
    """Open the in-app editor on an entry of the app's current store snapshot; `line`
    (1-based, in the entry's file): the line the user was on, where the cursor starts."""
    from memtui.engine.entries import EntryNotFound, entry_text, resolve
    from memtui.engine.ops.replace import read_only
    from memtui.ui.screens.edit import EditScreen

    store = app.store
    if store is None:
        say(app, _("the store is still loading; try again in a moment"), severity="warning")
        return
    try:
        entry = resolve(store, entry_id)
    except EntryNotFound as exc:
        say(app, error_text(exc), severity="error")
        return
    seen = entry_text(store, entry)
    if seen is None:
        say(
            app,
            _("{file} cannot be read as text; it is never edited").format(file=entry.file),
            severity="error",
        )
        return
    guarded = read_only(store.root, entry.file)  # its layout's rule and words, asked
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
