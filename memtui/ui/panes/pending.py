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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
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

from memtui.engine.model import Candidate
from memtui.engine.ops.dsh import accept_blocked_by
from memtui.engine.store import Store
from memtui.sanitize import one_line
from memtui.ui.editing import ask
from memtui.ui.panes import Pane
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
BROKEN_CODES = ("pending-bad-frontmatter", "path-escape", "unreadable")
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")
# Files the preview shows first: what the user reads; the bookkeeping after.
_FIRST = ("facts.md", "sops/")


PreviewKey = tuple[str, str, int]  # (candidate file(s), their digest(s), snapshot number)
PREVIEW_STEPS = (20, 30, 40, 50, 60, 70, 80)  # the preview's share of the pane, in %


@dataclass(frozen=True, slots=True)
class Section:
    """One file a dry run would touch: its diff (writes), or where it moves."""

    action: str  # write | move | remove
    path: str
    source: str | None
    diff: str


@dataclass(frozen=True, slots=True)
class DryRun:
    summary: str
    sections: tuple[Section, ...]
    error: str | None  # the refusal or conflict; None when it would be accepted


def acceptable(cand: Candidate) -> bool:
    return cand.valid and bool(cand.evidence and cand.evidence.strip())


def dry_run(root: str, rel: str | list[str], expected: Mapping[str, str]) -> DryRun:
    """What accepting one candidate, or several at once, would change now (runs in a
    thread; writes nothing)."""
    from memtui.engine.diff import unified
    from memtui.engine.ops import dsh
    from memtui.engine.write.transaction import WriteError

    try:
        files = [rel] if isinstance(rel, str) else rel
        receipts = dsh.accept(root, files, dry_run=True, expected=dict(expected))
    except WriteError as exc:  # a refusal (no evidence, …) or a conflict
        return DryRun("", (), str(exc))
    except Exception as exc:  # shown in the preview, never a traceback
        return DryRun("", (), f"internal error: {exc!r}")
    sections: list[Section] = []
    summaries: list[str] = []
    for receipt in receipts:
        summary = receipt.details.get("summary")
        if isinstance(summary, str):
            summaries.append(summary)
        for change in receipt.changes:
            diff = ""
            if change.action == "write":
                diff = unified(_decode(change.old), _decode(change.new), change.path)
            sections.append(Section(change.action, change.path, change.source, diff))
    sections.sort(key=lambda s: (s.action != "write", not s.path.startswith(_FIRST)))
    return DryRun("; ".join(summaries), tuple(sections), None)


