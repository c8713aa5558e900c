"""Every layout's approval queue in one list (engine.queue): `a` approves (accepts), `r`
rejects (asks why), with a preview of what approving would change.

A snapshot's items cost one pass (column widths, an id index); a row is drawn only when
the Rows widget shows it. The preview shows what `a` would change: for the selection
where its layout previews several at once, else for the highlighted item; the engine's
dry run in a thread worker, started only once the highlight rests (holding ↓ through
the list queues nothing). The pane changes nothing itself: it posts ApproveItems and
RejectItems, which the app hands to the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Static

from memtui.engine import queue
from memtui.engine.queue import QueueItem, Queues
from memtui.engine.scan.flagged import flagged_by_findings
from memtui.engine.store import Store
from memtui.i18n import N_, _, tr
from memtui.ui.messages import ApproveItems, Ask, Confirm, EditEntry, OpenFile, RejectItems, Say
from memtui.ui.panes.listing import GONE
from memtui.ui.panes.pending_preview import Previews
from memtui.ui.panes.pending_rows import draw, widths
from memtui.ui.panes.pending_split import PreviewSplit
from memtui.ui.panes.queued import (
    Group,
    approve_question,
    flagged_said,
    label,
    not_done,
    problems,
    refused_said,
    reject_question,
)
from memtui.ui.safe import row
from memtui.ui.widgets.rows import Rows

MUTATING = frozenset({"accept", "reject", "edit"})


class PendingRows(Rows):
    BINDINGS = [Binding("enter", "choose", N_("Open file"), id="pending.open", show=False)]


class PendingPane(Previews):
    """The queues; `space` selects, `a` approves, `r` rejects (asks why)."""

    BINDINGS = [
        Binding("a", "accept", N_("Accept"), id="pending.accept"),
        Binding("r", "reject", N_("Reject"), id="pending.reject"),
        Binding("space", "toggle_select", N_("Select"), id="pending.toggle"),
        Binding(
            "ctrl+a,asterisk", "select_all", N_("All"), id="pending.select_all", key_display="*"
        ),
        Binding("e", "edit", N_("Edit"), id="pending.edit"),
        *PreviewSplit.KEYS,
    ]
    COMMANDS = [
        (
            N_("Pending: accept"),
            N_("Accept the selected items, or the highlighted one (a)"),
            "accept",
        ),
        (
            N_("Pending: reject"),
            N_("Reject the selected (or highlighted) items, asks why (r)"),
            "reject",
        ),
        (
            N_("Pending: select / unselect"),
            N_("Toggle the highlighted item (space)"),
            "toggle_select",
        ),
        (
            N_("Pending: select every acceptable candidate"),
            N_("Again to clear the selection (ctrl+a, *)"),
            "select_all",
        ),
        (
            N_("Pending: edit the candidate"),
            N_("Change its text first, then accept it (e)"),
            "edit",
        ),
        *PreviewSplit.COMMANDS,
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self.queues = Queues((), {})
        self.items: tuple[QueueItem, ...] = ()
        self.keys: list[str] = []  # each row's item id
        self.positions: dict[str, int] = {}  # item id -> row
        self.selected: set[str] = set()  # item ids, kept across snapshots
        self._acted: set[str] = set()  # item ids this pane last accepted or rejected
        self._lost_key: str | None = None  # the row that went away under the cursor
        self._edit_offered = False  # whether the footer shows `e`
        self.widths = (1, 1)
        self._counts: list[tuple[str, int]] = []  # the header's counts, by its word
        self._refused = 0  # items approving refuses
        self.header_text = Text()  # what the header shows (tests read it)
        self._generation = 0  # snapshots seen: a dry run is only good for its own
        self._rows: Rows | None = None

    def compose(self) -> ComposeResult:
        with Horizontal(id="pending-body"):
            with Vertical(id="pending-list"):
                yield Static(id="pending-header")
                yield PendingRows(id="pending-rows")
            with VerticalScroll(id="pending-preview"):
                yield Static(id="pending-detail")

    @property
    def rows(self) -> Rows:
        if self._rows is None:
            self._rows = self.query_one("#pending-rows", Rows)
        return self._rows

    def focus(self, scroll_visible: bool = True) -> PendingPane:
        self.rows.focus(scroll_visible)
        return self

    # --- snapshots ---------------------------------------------------------------

    def show_store(self, store: Store) -> None:
        self.store = store
        old = self.keys
        at = self.rows.current
        was = old[at] if at is not None and at < len(old) else self._lost_key
        old_cursor = self.rows.cursor if old else 0
        self.queues = found = queue.queues(store)
        self.items = items = found.items
        self.keys = keys = [item.id for item in items]
        self.positions = {key: i for i, key in enumerate(keys)}
        self.selected &= self.positions.keys()
        self._tally(found)
        self._generation += 1
        self._forget_previews()
        self.widths = widths(items)
        rows = self.rows
        rows.set_rows(len(keys), self.render_row)
        rows.selected = {self.positions[k] for k in self.selected}
        self._place(was, old, old_cursor)
        self._offer_edit()
        self._header()
        if self._shown is not None and self._shown not in self.positions:
            self._preview()  # what it shows left the list (accepted, rejected): not a moment more
        else:
            self._schedule()

    def _tally(self, found: Queues) -> None:
        """The header's counts: each queue's items (by its word: `20 pending · 3 queued`),
        and those approving refuses."""
        per_layout = Counter(item.layout for item in found.items)
        counts: dict[str, int] = {}
        for name, face in found.faces.items():
            if per_layout[name] or face.always:
                counts[face.header] = counts.get(face.header, 0) + per_layout[name]
        self._counts = list(counts.items())
        self._refused = sum(1 for item in found.items if not item.approvable)

    def _place(self, was: str | None, old: list[str], old_cursor: int) -> None:
        """The cursor on the row it was on (`was`). If that left the list by this pane's
        own accept or reject, on the next one still here; if it left otherwise (the agent
        took it), lost there (Rows.follow): nothing is current until the user moves."""
        rows, self._lost_key = self.rows, None
        if was is not None and was in self.positions:
            rows.follow(self.positions[was])
            return
        cursor = self._follow(old, old_cursor)
        if cursor != rows.cursor:
            rows.cursor = cursor
        if was is not None and was not in self._acted and self.keys:
            rows.follow(None)
            self._lost_key = was

    def _follow(self, old: list[str], old_cursor: int) -> int:
        """The row of the item the cursor was on, or of the next one still here."""
        if not self.keys:
            return 0
        positions = self.positions
        if old and 0 <= old_cursor < len(old):
            for key in old[old_cursor:]:
                if key in positions:
                    return positions[key]
            for key in reversed(old[:old_cursor]):
                if key in positions:
                    return positions[key]
        return min(old_cursor, len(self.keys) - 1)

    def has_work(self, store: Store) -> bool:
        """Something queued, or a queue that is part of its layout (the palette offers
        accept, reject)."""
        return queue.queues(store).shown

    @property
    def current(self) -> QueueItem | None:
        """The highlighted item (None: none, or the cursor is lost)."""
        cursor = self.rows.current
        return self.items[cursor] if cursor is not None and cursor < len(self.items) else None

    # --- drawing -----------------------------------------------------------------

    def render_row(self, index: int) -> Text:
        if not 0 <= index < len(self.items):
            return Text("")
        item, width = self.items[index], self.rows.scrollable_content_region.width
        return draw(item, item.id in self.selected, self.widths, width, self._style)

    def _header(self) -> None:
        text = Text(no_wrap=True, end="")
        if self.store is not None and not self.queues.shown:
            text.append(tr(queue.nothing_said(self.queues)), style="italic")
        elif self.store is not None:
            for blocked in self.queues.blocked:  # first: no approve goes through until fixed
                note = row(f"{tr(blocked)} · ")
                note.style = self._style("refused")
                text.append_text(note)
            for word, count in self._counts:
                text.append(f"{count:,} {tr(word)} · ")
            text.append(
                _("{n} selected").format(n=f"{len(self.selected):,}"),
                style="bold" if self.selected else "",
            )
            text.append(" · ")
            refused = self._refused
            style = self._style("refused") if refused else ""
            text.append(_("{n} cannot be accepted").format(n=refused), style=style)
        self.header_text = text
        self.query_one("#pending-header", Static).update(text)

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        item = self.current
        if item is not None:
            self.post_message(OpenFile(item.file, item.line or 1))

    # --- selection ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MUTATING and self.read_only:
            return False
        # a key is shown only where it acts: a queued write is approved or rejected as
        # staged, never edited here
        return action != "edit" or (self._rows is not None and self._editable())

    def _editable(self) -> bool:
        item = self.current
        return item is not None and self.queues.face(item).editable

    def on_rows_highlighted(self, message: Rows.Highlighted) -> None:
        message.stop()
        self._offer_edit()
        self._schedule()

    def _offer_edit(self) -> None:
        """The footer again when the row moved to starts or stops offering `e`."""
        offered = self._editable()
        if offered != self._edit_offered:
            self._edit_offered = offered
            self.refresh_bindings()

    def action_toggle_select(self) -> None:
        cursor = self.rows.current
        if cursor is None or cursor >= len(self.keys):
            self._lost_said(_("select"))
            return
        rows = self.rows
        self.selected ^= {self.keys[cursor]}
        rows.toggle_selected(rows.cursor)
        rows.action_move(1)
        self._header()
        self._schedule()

    def action_select_all(self) -> None:
        wanted = {i.id for i in self.items if i.approvable}
        self.selected = set() if wanted and wanted <= self.selected else wanted
        rows = self.rows
        rows.selected = {self.positions[k] for k in self.selected}
        rows.refresh()
        self._header()
        self._schedule()

    def _targets(self) -> list[QueueItem]:
        """The selected items in list order, or else the highlighted one."""
        if self.selected:
            return [i for i in self.items if i.id in self.selected]
        item = self.current
        return [item] if item is not None else []

    def _groups(self, items: Sequence[QueueItem]) -> list[Group]:
        """The items by layout, in list order, each with its layout's face."""
        names = dict.fromkeys(i.layout for i in items)
        return [(self.queues.faces[n], [i for i in items if i.layout == n]) for n in names]

    # --- changing the store -------------------------------------------------------

    def _say(self, text: str, severity: str = "information", title: str = "") -> None:
        self.post_message(Say(text, severity, title))

    def _lost_said(self, verb: str) -> bool:
        """Said when the row the user was on went away under the cursor (ListPane's)."""
        if not self.rows.lost or self.selected:
            return False
        self._say(f"{verb}: {_(GONE)}", "warning")
        return True

    def _act(self, items: Iterable[QueueItem], send: Message, question: str | None) -> None:
        """Post `send` (after `question`, if any, is answered yes). The selection is
        cleared once it is sent, whatever comes of it: it never outlives the action it
        was made for, to be taken by a later key on another row."""

        def go() -> None:
            self._acted = {i.id for i in items}
            self._clear_selection()
            self.post_message(send)

        if question is None:
            go()
        else:
            self.post_message(Confirm(question, go))

    def _clear_selection(self) -> None:
        if self.selected:
            self.selected = set()
            self.rows.selected = set()
            self.rows.refresh()
            self._header()
            self._schedule()

    def action_accept(self) -> None:
        targets = self._targets()
        if self.store is None or not targets:
            if not self._lost_said(_("accept")):
                self._say(_("nothing to accept"), "warning")
            return
        # a conflict goes to the engine too: refused, it writes the agent's record (as the CLI)
        sent = [i for i in targets if i.approvable or i.records_refusal]
        if not sent:  # nothing goes: why, and the selection made for it is done
            for group in self._groups(targets):
                self._say(not_done(group), "error", _("Refused"))
            self._clear_selection()
            return
        groups = self._groups(sent)
        # many at once: asked once, with the count (z undoes them together), naming each
        # one the engine will refuse, and why (its problem, as the rows show it)
        question = approve_question(groups) + refused_said(problems(targets))
        # a secret or planted instruction in one: asked even for one, and allowed if yes
        flagged = flagged_by_findings(self.store.findings, sent)
        question += flagged_said(flagged, {i.id: i.shown_as for i in sent})
        options = {"allow_flagged": frozenset(flagged)} if flagged else {}  # these, no other
        send = ApproveItems(label(tr(groups[0][0].verb), groups), tuple(sent), options)
        self._act(targets, send, question if len(targets) > 1 or flagged else None)

    def action_reject(self) -> None:
        if self.read_only:
            self._say(_("reject: the store is open read-only"), "warning")
            return
        targets = self._targets()
        sent = [i for i in targets if not i.read_only]
        for group in self._groups([i for i in targets if i.read_only]):
            self._say(not_done(group, _("reject")), "error", _("Refused"))
        if self.store is None or not sent:
            if not targets and not self._lost_said(_("reject")):
                self._say(_("nothing to reject"), "warning")
            self._clear_selection()
            return
        from memtui.ui.screens.prompt import PromptScreen

        groups = self._groups(sent)

        def answered(reason: str | None) -> None:
            if reason:
                self._act(sent, RejectItems(label(_("reject"), groups), tuple(sent), reason), None)

        prompt = PromptScreen(
            reject_question(groups), placeholder=_("the reason (required)"), ok=_("Reject")
        )
        self.post_message(Ask(prompt, answered))

    def action_edit(self) -> None:
        item = self.current
        if item is not None and self._editable():
            self.post_message(EditEntry(item.id))
