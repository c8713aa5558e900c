"""The memtui app: a shell of panes over one immutable Store snapshot.

All I/O runs in thread workers that post dataclass messages (ui/messages.py);
every change goes through an engine operation in `run_op`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Header, TabbedContent, TabPane

from memtui.engine.outline import store_outline
from memtui.engine.queue import queues
from memtui.engine.store import Store, open_store
from memtui.engine.timeline import timelines
from memtui.i18n import N_, _, tr
from memtui.sanitize import printable
from memtui.ui import live
from memtui.ui.heap import Heap
from memtui.ui.messages import (
    ApproveItems,
    Ask,
    ChangeEntries,
    Confirm,
    EditEntry,
    OpDone,
    OpenFile,
    OpFailed,
    OpProgress,
    RejectItems,
    RunOp,
    Say,
    ShowHistory,
    StoreChanged,
    StoreFailed,
    StoreLoaded,
)
from memtui.ui.panes import Pane
from memtui.ui.panes.registry import PANES as PANE_SPECS
from memtui.ui.said import error_text
from memtui.ui.skipped_layouts import say_skipped_layouts
from memtui.ui.widgets.footer import Footer

if TYPE_CHECKING:
    from memtui.ui.widgets.working import Working

# (key, title) of the tabs, after the index (ui.panes.registry.PANES: the one list)
PANES = tuple((spec.key, spec.title) for spec in PANE_SPECS[1:])


def styles_path() -> Path:
    """The wheel ships styles/ as memtui/styles; a source checkout has it at the top."""
    here = Path(__file__).resolve().parent.parent
    shipped = here / "styles" / "memtui.tcss"
    return shipped if shipped.exists() else here.parent / "styles" / "memtui.tcss"


PANE_KEYS = Binding.Group(N_("Panes"), compact=True)
SLOW_OP = 1.0  # seconds before a running change that reported nothing says it works


class MemtuiApp(App[None]):
    CSS_PATH = styles_path()
    TITLE = "memtui"
    BINDINGS = [
        *[  # 1 the index, 2-6 the tabs: one "123456 Panes" in the Footer, so ? and q fit
            Binding(
                str(n),
                f"show_pane('{key}')",
                title,
                id=f"pane.{key}",
                group=PANE_KEYS,
                tooltip=tip,  # the palette's title for it (ui.commands)
            )
            for n, (key, title, tip) in enumerate(((s.key, s.title, s.tip) for s in PANE_SPECS), 1)
        ],
        # English at import (N_): the Footer and the help page translate what they draw
        Binding("slash", "search", N_("Search"), id="search"),
        Binding("c", "context", N_("Context"), id="context", show=False),
        Binding("z", "undo", N_("Undo"), id="undo", show=False),
        Binding("question_mark", "help", N_("Help"), id="help"),
        Binding("ctrl+r", "reload", N_("Reload"), id="reload", show=False),
        Binding(
            "ctrl+x",
            "stop_changes",
            N_("Stop"),
            id="stop",
            tooltip=N_("Stop the running bulk change after its current chunk (z undoes the rest)"),
        ),
        Binding("q", "quit", N_("Quit"), id="quit"),
    ]

    def __init__(self, root: str, *, read_only: bool = False, watch: bool = True) -> None:
        super().__init__()
        self.root = root
        self._read_only = read_only
        self.watch_files = watch
        self.store: Store | None = None
        self._changes_running = 0  # changes in progress (a quit waits for them)
        self._stop = threading.Event()  # ^x: the running bulk changes end after a chunk
        self._reload_after_changes = False  # the files changed while a change of ours ran
        self._loading = self._load_due = False  # a load runs / another is wanted after it
        self._top: list[str] = []  # the snapshot's files at the root (the poller's)
        self._slow: dict[str, Timer] = {}  # their "still working" timers, by label
        self._quit_when_done = False
        self._absent: set[str] = set()  # panes this store has nothing for (no tab)
        self.load_seconds: float | None = None
        self._shown_root: str | None = None  # the root of the snapshot the panes show
        self.visited: dict[str, None] = {}  # the roots shown, in order (the store list's)
        self._heap = Heap()  # each snapshot frozen out of the collector's walk

    @property
    def read_only(self) -> bool:
        return self._read_only

    @read_only.setter
    def read_only(self, value: bool) -> None:
        """Passed down: a pane never asks the app whether it may change files."""
        self._read_only = value
        if self.is_running:
            for pane in self.query(Pane):
                pane.read_only = value

    # --- layout --------------------------------------------------------------

    def compose(self) -> ComposeResult:
        from memtui.ui.panes.registry import make_pane

        yield Header()
        with Horizontal(id="body"):
            yield make_pane("index")
            with TabbedContent(id="panes"):
                for key, title in PANES:
                    with TabPane(_(title), id=f"tab-{key}"):
                        yield make_pane(key)
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = _("loading…")
        self.read_only = self._read_only  # passed down to the panes, now composed

    def on_ready(self) -> None:
        """The first frame is on the screen: now load. A worker parsing a large store
        holds the GIL most of the time, and would slow the first paint by as much as
        the store is larger."""
        # the index first at any size: narrow (80x24), it is the page shown, with the focus
        self._lay_out(index_shown=True)
        index = self.query("#pane-index")
        if index and self.size.width < self.NARROW:
            index.first().focus()
        if not self.root:  # no store to open: the machine's stores to pick from (SPEC §3b)
            from memtui.ui.screens.stores import StoresScreen

            self.push_screen(StoresScreen(first=True))
            return
        self.load_store()
        if self.watch_files:
            self.watch_store()

    # --- loading and live refresh -------------------------------------------

    def load_store(self) -> None:
        """Read the store again, in a worker. While one load runs, another is only noted
        and starts when it ends: a load is never cut off (an agent writing every second
        could otherwise keep a slow first load from ever finishing), and what changed
        during it is read by the next."""
        if not self._changes_running:
            self._reload_after_changes = False  # this load reads what they changed
        if self._loading:
            self._load_due = True
            return
        self._loading, self._load_due = True, False
        self._load()

    def _load_done(self) -> None:
        self._loading = False
        if self._load_due:
            self.load_store()

    @work(thread=True, group="load")
    def _load(self) -> None:
        start = time.perf_counter()
        try:
            if not self.read_only:
                self._settle_interrupted()
            with self._heap.loading():
                # What did not change since the last snapshot is taken from it, not parsed again.
                store = open_store(self.root, previous=self.store, reopen=True)
                store_outline(store)  # made here, in the worker: the UI thread only draws
                timelines(store)
                queues(store)
        except Exception as exc:  # shown, never a traceback
            self.post_message(
                StoreFailed(
                    _("cannot open {root}: {why}").format(root=self.root, why=error_text(exc))
                )
            )
            return
        self.post_message(StoreLoaded(store, time.perf_counter() - start))

    def _settle_interrupted(self) -> None:
        """Finish or undo a change a crash interrupted (SPEC §0), before showing anything;
        say what that did. If it cannot be settled, the store is still shown."""
        from memtui.engine.errors import MemtuiError
        from memtui.engine.write.transaction import settle_interrupted

        try:
            notes = settle_interrupted(self.root)
        except MemtuiError as exc:
            self.call_from_thread(self.say, error_text(exc), severity="error")
            return
        for note in notes:
            self.call_from_thread(self.say, tr(note), title=_("settled an interrupted change"))

    @work(thread=True, exclusive=True, group="watch")
    def watch_store(self) -> None:
        from textual.worker import get_current_worker

        live.watch(
            self.root,
            lambda: (self._known_files(), self._top_files()),
            lambda paths: self.post_message(StoreChanged(paths)),
            live.Cancelled(get_current_worker()),
            self._keeps,
        )

    def _keeps(self) -> Callable[[str], bool]:
        from memtui.engine.home import keeps

        store = self.store
        return keeps(store) if store else (lambda rel: True)

    def _known_files(self) -> tuple[str, ...]:
        store = self.store
        return store.files if store else ()

    def _top_files(self) -> list[str]:
        return self._top  # worked out once a snapshot, not on every poll

    def on_store_loaded(self, message: StoreLoaded) -> None:
        if not self.is_running:  # quitting: the panes are being taken down, children first
            return
        if self._shown_root not in (None, message.store.root):  # another store (palette)
            for pane in self.query(Pane):
                pane.forget()
        self._shown_root = message.store.root
        self.visited[message.store.root] = None
        self.store = message.store
        self._top = [f for f in message.store.files if "/" not in f]
        self.load_seconds = message.seconds
        for pane in self.query(Pane):
            pane.show_store(message.store)
        for screen in self.screen_stack[1:]:  # a history or other screen over the panes
            show = getattr(screen, "show_store", None)
            if callable(show):
                show(message.store)
        self._badge(message.store)
        self._show_tabs(message.store)
        say_skipped_layouts(self.say)
        self._load_done()  # after self.store is this snapshot: the next load builds on it

    def on_unmount(self) -> None:
        self._heap.release()

    def on_store_failed(self, message: StoreFailed) -> None:
        self._load_done()
        self.sub_title = _("cannot open the store")
        say_skipped_layouts(self.say)  # before the error: a skipped layout may be why
        self.say(message.reason, severity="error")

    def on_store_changed(self, message: StoreChanged) -> None:
        """The files changed (the agent, or a change of ours landing chunk by chunk): read
        again, but not while a change of ours runs, whose every chunk would start a reload
        of the whole store beside it; once the last one ends, what changed is read."""
        if self._changes_running:
            self._reload_after_changes = True
            return
        self.load_store()

    def _badge(self, store: Store) -> None:
        from memtui.engine.words import level_counts

        said = [tr(s) for level, _n, s in level_counts(store) if level in ("error", "warning")]
        mode = [_("read-only")] if self.read_only else []
        self.sub_title = " · ".join([store.root, *said, *mode])

    # --- actions -------------------------------------------------------------

    def say(self, text: str, *, severity: Any = "information", title: str = "") -> None:
        """notify() with store text shown literally (no markup, no escapes)."""
        self.notify(printable(text), title=printable(title), severity=severity, markup=False)

    def run_op(
        self, label: str, fn: Callable[[], Any], apply: Callable[[], None] | None = None
    ) -> None:
        """Run one engine operation in a worker; it writes, the UI only reports. A dry
        run's report is shown with `apply` as the key to go ahead."""
        if self.read_only and apply is None:
            self.say(
                _("{label}: the store is open read-only").format(label=label), severity="warning"
            )
            return
        if not self._changes_running:
            self._stop.clear()
        self._changes_running += 1
        self.refresh_bindings()  # ^x Stop shows while a change runs
        earlier = self._slow.pop(label, None)
        if earlier is not None:
            earlier.stop()
        self._slow[label] = self.set_timer(SLOW_OP, lambda: self._still_working(label))
        self._op(label, fn, apply)

    def _still_working(self, label: str) -> None:
        """A line saying it works; a lock wait only when the engine reports one."""
        working = self._working()
        if working is not None:
            working.report(label, None)

    def on_op_progress(self, message: OpProgress) -> None:
        """The engine's progress and lock waits, on the change's line (ui/widgets/working);
        a wait still on a moment later is said too (memtui's own reload holds the lock
        for a moment now and then)."""
        from memtui.ui.widgets.working import SHOWN_AFTER

        label = message.label
        working = self._working()
        if working is not None and working.report(label, message.progress):
            self.set_timer(SHOWN_AFTER, lambda: self._still_waiting(label))

    def _still_waiting(self, label: str) -> None:
        from memtui.ui.widgets.working import waiting_said

        working = self._working()
        lock = working.still_waiting(label) if working is not None else None
        if lock is not None:
            self.say(waiting_said(label, lock), title=_("Working…"))

    def _working(self, make: bool = True) -> Working | None:
        """The running changes' lines, below the panes whatever the screen composes
        (made on first use: most sessions never need them)."""
        from memtui.ui.widgets.working import Working

        if not self.screen_stack:
            return None  # the app is ending
        base = self.screen_stack[0]
        found = base.query(Working)
        if found or not make:
            return found.first() if found else None
        working = Working()
        base.mount(working)
        return working

    def _op_finished(self, label: str) -> None:
        self._changes_running -= 1
        self.refresh_bindings()
        if not self._changes_running:
            self.call_later(self._reload_if_due)  # unless the op's own end reloads first
        timer = self._slow.pop(label, None)
        if timer is not None:
            timer.stop()
        working = self._working(make=False)
        if working is not None:
            working.finished(label)
        if self._quit_when_done and self._changes_running <= 0:
            self.call_after_refresh(self.exit)  # after the toast saying how it went

    def _reload_if_due(self) -> None:
        """The files changed while changes of ours ran: read them now they have ended."""
        if self._reload_after_changes and not self._changes_running:
            self.load_store()

    @work(thread=True, group="op")
    def _op(self, label: str, fn: Callable[[], Any], apply: Callable[[], None] | None) -> None:
        from memtui.engine.entries import EntryNotFound
        from memtui.engine.errors import MemtuiError
        from memtui.engine.write.errors import plain
        from memtui.engine.write.journal import JournalStuck
        from memtui.engine.write.lock import LockTimeout
        from memtui.engine.write.operation import operation
        from memtui.engine.write.progress import Progress, reporting
        from memtui.engine.write.transaction import WriteError

        def report(progress: Progress) -> None:
            self.post_message(OpProgress(label, progress))

        try:
            # one action, one operation for undo (SPEC §3d); its progress and lock waits
            with operation(), reporting(report, stop=self._stop.is_set):
                result = fn()
        except (MemtuiError, WriteError, LockTimeout, JournalStuck, EntryNotFound) as exc:
            recorded = getattr(exc, "receipt", None) is not None  # e.g. a conflict marked
            self.post_message(OpFailed(label, error_text(exc), recorded))
            return
        except OSError as exc:  # the disk, not memtui: say which file and what
            self.post_message(OpFailed(label, f"{exc.filename or ''}: {plain(exc)}"))
            return
        except Exception as exc:
            self.post_message(OpFailed(label, _("internal error: {error}").format(error=repr(exc))))
            return
        receipts = result if isinstance(result, list) else [result]
        self.post_message(OpDone(label, [r for r in receipts if r is not None], apply))

    def on_op_done(self, message: OpDone) -> None:
        self._op_finished(message.label)
        if message.receipts and all(r.dry_run for r in message.receipts):
            from memtui.ui.screens.report import DryRunScreen

            apply = None if self.read_only else message.apply  # read-only: the report alone
            self.push_screen(DryRunScreen(message.label, message.receipts, apply))
            return
        changes = [c for r in message.receipts for c in r.changes]
        stopped = next(
            (r.details["stopped"] for r in message.receipts if "stopped" in r.details), None
        )
        if stopped:
            self.say(
                _(
                    "{label}: stopped after {done}; the other {left} are untouched "
                    "(z takes back the {done})"
                ).format(
                    label=message.label, done=f"{stopped['done']:,}", left=f"{stopped['left']:,}"
                ),
                title=_("Stopped"),
            )
        elif changes:
            said = [_change_said(c) for c in changes[:4]] + ["…"] * (len(changes) > 4)
            self.say(
                _("{label}: {changes}; read back and verified").format(
                    label=message.label, changes=", ".join(said)
                ),
                title=_("Saved"),
            )
        else:
            self.say(_("{label}: nothing to change").format(label=message.label))
        self.load_store()

    def on_op_failed(self, message: OpFailed) -> None:
        self._op_finished(message.label)
        if message.recorded:  # the reason says what it wrote; show the store as it is now
            self.say(
                message.reason,
                severity="error",
                title=_("{label}: refused").format(label=message.label),
            )
            self.load_store()
            return
        self.say(
            message.reason,
            severity="error",
            title=_("{label}: nothing changed").format(label=message.label),
        )

    NARROW = 100  # below this many columns the index is a full-width page, not a sidebar

    # A pane's wish (ui.messages): the shell runs it.

    def on_open_file(self, message: OpenFile) -> None:
        self.open_file(message.rel, message.line)

    def on_edit_entry(self, message: EditEntry) -> None:
        self.edit_entry(message.entry_id, message.line)

    def on_show_history(self, message: ShowHistory) -> None:
        self.show_history(message.rel)

    def on_run_op(self, message: RunOp) -> None:
        label, fn, apply = message.label, message.fn, message.apply
        if message.confirm is None:
            self.run_op(label, fn, apply)
        else:
            self.confirm(message.confirm, lambda: self.run_op(label, fn, apply))

    def on_change_entries(self, message: ChangeEntries) -> None:
        from memtui.engine import ops

        call = {"archive": ops.archive, "restore": ops.restore, "mark": ops.mark}[message.verb]
        root, entries, options = self.root, message.entries, dict(message.options)

        def change() -> Any:
            if len(entries) == 1:
                entry, shown = entries[0]
                return call(root, entry, expect=shown, **options)
            from memtui.engine.write.progress import each

            # several: shown done/total, and ^x stops between two, as a bulk accept
            return each(entries, lambda e: call(root, e[0], expect=e[1], **options))

        self.on_run_op(RunOp(message.label, change, message.confirm))

    def on_approve_items(self, message: ApproveItems) -> None:
        from memtui.ui import approving

        approving.approve(self, message)

    def on_reject_items(self, message: RejectItems) -> None:
        from memtui.ui import approving

        approving.reject(self, message)

    def on_say(self, message: Say) -> None:
        self.say(message.text, severity=message.severity, title=message.title)

    def on_confirm(self, message: Confirm) -> None:
        self.confirm(message.question, message.then)

    def on_ask(self, message: Ask) -> None:
        self.push_screen(message.screen, message.then)

    def on_resize(self, event: events.Resize) -> None:
        index = self.query("#pane-index")
        shown = bool(index) and index.first().has_class("-overlay")
        self._lay_out(index_shown=shown, width=event.size.width)  # self.size is the old one

    def _lay_out(self, index_shown: bool, width: int | None = None) -> None:
        """Wide: the index beside the tabs. Narrow (80x24): one or the other, by `1`."""
        found_index, found_tabs = self.query("#pane-index"), self.query("#panes")
        if not found_index or not found_tabs:
            return  # a partial layout (tests compose single panes)
        narrow = (self.size.width if width is None else width) < self.NARROW
        index, tabs = found_index.first(), found_tabs.first()
        index.set_class(narrow and index_shown, "-overlay")
        index.display = not narrow or index_shown
        tabs.display = not (narrow and index_shown)
        for footer in self.query(Footer):  # narrow: every key fits (^p still opens the palette)
            footer.compact = narrow
            footer.show_command_palette = not narrow
        if not index.display and index.has_focus_within:  # keys must not act unseen
            active = self.query_one(TabbedContent).active_pane
            if active is not None:
                active.query(Pane).first().focus()

    def _show_tabs(self, store: Store) -> None:
        """Tabs only for panes the store has (no layout with a timeline: no Events)."""
        from memtui.ui.panes.registry import absent

        found = self.query("#panes")
        if not found:
            return  # a partial layout (tests compose single panes)
        tabs = found.first(TabbedContent)
        idle = {
            (p.id or "").removeprefix("pane-") for p in tabs.query(Pane) if not p.has_work(store)
        }
        self._absent = absent(store) | idle  # e.g. Pending where nothing is queued
        for pane in tabs.query(TabPane):  # those composed (tests compose a few)
            key = (pane.id or "").removeprefix("tab-")
            (tabs.hide_tab if key in self._absent else tabs.show_tab)(f"tab-{key}")
        if tabs.active.removeprefix("tab-") in self._absent:
            tabs.active = "tab-file"
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop_changes":  # shown only while a change runs
            return self._changes_running > 0
        # a pane this store has nothing for: its key is not shown (the Footer, the palette)
        return not (action == "show_pane" and parameters and parameters[0] in self._absent)

    def action_show_pane(self, key: str) -> None:
        if key != "index":  # first: a narrow layout moves the focus to the active tab
            self.query_one(TabbedContent).active = f"tab-{key}"
        self._lay_out(index_shown=key == "index")
        self.query_one(f"#pane-{key}").focus()

    def action_command(self, command_id: str) -> None:
        """A command a layout declares (engine.commands): its questions in turn
        (ui/adding.py), then its one change."""
        from memtui.ui import adding

        self.run_worker(adding.run_command(self, command_id), group="add", exclusive=True)

    def confirm(self, question: str, then: Callable[[], None]) -> None:
        """Ask first (destructive actions); run `then` on yes."""
        from memtui.ui.editing import ask

        ask(self, question, then)

    def action_stop_changes(self) -> None:
        """End the running bulk changes after their current chunk: what is done stays
        done, as one operation `z` takes back; the rest is left untouched."""
        if self._changes_running and not self._stop.is_set():
            self._stop.set()
            self.say(_("stopping after the current chunk…"), title=_("Stop"))

    async def action_quit(self) -> None:
        """Quit; a change still running (waiting for the agent's lock?) is said, and the
        app quits as soon as it has landed or failed: it is never cut off mid-way."""
        leaving = getattr(self.screen, "confirm_leave", None)  # the editor's unsaved text
        if callable(leaving) and leaving(self.exit):
            return
        if self._changes_running > 0:
            self._quit_when_done = True
            self.say(_("quitting once the change in progress has finished"), title=_("Quit"))
            return
        self.exit()

    # Keys that change files; read-only hides them, so say why when one is pressed.
    CHANGING_KEYS = {
        "a": N_("accept"),
        "r": N_("reject"),
        "e": N_("edit"),
        "x": N_("archive"),
        "d": N_("done"),
        "f": N_("fix"),
    }

    def on_key(self, event: events.Key) -> None:
        what = self.CHANGING_KEYS.get(event.key)
        if what and self.read_only and self.screen is self.screen_stack[0]:
            self.say(
                _("{what}: the store is open read-only (--read-only); nothing changes").format(
                    what=_(what)
                )
            )

    def action_undo(self) -> None:
        """Undo the last operation, after a confirm listing its files (ui/undoing.py)."""
        from memtui.ui.undoing import undo_last

        undo_last(self)

    def action_reload(self) -> None:
        self.load_store()

    def action_help(self) -> None:
        from memtui.ui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def open_store(self, path: str) -> None:
        """Show another store in this app (one the palette found beside this one)."""
        self.root = os.path.realpath(path)
        self.store = None  # nothing of the old snapshot is reused for another root
        self._top = []
        self.load_store()
        if self.watch_files:
            self.watch_store()  # exclusive: the old root's watcher stops

    def action_context(self) -> None:
        """What each layout's agent loads at session start, the cut marked (SPEC §3c)."""
        from memtui.ui.screens.context import ContextScreen

        if self.store is not None:
            self.push_screen(ContextScreen(self.store))

    def action_search(self) -> None:
        from memtui.ui.screens.search import SearchScreen

        self.push_screen(SearchScreen(self.root))

    def edit_entry(self, entry_id: str, line: int | None = None) -> None:
        """Open the in-app editor on an entry (the panes call this for `e`), at the
        file's `line` when the pane knows which line the user was on."""
        from memtui.ui import editing

        editing.edit_entry(self, entry_id, line)

    def show_history(self, rel: str) -> None:
        """A file's snapshots, diffs and rollback (`h`)."""
        from memtui.ui import editing

        editing.show_history(self, rel)

    def open_file(self, rel: str, line: int | None = None) -> None:
        """Show a file in the File pane, at a line (1-based)."""
        if not self.query("#pane-file"):
            return  # a partial layout (tests compose single panes)
        from memtui.ui.panes.viewer import FilePane

        self.action_show_pane("file")
        self.query_one("#pane-file", FilePane).open(rel, line)

    def action_command_palette(self) -> None:
        """Textual's palette, its prompt in the reader's language."""
        from textual.command import CommandPalette

        if self.use_command_palette and not CommandPalette.is_open(self):
            palette = CommandPalette(placeholder=_("Search for commands…"), id="--command-palette")
            self.push_screen(palette)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        from memtui.ui.commands import commands, translated

        yield from translated(super().get_system_commands(screen))
        yield from commands(self)


def _change_said(change: Any) -> str:
    if change.action == "remove":
        return _("removed {path}").format(path=change.path)
    if change.action == "move":
        return _("moved {source} → {path}").format(source=change.source, path=change.path)
    return _("wrote {path}").format(path=change.path)
