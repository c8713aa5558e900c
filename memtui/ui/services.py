"""Services of the host app that a screen asks for with a message (ui.messages): a
toast, a reload, a question first. Shared by the edit and history screens and by
ui.editing, which opens them (here, so that neither imports the other for these)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from memtui.ui.messages import Say, StoreChanged


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
