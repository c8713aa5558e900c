"""Ask for one line of text (a reject reason): enter submits, escape cancels.

An empty answer is not an answer, nor one that `check` refuses (a due date that is no
date): the screen stays open with the text as typed and says why.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from memtui.i18n import N_, _
from memtui.ui.safe import literal
from memtui.ui.screens.dialog import DialogBody, DialogScreen

HINT = N_("enter to confirm · escape to cancel")


class PromptScreen(DialogScreen[str | None]):
    """Dismissed with the text typed (stripped, never empty), or None when cancelled."""

    DEFAULT_CSS = """
    PromptScreen > #prompt-box { width: 72; }
    PromptScreen #prompt-question { width: 1fr; }
    PromptScreen #prompt-foot { margin-top: 1; }
    PromptScreen #prompt-hint { margin-top: 1; }
    PromptScreen #prompt-hint.-error { color: $error; }
    PromptScreen #prompt-buttons { margin-top: 1; }
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="prompt.cancel")]

    def __init__(
        self,
        question: str,
        *,
        value: str = "",
        placeholder: str = "",
        ok: str = "",
        required: str = "",
        optional: bool = False,
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.placeholder = placeholder
        self.ok_label = ok or _("OK")
        self.required = required or _(
            "an empty answer is not allowed: type something, or escape to cancel"
        )
        self.optional = optional  # an empty answer is "" (none), not refused
        self.check = check  # why an answer is refused (the engine's words), or None

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-box", classes="dialog-box"):
            with DialogBody(id="prompt-body"):
                yield Static(literal(self.question), id="prompt-question")
            with Vertical(id="prompt-foot", classes="dialog-foot"):
                yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
                yield Static(Text(_(HINT)), id="prompt-hint", classes="dialog-hint")
                with Horizontal(id="prompt-buttons", classes="dialog-buttons"):
                    yield Button(literal(self.ok_label), variant="primary", id="prompt-ok")
                    yield Button(_("Cancel"), id="prompt-cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "prompt-ok":
            self.submit(self.query_one(Input).value)
        else:
            self.dismiss(None)

    def submit(self, value: str) -> None:
        answer = value.strip()
        problem = self.required if not answer and not self.optional else None
        if problem is None and self.check is not None:
            problem = self.check(answer)
        if problem is not None:
            hint = self.query_one("#prompt-hint", Static)
            hint.update(Text(problem))
            hint.add_class("-error")
            self.query_one(Input).focus()
            return
        self.dismiss(answer)

    def action_cancel(self) -> None:
        self.dismiss(None)
