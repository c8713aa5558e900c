"""Ask a yes/no question before a destructive action: y = yes, n or escape = no.

Enter presses the focused button, and "No" has the focus: a stray Enter (say, the
one that opened the question) never destroys anything. A long question scrolls; the
buttons stay on screen (ui/screens/dialog.py)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from memtui.i18n import N_, _
from memtui.ui.safe import literal
from memtui.ui.screens.dialog import DialogBody, DialogScreen


class ConfirmScreen(DialogScreen[bool]):
    """Dismissed with True (yes) or False (no). The question may quote store text: it is
    shown literally, never as markup."""

    DEFAULT_CSS = """
    ConfirmScreen > #confirm-box { border: thick $warning; }
    ConfirmScreen #confirm-question { width: 1fr; }
    ConfirmScreen #confirm-foot { margin-top: 1; }
    ConfirmScreen #confirm-hint { margin-bottom: 1; }
    """

    BINDINGS = [
        Binding("y", "answer(True)", N_("Yes"), id="confirm.yes"),
        Binding("n,escape", "answer(False)", N_("No"), id="confirm.no"),
    ]

    def __init__(self, question: str, *, yes: str = "", no: str = "") -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes or _("Yes")
        self.no_label = no or _("No")

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box", classes="dialog-box"):
            with DialogBody(id="confirm-body"):
                yield Static(literal(self.question), id="confirm-question")
            with Vertical(id="confirm-foot", classes="dialog-foot"):
                yield Static(
                    literal(_("y = yes · n or Esc = no · Tab moves between the buttons")),
                    id="confirm-hint",
                    classes="dialog-hint",
                )
                with Horizontal(id="confirm-buttons", classes="dialog-buttons"):
                    yield Button(literal(self.yes_label), variant="warning", id="confirm-yes")
                    yield Button(literal(self.no_label), id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
