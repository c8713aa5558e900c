"""The File pane: one file of the snapshot, raw (numbered lines) or rendered Markdown.

Line numbers are the ones `memtui check` reports: 1-based, split on "\\n" only, so a
finding's `file:line` and this view always agree. Raw mode is a `Rows` list (only the
visible lines are drawn, so a 50,000-line facts.md opens at once); rendered mode is
Textual's Markdown, only for .md files under RENDER_MAX bytes and only from text that
went through `sanitize.printable` first.
"""

from __future__ import annotations

import contextlib
import os
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static

from memtui.engine.model import Finding
from memtui.engine.store import Store
from memtui.engine.textfile import TextFile, Unreadable, decode, read_bytes, split_lines
from memtui.i18n import N_, _, ngettext, tr
from memtui.sanitize import printable
from memtui.ui.messages import EditEntry, Say, ShowHistory
from memtui.ui.panes import Pane
from memtui.ui.safe import literal, row

# Re-exported: component_style lived here first, and is still imported from here.
from memtui.ui.style import component_style as component_style
from memtui.ui.style import size_text
from memtui.ui.widgets.rows import Rows

RENDER_MAX = 64 * 1024  # bytes: bigger files are shown raw only
LEVEL_RANK = {"error": 0, "warning": 1, "info": 2}


