"""A file's history: its snapshots in .history/, each one's diff against the file
now, and rollback (through the engine's transaction, so a rollback is itself
snapshotted and can be undone)."""

from __future__ import annotations

import os
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual.worker import get_current_worker

from memtui.engine.oplog import Operation
from memtui.engine.ops.history import ABSENT, Snapshot
from memtui.i18n import N_, _
from memtui.ui.messages import RunOp
from memtui.ui.safe import literal, row
from memtui.ui.said import error_text
from memtui.ui.screens.page import PageScreen
from memtui.ui.services import ask, reload_store, say
from memtui.ui.style import component_style
from memtui.ui.widgets.footer import Footer
from memtui.ui.widgets.rows import Rows


class DiffRows(Rows):
    """A unified diff, one row a line, coloured by the theme."""

    HELP_NAME = N_("the diff against now")  # the help page's "Keys in …"

    DEFAULT_CSS = """
    DiffRows > .diff--added { color: $success; }
    DiffRows > .diff--removed { color: $error; }
    DiffRows > .diff--hunk { color: $accent; }
    DiffRows > .diff--header { text-style: bold; }
    DiffRows > .diff--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "rows--cursor",
        "rows--selected",
        "diff--added",
        "diff--removed",
        "diff--hunk",
        "diff--header",
        "diff--muted",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.diff_lines: list[str] = []

    def show_lines(self, lines: list[str]) -> None:
        self.diff_lines = lines
        self.set_rows(len(lines), self._render_diff_line, keep_cursor=False)
        self.scroll_to(y=0, animate=False)

    def _render_diff_line(self, index: int) -> Text:
        line = self.diff_lines[index]
        text = row(line)
        kind = line_kind(line)
        if kind:
            text.stylize(component_style(self, f"diff--{kind}"))
        return text


def line_kind(line: str) -> str:
    if line.startswith(("+++ ", "--- ")):
        return "header"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("+"):
        return "added"
    if line.startswith("-"):
        return "removed"
    if line.startswith("\\"):
        return "muted"
    return ""


class HistoryScreen(PageScreen[None]):
    """Snapshots of one file, newest first; the highlighted one's diff against now."""

    DEFAULT_CSS = """
    HistoryScreen #history-body { height: 1fr; }
    HistoryScreen #history-left {
        width: 50%; max-width: 68; height: 1fr; border-right: solid $panel;
    }
    HistoryScreen #history-right { width: 1fr; height: 1fr; }
    HistoryScreen .history-label { height: 1; padding: 0 1; color: $text-muted; }
    HistoryScreen #history-list { height: 1fr; }
    HistoryScreen #history-diff { height: 1fr; }
    """
    BINDINGS = [
        Binding("r", "rollback", N_("Roll back"), id="history.rollback"),
        Binding("escape", "close", N_("Close"), id="history.close"),
        Binding("q", "close", N_("Close"), id="history.close_q", show=False),
    ]

    def __init__(self, root: str, rel: str, *, read_only: bool = False) -> None:
        super().__init__()
        self.root = str(root)
        self.rel = rel
        self.read_only = read_only  # passed down by the shell
        self.snaps: list[Snapshot] = []
        self.owners: dict[str, Operation] = {}  # snapshot path -> the operation that made it
        self.now_digest: str | None = None
        self.loaded = False
        self.busy = False

    def compose(self) -> ComposeResult:
        yield Static(
            row(_("History of {file}").format(file=self.rel)),
            id="history-title",
            classes="page-title",
        )
        yield Static(self._note(), id="history-note", classes="page-note")
        with Horizontal(id="history-body"):
            with Vertical(id="history-left"):
                yield Static(row(_("Snapshots, newest first")), classes="history-label")
                yield Rows(id="history-list")
            with Vertical(id="history-right"):
                yield Static(row(""), classes="history-label", id="history-diff-label")
                yield DiffRows(id="history-diff")
        yield Footer()

    def _note(self) -> Text:
        if self.read_only:
            return literal(_("Read-only: the store is open with --read-only; no rollback."))
        return literal(
            _(
                "r or enter rolls the file back to the highlighted snapshot (after you confirm). "
                "The version it replaces becomes a new snapshot, so a rollback can be undone."
            )
        )

    def on_mount(self) -> None:
        self.query_one("#history-list", Rows).focus()
        self.refresh_snapshots()

    @property
    def current(self) -> Snapshot | None:
        rows = self.query_one("#history-list", Rows)
        if not self.snaps or not 0 <= rows.cursor < len(self.snaps):
            return None
        return self.snaps[rows.cursor]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rollback":
            if self.read_only:
                return False
            return None if (self.busy or not self.snaps) else True
        return True

    # --- the list -------------------------------------------------------------

    def refresh_snapshots(self, cursor_to: str | None = None) -> None:
        self.loaded = False  # a reload meanwhile leaves the cursor to this one
        self._load_snapshots(cursor_to)

    @work(thread=True, exclusive=True, group="history-list")
    def _load_snapshots(self, cursor_to: str | None) -> None:
        from memtui.engine.oplog import snapshot_owner
        from memtui.engine.ops.history import agents_history, snapshots
        from memtui.engine.write.files import read_or_none, sha256

        try:
            found = snapshots(self.root, self.rel)
            agents = agents_history(self.root, self.rel)
            owners = snapshot_owner(self.root)
            data = read_or_none(os.path.join(self.root, self.rel))
        except Exception as exc:
            self.app.call_from_thread(self._list_failed, str(exc))
            return
        digest = sha256(data) if data is not None else None
        self.owners = owners
        self.app.call_from_thread(self._show_agents, agents)
        self.app.call_from_thread(self._show_snapshots, found, digest, cursor_to)

    def _show_agents(self, versions: list[dict[str, str]]) -> None:
        """The agent's own record of the file (Layout.file_history, e.g. a git log): named
        under the note, newest first; memtui's snapshots stay what r rolls back to."""
        if not versions:
            return
        text = self._note()
        by = versions[0]["layout"]
        text.append(
            "\n"
            + _("{layout} keeps its own record of this file ({n}): ").format(
                layout=by, n=f"{len(versions):,}"
            )
        )
        shown = [f"{v['version']} {v['time']} {v['what']}" for v in versions[:3]]
        text.append_text(literal("; ".join(shown) + (" …" if len(versions) > 3 else "")))
        self.query_one("#history-note", Static).update(text)

    def _list_failed(self, reason: str) -> None:
        self.query_one("#history-diff-label", Static).update(literal(reason, "bold"))

    def _show_snapshots(self, snaps: list[Snapshot], digest: str | None, to: str | None) -> None:
        self.snaps = snaps
        self.now_digest = digest
        self.loaded = True
        rows = self.query_one("#history-list", Rows)
        names = [s.name for s in snaps]
        index = names.index(to) if to in names else 0
        rows.set_rows(len(snaps), self._render_snapshot, keep_cursor=False)
        if snaps:
            rows.cursor = index
        else:
            said = _("{file} has no history yet: memtui snapshots a file before changing it")
            # a sentence, not a row: wrapped in the half-width pane rather than cut
            label = self.query_one("#history-diff-label", Static)
            label.styles.height = "auto"
            label.update(literal(said.format(file=self.rel)))
            self.query_one("#history-diff", DiffRows).show_lines([])
        self.refresh_bindings()

    def _render_snapshot(self, index: int) -> Text:
        snap = self.snaps[index]
        text = Text.assemble(row(snap.time), "  ", row(f"{snap.size:>9,} B"), no_wrap=True)
        if snap.digest == self.now_digest:
            text.append("  " + _("= now"), style="italic")
        if snap.kept_by != "memtui":  # the agent's own copy (Detection.history_of)
            text.append("  " + _("kept by {who}").format(who=snap.kept_by), style="italic")
        op = self.owners.get(snap.path)
        if op is not None:  # the operation that replaced this version, and who ran it
            text.append("  ")
            text.append_text(row(_("{op} by {who}").format(op=op.op, who=op.who or "?")))
        return text

    def on_rows_highlighted(self, message: Rows.Highlighted) -> None:
        if message.rows.id != "history-list":
            return
        message.stop()
        snap = self.current
        if snap is not None:
            op = self.owners.get(snap.path)
            made = (
                _("; replaced by operation {opid} ({op})").format(opid=op.opid, op=op.op)
                if op
                else ""
            )
            self.query_one("#history-diff-label", Static).update(
                row(
                    _("{time} → now (- the snapshot, + the file now)").format(time=snap.time) + made
                )
            )
            self._load_diff(snap.name)

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        if message.rows.id != "history-list":
            return
        message.stop()
        if self.read_only:
            say(self.app, _("the store is open read-only: no rollback"), severity="warning")
            return
        self.action_rollback()

    # --- the diff ---------------------------------------------------------------

    @work(thread=True, exclusive=True, group="history-diff")
    def _load_diff(self, name: str) -> None:
        from memtui.engine.ops.history import diff

        worker = get_current_worker()
        try:
            text = diff(self.root, self.rel, name)
        except Exception as exc:
            lines, label = [], _("cannot show the diff: {why}").format(why=error_text(exc))
        else:
            lines = text.splitlines()
            label = "" if lines else _("identical to the file now")
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show_diff, name, lines, label)

    def _show_diff(self, name: str, lines: list[str], label: str) -> None:
        snap = self.current
        if snap is None or snap.name != name:
            return  # the cursor moved on meanwhile
        if label:
            self.query_one("#history-diff-label", Static).update(row(f"{snap.time}: {label}"))
        self.query_one("#history-diff", DiffRows).show_lines(lines)

    # --- rollback -----------------------------------------------------------------

    def action_rollback(self) -> None:
        snap = self.current
        if snap is None or self.read_only or self.busy:
            return
        # the file the diff was made against (none: it must still be absent)
        seen = self.now_digest if self.now_digest is not None else ABSENT
        op = self.owners.get(snap.path)
        if op is not None and len(op.paths) > 1:
            self._offer_undo(op)
            return
        ask(
            self.app,
            _(
                "Roll {file} back to the snapshot of {time} ({size} bytes)? "
                "The version now is kept as a new snapshot, so this can be undone."
            ).format(file=self.rel, time=snap.time, size=f"{snap.size:,}"),
            lambda: self._start_rollback(snap, seen),
        )

    def _offer_undo(self, op: Operation) -> None:
        """This snapshot belongs to an operation that changed other files too: rolling
        back this one alone would leave them disagreeing, so undo the whole of it."""
        from memtui.engine.ops.undo import undo
        from memtui.ui.undoing import describe

        others = [p for p in op.paths if p != self.rel]
        listed = ", ".join(others[:8]) + (" …" if len(others) > 8 else "")
        root, label = self.root, _("undo {op} ({opid})").format(op=op.op, opid=op.opid)

        def go() -> None:
            self.dismiss(None)
            self.app.post_message(RunOp(label, lambda: undo(root, op.opid)))

        ask(
            self.app,
            _(
                "This snapshot was made by {operation}, which also changed {files}. "
                "Rolling back {file} alone would leave those files disagreeing with it. "
                "Undo the whole operation instead (every file it changed goes back)?"
            ).format(operation=describe(op), files=listed, file=self.rel),
            go,
        )

    def _start_rollback(self, snap: Snapshot, seen: str) -> None:
        self.busy = True
        self.refresh_bindings()
        self._rollback(snap, seen)

    @work(thread=True, exclusive=True, group="history-rollback")
    def _rollback(self, snap: Snapshot, seen: str) -> None:
        from memtui.engine.ops.common import Refused
        from memtui.engine.ops.history import rollback
        from memtui.engine.write.transaction import Conflict

        try:
            # If the agent wrote the file after the diff was shown, this is refused
            # rather than silently rolling back over what the agent wrote.
            rollback(self.root, self.rel, snap.name, expected=seen)
        except Conflict as exc:
            self.app.call_from_thread(
                self._rollback_done,
                snap,
                _(
                    "not rolled back: {why}. The diff now shows the file as it is; "
                    "look again, then roll back if you still want to"
                ).format(why=error_text(exc)),
                "warning",
            )
        except Refused as exc:
            self.app.call_from_thread(self._rollback_done, snap, error_text(exc), "warning")
        except Exception as exc:  # lock timeout, read-back mismatch: shown, never a traceback
            self.app.call_from_thread(
                self._rollback_done,
                snap,
                _("not rolled back: {why}").format(why=error_text(exc)),
                "error",
            )
        else:
            self.app.call_from_thread(
                self._rollback_done,
                snap,
                _(
                    "rolled {file} back to {time}; read back and verified "
                    "(the newest snapshot undoes it)"
                ).format(file=self.rel, time=snap.time),
                "information",
            )

    def _rollback_done(self, snap: Snapshot, text: str, severity: str) -> None:
        self.busy = False
        say(self.app, text, severity=severity, title=_("Rollback"))
        if severity == "information":
            reload_store(self.app)
            self.refresh_snapshots()  # the version replaced is the newest snapshot now
        else:
            self.refresh_snapshots(cursor_to=snap.name)
        self.refresh_bindings()

    def show_store(self, store: Any) -> None:
        """The app read the store again: if this file changed, list and diff anew."""
        tf = store.texts.get(self.rel)
        if tf is None:  # not a file the store parses: nothing to compare with
            return
        if self.loaded and not self.busy and tf.digest() != self.now_digest:
            snap = self.current
            self.refresh_snapshots(cursor_to=snap.name if snap else None)

    def action_close(self) -> None:
        self.dismiss(None)
