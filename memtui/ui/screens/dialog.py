"""What every dialog shares (confirm, prompt, choice): a box over the screen whose body
scrolls within the room there is and whose foot (the buttons, the key hint) is docked
at its bottom, so it stays on screen whatever the body holds: at 80x24 the undo of a
10-file operation lists more lines than fit."""

from __future__ import annotations

from typing import ClassVar, TypeVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen

from memtui.i18n import N_

ResultType = TypeVar("ResultType")


class DialogBody(VerticalScroll, can_focus=False):
    """The body: not a stop for Tab (which moves between the buttons); the dialog's
    arrow and page keys scroll it."""


class DialogScreen(ModalScreen[ResultType]):
    """Compose a `.dialog-box` holding a DialogBody and a `.dialog-foot`; a subclass
    sets its own width and border colour."""

    DEFAULT_CSS = """
    DialogScreen { align: center middle; }
    DialogScreen > .dialog-box {
        width: 64; max-width: 90%; height: auto; max-height: 90%;
        padding: 1 2; border: thick $accent; background: $surface;
    }
    DialogScreen DialogBody { height: auto; max-height: 1fr; }
    DialogScreen .dialog-foot { dock: bottom; height: auto; }
    DialogScreen .dialog-buttons { height: auto; align-horizontal: right; }
    DialogScreen .dialog-buttons Button { margin-left: 2; }
    DialogScreen .dialog-hint { width: 1fr; color: $text-muted; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, f"scroll_body('{how}')", title, show=False, id=f"dialog.{how}",
                tooltip=tip)
        for key, how, title, tip in (
            ("up", "up", N_("Scroll up"),
             N_("Scroll up: a long question scrolls, the buttons stay")),
            ("down", "down", N_("Scroll down"),
             N_("Scroll down: a long question scrolls, the buttons stay")),
            ("pageup", "page_up", N_("Page up"),
             N_("Page up: a long question scrolls, the buttons stay")),
            ("pagedown", "page_down", N_("Page down"),
             N_("Page down: a long question scrolls, the buttons stay")),
        )
    ]  # fmt: skip

    def action_scroll_body(self, how: str) -> None:
        for body in self.query(DialogBody):
            getattr(body, f"scroll_{how}")(animate=False)
