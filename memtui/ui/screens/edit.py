"""The in-app editor for one entry.

Nothing is held while the user types: the engine takes the store lock only
inside the save (a thread worker). The save names the text the editor was
opened on (`seen_text`); if the agent changed this entry meanwhile the engine
refuses with a Conflict, and the screen stays open with the user's text intact
and offers "reload theirs" (their text into the editor, the user's kept beside
it) or "keep mine" (the next save deliberately replaces theirs). Lines the
agent wrote elsewhere in the file are kept by the engine either way.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual import work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static, TextArea
from textual.widgets.text_area import Document

from memtui.editor import EditorFailed, run_editor
from memtui.engine.write.transaction import Receipt
from memtui.i18n import N_, _, tr
from memtui.sanitize import printable
from memtui.ui.safe import literal, row
from memtui.ui.said import error_text
from memtui.ui.screens.page import PageScreen
from memtui.ui.services import ask, reload_store, say
from memtui.ui.widgets.footer import Footer


def representable(text: str) -> bool:
    """True if a TextArea gives back exactly this text (no control characters, one line
    ending throughout, no exotic line separators); otherwise editing here would change
    bytes the user never touched."""
    return printable(text) == text and Document(text).text == text


class EditScreen(PageScreen[Receipt | None]):
    """Edit one entry's exact text; dismissed with the Receipt once saved."""

    DEFAULT_CSS = """
    EditScreen #edit-banner { height: auto; padding: 0 1; display: none; }
    EditScreen #edit-banner.-shown { display: block; }
    EditScreen #edit-banner.-conflict { background: $warning 25%; border-left: thick $warning; }
    EditScreen #edit-banner.-error { background: $error 25%; border-left: thick $error; }
    EditScreen #edit-banner.-info { background: $accent 20%; border-left: thick $accent; }
    EditScreen #edit-body { height: 1fr; }
    EditScreen #edit-buffer { width: 1fr; height: 1fr; }
    EditScreen #edit-side { width: 1fr; height: 1fr; display: none; }
    EditScreen #edit-side.-shown { display: block; }
    EditScreen #edit-side-label { height: 1; padding: 0 1; background: $panel; }
    EditScreen #edit-side-text { height: 1fr; }
    """
    BINDINGS = [
        Binding("ctrl+s", "save", N_("Save"), id="edit.save", priority=True),
        Binding(
            "ctrl+r", "reload_theirs", N_("Reload theirs"), id="edit.reload_theirs", priority=True
        ),
        # not ctrl+k: in the editor, as everywhere, it deletes to the end of the line
        Binding("ctrl+t", "keep_mine", N_("Keep mine"), id="edit.keep_mine", priority=True),
        Binding("ctrl+o", "external", N_("$EDITOR"), id="edit.external", priority=True),
        Binding("ctrl+u", "insist", N_("Unlock L0"), id="edit.insist", priority=True),
        Binding("escape", "close", N_("Close"), id="edit.close", priority=True),
        Binding("ctrl+home", "document_edge(False)", N_("Start"), id="edit.start", show=False),
        Binding("ctrl+end", "document_edge(True)", N_("End"), id="edit.end", show=False),
        # q types a q in the editor; on a read-only view it closes instead of quitting the app
        Binding("q", "close", N_("Close"), id="edit.close_q", show=False),
    ]

    def __init__(
        self,
        entry_id: str,
        seen_text: str,
        root: str,
        *,
        file: str | None = None,
        read_only: bool = False,
        guarded: str | None = None,
        at_row: int = 0,
    ) -> None:
        super().__init__()
        self.at_row = at_row  # where the cursor starts: the line the user was on
        # Why its layout keeps the file read-only (meta-rules the agent lives by), or
        # None: shown read-only until the user insists (ctrl+u).
        self.guarded = guarded
        self.insisted = False
        self.entry_id = entry_id
        self.seen_text = seen_text  # the entry as last read: a save is checked against it
        self.root = str(root)
        self.file = file
        self.read_only = read_only  # passed down by the shell
        self.editable = representable(seen_text)
        self.baseline = seen_text  # what the editor was loaded with (to know if it changed)
        self.theirs: str | None = None  # the stored text after a Conflict (None: gone)
        self.conflict = False
        self.parked: str | None = None  # the user's text, kept beside after "reload theirs"
        self.saving = False

    # --- layout --------------------------------------------------------------

    @property
    def locked(self) -> bool:
        """The buffer may not change: read-only store, text the editor cannot keep, or
        the L0 meta-rules before the user insists."""
        return self.read_only or not self.editable or (bool(self.guarded) and not self.insisted)

    def compose(self) -> ComposeResult:
        where = f" · {self.file}" if self.file else ""
        yield Static(
            row(_("Edit {entry}").format(entry=self.entry_id) + where),
            id="edit-title",
            classes="page-title",
        )
        yield Static(self._note(), id="edit-note", classes="page-note")
        yield Static(id="edit-banner")
        with Horizontal(id="edit-body"):
            yield TextArea(
                self.seen_text if self.editable else printable(self.seen_text),
                soft_wrap=True,
                show_line_numbers=True,
                read_only=self.locked,
                id="edit-buffer",
            )
            with Vertical(id="edit-side"):
                yield Static(id="edit-side-label")
                yield TextArea(
                    "",
                    soft_wrap=True,
                    show_line_numbers=True,
                    read_only=True,
                    id="edit-side-text",
                )
        yield Footer()

    def _note(self) -> Text:
        if self.read_only:
            return literal(
                _("Read-only: the store is open with --read-only; nothing can be saved.")
            )
        if not self.editable:
            return literal(
                _(
                    "Shown read-only: this entry holds control characters or mixed line endings "
                    "that the in-app editor cannot keep exactly. Edit it with "
                    "`memtui edit {entry}` from a shell."
                ).format(entry=self.entry_id)
            )
        if self.guarded and not self.insisted:
            return literal(
                _("Read-only: {why}. ctrl+u unlocks it if you insist.").format(why=tr(self.guarded))
            )
        return literal(
            _(
                "ctrl+s saves (checked against the file: the agent's changes are never lost) · "
                "ctrl+o opens $EDITOR · escape closes"
            )
        )

    def action_insist(self) -> None:
        self.insisted = True
        self.query_one("#edit-note", Static).update(self._note())
        self._state_changed()
        self.buffer.focus()

    def on_mount(self) -> None:
        buffer = self.buffer
        buffer.focus()
        if self.at_row:
            row = min(self.at_row, buffer.document.line_count - 1)
            buffer.move_cursor((row, 0), center=True)

    @property
    def buffer(self) -> TextArea:
        return self.query_one("#edit-buffer", TextArea)

    @property
    def banner(self) -> Static:
        return self.query_one("#edit-banner", Static)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("save", "external"):
            if self.locked:
                return False
            return None if self.saving else True
        if action == "insist":
            return bool(self.guarded) and not self.insisted and not self.read_only and self.editable
        if action == "reload_theirs":
            return self.conflict and self.theirs is not None and representable(self.theirs)
        if action == "keep_mine":
            return self.conflict and self.theirs is not None
        if action == "close":
            return None if self.saving else True
        return True

    # --- the banner and the side panel ------------------------------------------

    def show_banner(self, text: Text | str, kind: str) -> None:
        banner = self.banner
        banner.update(text if isinstance(text, Text) else literal(text))
        banner.set_class(True, "-shown")
        for name in ("conflict", "error", "info"):
            banner.set_class(kind == name, f"-{name}")

    def hide_banner(self) -> None:
        self.banner.set_class(False, "-shown")

    def show_side(self, label: str, text: str) -> None:
        self.query_one("#edit-side-label", Static).update(row(label))
        side = self.query_one("#edit-side-text", TextArea)
        side.load_text(printable(text))
        self.query_one("#edit-side").set_class(True, "-shown")

    def _state_changed(self) -> None:
        self.buffer.read_only = self.locked or self.saving
        self.refresh_bindings()

    # --- saving ---------------------------------------------------------------

    def action_save(self) -> None:
        if self.locked or self.saving:
            return
        text = self.buffer.text
        if text == self.seen_text:
            say(self.app, _("{entry}: no change; nothing written").format(entry=self.entry_id))
            self.action_close()
            return
        self._start_save(text)  # empty text too: the engine refuses it and says why

    def _start_save(self, text: str) -> None:
        self.saving = True
        self.show_banner(_("saving…"), "info")
        self._state_changed()
        self._save(text, self.seen_text)

    @work(thread=True, exclusive=True, group="edit-save")
    def _save(self, text: str, seen: str) -> None:
        from memtui.engine.ops.common import Refused
        from memtui.engine.ops.edit import edit_entry
        from memtui.engine.write.journal import JournalStuck
        from memtui.engine.write.lock import LockTimeout
        from memtui.engine.write.transaction import Conflict, WriteError

        try:
            receipt = edit_entry(
                self.root, self.entry_id, text, seen_text=seen, insist=self.insisted
            )
        except Conflict as exc:
            theirs = self._stored_text()
            self.app.call_from_thread(self._conflicted, error_text(exc), theirs)
            return
        except Refused as exc:
            self.app.call_from_thread(self._failed, _("Refused: {why}").format(why=error_text(exc)))
            return
        except (WriteError, LockTimeout, JournalStuck) as exc:
            self.app.call_from_thread(
                self._failed, _("Not saved: {why}").format(why=error_text(exc))
            )
            return
        except Exception as exc:  # shown, never a traceback; the text stays
            self.app.call_from_thread(
                self._failed, _("Not saved (internal error): {error}").format(error=repr(exc))
            )
            return
        self.app.call_from_thread(self._saved, receipt)

    def _stored_text(self) -> str | None:
        """The entry as it is in the file now (worker thread); None if it is gone."""
        from memtui.engine.entries import entry_text, resolve
        from memtui.engine.store import open_store

        try:
            store = open_store(self.root)
            return entry_text(store, resolve(store, self.entry_id))
        except Exception:
            return None

    def _saved(self, receipt: Receipt) -> None:
        self.saving = False
        files = sorted({c.path for c in receipt.changes})
        name = receipt.details.get("file") or (files[0] if files else self.file) or _("the file")
        if files:
            say(
                self.app,
                _("saved {name}; read back and verified").format(name=name),
                title=_("Saved"),
            )
        else:
            say(self.app, _("{entry}: no change; nothing written").format(entry=self.entry_id))
        reload_store(self.app)
        self.dismiss(receipt)

    def _failed(self, reason: str) -> None:
        self.saving = False
        self.show_banner(
            Text.assemble(
                literal(reason, "bold"),
                "\n" + _("Your text is kept. Change it and ctrl+s again, or escape to discard it."),
            ),
            "error",
        )
        self._state_changed()

    # --- a conflict --------------------------------------------------------------

    def _conflicted(self, reason: str, theirs: str | None) -> None:
        self.saving = False
        self.conflict = True
        self.theirs = theirs
        lines: list[Text | str] = [
            literal(reason, "bold"),
            "\n" + _("Your text is intact below; nothing was written."),
        ]
        if theirs is None:
            lines.append(
                "\n"
                + _(
                    "{entry} is no longer in the file. Copy your text (select, ctrl+c) "
                    "or keep it with ctrl+o ($EDITOR), then escape."
                ).format(entry=self.entry_id)
            )
        else:
            if representable(theirs):
                lines.append(
                    "\nctrl+r  "
                    + _(
                        "reload theirs: their version into the editor, yours kept "
                        "beside it (read-only)"
                    )
                )
            lines.append(
                "\nctrl+t  "
                + _("keep mine: the next ctrl+s replaces their version (it stays in the history)")
            )
            self.show_side(_("Now in the file (theirs, read-only)"), theirs)
        self.show_banner(Text.assemble(*lines), "conflict")
        self._state_changed()

    def action_reload_theirs(self) -> None:
        if not (self.conflict and self.theirs is not None):
            return
        ask(
            self.app,
            _(
                "Replace the text in the editor with the version of {entry} now in the "
                "file? Your text stays beside it, read-only, until you close the editor."
            ).format(entry=self.entry_id),
            self._load_theirs,
        )

    def _load_theirs(self) -> None:
        theirs = self.theirs
        if theirs is None:
            return
        mine = self.buffer.text
        self.buffer.load_text(theirs)
        self.seen_text = self.baseline = theirs
        self.parked = mine
        self.conflict = False
        self.show_side(_("Your text (kept, read-only: select and ctrl+c to copy)"), mine)
        self.show_banner(_("Loaded their version. ctrl+s saves what is in the editor now."), "info")
        self._state_changed()

    def action_keep_mine(self) -> None:
        if not (self.conflict and self.theirs is not None):
            return
        self.seen_text = self.theirs
        self.conflict = False
        self.show_side(_("Their version (ctrl+s replaces it)"), self.theirs)
        self.show_banner(
            _(
                "Keeping your text: ctrl+s will replace their version of this entry "
                "(theirs is kept in the history and shown on the right)."
            ),
            "conflict",
        )
        self._state_changed()

    # --- closing and $EDITOR ----------------------------------------------------

    def unsaved(self) -> bool:
        if self.locked:
            return False
        text = self.buffer.text
        return text != self.baseline or (self.parked is not None and self.parked != text)

    def action_document_edge(self, end: bool) -> None:
        buffer = self.buffer
        buffer.move_cursor(buffer.document.end if end else (0, 0), center=True)

    def action_close(self) -> None:
        if self.saving:
            return
        if not self.confirm_leave(self._discard):
            self.dismiss(None)

    def confirm_leave(self, then: Callable[[], None]) -> bool:
        """With unsaved text, ask before `then` (closing the editor, or quitting the
        app: ctrl+q) and say True; without, say False and do nothing."""
        if not self.unsaved():
            return False
        ask(
            self.app,
            _("Discard your unsaved changes to {entry}? Nothing has been written.").format(
                entry=self.entry_id
            ),
            then,
        )
        return True

    def _discard(self) -> None:
        self.dismiss(None)

    def action_external(self) -> None:
        if self.locked or self.saving:
            return
        try:
            with self.app.suspend():
                text = run_editor(self.buffer.text, self.file or "entry.md")
        except SuspendNotSupported:
            say(self.app, _("cannot hand the terminal to $EDITOR here"), severity="warning")
            return
        except EditorFailed as exc:
            say(self.app, error_text(exc), severity="error")
            return
        self.set_text(text)

    def set_text(self, text: str) -> None:
        """Replace the buffer as one undoable edit."""
        buffer = self.buffer
        if text != buffer.text:
            buffer.replace(text, (0, 0), buffer.document.end)
        buffer.focus()
