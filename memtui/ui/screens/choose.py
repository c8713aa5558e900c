"""Pick one of a list (which profile item to archive or restore): enter picks,
escape cancels. The choices may be store text: they are shown literally. A long
question scrolls in at most half the box; the list and the key hint keep the rest."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from memtui.i18n import N_, _
from memtui.ui.safe import literal, row
from memtui.ui.screens.dialog import DialogBody, DialogScreen
from memtui.ui.widgets.rows import Rows


class ChoiceScreen(DialogScreen[int | None]):
    """Dismissed with the index of the choice picked, or None."""

    DEFAULT_CSS = """
    ChoiceScreen > #choose-box { width: 80; max-width: 95%; height: 70%; }
    ChoiceScreen #choose-body { max-height: 50%; margin-bottom: 1; }
    ChoiceScreen #choose-question { width: 1fr; }
    ChoiceScreen #choose-hint { height: 1; margin-top: 1; }
    ChoiceScreen Rows { height: 1fr; }
    """
    BINDINGS = [Binding("escape", "cancel", N_("Cancel"), id="choose.cancel")]

    def __init__(self, question: str, choices: list[str]) -> None:
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(id="choose-box", classes="dialog-box"):
            with DialogBody(id="choose-body"):
                yield Static(literal(self.question), id="choose-question")
            yield Static(
                literal(_("↑↓ move · enter picks · Esc cancels")),
                id="choose-hint",
                classes="dialog-foot dialog-hint",
            )
            yield Rows(self._render_choice, id="choose-rows")

    def on_mount(self) -> None:
        rows = self.query_one(Rows)
        rows.set_rows(len(self.choices), self._render_choice, keep_cursor=False)
        rows.focus()

    def _render_choice(self, index: int) -> Text:
        return row(self.choices[index])

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        self.dismiss(message.index)

    def action_cancel(self) -> None:
        self.dismiss(None)
