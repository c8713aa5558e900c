"""Editing an entry and browsing a file's history from the app.

The app's `edit_entry(entry_id)` and `show_history(rel)` delegate here; these
push `EditScreen` / `HistoryScreen`. The small helpers below are shared by
those screens so that they also run on a host app that is not `MemtuiApp`
(`say`, `reload_store` and `ask` fall back to plain Textual).
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import tempfile
from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from memtui.sanitize import printable
from memtui.ui.safe import literal

# --- services of the host app --------------------------------------------------


def say(app: App[Any], text: str, *, severity: Any = "information", title: str = "") -> None:
    """The app's `say` (store text shown literally), or notify() without markup."""
    speak = getattr(app, "say", None)
    if callable(speak):
        speak(text, severity=severity, title=title)
    else:
        app.notify(printable(text), title=printable(title), severity=severity, markup=False)


def reload_store(app: App[Any]) -> None:
    """Ask the app to read the store again (it does so in its own worker)."""
    load = getattr(app, "load_store", None)
    if callable(load):
        load()


def is_read_only(app: App[Any]) -> bool:
    return bool(getattr(app, "read_only", False))


def ask(app: App[Any], question: str, then: Callable[[], None]) -> None:
    """Ask first; run `then` on yes. The app's ConfirmScreen if there is one, else AskScreen."""
    try:
        from memtui.ui.screens.confirm import ConfirmScreen as screen_class
    except ImportError:
        screen_class = AskScreen  # type: ignore[assignment,misc]

    def answered(yes: bool | None) -> None:
        if yes:
            then()

    app.push_screen(screen_class(question), answered)


class AskScreen(ModalScreen[bool]):
    """Yes or no, for when the app has no ConfirmScreen of its own."""

    DEFAULT_CSS = """
    AskScreen { align: center middle; }
    AskScreen > Vertical {
        width: 72; height: auto; max-height: 80%;
        border: thick $warning; background: $surface; padding: 1 2;
    }
    AskScreen #ask-question { width: 1fr; margin-bottom: 1; }
    AskScreen Horizontal { height: auto; align-horizontal: right; }
    AskScreen Button { margin-left: 2; }
    """
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="ask.yes"),
        Binding("n,escape", "answer(False)", "No", id="ask.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(self.question), id="ask-question")
            with Horizontal():
                yield Button("Yes (y)", variant="warning", id="ask-yes")
                yield Button("No (n)", id="ask-no")

    def on_mount(self) -> None:
        self.query_one("#ask-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "ask-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


# --- $VISUAL / $EDITOR ----------------------------------------------------------


class EditorFailed(Exception):
    pass


def run_editor(text: str, name: str) -> str:
    """Like `git commit`: $VISUAL or $EDITOR on a temp file, its text read back exactly.

    Call it with the app suspended; nothing is locked meanwhile. Raises EditorFailed.
    """
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    suffix = os.path.splitext(name)[1] or ".md"
    fd, path = tempfile.mkstemp(prefix="memtui-edit-", suffix=suffix)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        try:
            done = subprocess.run([*shlex.split(editor), path], check=False)
        except (OSError, ValueError) as exc:
            raise EditorFailed(f"cannot run the editor {editor!r}: {exc}") from None
        if done.returncode != 0:
            raise EditorFailed(f"the editor exited with status {done.returncode}; text unchanged")
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise EditorFailed(f"cannot read the edited text back: {exc}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)


# --- what the app calls -----------------------------------------------------------


def edit_entry(app: App[Any], entry_id: str) -> None:
    """Open the in-app editor on an entry of the app's current store snapshot."""
    from memtui.engine.entries import EntryNotFound, entry_text, resolve
    from memtui.ui.screens.edit import EditScreen

    store = getattr(app, "store", None)
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
    app.push_screen(
        EditScreen(entry.id, seen, _root(app), file=entry.file, read_only=is_read_only(app))
    )


def show_history(app: App[Any], rel: str) -> None:
    """Open a file's snapshots, diffs and rollback."""
    from memtui.ui.screens.history import HistoryScreen

    app.push_screen(HistoryScreen(_root(app), rel, read_only=is_read_only(app)))


def _root(app: App[Any]) -> str:
    return str(app.root)  # type: ignore[attr-defined]
