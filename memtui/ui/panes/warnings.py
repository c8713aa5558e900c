"""Every finding of the store (SPEC §5), grouped by level; enter goes to the place."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from memtui.cells import padded
from memtui.engine.fixes import fixable
from memtui.engine.model import ERROR, INFO, LEVELS, WARNING, Finding
from memtui.engine.store import Store
from memtui.engine.words import level_counts
from memtui.i18n import N_, _, tr
from memtui.sanitize import one_line
from memtui.ui.messages import OpenFile, Say
from memtui.ui.panes.listing import GONE, ListPane
from memtui.ui.safe import literal, row
from memtui.ui.style import component_style
from memtui.ui.widgets.rows import Rows

GROUPS = {ERROR: N_("Errors"), WARNING: N_("Warnings"), INFO: N_("Info")}
LEVEL_NAMES = {ERROR: N_("error"), WARNING: N_("warning"), INFO: N_("info")}
CODE_W = 23  # column widths at most, in cells: the longest code or place if shorter
PLACE_W = 30

Place = tuple[str, str | None, int | None]  # (code, file, line): a finding's stable key


class FindingRows(Rows):
    BINDINGS = [Binding("enter", "choose", N_("Go to"), id="warnings.open")]


class WarningsPane(ListPane):
    """Group headers (level, count), then one row a finding: code  file:line  message."""

    DEFAULT_CSS = """
    WarningsPane #warnings-detail { height: 4; }
    WarningsPane > .warnings--error { color: $error; }
    WarningsPane > .warnings--warning { color: $warning; }
    WarningsPane > .warnings--info { text-style: dim; }
    WarningsPane > .warnings--group { text-style: bold; }
    """
    COMPONENT_CLASSES = {
        "warnings--error",
        "warnings--warning",
        "warnings--info",
        "warnings--group",
    }
    KEY, ROWS = "warnings", FindingRows
    BINDINGS = [
        Binding("n", "next_group", N_("Next group"), id="warnings.next_group"),
        Binding("p", "next_group(-1)", N_("Previous group"), id="warnings.previous_group"),
        Binding("f", "fix", N_("Fix"), id="warnings.fix"),
    ]
    COMMANDS = [
        (N_("Warnings: go to the finding"), N_("Open its file at its line (enter)"), "open"),
        (N_("Warnings: next group"), N_("Errors, warnings, info (n)"), "next_group"),
        (
            N_("Warnings: fix the finding"),
            N_("Its quick fix, as a dry-run diff first (f)"),
            "fix",
        ),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # One entry a row: a group header (level, count) or a finding.
        self.items: list[tuple[str, int] | Finding] = []
        self.current_place: Place | None = None
        self.current_message: str | None = None  # the highlighted finding's, to find it moved
        self._acted: Place | None = None  # the finding this pane last offered to fix
        self.widths = (CODE_W, PLACE_W)
        self._shown = False

    @property
    def findings(self) -> list[Finding]:
        return [item for item in self.items if isinstance(item, Finding)]

    # --- snapshots ------------------------------------------------------------

    def show_store(self, store: Store) -> None:
        self.store = store
        by_level: dict[str, list[Finding]] = {level: [] for level in LEVELS}
        for finding in store.findings:
            by_level.setdefault(finding.level, []).append(finding)
        items: list[tuple[str, int] | Finding] = []
        for level, found in by_level.items():
            if found:
                items.append((level, len(found)))
                items.extend(found)
        self.items = items
        listed = store.findings
        self.widths = (
            min(CODE_W, max((cell_len(one_line(f.code)) for f in listed), default=0)),
            min(PLACE_W, max((cell_len(one_line(_where(f))) for f in listed), default=0)),
        )
        rows = self.rows
        first_time = not self._shown
        self._shown = True
        rows.set_rows(len(items), self.render_row)
        if self.current_place is not None:
            # the finding the user was on, or none: a neighbour is never fixed in its place;
            # one this pane's own fix took away leaves the cursor on the row in its place
            found = _found(items, self.current_place, self.current_message)
            if found is not None or self.current_place != self._acted:
                rows.follow(found)
        elif first_time and len(items) > 1 and rows.cursor != 1:
            rows.cursor = 1  # the first finding, under its group header
        self._header()
        self._detail()

    def _header(self) -> None:
        store = self.store
        text = Text(no_wrap=True, end="")
        if store is not None:
            parts = [
                (tr(said), self._level_style(level) if count else "")
                for level, count, said in level_counts(store)
            ]
            for n, (part, style) in enumerate(parts):
                if n:
                    text.append(" · ")
                text.append(part, style=style)
            text.append(" │ " + _("enter: go to the place · f: fix"))
        self.show_header(text)

    def _level_style(self, level: str) -> Style:
        return component_style(self, f"warnings--{level}", default=Style())

    def render_row(self, index: int) -> Text:
        if not 0 <= index < len(self.items):
            return Text("")
        item = self.items[index]
        level = item.level if isinstance(item, Finding) else item[0]
        style = self._level_style(level)  # Rows draws the cursor row in the cursor's colours
        text = Text(no_wrap=True, end="")  # spans, not a base style: Rows draws spans
        if not isinstance(item, Finding):
            group = self.style_of("warnings--group")
            text.append(f"{_(GROUPS.get(level, level))} ({item[1]})", style=style + group)
            return text
        text.append("  ")
        code_w, place_w = self.widths
        code = row(item.code)
        code.truncate(code_w, overflow="ellipsis", pad=True)
        text.append(code.plain, style=style)
        text.append("  ")
        text.append(_keep_end(one_line(_where(item)), place_w), style=style)  # keeps :line
        text.append("  ")
        text.append_text(row(tr(item.message)))
        return text

    def _detail(self) -> None:
        text = Text(end="")
        if self.store is not None and not self.items:
            text.append(_("No findings: every check passed."), style="italic")
        item = self._item()
        if item is None and self.rows.lost:
            text.append(_(GONE), style="italic")
        if isinstance(item, Finding):
            text.append(
                f"{_(LEVEL_NAMES.get(item.level, item.level))} ",
                style=self._level_style(item.level),
            )
            text.append_text(literal(item.code, style="bold"))
            text.append("  ")
            text.append_text(literal(_where(item), style="dim"))
            if fixable(item):
                text.append("  " + _("f: quick fix"), style="italic")
            text.append("\n")
            text.append_text(literal(tr(item.message)))
            self.current_place, self.current_message = _place(item), item.message
        elif item is not None:
            level, count = item
            group = _(GROUPS.get(level, level))
            text.append(
                _("{n} {group}: n/p moves between groups").format(n=count, group=group.lower())
            )
            self.current_place = self.current_message = None
        self.show_detail(text)

    # --- actions ----------------------------------------------------------------

    def _item(self) -> tuple[str, int] | Finding | None:
        """The highlighted row's item (None: no rows, or the cursor is lost)."""
        at = self.rows.current
        return self.items[at] if at is not None and at < len(self.items) else None

    def action_open(self) -> None:
        item = self._item()
        if not isinstance(item, Finding):
            return
        if item.file is None:
            self.post_message(
                Say(
                    _("{code}: {message} (not tied to a file)").format(
                        code=item.code, message=tr(item.message)
                    ),
                    title=_("Finding"),
                )
            )
            return
        self.post_message(OpenFile(item.file, item.line))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # a fix writes: hidden on a read-only store, as every changing key is
        return not (action == "fix" and self.read_only)

    def action_fix(self) -> None:
        """The highlighted finding's quick fix: a dry-run diff, `a` to apply it."""
        from memtui.ui.fixing import offer_fix

        item = self._item()
        if isinstance(item, Finding) and self.store is not None:
            self._acted = _place(item)
            offer_fix(self.post_message, self.store, item, read_only=self.read_only)
        else:
            self.lost_said(_("fix"))

    def action_next_group(self, step: int = 1) -> None:
        headers = [n for n, item in enumerate(self.items) if not isinstance(item, Finding)]
        if not headers:
            return
        cursor = self.rows.cursor
        group = max((n for n, h in enumerate(headers) if h <= cursor), default=0)
        target = headers[(group + step) % len(headers)]
        self.rows.cursor = min(target + 1, len(self.items) - 1)


def _keep_end(text: str, width: int) -> str:
    """`text` in `width` cells, padded; a long one loses its start, not its `:line`."""
    if cell_len(text) <= width:
        return padded(text, width)
    while text and cell_len(text) > width - 1:
        text = text[1:]
    return padded("…" + text, width)


def _where(finding: Finding) -> str:
    if finding.file is None:
        return _("(store)")
    return finding.file if finding.line is None else f"{finding.file}:{finding.line}"


def _found(items: list[tuple[str, int] | Finding], place: Place, message: str | None) -> int | None:
    """The row of the finding at `place`; else of the one finding of that code and file
    with `message` (lines above it were added or removed); None when it is gone."""
    by_text = []
    for n, item in enumerate(items):
        if isinstance(item, Finding):
            if _place(item) == place:
                return n
            if (item.code, item.file, item.message) == (place[0], place[1], message):
                by_text.append(n)
    return by_text[0] if len(by_text) == 1 else None


def _place(item: tuple[str, int] | Finding) -> Place | None:
    return (item.code, item.file, item.line) if isinstance(item, Finding) else None
