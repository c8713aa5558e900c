"""Search the whole store (`/`): type, see `file:line: text` hits, enter opens one.

The engine's search runs in a thread worker a moment after the last key (DEBOUNCE);
a newer query cancels an older one. Hits are store text: shown literally, the query
highlighted. `re:` before the query makes it a regular expression.
"""

from __future__ import annotations

import contextlib
import re
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from memtui.engine.search import BadQuery, Hit, search
from memtui.i18n import N_, _, ngettext
from memtui.ui.messages import OpenFile
from memtui.ui.safe import literal, row
from memtui.ui.said import error_text
from memtui.ui.style import component_style
from memtui.ui.widgets.rows import Rows

CAP = 2000  # hits shown; more means the query should be narrower
DEBOUNCE = 0.2  # seconds after the last key
REGEX_PREFIX = "re:"
LEAD = 40  # characters kept before a hit that starts far into a long line
SHOWN = 1000  # characters of a hit's line shown (and highlighted)


class HitRows(Rows):
    HELP_NAME = N_("the search results")  # the help page's "Keys in …"
    DEFAULT_CSS = """
    HitRows > .hit--file { color: $accent; }
    HitRows > .hit--line { color: $text-muted; }
    HitRows > .hit--match { background: $warning 40%; text-style: bold; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        *Rows.COMPONENT_CLASSES,
        "hit--file",
        "hit--line",
        "hit--match",
    }

    def style_of(self, name: str) -> Style:
        return component_style(self, f"hit--{name}")


def parse_query(raw: str) -> tuple[str, bool]:
    """(query, is_regex): `re:` before the text asks for a regular expression."""
    if raw.startswith(REGEX_PREFIX):
        return raw[len(REGEX_PREFIX) :], True
    return raw, False


def highlighter(query: str, regex: bool) -> re.Pattern[str] | None:
    """What to highlight in a hit's line: the engine's smart case (lower-case = any case)."""
    flags = re.IGNORECASE if query == query.lower() else 0
    try:
        return re.compile(query if regex else re.escape(query), flags)
    except re.error:
        return None


def hit_text(hit: Hit, pattern: re.Pattern[str] | None, styles: dict[str, Style]) -> Text:
    """`file:line: text`, literal, the matches highlighted; a far hit is brought into view."""
    out = row(hit.file)
    out.stylize(styles["file"])
    out.append(f":{hit.line}: ", style=styles["line"])
    line = hit.text
    if hit.column > LEAD * 2:
        cut = hit.column - 1 - LEAD
        line = line[cut:]
        out.append("…", style=styles["line"])
    cut_end = len(line) > SHOWN
    line = line[:SHOWN]  # what fits on a screen; also bounds the highlighting regex's work
    pos = 0
    for match in pattern.finditer(line) if pattern else ():
        if match.end() == match.start():
            continue
        out.append_text(row(line[pos : match.start()]))
        piece = row(match.group())
        piece.stylize(styles["match"])
        out.append_text(piece)
        pos = match.end()
    out.append_text(row(line[pos:]))
    if cut_end:
        out.append("…", style=styles["line"])
    return out


class SearchScreen(ModalScreen[None]):
    """Full-text search of the store at `root`; dismissed by escape or by opening a hit."""

    DEFAULT_CSS = """
    SearchScreen { align: center middle; }
    SearchScreen > #search-box {
        width: 90%;
        height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    SearchScreen #search-title { height: 1; color: $text-muted; }
    SearchScreen #search-status { height: 1; color: $text-muted; }
    SearchScreen #search-status.-error { color: $error; }
    SearchScreen #search-hits { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", N_("Close"), id="search.close"),
        Binding("down", "hits", N_("Hits"), show=False, id="search.hits"),
        Binding("tab", "switch", N_("Query/hits"), show=False, id="search.switch"),
    ]

    def __init__(self, root: str, query: str = "") -> None:
        super().__init__()
        self.root = root
        self.initial = query
        self.hits: list[Hit] = []
        self.more = False  # more than CAP hits
        self.done_query: str | None = None  # the query the hits shown are for
        self.searching = False
        self._generation = 0
        self._timer: Timer | None = None
        self._pattern: re.Pattern[str] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="search-box"):
            yield Static(
                literal(
                    _(
                        "Search the store · re: for a regular expression · lower case matches "
                        "any case · enter opens · esc closes"
                    )
                ),
                id="search-title",
            )
            yield Input(
                value=self.initial,
                placeholder=_("text to find (re:… for a regular expression)"),
                id="search-input",
            )
            yield Static(literal(_("type to search")), id="search-status")
            yield HitRows(self._render_hit, id="search-hits")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        if self.initial:
            self._start()

    @property
    def rows(self) -> HitRows:
        return self.query_one(HitRows)

    # --- searching -------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self._start)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.done_query == event.value and self.hits and not self.searching:
            self._open(self.rows.cursor)
        else:
            self._start()

    def _start(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        raw = self.query_one(Input).value
        query, regex = parse_query(raw)
        self._generation += 1
        if not query:
            self.workers.cancel_group(self, "search")
            self.searching = False
            self._show(self._generation, raw, [], False, None)
            return
        self.searching = True
        self._status(_("searching…"))
        self._pattern = highlighter(query, regex)
        self._search(self._generation, raw, query, regex)

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def _search(self, generation: int, raw: str, query: str, regex: bool) -> None:
        worker = get_current_worker()
        hits: list[Hit] = []
        more = False
        error = None
        try:
            for hit in search(self.root, query, regex=regex):
                if worker.is_cancelled:
                    return
                if len(hits) >= CAP:
                    more = True
                    break
                hits.append(hit)
        except BadQuery as exc:
            error = error_text(exc)
        except Exception as exc:  # a store that vanished, a permission error: said, not raised
            error = _("search failed: {why}").format(why=error_text(exc))
        if not worker.is_cancelled:
            with contextlib.suppress(RuntimeError):  # the app closed meanwhile
                self.app.call_from_thread(self._show, generation, raw, hits, more, error)

    def _show(
        self,
        generation: int,
        raw: str,
        hits: list[Hit],
        more: bool,
        error: str | None,
    ) -> None:
        if generation != self._generation or not self.is_attached:
            return  # an older query's answer, or the screen is gone
        self.searching = False
        self.done_query = raw
        self.hits = hits
        self.more = more
        self.rows.set_rows(len(hits), self._render_hit, keep_cursor=False)
        self.rows.scroll_to(y=0, animate=False)
        if error:
            self._status(error, error=True)
        elif not raw or not parse_query(raw)[0]:
            self._status(_("type to search"))
        elif not hits:
            self._status(_("no hits"))
        else:
            files = len({h.file for h in hits})
            if more:
                said = _("more than {n} hits: showing the first {n}; narrow the query").format(
                    n=f"{CAP:,}"
                )
            else:
                said = ngettext("{n} hit", "{n} hits", len(hits)).format(n=f"{len(hits):,}")
                said = ngettext("{hits} in {n} file", "{hits} in {n} files", files).format(
                    hits=said, n=f"{files:,}"
                )
            self._status(said)

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#search-status", Static)
        status.set_class(error, "-error")
        status.update(literal(text))

    def _render_hit(self, index: int) -> Text:
        rows = self.rows
        styles = {name: rows.style_of(name) for name in ("file", "line", "match")}
        return hit_text(self.hits[index], self._pattern, styles)

    # --- choosing --------------------------------------------------------------------

    def on_rows_chosen(self, event: Rows.Chosen) -> None:
        event.stop()
        self._open(event.index)

    def _open(self, index: int) -> None:
        if not 0 <= index < len(self.hits):
            return
        hit = self.hits[index]
        self.workers.cancel_group(self, "search")
        self.dismiss()
        self.app.post_message(OpenFile(hit.file, hit.line))

    def action_close(self) -> None:
        self.workers.cancel_group(self, "search")
        self.dismiss()

    def action_hits(self) -> None:
        if self.hits:
            self.rows.focus()

    def action_switch(self) -> None:
        if self.rows.has_focus or not self.hits:
            self.query_one(Input).focus()
        else:
            self.rows.focus()
