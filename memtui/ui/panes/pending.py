"""The dsh queue: pending candidates to accept into memory or reject, with a preview.

10,000 candidates cost one pass per snapshot (column widths, an id index); a row
is formatted only when the Rows widget draws it. The preview shows what `a` would
change: for the selection when there is one, else for the highlighted candidate;
a dry run of `dsh.accept` in a thread worker, started only once the highlight
rests (holding ↓ through the list queues nothing), shown as the unified diff of
every file it would write.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static

from memtui.engine import queue
from memtui.engine.model import Candidate
from memtui.engine.queue import QueueItem
from memtui.engine.store import Store
from memtui.engine.words import counted
from memtui.layouts.dsh.ops import accept_blocked_by
from memtui.sanitize import one_line
from memtui.ui.messages import Ask, Confirm, EditEntry, OpenFile, RunOp, Say
from memtui.ui.panes import Pane
from memtui.ui.panes.listing import GONE
from memtui.ui.panes.pending_preview import DryRun, dry_run, queue_dry_run
from memtui.ui.panes.queued import (
    accept_label,
    approve_all,
    approve_question,
    item_detail,
    item_kind,
    item_kind_width,
    item_note,
    not_accepted,
    not_approvable,
    problems,
    refused_said,
    reject_all,
    reject_label,
    reject_question,
)
from memtui.ui.safe import literal, row
from memtui.ui.widgets.rows import Rows

MUTATING = frozenset({"accept", "reject", "edit"})
DEBOUNCE = 0.15  # seconds the highlight must rest before the dry run starts
NARROW = 100  # below this many columns the preview goes under the list
ID_MAX, TARGET_MAX, CREATED_W, EVIDENCE_MIN = 24, 24, 10, 12
BODY_LINES = 40  # body lines shown in the preview
DIFF_LINES = 400  # diff lines shown in the preview (all files together)
LINE_MAX = 2000  # characters of one preview line
CACHE = 64  # dry-run results kept per snapshot
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")


PreviewKey = tuple[str, str, int]  # (candidate file(s), their digest(s), snapshot number)
PREVIEW_STEPS = (20, 30, 40, 50, 60, 70, 80)  # the preview's share of the pane, in %


class PendingRows(Rows):
    BINDINGS = [Binding("enter", "choose", "Open file", id="pending.open", show=False)]


class PendingPane(Pane):
    """The pending queue; `space` selects, `a` accepts, `r` rejects (asks why)."""

    DEFAULT_CSS = """
    PendingPane { layout: vertical; }
    PendingPane #pending-body { height: 1fr; }
    PendingPane #pending-list { width: 1fr; height: 1fr; }
    PendingPane #pending-header { height: 1; background: $boost; padding: 0 1; }
    PendingPane #pending-rows { height: 1fr; }
    PendingPane #pending-preview {
        width: 40%; height: 1fr; border-left: solid $primary-darken-2; padding: 0 1;
    }
    PendingPane.-narrow #pending-body { layout: vertical; }
    PendingPane.-narrow #pending-preview {
        width: 1fr; height: 45%; border-left: none; border-top: solid $primary-darken-2;
    }
    PendingPane.-no-preview #pending-preview { display: none; }
    PendingPane > .pending--refused { color: $error; }
    PendingPane > .pending--broken { color: $warning; }
    PendingPane > .pending--muted { color: $text-muted; }
    PendingPane > .pending--id { color: $accent; }
    PendingPane > .pending--heading { text-style: bold; }
    PendingPane > .pending--added { color: $success; }
    PendingPane > .pending--removed { color: $error; }
    PendingPane > .pending--hunk { color: $accent; }
    """
    COMPONENT_CLASSES = {
        "pending--refused",
        "pending--broken",
        "pending--muted",
        "pending--id",
        "pending--heading",
        "pending--added",
        "pending--removed",
        "pending--hunk",
    }
    BINDINGS = [
        Binding("a", "accept", "Accept", id="pending.accept"),
        Binding("r", "reject", "Reject", id="pending.reject"),
        Binding("space", "toggle_select", "Select", id="pending.toggle"),
        Binding("ctrl+a,asterisk", "select_all", "All", id="pending.select_all", key_display="*"),
        Binding("e", "edit", "Edit", id="pending.edit"),
        Binding("p", "toggle_preview", "Preview", id="pending.preview", show=False),
        Binding("[", "resize_preview(-1)", "Smaller preview", id="pending.shrink", show=False),
        Binding("]", "resize_preview(1)", "Larger preview", id="pending.grow", show=False),
        Binding("m", "zoom_preview", "Zoom preview", id="pending.zoom", show=False),
    ]
    LAYOUT = "dsh"
    COMMANDS = [
        (
            "Pending: accept",
            "Accept the selected candidates, or the highlighted one (a)",
            "accept",
        ),
        (
            "Pending: reject",
            "Move the selected (or highlighted) candidates to archive/rejected/, asks why (r)",
            "reject",
        ),
        ("Pending: select / unselect", "Toggle the highlighted candidate (space)", "toggle_select"),
        (
            "Pending: select every acceptable candidate",
            "Again to clear the selection (ctrl+a, *)",
            "select_all",
        ),
        ("Pending: edit the candidate", "Change its text first, then accept it (e)", "edit"),
        ("Pending: show / hide the preview", "What accepting would change (p)", "toggle_preview"),
        ("Pending: smaller preview", "Give the list more room ([)", "resize_preview(-1)"),
        ("Pending: larger preview", "Give the diff more room (])", "resize_preview(1)"),
        ("Pending: zoom the preview", "The preview alone, or back (m)", "zoom_preview"),
    ]

    @dataclass
    class PreviewReady(Message):
        key: PreviewKey
        result: DryRun

    @dataclass
    class EngineRefused(Message):
        """A bulk change took some and refused others (from the op's thread)."""

        refused: list[dict[str, Any]]
        done: str = "accepted"  # what the others were

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self.candidates: tuple[Candidate, ...] = ()
        self.items: tuple[QueueItem, ...] = ()  # other layouts' queues, after the candidates
        self.keys: list[str] = []  # each row's key: a candidate's file or an item's id
        self.positions: dict[str, int] = {}  # row key -> row
        self.selected: set[str] = set()  # row keys, kept across snapshots
        self._acted: set[str] = set()  # row keys this pane last accepted or rejected
        self._lost_key: str | None = None  # the row that went away under the cursor
        self._edit_offered = False  # whether the footer shows `e` (a dsh candidate's row)
        self.show_preview = True
        self.preview_share: int | None = None  # % of the pane; None: the layout's default
        self.zoomed = False  # the preview alone, the list hidden
        self.narrow = False
        self.widths = (ID_MAX, TARGET_MAX)
        self.preview_key: PreviewKey | None = None
        self.preview_text = Text()
        self.header_text = Text()  # what the header shows (tests read it)
        self.blocked: str | None = None  # a bookkeeping file no accept can go through
        self._generation = 0  # snapshots seen: a dry run is only good for its own
        self._shown_file: str | None = None  # the candidate the preview shows
        self._results: dict[PreviewKey, DryRun] = {}
        self._timer: Timer | None = None
        self._preview_due = False
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

    def on_resize(self, event: events.Resize) -> None:
        self.narrow = event.size.width < NARROW
        self.set_class(self.narrow, "-narrow")
        self._size_preview()

    def _size_preview(self) -> None:
        """The split as chosen with [ ] and m (inline styles: they beat the CSS)."""
        preview = self.query_one("#pending-preview")
        listing = self.query_one("#pending-list")
        listing.display = not (self.zoomed and self.show_preview)
        share = (
            "1fr"
            if self.zoomed
            else (None if self.preview_share is None else f"{self.preview_share}%")
        )
        preview.styles.width = "1fr" if self.narrow else share  # None: the CSS's
        preview.styles.height = share if self.narrow else "1fr"

    def action_resize_preview(self, step: int) -> None:
        self.zoomed = False
        default = 45 if self.narrow else 40
        now = self.preview_share or default
        index = min(range(len(PREVIEW_STEPS)), key=lambda i: abs(PREVIEW_STEPS[i] - now))
        self.preview_share = PREVIEW_STEPS[max(0, min(len(PREVIEW_STEPS) - 1, index + step))]
        self._size_preview()

    def action_zoom_preview(self) -> None:
        self.zoomed = not self.zoomed
        self._size_preview()
        if self.zoomed:
            self.query_one("#pending-preview").focus()
        else:
            self.rows.focus()

    # --- snapshots ---------------------------------------------------------------

    def show_store(self, store: Store) -> None:
        self.store = store
        old = self.keys
        at = self.rows.current
        was = old[at] if at is not None and at < len(old) else self._lost_key
        old_cursor = self.rows.cursor if old else 0
        dsh = store.dsh
        self.candidates = cands = dsh.candidates if dsh else ()
        self.items = items = tuple(queue.items(store))
        self.keys = keys = [c.file for c in cands]
        keys += (item.id for item in items)
        self.positions = {key: i for i, key in enumerate(keys)}
        self.selected &= self.positions.keys()
        self.blocked = accept_blocked_by(store)
        self._generation += 1
        self._results.clear()
        self.preview_key = None
        self.widths = (
            _widest(chain((_cells(c.id) for c in cands), (_cells(i.id) for i in items)), ID_MAX),
            _widest(chain(map(_kind_width, cands), map(item_kind_width, items)), TARGET_MAX),
        )
        rows = self.rows
        rows.set_rows(len(keys), self.render_row)
        rows.selected = {self.positions[f] for f in self.selected}
        self._place(was, old, old_cursor)
        self._offer_edit()
        self._header()
        if self._shown_file is not None and self._shown_file not in self.positions:
            self._preview()  # what it shows left the list (accepted, rejected): not a moment more
        else:
            self._schedule()

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
        """The row of the candidate or item the cursor was on, or of the next one still
        here."""
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
        """dsh's candidates, or any layout's queue (the palette offers accept, reject)."""
        return store.dsh is not None or bool(self.items)

    @property
    def current(self) -> Candidate | None:
        """The highlighted dsh candidate (None on another queue's item, or none)."""
        cursor = self.rows.current
        return (
            self.candidates[cursor]
            if cursor is not None and cursor < len(self.candidates)
            else None
        )

    @property
    def current_item(self) -> QueueItem | None:
        """The highlighted item of another layout's queue."""
        cursor = self.rows.current
        if cursor is None:
            return None
        at = cursor - len(self.candidates)
        return self.items[at] if 0 <= at < len(self.items) and self.keys else None

    # --- drawing -----------------------------------------------------------------

    def _style(self, name: str) -> Style:
        return self.style_of(f"pending--{name}")

    def render_row(self, index: int) -> Text:
        if not 0 <= index < len(self.keys):
            return Text("")
        chosen = self.keys[index] in self.selected
        if index >= len(self.candidates):
            item = self.items[index - len(self.candidates)]
            note = item_note(item)
            if item.read_only or item.problem:
                note.style = self._style("broken" if item.read_only else "refused")
            return self._row(chosen, item.id, item_kind(item), note, item.created)
        cand = self.candidates[index]
        note = self._evidence(cand, short=True)
        return self._row(chosen, cand.id, _kind(cand), note, cand.created_at)

    def _row(self, chosen: bool, name: str, kind: Text, note: Text, created: str | None) -> Text:
        """Mark, id, kind, note (as wide as there is room) and date: one row."""
        id_w, target_w = self.widths
        text = Text("✓ " if chosen else "  ", no_wrap=True, end="")
        text.append_text(_cell(row(name), id_w, self._style("id")))
        text.append_text(_cell(kind, target_w))
        width = self.rows.scrollable_content_region.width
        evidence_w = max(EVIDENCE_MIN, width - text.cell_len - CREATED_W - 1)
        text.append_text(_cell(note, evidence_w))
        text.append_text(_cell(row(_when(created)), CREATED_W, self._style("muted")))
        return text

    def _evidence(self, cand: Candidate, *, short: bool = False) -> Text:
        if not cand.valid:
            problem = cand.problem or "broken"
            text = row(f"✗ {problem}") if short else literal(problem)
            text.style = self._style("broken")
            return text
        if not (cand.evidence and cand.evidence.strip()):
            return Text("no evidence — cannot be accepted", style=self._style("refused"))
        return row(cand.evidence) if short else literal(cand.evidence)

    def _header(self) -> None:
        text = Text(no_wrap=True, end="")
        store = self.store
        if store is not None and store.dsh is None and not self.items:
            text.append("No dsh layout in this store (index.txt with pending/).", style="italic")
        elif store is not None:
            blocked = self.blocked
            if blocked:  # first: every accept writes it, none goes through until fixed
                note = row(f"no accept until {blocked} parses · ")
                note.style = self._style("refused")
                text.append_text(note)
            cands, items = self.candidates, self.items
            refused = sum(1 for c in cands if not c.acceptable)
            refused += sum(1 for i in items if not i.approvable)
            if store.dsh is not None:
                text.append(f"{len(cands):,} pending · ")
            if items:  # other layouts' queues, after the candidates
                text.append(f"{len(items):,} queued · ")
            text.append(f"{len(self.selected):,} selected", style="bold" if self.selected else "")
            text.append(" · ")
            text.append(
                f"{refused} cannot be accepted", style=self._style("refused") if refused else ""
            )
        self.header_text = text
        self.query_one("#pending-header", Static).update(text)

    # --- the preview -------------------------------------------------------------

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        cand, item = self.current, self.current_item
        if cand is not None:
            self.post_message(OpenFile(cand.file, 1))
        elif item is not None:
            self.post_message(OpenFile(item.file, item.line or 1))

    def _schedule(self) -> None:
        """Show the preview once the highlight has rested for DEBOUNCE seconds."""
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._preview)

    def _visible(self) -> bool:
        return self.show_preview and self.display and self.region.area > 0

    def on_show(self) -> None:
        if self._preview_due:
            self._schedule()

    def _preview(self) -> None:
        self._timer = None
        if not self._visible():
            self._preview_due = True  # drawn when the pane is shown
            return
        self._preview_due = False
        cand, store = self.current, self.store
        chosen = [c for c in self._targets() if c.acceptable] if self.selected else []
        if store is not None and chosen:
            self._preview_selection(store, chosen)
            return
        item = self.current_item
        if item is not None and store is not None:
            self._preview_item(store, item)
            return
        if cand is None or store is None:
            self.preview_key = None
            said = "" if store is None else GONE if self.rows.lost else "Nothing pending."
            self._draw(None, Text(said, style="italic"))
            return
        tf = store.texts.get(cand.file)
        digest = tf.digest() if tf is not None else ""
        key = (cand.file, digest, self._generation)
        if key == self.preview_key:
            return
        self.preview_key = key
        result = self._results.get(key)
        if result is not None:
            self._draw(cand.file, self._detail(cand), self._diff(result))
            return
        if cand.file != self._shown_file:  # a reload keeps the old diff until the new one
            working = Text("working out what accepting would change…", style="italic")
            self._draw(cand.file, self._detail(cand), working)
        expected = {cand.file: digest} if digest else {}
        self._dry_run(key, store.root, cand.file, expected)

    def _preview_item(self, store: Store, item: QueueItem) -> None:
        """What approving this queued item would change: the engine's preview."""
        key = (item.id, item.fingerprint, self._generation)
        if key == self.preview_key:
            return
        self.preview_key = key
        result = self._results.get(key)
        if result is not None:
            self._draw(item.id, self._item_detail(item), self._diff(result, "approving"))
            return
        if item.id != self._shown_file:
            working = Text("working out what approving would change…", style="italic")
            self._draw(item.id, self._item_detail(item), working)
        self._queue_dry_run(key, store.root, item.id)

    def _item_detail(self, item: QueueItem) -> Text:
        heading = self._style("heading")
        text = item_detail(item, self._style("muted"))
        note = "read-only here: never approved or rejected" if item.read_only else None
        if note or item.problem:
            said = literal(f"{note or 'approving is refused now: ' + str(item.problem)}\n")
            said.style = self._style("broken" if note else "refused")
            text.append_text(said)
        text.append("\napproving would change\n", style=heading)
        return text

    def _preview_selection(self, store: Store, chosen: list[Candidate]) -> None:
        """What `a` does to the whole selection: one dry run of accepting all of it."""
        files = [c.file for c in chosen]
        expected = _expected(store, files)
        key = ("\n".join(files), "\n".join(expected.get(f, "") for f in files), self._generation)
        if key == self.preview_key:
            return
        self.preview_key = key
        shown = f"selection:{key[0]}"
        result = self._results.get(key)
        head = self._selection_detail(chosen)
        if result is not None:
            self._draw(shown, head, self._diff(result))
            return
        working = Text("working out what accepting them would change…", style="italic")
        self._draw(shown, head, working)
        self._dry_run(key, store.root, files, expected)

    def _selection_detail(self, chosen: list[Candidate]) -> Text:
        text = Text(end="")
        text.append(f"{len(chosen):,} selected", style="bold")
        left = sum(1 for c in self._targets() if not c.acceptable)
        if left:
            text.append(f" (and {left} that cannot be accepted)", style=self._style("refused"))
        text.append("\n")
        for cand in chosen[:BODY_LINES]:
            text.append_text(literal(f"  pending:{cand.id}  "))
            text.append_text(_kind(cand))
            text.append("\n")
        if len(chosen) > BODY_LINES:
            text.append(f"  … {len(chosen) - BODY_LINES:,} more\n", style=self._style("muted"))
        queued = len(self._target_items())
        if queued:  # their previews are their own rows'
            text.append(f"  and {queued} queued, each previewed on its row\n")
        text.append("\naccepting them (a) would change\n", style=self._style("heading"))
        return text

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _dry_run(
        self, key: PreviewKey, root: str, rel: str | list[str], expected: dict[str, str]
    ) -> None:
        from textual.worker import get_current_worker

        result = dry_run(root, rel, expected)
        if not get_current_worker().is_cancelled:
            self.post_message(self.PreviewReady(key, result))

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _queue_dry_run(self, key: PreviewKey, root: str, item_id: str) -> None:
        from textual.worker import get_current_worker

        result = queue_dry_run(root, item_id)
        if not get_current_worker().is_cancelled:
            self.post_message(self.PreviewReady(key, result))

    def on_pending_pane_preview_ready(self, message: PendingPane.PreviewReady) -> None:
        message.stop()
        if len(self._results) >= CACHE:
            self._results.clear()
        self._results[message.key] = message.result
        cand, store = self.current, self.store
        if message.key != self.preview_key:
            return
        chosen = [c for c in self._targets() if c.acceptable] if self.selected else []
        item = self.current_item
        if chosen:
            shown = f"selection:{message.key[0]}"
            self._draw(shown, self._selection_detail(chosen), self._diff(message.result))
        elif item is not None:
            self._draw(item.id, self._item_detail(item), self._diff(message.result, "approving"))
        elif cand is not None and store is not None:
            self._draw(cand.file, self._detail(cand), self._diff(message.result))

    def _draw(self, shown: str | None, *parts: Text) -> None:
        """Show the preview of candidate `shown`; back to the top when it is another one."""
        text = Text(end="")
        for part in parts:
            text.append_text(part)
        self.preview_text = text
        self.query_one("#pending-detail", Static).update(text)
        if shown != self._shown_file:
            self.query_one("#pending-preview", VerticalScroll).scroll_home(animate=False)
        self._shown_file = shown

    def _detail(self, cand: Candidate) -> Text:
        muted, heading = self._style("muted"), self._style("heading")
        text = Text(end="")
        text.append_text(literal(cand.entry_id, style="bold"))
        text.append("  ")
        text.append_text(_kind(cand))
        text.append("\n")

        def field(label: str, value: Text) -> None:
            text.append(f"{label:<9} ", style=muted)
            text.append_text(value)
            text.append("\n")

        field("evidence", self._evidence(cand))
        session = cand.source_session or "—"
        seqs = ", ".join(str(s) for s in cand.source_seqs) or "—"
        field("session", literal(f"{session} · seqs {seqs}"))
        field("created", literal(cand.created_at or "—"))
        field("file", literal(cand.file))
        field("target", self._provenance(cand))
        body = cand.body.strip("\r\n")
        text.append("body\n", style=heading)
        lines = body.split("\n") if body else []
        for line in lines[:BODY_LINES]:
            text.append_text(literal("  " + _clip(line.rstrip("\r"))))
            text.append("\n")
        if len(lines) > BODY_LINES:
            text.append(f"  … {len(lines) - BODY_LINES:,} more lines\n", style=muted)
        if not lines:
            text.append("  (empty)\n", style=muted)
        text.append("\naccepting would change\n", style=heading)
        return text

    def _provenance(self, cand: Candidate) -> Text:
        store = self.store
        key = f"{cand.entry_type}:{cand.target}"
        prov = store.dsh.provenance.get(key) if store and store.dsh else None
        if not isinstance(prov, Mapping):
            if cand.entry_type in ("fact", "sop") and cand.target:
                return Text("new (no provenance yet)", style=self._style("muted"))
            return Text("—")
        parts = [f"{key} is {prov.get('status', '?')}"]
        for label, name in (
            ("evidence", "evidence"),
            ("from", "acceptedFrom"),
            ("session", "sourceSession"),
            ("updated", "updatedAt"),
        ):
            value = prov.get(name)
            if value not in (None, "", []):
                parts.append(f"{label} {value}")
        chain = prov.get("supersedes")
        if isinstance(chain, list) and chain:
            parts.append(f"supersedes {len(chain):,} version(s)")
        return literal(" · ".join(parts))

    def _diff(self, result: DryRun, doing: str = "accepting") -> Text:
        text = Text(end="")
        if result.error is not None:
            text.append_text(literal(f"nothing: {doing} is refused — {result.error}"))
            text.style = self._style("refused")
            return text
        styles = {
            "+": self._style("added"),
            "-": self._style("removed"),
            "@": self._style("hunk"),
            "\\": self._style("muted"),
        }
        if result.summary:
            text.append_text(_styled(result.summary + "\n", self._style("muted")))
        shown = 0
        for section in result.sections:
            if section.action == "move":
                text.append_text(literal(f"moves {section.source} → {section.path}\n"))
                continue
            if section.action == "remove":
                text.append_text(literal(f"removes {section.path}\n"))
                continue
            lines = section.diff.splitlines()
            if shown >= DIFF_LINES:
                text.append_text(literal(f"{section.path}: {len(lines):,} diff lines not shown\n"))
                continue
            text.append("\n")
            for line in lines[: DIFF_LINES - shown]:
                if line.startswith(("--- ", "+++ ")):
                    style = self._style("heading")
                else:
                    style = styles.get(line[:1], Style())
                text.append_text(_styled(_clip(line) + "\n", style))
            if len(lines) > DIFF_LINES - shown:
                text.append(f"… {len(lines) - DIFF_LINES + shown:,} more lines\n")
            shown += len(lines)
        return text

    # --- selection ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in MUTATING and self.read_only:
            return False
        # a key is shown only where it acts: a queued write is approved or rejected as
        # staged, never edited here
        return action != "edit" or (self._rows is not None and self.current is not None)

    def on_rows_highlighted(self, message: Rows.Highlighted) -> None:
        message.stop()
        self._offer_edit()
        self._schedule()

    def _offer_edit(self) -> None:
        """The footer again when the row moved to starts or stops offering `e`."""
        offered = self.current is not None
        if offered != self._edit_offered:
            self._edit_offered = offered
            self.refresh_bindings()

    def action_toggle_select(self) -> None:
        cursor = self.rows.current
        if cursor is None or cursor >= len(self.keys):
            self._lost_said("select")
            return
        rows = self.rows
        self.selected ^= {self.keys[cursor]}
        rows.toggle_selected(rows.cursor)
        rows.action_move(1)
        self._header()
        self._schedule()

    def action_select_all(self) -> None:
        wanted = {c.file for c in self.candidates if c.acceptable}
        wanted |= {i.id for i in self.items if i.approvable}
        self.selected = set() if wanted and wanted <= self.selected else wanted
        rows = self.rows
        rows.selected = {self.positions[f] for f in self.selected}
        rows.refresh()
        self._header()
        self._schedule()

    def action_toggle_preview(self) -> None:
        self.show_preview = not self.show_preview
        self.set_class(not self.show_preview, "-no-preview")
        self._size_preview()
        self.preview_key = None
        self._schedule()

    def _targets(self) -> list[Candidate]:
        """The selected candidates in list order, or else the highlighted one."""
        if self.selected:
            return [c for c in self.candidates if c.file in self.selected]
        cand = self.current
        return [cand] if cand is not None else []

    def _target_items(self) -> list[QueueItem]:
        """The selected queue items in list order, or else the highlighted one."""
        if self.selected:
            return [i for i in self.items if i.id in self.selected]
        item = self.current_item
        return [item] if item is not None else []

    # --- changing the store -------------------------------------------------------

    def _say(self, text: str, severity: str = "information", title: str = "") -> None:
        self.post_message(Say(text, severity, title))

    def _lost_said(self, verb: str) -> bool:
        """Said when the row the user was on went away under the cursor (ListPane's)."""
        if not self.rows.lost or self.selected:
            return False
        self._say(f"{verb}: {GONE}", "warning")
        return True

    def _act(self, keys: Iterable[str], send: Message, question: str | None = None) -> None:
        """Post `send` (after `question`, if any, is answered yes). The selection is
        cleared once it is sent, whatever comes of it: it never outlives the action it
        was made for, to be taken by a later key on another row."""

        def go() -> None:
            self._acted = set(keys)
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
        store, targets, items = self.store, self._targets(), self._target_items()
        if store is None or not (targets or items):
            if not self._lost_said("accept"):
                self._say("nothing to accept", "warning")
            return
        ok = [c for c in targets if c.acceptable]
        refused = [c for c in targets if not c.acceptable]
        # a conflict goes to the engine too: refused, it writes the agent's record (as the CLI)
        good = [i for i in items if i.approvable or i.records_refusal]
        if not (ok or good):  # nothing goes: why, and the selection made for it is done
            if refused:
                self._say(not_accepted(refused), "error", "Refused")
            if items:
                self._say(not_approvable(items), "error", "Refused")
            self._clear_selection()
            return
        root, files = store.root, [c.file for c in ok]

        def run() -> Any:
            from memtui.layouts.dsh import ops as dsh

            receipts = dsh.accept(root, files, expected=_expected(store, files)) if files else []
            receipts += approve_all(root, good, alone=not files)
            return self._say_refused(receipts)

        question = (  # many at once: asked once, with the count (z undoes them together)
            f"Accept {counted(len(ok), 'candidate')} into memory? They move to archive/pending/ "
            "and their facts and sops are written, as one operation that z undoes."
        )
        if good:
            question = approve_question(len(ok), sum(1 for i in good if i.approvable))
        # each one the engine will refuse, and why (its problem, as the rows show it)
        question += refused_said([(c.id, c.problem) for c in refused] + problems(items))
        label = f"accept {_count(ok)}" if not good else accept_label(_count(ok) if ok else "", good)
        many = len(targets) + len(items) > 1
        self._act(
            [c.file for c in targets] + [i.id for i in items],
            RunOp(label, run),
            question if many else None,
        )

    def _say_refused(self, receipts: list[Any], done: str = "accepted") -> list[Any]:
        """Post what a bulk change refused while it took the rest (from the op's thread)."""
        left = [r for rc in receipts for r in rc.details.get("refused", ())]
        if left:
            self.post_message(PendingPane.EngineRefused(left, done))
        return receipts

    def on_pending_pane_engine_refused(self, message: PendingPane.EngineRefused) -> None:
        message.stop()
        shown = "; ".join(f"{r.get('id')}: {r.get('reason')}" for r in message.refused[:5])
        more = " …" if len(message.refused) > 5 else ""
        self._say(f"not {message.done}: {shown}{more}", "warning", "Refused")

    def action_reject(self) -> None:
        if self.read_only:
            self._say("reject: the store is open read-only", "warning")
            return
        store, targets, all_items = self.store, self._targets(), self._target_items()
        items = [i for i in all_items if not i.read_only]
        if len(items) < len(all_items):
            read_only = [i for i in all_items if i.read_only]
            self._say(not_approvable(read_only, "reject"), "error", "Refused")
        if store is None or not (targets or items):
            if not all_items and not self._lost_said("reject"):
                self._say("nothing to reject", "warning")
            self._clear_selection()
            return
        from memtui.ui.screens.prompt import PromptScreen

        root, files = store.root, [c.file for c in targets]
        what = targets[0].id if len(targets) == 1 else f"{len(targets):,} candidates"
        question = (
            f"Reject {what}? It moves to archive/rejected/ with the reason in its "
            "front matter. Why?"
        )
        if items:
            question = reject_question(_count(targets) if targets else "", items)

        def answered(reason: str | None) -> None:
            if not reason:
                return
            from memtui.layouts.dsh import ops as dsh

            def run() -> Any:
                done = (
                    dsh.reject(root, files, reason, expected=_expected(store, files))
                    if files
                    else []
                )
                receipts = [*done, *reject_all(root, items, reason, alone=not files)]
                return self._say_refused(receipts, "rejected")

            label = f"reject {_count(targets)}" if not items else reject_label(targets, items)
            self._act([c.file for c in targets] + [i.id for i in items], RunOp(label, run))

        prompt = PromptScreen(question, placeholder="the reason (required)", ok="Reject")
        self.post_message(Ask(prompt, answered))

    def action_edit(self) -> None:
        cand = self.current
        if cand is not None:
            self.post_message(EditEntry(cand.entry_id))


