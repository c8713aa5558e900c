"""What the agent loads (SPEC §3c): each layout's files as the agent gets them, the
cut marked and the lines past it shown as not loaded. The rows come from the
engine (engine.context_rows); this screen only draws them."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from memtui.engine.context_rows import CUT, HEAD, LOADED, UNLOADED, context_rows
from memtui.engine.store import Store
from memtui.i18n import N_, _, tr
from memtui.ui.safe import literal, row
from memtui.ui.said import wrapped
from memtui.ui.screens.page import PageScreen
from memtui.ui.style import component_style
from memtui.ui.widgets.footer import Footer
from memtui.ui.widgets.rows import Rows


class ContextRows(Rows):
    HELP_NAME = N_("the context view (what the agent loads)")  # the help page's "Keys in …"
    COMPONENT_CLASSES = {"rows--cursor", "rows--selected", "context--head", "context--cut",
                         "context--unloaded"}  # fmt: skip


class ContextScreen(PageScreen[None]):
    BINDINGS = [
        Binding("escape", "close", N_("Close"), id="context.close"),
        Binding("q", "close", N_("Close"), id="context.close_q", show=False),
    ]

    def __init__(self, store: Store) -> None:
        super().__init__()
        # heads, cuts and notes are memtui's words; the lines are the store's, as written
        self.rows = [(k, t if k in (LOADED, UNLOADED) else tr(t)) for k, t in context_rows(store)]
        self.shown = self.rows  # the cut's sentence wrapped to the width (80 columns)

    def compose(self) -> ComposeResult:
        yield Static(row(_("What the agent loads at session start")), classes="page-title")
        note = _("Each file as the agent gets it; past the cut line it never sees. Esc closes")
        yield Static(literal(note), classes="page-note")
        yield ContextRows(id="context-rows")
        yield Footer()

    def on_mount(self) -> None:
        self._wrap(self.size.width, keep_cursor=False)
        self.query_one(ContextRows).focus()

    def on_resize(self, event: events.Resize) -> None:
        self._wrap(event.size.width, keep_cursor=True)

    def _wrap(self, width: int, *, keep_cursor: bool) -> None:
        """The cut's long sentence as several rows that fit (the lines stay one row)."""
        fit = max(20, width - 2)  # the scrollbar
        self.shown = [
            (kind, part)
            for kind, text in self.rows
            for part in (wrapped(text, fit) if kind == CUT else [text])
        ]
        self.query_one(ContextRows).set_rows(len(self.shown), self._draw, keep_cursor=keep_cursor)

    def _draw(self, index: int) -> Text:
        kind, text = self.shown[index]
        out = row(text)
        style = {HEAD: "context--head", CUT: "context--cut", UNLOADED: "context--unloaded"}
        if kind in style:
            out.stylize(component_style(self.query_one(ContextRows), style[kind]))
        return out

    def action_close(self) -> None:
        self.dismiss(None)