class FileRows(Rows):
    """Rows with the viewer's own styles (theme variables, looked up when drawn)."""

    DEFAULT_CSS = """
    FileRows > .file--lineno { color: $text-muted; }
    FileRows > .file--target { color: $accent; text-style: bold; }
    FileRows > .file--error { color: $error; }
    FileRows > .file--warning { color: $warning; }
    FileRows > .file--info { color: $text-muted; }
    FileRows > .file--note { color: $text-muted; text-style: italic; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *Rows.COMPONENT_CLASSES,
        "file--lineno",
        "file--target",
        "file--error",
        "file--warning",
        "file--info",
        "file--note",
    }

    def style_of(self, name: str) -> Style:
        return component_style(self, f"file--{name}")


class FilePane(Pane):
    """Pane 2: the file the index, a warning or a search hit pointed at."""

    DEFAULT_CSS = """
    FilePane { height: 1fr; }
    FilePane #file-header { height: 1; padding: 0 1; background: $boost; }
    FilePane #file-rendered { height: 1fr; display: none; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("m", "toggle_mode", N_("Raw/rendered"), id="file.mode"),
        Binding("h", "history", N_("History"), id="file.history"),
        Binding("e", "edit", N_("Edit"), id="file.edit"),
    ]
    COMMANDS: ClassVar[list[tuple[str, str, str]]] = [
        (
            N_("File: raw or rendered"),
            N_("Toggle numbered lines / rendered Markdown (m)"),
            "toggle_mode",
        ),
        (N_("File: history of this file"), N_("Its snapshots in .history (h)"), "history"),
        (
            N_("File: edit the entry at the cursor"),
            N_("Its event, section, topic or the file (e)"),
            "edit",
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self.rel: str | None = None
        self.target: int | None = None  # 1-based line asked for by open()
        self.rendered = False
        self.lines: list[str] = []
        self.text: str | None = None  # None: no file, or unreadable
        self.reason: str | None = None  # why the file can't be shown
        self.marks: dict[int, str] = {}  # 1-based line -> worst finding level
        self.file: TextFile | None = None  # what is shown
        self.loading = False  # a file the snapshot did not read is being read
        self._rendered_text: str | None = None
        self._side: tuple[Store, str, TextFile | Unreadable] | None = None
        self._goto_after_read: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="file-header")
        yield FileRows(self._render_row, id="file-rows")
        with VerticalScroll(id="file-rendered"):
            yield Markdown(open_links=False, id="file-md")

    def on_mount(self) -> None:
        self._show_header()

    @property
    def rows(self) -> FileRows:
        return self.query_one(FileRows)

    def focus(self, scroll_visible: bool = True) -> FilePane:
        target = self.query_one("#file-rendered") if self.rendered else self.rows
        target.focus(scroll_visible)
        return self

    # --- the snapshot --------------------------------------------------------------

    def show_store(self, store: Store) -> None:
        """A new snapshot: same file, same cursor line (an append keeps line numbers)."""
        self.store = store
        if self.rel is not None:
            self._load(keep_cursor=True)

    def forget(self) -> None:
        self.rel = self.target = self.text = self.file = self._side = None
        self.lines, self.marks = [], {}
        self.rows.set_rows(0, self._render_row, keep_cursor=False)
        self._show_header()

    def open(self, rel: str, line: int | None = None) -> None:
        """Show `rel`, its cursor at `line` (1-based; raw mode, so the line is visible)."""
        self.rel = rel
        self.target = line
        self._load(keep_cursor=False)
        if line is not None or not self._can_render():
            self._set_rendered(False)
        if self.loading:
            self._goto_after_read = (line or 1) - 1
        self._goto((line or 1) - 1)

    def _lookup(self) -> tuple[TextFile | None, str | None]:
        """The file's text from the snapshot, or why there is none (yet)."""
        store, rel = self.store, self.rel
        if store is None or rel is None:
            return None, _("the store is still loading")
        tf = store.texts.get(rel)
        if tf is not None:
            return tf, None
        if rel in store.unreadable and not store.unreadable[rel].startswith("not valid UTF-8"):
            return None, _("unreadable: {why}").format(why=tr(store.unreadable[rel]))
        if rel not in store.files:
            return None, _("not in the store (any more)")
        # A file the layouts did not need to parse (a topic, an archived file): the
        # snapshot holds no text for it, so it is read once per snapshot, off the UI thread.
        side = self._side
        if side is not None and side[0] is store and side[1] == rel:
            got = side[2]
            return (
                (None, _("unreadable: {why}").format(why=tr(got.reason)))
                if isinstance(got, Unreadable)
                else (got, None)
            )
        self.loading = True
        self._read_side(store, rel)
        return None, _("reading…")

    @work(thread=True, exclusive=True, group="file-read", exit_on_error=False)
    def _read_side(self, store: Store, rel: str) -> None:
        limit = store.config.thresholds.max_file_bytes
        raw = read_bytes(os.path.join(store.root, rel), limit)
        got = Unreadable(rel, raw) if isinstance(raw, str) else _shown(rel, raw)
        with contextlib.suppress(RuntimeError):  # the app closed meanwhile
            self.app.call_from_thread(self._side_read, store, rel, got)

    def _side_read(self, store: Store, rel: str, got: TextFile | Unreadable) -> None:
        if store is not self.store or rel != self.rel or not self.is_attached:
            return  # another file or a newer snapshot asked meanwhile
        self._side = (store, rel, got)
        self.loading = False
        self._load(keep_cursor=True)
        if self._goto_after_read is not None:
            self._goto(self._goto_after_read)
            self._goto_after_read = None

    def _load(self, keep_cursor: bool) -> None:
        self.loading = False
        tf, reason = self._lookup()
        self.file = tf
        if tf is not None:
            if tf.text != self.text:
                self.text = tf.text
                self.lines = split_lines(tf.text)
        else:
            self.text, self.lines = None, []
        self.reason = reason
        self.marks = {}
        for f in self._findings():
            if f.line and LEVEL_RANK.get(f.level, 3) < LEVEL_RANK.get(
                self.marks.get(f.line, ""), 3
            ):
                self.marks[f.line] = f.level
        count = len(self.lines) if self.text is not None else 1
        self.rows.set_rows(count, self._render_row, keep_cursor=keep_cursor)
        if self.rendered:
            if self._can_render():
                self._update_markdown()
            elif not self.loading:
                self._set_rendered(False)
        self._show_header()

    def _findings(self) -> list[Finding]:
        if self.store is None or self.rel is None:
            return []
        return [f for f in self.store.findings if f.file == self.rel]

    # --- drawing -------------------------------------------------------------------

    def _render_row(self, index: int) -> Text:
        rows = self.rows
        if self.text is None:
            return Text(printable(self.reason or ""), style=rows.style_of("note"), end="")
        width = len(str(max(1, len(self.lines))))
        number = index + 1
        level = self.marks.get(number)
        out = Text(end="", no_wrap=True)
        out.append("●" if level else " ", style=rows.style_of(level) if level else "")
        style = rows.style_of("target" if number == self.target else "lineno")
        out.append(f"{number:>{width}} │ ", style=style)
        line = self.lines[index]
        out.append_text(row(line[:-1] if line.endswith("\r") else line))
        return out

    def _show_header(self) -> None:
        header = self.query_one("#file-header", Static)
        if self.rel is None:
            header.update(literal(_("No file open: choose one in the index (1) or search (/)")))
            return
        parts = [self.rel]
        tf = self.file
        if tf is not None:
            lines = len(self.lines)
            parts += [
                size_text(tf.size),
                ngettext("{n} line", "{n} lines", lines).format(n=f"{lines:,}"),
            ]
            if self.store is not None and self.rel in self.store.unreadable:
                parts.append(_("not UTF-8: bad bytes shown as \\xNN, never written"))
        elif self.reason:
            parts.append(self.reason)
        found = self._findings()
        if found:
            parts.append(
                ngettext("{n} finding", "{n} findings", len(found)).format(n=f"{len(found):,}")
            )
        if tf is not None:
            parts.append(_("rendered") if self.rendered else _("raw"))
            if self.rel.endswith(".md") and tf.size >= RENDER_MAX:
                parts.append(_("raw only: too big to render"))
        if self.target is not None and not self.rendered:
            parts.append(_("line {n}").format(n=self.target))
        header.update(literal("  ·  ".join(parts)))

    def _goto(self, index: int) -> None:
        rows = self.rows
        if not rows.count:
            return
        index = max(0, min(index, rows.count - 1))
        rows.cursor = index
        rows.centre_on(index)  # now, or once the pane is laid out (a first open from search)

    # --- rendered Markdown ----------------------------------------------------------

    def _can_render(self) -> bool:
        tf, rel, store = self.file, self.rel, self.store
        if store is not None and rel in store.unreadable:
            return False  # shown raw only
        return tf is not None and rel is not None and rel.endswith(".md") and tf.size < RENDER_MAX

    def _set_rendered(self, on: bool) -> None:
        self.rendered = on
        # display set directly: a class on the pane would restyle every Markdown block
        self.query_one("#file-rendered").display = on
        self.rows.display = not on
        if on:
            self._update_markdown()
        elif self._rendered_text is not None:
            # hidden blocks would still be restyled on every focus change: drop them
            self._rendered_text = None
            self.query_one("#file-md", Markdown).update("")
        self._show_header()

    def _update_markdown(self) -> None:
        if self.text is not None and self.text != self._rendered_text:
            self._rendered_text = self.text
            self.query_one("#file-md", Markdown).update(printable(self.text))

    # --- actions ---------------------------------------------------------------------

    async def action_toggle_mode(self) -> None:
        if self.rel is None:
            return
        if not self.rendered and not self._can_render():
            self.post_message(
                Say(
                    _(
                        "Rendered view is only for readable .md files under 64 KB; "
                        "this one stays raw"
                    ),
                    "warning",
                )
            )
            return
        had_focus = self.has_focus_within
        md = self.query_one("#file-md", Markdown)
        # Focus moves while the Markdown is empty: a focus change restyles every block
        # below the widget that gains or loses it (half a second for a 150-line file).
        if self.rendered:
            self._rendered_text = None
            await md.update("")
            self._set_rendered(False)
            if self.target is not None:
                self._goto(self.rows.cursor)
            if had_focus:
                self.screen.set_focus(self.rows)
        else:
            self.rendered = True  # shown below, once focus has moved
            self.query_one("#file-rendered").display = True
            self.rows.display = False
            if had_focus:
                self.screen.set_focus(self.query_one("#file-rendered"))
            self._set_rendered(True)

    def action_history(self) -> None:
        if self.rel is not None:
            self.post_message(ShowHistory(self.rel))

    def action_edit(self) -> None:
        """Edit what the cursor is on: the event, fact section or category holding the
        line, or the topic, sop or file as a whole."""
        from memtui.engine.entries import entry_at

        store, rel = self.store, self.rel
        if store is None or rel is None or rel in store.unreadable:
            return
        line = self.rows.cursor + 1 if not self.rendered else 1
        self.post_message(EditEntry(entry_at(store, rel, line), line))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "edit":
            if self.read_only:
                return False
            store = self.store
            unreadable = store is not None and self.rel in store.unreadable
            return True if self.rel is not None and not unreadable else None
        if action in ("toggle_mode", "history"):
            return True if self.rel is not None else None
        return True


def _shown(rel: str, raw: bytes) -> TextFile | Unreadable:
    """The file as text; one that is not UTF-8, for display only, with each bad byte as
    \\xNN. It is never edited (the store lists it as unreadable), so that text need
    not round-trip."""
    got = decode(rel, raw)
    if isinstance(got, Unreadable) and got.reason.startswith("not valid UTF-8"):
        return TextFile(rel, raw.decode("utf-8", "backslashreplace"), False, len(raw))
    return got
