"""The events timeline a layout keeps (Layout.timeline) as a list, newest first.

20,000 events show at once: each snapshot is sorted once into a list of
indices, a filter is a list of indices into that, and a row is formatted only
when the Rows widget draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.message import Message

from memtui.engine.identity import fingerprint
from memtui.engine.model import Event
from memtui.engine.store import Store
from memtui.engine.timeline import Timeline, archived, timeline
from memtui.engine.views import views
from memtui.i18n import N_, _, ngettext, tr
from memtui.ui.messages import ChangeEntries, EditEntry, OpenFile, ShowHistory
from memtui.ui.panes.listing import GONE, ListPane
from memtui.ui.safe import literal, row
from memtui.ui.widgets.rows import Rows

FILTERS = Binding.Group(N_("View"), compact=True)
ALL = "all"  # the type filter's first value; the others are the timeline's types
MUTATING = frozenset({"toggle_done", "archive", "edit"})
LIVE_ONLY = frozenset({"toggle_done", "edit"})  # not for archived events
# Column widths, in terminal cells.
LABEL_W, DATE_W, TYPE_W, STARS_W, STATUS_W, DUE_W = 7, 10, 8, 10, 4, 10


class EventRows(Rows):
    BINDINGS = [Binding("enter", "choose", N_("Open in file"), id="events.open", show=False)]


class EventsPane(ListPane):
    """Events newest first; `o` open only, `t` type, `d` done/reopen, `x` archive;
    `v` shows the archived events instead, where `x` restores."""

    DEFAULT_CSS = """
    EventsPane #events-detail { height: 8; }
    EventsPane > .events--overdue { color: $error; text-style: bold; }
    EventsPane > .events--open { color: $warning; }
    EventsPane > .events--muted { text-style: dim; }
    EventsPane > .events--label { color: $accent; }
    """
    COMPONENT_CLASSES = {"events--overdue", "events--open", "events--muted", "events--label"}
    KEY, ROWS = "events", EventRows
    BINDINGS = [
        # One "otv View" in the Footer; the header says which is which.
        Binding("o", "toggle_open", N_("Open only"), id="events.open_only", group=FILTERS),
        Binding("O", "toggle_overdue", N_("Overdue only"), id="events.overdue_only", group=FILTERS),
        Binding("t", "cycle_type", N_("Type"), id="events.type", group=FILTERS),
        Binding("v", "toggle_archived", N_("Archived"), id="events.archived", group=FILTERS),
        # short, and h only in `?`: at 80 columns the Footer must still show / and q
        Binding("d", "toggle_done", N_("Done"), id="events.done", tooltip=N_("Done / reopen")),
        Binding("x", "archive", N_("Archive/restore"), id="events.archive"),
        Binding("e", "edit", N_("Edit"), id="events.edit"),
        Binding("h", "history", N_("History"), id="events.history", show=False),
    ]
    VIEW = "timeline"  # what a layout must feed for this pane (Layout.views)
    # Said of any layout's timeline: its files and types are in the header and detail.
    COMMANDS = [
        (N_("Events: show open only / all"), N_("Toggle the open-only filter (o)"), "toggle_open"),
        (
            N_("Events: show overdue only / all"),
            N_("Open and past their due date (O)"),
            "toggle_overdue",
        ),
        (
            N_("Events: next type filter"),
            N_("all, then each type of the timeline (t)"),
            "cycle_type",
        ),
        (
            N_("Events: mark done / reopen"),
            N_("Set the highlighted event done or open (d)"),
            "toggle_done",
        ),
        (
            N_("Events: archive or restore the event"),
            N_("Move it to the archive, or back when archived (x)"),
            "archive",
        ),
        (
            N_("Events: show archived events / the timeline"),
            N_("The archived events, where x restores (v)"),
            "toggle_archived",
        ),
        (N_("Events: edit the event"), N_("Edit its text in its file (e)"), "edit"),
        (
            N_("Events: history of the events file"),
            N_("Snapshots, diff and rollback (h)"),
            "history",
        ),
        (N_("Events: open in the file viewer"), N_("Its file at the event (enter)"), "open"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.timeline: Timeline | None = None
        self.view: list[int] = []  # indices into timeline.events, after the filters
        self.open_only = False
        self.overdue_only = False
        self.type_index = 0
        # the highlighted event as shown (its id and fingerprint), followed across snapshots
        self.current_id: str | None = None
        self.current_fp: str | None = None
        self._acted: str | None = None  # the event this pane last changed (it may leave)
        self.archived = False  # showing what was archived out of the timeline
        self.archive_problem: str | None = None

    def has_work(self, store: Store) -> bool:
        return self.VIEW in views(store)

    # --- snapshots and filters ----------------------------------------------

    def show_store(self, store: Store) -> None:
        self.store = store
        self.refresh_bindings()
        if self.archived:
            self._load_archived(store)  # the timeline follows once it is read
        else:
            self.timeline = timeline(store)
            self._refilter(reloaded=True)

    @work(thread=True, exclusive=True, group="archived-events")
    def _load_archived(self, store: Store) -> None:
        line, problem = archived(store)
        self.post_message(self.ArchivedRead(store, line, problem))

    @dataclass
    class ArchivedRead(Message):
        store: Store
        timeline: Timeline | None
        problem: str | None

    def on_events_pane_archived_read(self, message: EventsPane.ArchivedRead) -> None:
        message.stop()
        if self.archived and message.store is self.store:
            self.timeline, self.archive_problem = message.timeline, message.problem
            self._refilter(reloaded=True)

    def action_toggle_archived(self) -> None:
        self.archived = not self.archived
        self.current_id = self.current_fp = None
        self.refresh_bindings()
        if self.store is not None:
            live = timeline(self.store)
            self.timeline = None if self.archived else live
            if self.archived:
                self.rows.set_rows(0, self.render_row)
                where = live.archive if live is not None else _("the archive")
                self.show_header(Text(_("reading {file}…").format(file=where), style="italic"))
                self.show_detail(Text())
            self.show_store(self.store)

    def _refilter(self, reloaded: bool = False) -> None:
        """Filter the timeline; the cursor stays on the event it was on. After a reload
        (`reloaded`) an event that is gone, or no longer shown, leaves the cursor lost
        (Rows.follow): unless this pane's own change took it away, the row now in its
        place is not the one the user chose."""
        line = self.timeline
        if line is None:
            if not self.archived:  # no layout here keeps one (else: being read)
                self.view = []
                self.rows.set_rows(0, self.render_row)
                self._header()
                self._detail()
            return
        wanted = self._type()
        events = line.events
        self.view = [
            i
            for i, e in enumerate(events)
            if (not self.open_only or e.is_open)
            and (not self.overdue_only or i in line.overdue)
            and (wanted == ALL or e.type == wanted)
        ]
        rows = self.rows
        keep, shown = self.current_id, self.current_fp
        rows.set_rows(len(self.view), self.render_row)
        if keep is not None and shown is not None:
            found = _position(self.view, line.find(keep, shown))
            if found is not None or (reloaded and keep != self._acted):
                rows.follow(found)
            elif reloaded:  # this pane's own change took it: on to the row in its place
                self._acted = None
        self._header()
        self._detail()

    def _types(self) -> tuple[str, ...]:
        return (ALL, *(self.timeline.types if self.timeline is not None else ()))

    def _type(self) -> str:
        types = self._types()
        return types[self.type_index % len(types)]

    def event_at(self, index: int) -> tuple[Event, str] | None:
        if self.timeline is None or not 0 <= index < len(self.view):
            return None
        i = self.view[index]
        return self.timeline.events[i], self.timeline.ids[i]

    @property
    def current(self) -> tuple[Event, str] | None:
        at = self.rows.current
        return self.event_at(at) if at is not None and self.view else None

    # --- drawing ------------------------------------------------------------

    def render_row(self, index: int) -> Text:
        line = self.timeline
        if line is None or not 0 <= index < len(self.view):
            return Text("")
        i = self.view[index]
        event, entry_id = line.events[i], line.ids[i]
        style = self.style_of  # Rows draws the cursor row in the cursor's colours
        if i in line.overdue:
            marker, row_style = "!", style("events--overdue")
            label_style = row_style
        elif event.is_open:
            marker, row_style = "●", style("events--open")
            label_style = style("events--label")
        else:
            marker, row_style = " ", style("events--muted")
            label_style = row_style
        stars = event.stars
        star_style = row_style
        if stars is None:
            star_text = ""
        elif 1 <= stars <= 5:
            star_text = "⭐" * stars
        else:
            star_text, star_style = f"⭐×{stars}", style("events--overdue")
        status = "—" if event.status is None else (_("open") if event.is_open else _("done"))
        text = Text(no_wrap=True, end="")
        text.append(f"{marker} ", style=row_style)  # spans, not a base style: Rows draws spans
        for value, width, cell_style in (
            (shown_label(entry_id), LABEL_W, label_style),
            (event.date, DATE_W, row_style),
            (event.type, TYPE_W, row_style),
            (star_text, STARS_W, star_style),
            (status, _status_width(), row_style),
            (event.due or "", DUE_W, row_style),
        ):
            text.append_text(_cell(value, width, cell_style))
        content = row(event.content)
        content.style = row_style
        text.append_text(content)
        return text

    def _header(self) -> None:
        line, store = self.timeline, self.store
        text = Text(no_wrap=True, end="")
        if store is None or line is None:
            if store is not None and not self.archived:
                text.append(_("No events timeline in this store."), style="italic")
            self.show_header(text)
            return
        if self.archived:
            text.append(_("Archived ({file}): ").format(file=line.archive), style="bold")
            if self.archive_problem:
                text.append_text(row(tr(self.archive_problem)))
            else:
                self._counts(text, line)
            text.append(" │ " + _("x restores · v back to the timeline"), style="dim")
        elif line.file in store.unreadable:
            text.append(_("{file} cannot be read: ").format(file=line.file), style="italic")
            text.append_text(row(tr(store.unreadable[line.file])))
        else:
            self._counts(text, line)
            open_count = sum(1 for e in line.events if e.is_open)
            text.append(" · " + _("{n} open").format(n=open_count) + " · ")
            overdue = self.style_of("events--overdue")
            text.append(
                _("{n} overdue").format(n=f"{len(line.overdue):,}"),
                style=overdue if line.overdue else "",
            )
            text.append(" │ " + _("last active") + " ")
            active = line.last_active
            text.append_text(row(active) if active else Text(_("unknown"), style="italic"))
            text.append(" │ " + _("o open only · O overdue · t type · v archived"), style="dim")
        self.show_header(text)

    def _counts(self, text: Text, line: Timeline) -> None:
        total, shown = len(line.events), len(self.view)
        filters = [_("open only")] if self.open_only else []
        if self.overdue_only:
            filters.append(_("overdue"))
        if self._type() != ALL:
            filters.append(self._type())
        said = (
            ngettext("{total} event", "{total} events", total)
            if not filters
            else ngettext("{shown} of {total} event", "{shown} of {total} events", total)
        )
        text.append(said.format(shown=shown, total=total))
        if filters:
            text.append(f" [{', '.join(filters)}]", style="bold")

    def _detail(self) -> None:
        current = self.current
        text = Text(end="")
        if current is None:
            if self.rows.lost:
                gone = self._entry_id(shown_label(self.current_id or ""))
                text.append(f"{gone}: {_(GONE)}", style="italic")
            elif self.timeline is not None and self.timeline.events:
                text.append(_("No events match the filters."), style="italic")
        else:
            event, entry_id = current
            text.append(self._entry_id(shown_label(entry_id)), style="bold")
            text.append(f" · {event.span.file}:{event.span.lineno}\n", style="dim")
            text.append_text(literal(event.text.rstrip("\r\n")))
            self.current_id, self.current_fp = entry_id, fingerprint(event.text)
        self.show_detail(text)

    def _entry_id(self, shown: str) -> str:
        return self.timeline.entry_id(shown) if self.timeline is not None else shown

    # --- actions ------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MUTATING and self.read_only:
            return False
        if action in LIVE_ONLY and self.archived:
            return None  # shown greyed: restore it first
        line = timeline(self.store) if self.store is not None else None
        if action == "history" and line is None:
            return None  # no file to show the history of
        if action == "toggle_archived" and not self.archived and not (line and line.archive):
            return None  # its layout archives nothing out of it
        if action == "toggle_done" and not _marks(line):
            return None  # its layout sets no state on its entries
        return True

    def action_toggle_open(self) -> None:
        self.open_only = not self.open_only
        self._refilter()

    def action_toggle_overdue(self) -> None:
        self.overdue_only = not self.overdue_only
        self._refilter()

    def action_cycle_type(self) -> None:
        self.type_index = (self.type_index + 1) % len(self._types())
        self._refilter()

    def action_toggle_done(self) -> None:
        current = self.current
        if current is not None and current[0].is_open:
            self._change_current(_("done"), "mark", state="done")
        elif current is not None:
            self._change_current(_("reopen"), "mark", state="open")
        else:
            self.lost_said(_("done"))

    def action_archive(self) -> None:
        line = self.timeline
        if self.archived:
            where = line.file if line is not None else ""
            question = _("Restore {id}: move it back to where it was in {file}?")
            self._change_current(_("restore"), "restore", question, where=where)
            return
        where = line.archive if line is not None else ""
        question = _(
            "Archive {id}: move it to {file}? (v lists archived events; x there restores it)"
        )
        self._change_current(_("archive"), "archive", question, where=where)

    def _change_current(
        self, verb: str, op: str, question: str = "", where: str = "", **options: str
    ) -> None:
        """The engine's `op` (ChangeEntries) on the highlighted event as shown, run by the
        app as "VERB ID"; with a `question` ({id} in it), only once the user says yes.
        The engine refuses if the event is not the one shown any more."""
        current, store = self.current, self.store
        if current is None or store is None:
            self.lost_said(verb)
            return
        event, entry_id = current
        self._acted = entry_id
        ref, shown = self._entry_id(entry_id), fingerprint(event.text)
        label = shown_label(entry_id)
        ask = question.format(id=label, file=where) if question else None
        self.post_message(ChangeEntries(op, ((ref, shown),), f"{verb} {label}", ask, options))

    def action_edit(self) -> None:
        current = self.current
        if current is not None:
            self.post_message(EditEntry(self._entry_id(current[1])))  # fingerprinted if ambiguous
        else:
            self.lost_said(_("edit"))

    def action_history(self) -> None:
        line = timeline(self.store) if self.store is not None else None
        if line is not None:
            self.post_message(ShowHistory(line.file))

    def action_open(self) -> None:
        current = self.current
        if current is None:
            return
        event = current[0]
        self.post_message(OpenFile(event.span.file, event.span.lineno))


def _marks(line: Timeline | None) -> tuple[str, ...]:
    """The states its layout sets on the timeline's entries (Layout.marks)."""
    from memtui.engine.views import marks

    return marks(line.layout, line.kind) if line is not None else ()


def _position(view: list[int], index: int | None) -> int | None:
    """The row showing event `index` (None: not shown, or no such event)."""
    try:
        return view.index(index) if index is not None else None
    except ValueError:
        return None


def shown_label(entry_id: str) -> str:
    """The id as the list shows it: without the fingerprint (E007#2@… -> E007#2)."""
    return entry_id.partition("@")[0]


def _status_width() -> int:
    """The status column: 4 cells, or what the reader's words for open and done take."""
    return max(STATUS_W, cell_len(_("open")), cell_len(_("done")))


def _cell(value: str, width: int, style: Style) -> Text:
    """A fixed-width column (store text shown literally), then one space."""
    text = row(value)
    text.style = style
    text.truncate(width, overflow="ellipsis", pad=True)
    text.append(" ")
    return text