def _expected(store: Store, files: Iterable[str]) -> dict[str, str]:
    """sha256 of each candidate as the user saw it (the snapshot's bytes): accepting or
    rejecting a candidate the agent changed meanwhile is a conflict, not a surprise."""
    texts = store.texts
    return {rel: texts[rel].digest() for rel in files if rel in texts}


def _count(cands: list[Candidate]) -> str:
    return cands[0].id if len(cands) == 1 else f"{len(cands):,} candidates"


def _kind(cand: Candidate) -> Text:
    return row(f"{cand.entry_type or '?'} → {cand.target or '?'}")


def _widest(widths: Iterable[int], cap: int) -> int:
    """The largest width, at most `cap` (stops early once a value reaches it)."""
    best = 1
    for width in widths:
        if width > best:
            best = width
            if best >= cap:
                return cap
    return best


def _cells(value: str) -> int:
    """Terminal cells `value` takes in a row; cheap for the usual ASCII text."""
    return len(value) if value.isascii() and value.isprintable() else cell_len(one_line(value))


def _kind_width(cand: Candidate) -> int:
    return _cells(cand.entry_type or "?") + 3 + _cells(cand.target or "?")


def _when(created: str | None) -> str:
    if not created:
        return "—"
    return created[:10] if _ISO.match(created) else created


def _clip(line: str) -> str:
    """One line of the preview, cut short when huge (a minified blob stays cheap)."""
    return line if len(line) <= LINE_MAX else f"{line[:LINE_MAX]} … ({len(line):,} chars)"


def _styled(value: str, style: Style) -> Text:
    text = literal(value)
    text.stylize(style)
    return text


def _cell(text: Text, width: int, style: Style | None = None) -> Text:
    """A fixed-width column (store text shown literally), then one space."""
    if style is not None:
        text.stylize(style)
    text.truncate(width, overflow="ellipsis", pad=True)
    text.append(" ")
    return text
