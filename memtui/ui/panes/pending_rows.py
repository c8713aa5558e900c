"""The pending pane's rows: mark, id, kind, note and date, each a fixed column (the note
as wide as there is room). The widths are worked out once a snapshot (10,000 items);
a row is drawn only when the Rows widget shows it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from memtui.engine.queue import QueueItem
from memtui.i18n import _, shown, tr
from memtui.sanitize import one_line
from memtui.ui.safe import row

ID_MAX, TARGET_MAX, CREATED_W, NOTE_MIN = 24, 24, 10, 12
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d")
StyleOf = Callable[[str], Style]  # a component class's name (`broken`) to its style


def widths(items: Sequence[QueueItem]) -> tuple[int, int]:
    """The id and kind columns' widths: the widest, at most their caps."""
    return (
        _widest((_cells(i.shown_as) for i in items), ID_MAX),
        _widest((_cells(i.action) + 3 + _cells(i.target) for i in items), TARGET_MAX),
    )


def kind(item: QueueItem) -> Text:
    return row(f"{item.action} → {item.target}")


def note(item: QueueItem, style: StyleOf) -> Text:
    """Why it cannot be approved, else its summary and who staged it."""
    if item.read_only:
        text, name = row(_("read-only · {summary}").format(summary=shown(item.summary))), "broken"
    elif item.broken:
        text, name = row(f"✗ {tr(item.problem)}"), "broken"
    elif item.problem:
        text, name = row(tr(item.note) if item.note else f"✗ {tr(item.problem)}"), "refused"
    else:
        summary = shown(item.summary)  # the agent's words: never translated by chance
        return row(f"{summary} · {item.origin}" if item.origin else summary)
    text.style = style(name)
    return text


def draw(item: QueueItem, chosen: bool, cols: tuple[int, int], width: int, style: StyleOf) -> Text:
    """One row, `width` cells wide at least."""
    id_w, kind_w = cols
    text = Text("✓ " if chosen else "  ", no_wrap=True, end="")
    text.append_text(_cell(row(item.shown_as), id_w, style("id")))
    text.append_text(_cell(kind(item), kind_w))
    note_w = max(NOTE_MIN, width - text.cell_len - CREATED_W - 1)
    text.append_text(_cell(note(item, style), note_w))
    text.append_text(_cell(row(_when(item.created)), CREATED_W, style("muted")))
    return text


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


def _when(created: str | None) -> str:
    if not created:
        return "—"
    return created[:10] if _ISO.match(created) else created


def _cell(text: Text, width: int, style: Style | None = None) -> Text:
    """A fixed-width column (store text shown literally), then one space."""
    if style is not None:
        text.stylize(style)
    text.truncate(width, overflow="ellipsis", pad=True)
    text.append(" ")
    return text