def _decode(data: bytes | None) -> str:
    if not data:
        return ""
    return data.decode("utf-8", errors="replace").removeprefix("\ufeff")


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
        """A bulk accept took some candidates and refused others (from the op's thread)."""

        refused: list[dict[str, Any]]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self.candidates: tuple[Candidate, ...] = ()
        self.positions: dict[str, int] = {}  # candidate file -> row
        self.problems: dict[str, str] = {}  # candidate file -> why it is broken
        self.selected: set[str] = set()  # candidate files, kept across snapshots
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
        old = self.candidates
        old_cursor = self.rows.cursor if old else 0
        dsh = store.dsh
        self.candidates = cands = dsh.candidates if dsh else ()
        self.positions = {c.file: i for i, c in enumerate(cands)}
        self.selected &= self.positions.keys()
        self.problems = self._broken(store, cands)
        self.blocked = accept_blocked_by(store)
        self._generation += 1
        self._results.clear()
        self.preview_key = None
        self.widths = (
            _widest((_cells(c.id) for c in cands), ID_MAX),
            _widest((_kind_width(c) for c in cands), TARGET_MAX),
        )
        rows = self.rows
        rows.set_rows(len(cands), self.render_row)
        rows.selected = {self.positions[f] for f in self.selected}
        cursor = self._follow(old, old_cursor)
        if cursor != rows.cursor:
            rows.cursor = cursor
        self._header()
        self._schedule()

    def _follow(self, old: tuple[Candidate, ...], old_cursor: int) -> int:
        """The row of the candidate the cursor was on, or of the next one still here."""
        if not self.candidates:
            return 0
        positions = self.positions
        if old and 0 <= old_cursor < len(old):
            for cand in old[old_cursor:]:
                if cand.file in positions:
                    return positions[cand.file]
            for cand in reversed(old[:old_cursor]):
                if cand.file in positions:
                    return positions[cand.file]
        return min(old_cursor, len(self.candidates) - 1)

    @staticmethod
    def _broken(store: Store, cands: Iterable[Candidate]) -> dict[str, str]:
        problems: dict[str, str] = {}
        broken = {c.file for c in cands if not c.valid}
        if not broken:
            return problems
        for finding in store.findings:
            if finding.file in broken and finding.code in BROKEN_CODES:
                problems.setdefault(finding.file, finding.message)
        for rel in broken:
            if rel in store.unreadable:
                problems.setdefault(rel, store.unreadable[rel])
            problems.setdefault(rel, "its front matter is broken")
        return problems

    @property
    def current(self) -> Candidate | None:
        cursor = self.rows.cursor
        return self.candidates[cursor] if 0 <= cursor < len(self.candidates) else None

    # --- drawing -----------------------------------------------------------------

    def _style(self, name: str) -> Style:
        return self.style_of(f"pending--{name}")

    def render_row(self, index: int) -> Text:
        if not 0 <= index < len(self.candidates):
            return Text("")
        cand = self.candidates[index]
        id_w, target_w = self.widths
        mark = "✓ " if cand.file in self.selected else "  "
        text = Text(mark, no_wrap=True, end="")
        text.append_text(_cell(row(cand.id), id_w, self._style("id")))
        text.append_text(_cell(_kind(cand), target_w))
        width = self.rows.scrollable_content_region.width
        evidence_w = max(EVIDENCE_MIN, width - text.cell_len - CREATED_W - 1)
        text.append_text(_cell(self._evidence(cand, short=True), evidence_w))
        text.append_text(_cell(row(_when(cand.created_at)), CREATED_W, self._style("muted")))
        return text

    def _evidence(self, cand: Candidate, *, short: bool = False) -> Text:
        if not cand.valid:
            problem = self.problems.get(cand.file, "broken")
            text = row(f"✗ broken: {problem}") if short else literal(f"broken: {problem}")
            text.style = self._style("broken")
            return text
        if not (cand.evidence and cand.evidence.strip()):
            return Text("no evidence — cannot be accepted", style=self._style("refused"))
        return row(cand.evidence) if short else literal(cand.evidence)

    def _header(self) -> None:
        text = Text(no_wrap=True, end="")
        store = self.store
        if store is not None and store.dsh is None:
            text.append("No dsh layout in this store (index.txt with pending/).", style="italic")
        elif store is not None:
            blocked = self.blocked
            if blocked:  # first: every accept writes it, none goes through until fixed
                note = row(f"no accept until {blocked} parses · ")
                note.style = self._style("refused")
                text.append_text(note)
            cands = self.candidates
            refused = sum(1 for c in cands if not acceptable(c))
            text.append(f"{len(cands)} pending · ")
            text.append(f"{len(self.selected)} selected", style="bold" if self.selected else "")
            text.append(" · ")
            text.append(
                f"{refused} cannot be accepted", style=self._style("refused") if refused else ""
            )
        self.header_text = text
        self.query_one("#pending-header", Static).update(text)

    # --- the preview -------------------------------------------------------------

    def on_rows_highlighted(self, message: Rows.Highlighted) -> None:
        message.stop()
        self._schedule()

    def on_rows_chosen(self, message: Rows.Chosen) -> None:
        message.stop()
        cand = self.current
        app: Any = self.app
        if cand is not None and app.query("#pane-file"):
            app.open_file(cand.file, 1)

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
        chosen = [c for c in self._targets() if acceptable(c)] if self.selected else []
        if store is not None and chosen:
            self._preview_selection(store, chosen)
            return
        if cand is None or store is None:
            self.preview_key = None
            self._draw(None, Text("Nothing pending." if store is not None else "", style="italic"))
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
        text.append(f"{len(chosen)} selected", style="bold")
        left = len(self.selected) - len(chosen)
        if left:
            text.append(f" (and {left} that cannot be accepted)", style=self._style("refused"))
        text.append("\n")
        for cand in chosen[:BODY_LINES]:
            text.append_text(literal(f"  pending:{cand.id}  "))
            text.append_text(_kind(cand))
            text.append("\n")
        if len(chosen) > BODY_LINES:
            text.append(f"  … {len(chosen) - BODY_LINES} more\n", style=self._style("muted"))
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

    def on_pending_pane_preview_ready(self, message: PendingPane.PreviewReady) -> None:
        message.stop()
        if len(self._results) >= CACHE:
            self._results.clear()
        self._results[message.key] = message.result
        cand, store = self.current, self.store
        if message.key != self.preview_key:
            return
        chosen = [c for c in self._targets() if acceptable(c)] if self.selected else []
        if chosen:
            shown = f"selection:{message.key[0]}"
            self._draw(shown, self._selection_detail(chosen), self._diff(message.result))
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
        text.append_text(literal(f"pending:{cand.id}", style="bold"))
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
            text.append(f"  … {len(lines) - BODY_LINES} more lines\n", style=muted)
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
            parts.append(f"supersedes {len(chain)} version(s)")
        return literal(" · ".join(parts))

    def _diff(self, result: DryRun) -> Text:
        text = Text(end="")
        if result.error is not None:
            text.append_text(literal(f"nothing: accepting is refused — {result.error}"))
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
                text.append_text(literal(f"{section.path}: {len(lines)} diff lines not shown\n"))
                continue
            text.append("\n")
            for line in lines[: DIFF_LINES - shown]:
                if line.startswith(("--- ", "+++ ")):
                    style = self._style("heading")
                else:
                    style = styles.get(line[:1], Style())
                text.append_text(_styled(_clip(line) + "\n", style))
            if len(lines) > DIFF_LINES - shown:
                text.append(f"… {len(lines) - DIFF_LINES + shown} more lines\n")
            shown += len(lines)
        return text

    # --- selection ---------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        app: Any = self.app
        if action in MUTATING and getattr(app, "read_only", False):
            return False
        return not (action == "edit" and not hasattr(app, "edit_entry"))

    def action_toggle_select(self) -> None:
        cand = self.current
        if cand is None:
            return
        rows = self.rows
        self.selected ^= {cand.file}
        rows.toggle_selected(rows.cursor)
        rows.action_move(1)
        self._header()
        self._schedule()

    def action_select_all(self) -> None:
        wanted = {c.file for c in self.candidates if acceptable(c)}
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

    # --- changing the store -------------------------------------------------------

    def action_accept(self) -> None:
        app: Any = self.app
        store, targets = self.store, self._targets()
        if store is None or not targets:
            app.say("nothing to accept", severity="warning")
            return
        ok = [c for c in targets if acceptable(c)]
        refused = [c for c in targets if not acceptable(c)]
        if refused:
            names = ", ".join(c.id for c in refused[:5]) + (" …" if len(refused) > 5 else "")
            why = (
                "no evidence (No Execution, No Memory)"
                if all(c.valid for c in refused)
                else "no evidence or broken front matter"
            )
            app.say(
                f"cannot accept {len(refused)} candidate(s): {names} — {why}",
                severity="error",
                title="Refused",
            )
        if not ok:
            return
        root, files = store.root, [c.file for c in ok]
        post = self.post_message

        def run() -> Any:
            from memtui.engine.ops import dsh

            receipts = dsh.accept(root, files, expected=_expected(store, files))
            left = [r for rc in receipts for r in rc.details.get("refused", ())]
            if left:
                post(PendingPane.EngineRefused(left))
            return receipts

        if len(ok) == 1:
            app.run_op(f"accept {_count(ok)}", run)
            return
        ask(  # many at once: asked once, with the count (z undoes them together)
            app,
            f"Accept {len(ok)} candidates into memory? They move to archive/pending/ and "
            "their facts and sops are written, as one operation that z undoes.",
            lambda: app.run_op(f"accept {_count(ok)}", run),
        )

    def on_pending_pane_engine_refused(self, message: PendingPane.EngineRefused) -> None:
        message.stop()
        shown = "; ".join(f"{r.get('id')}: {r.get('reason')}" for r in message.refused[:5])
        more = " …" if len(message.refused) > 5 else ""
        app: Any = self.app
        app.say(f"not accepted: {shown}{more}", severity="warning", title="Refused")

    def action_reject(self) -> None:
        app: Any = self.app
        if getattr(app, "read_only", False):
            app.say("reject: the store is open read-only", severity="warning")
            return
        store, targets = self.store, self._targets()
        if store is None or not targets:
            app.say("nothing to reject", severity="warning")
            return
        from memtui.ui.screens.prompt import PromptScreen

        root, files = store.root, [c.file for c in targets]
        what = targets[0].id if len(targets) == 1 else f"{len(targets)} candidates"

        def answered(reason: str | None) -> None:
            if not reason:
                return
            from memtui.engine.ops import dsh

            app.run_op(
                f"reject {_count(targets)}",
                lambda: dsh.reject(root, files, reason, expected=_expected(store, files)),
            )

        app.push_screen(
            PromptScreen(
                f"Reject {what}? It moves to archive/rejected/ with the reason in its "
                "front matter. Why?",
                placeholder="the reason (required)",
                ok="Reject",
            ),
            answered,
        )

    def action_edit(self) -> None:
        app: Any = self.app
        cand = self.current
        if cand is None:
            return
        edit: Callable[[str], None] | None = getattr(app, "edit_entry", None)
        if edit is None:
            app.say("editing a candidate is not available in this build", severity="warning")
            return
        edit(f"pending:{cand.id}")


def _expected(store: Store, files: Iterable[str]) -> dict[str, str]:
    """sha256 of each candidate as the user saw it (the snapshot's bytes): accepting or
    rejecting a candidate the agent changed meanwhile is a conflict, not a surprise."""
    texts = store.texts
    return {rel: texts[rel].digest() for rel in files if rel in texts}


def _count(cands: list[Candidate]) -> str:
    return cands[0].id if len(cands) == 1 else f"{len(cands)} candidates"


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
    return line if len(line) <= LINE_MAX else f"{line[:LINE_MAX]} … ({len(line)} chars)"


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
