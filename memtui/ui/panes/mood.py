"""The mood chart: valence and energy over the snapshots, drawn with braille dots.

memory/mood_state.md keeps its snapshots newest first; the chart runs oldest to
newest, left to right. Steps over the bounds (|Δvalence| ≤ 0.30, |Δenergy| ≤ 0.20
by default, memtui.toml may change them) are drawn and listed in the error colour.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from memtui.cells import padded
from memtui.engine.model import Mood, MoodSnapshot
from memtui.engine.store import Store
from memtui.engine.views import mood as mood_of
from memtui.engine.views import views
from memtui.i18n import N_, _, ngettext
from memtui.ui.messages import OpenFile, ShowHistory
from memtui.ui.panes import Pane
from memtui.ui.safe import row

# Braille dot bits by (column, row) inside one 2x4 cell (U+2800 + bits).
DOTS = {
    (0, 0): 0x01,
    (0, 1): 0x02,
    (0, 2): 0x04,
    (1, 0): 0x08,
    (1, 1): 0x10,
    (1, 2): 0x20,
    (0, 3): 0x40,
    (1, 3): 0x80,
}
AXIS, LINE, OVER = 1, 2, 3  # what a dot draws; a cell takes the strongest colour
VALENCE_ROWS, ENERGY_ROWS = 6, 4
GUTTER = 13  # "valence  +1.0", then the axis character
CHART_HEIGHT = VALENCE_ROWS + ENERGY_ROWS + 3  # bands, the gap, x axis, time labels


@dataclass(frozen=True, slots=True)
class Series:
    """One value over time, oldest first, with the steps over its bound."""

    values: tuple[float | None, ...]
    over: frozenset[int]  # i: the step from values[i] to values[i + 1] is over the bound


def series(snapshots: Sequence[MoodSnapshot], key: str, bound: float) -> Series:
    values = tuple(getattr(s, key) for s in reversed(snapshots))
    over = {
        i
        for i in range(len(values) - 1)
        if (a := values[i]) is not None
        and (b := values[i + 1]) is not None
        and abs(b - a) > bound + 1e-9
    }
    return Series(values, frozenset(over))


def plot(
    data: Series, low: float, high: float, width: int, height: int, zero: float | None = None
) -> list[list[tuple[int, int]]]:
    """A braille grid `height` rows by `width` cells: each cell (dot bits, colour kind)."""
    cols, rows = width * 2, height * 4
    grid = [[(0, 0)] * width for _ in range(height)]

    def dot(x: int, y: int, kind: int) -> None:
        if 0 <= x < cols and 0 <= y < rows:
            bits, was = grid[y // 4][x // 2]
            grid[y // 4][x // 2] = (bits | DOTS[(x % 2, y % 4)], max(was, kind))

    def to_y(value: float) -> int:
        share = (high - min(high, max(low, value))) / (high - low)
        return round(share * (rows - 1))

    if zero is not None:
        for x in range(0, cols, 2):
            dot(x, to_y(zero), AXIS)
    count = len(data.values)
    if count == 0 or cols == 0:
        return grid

    def to_x(i: int) -> int:
        return cols // 2 if count == 1 else round(i * (cols - 1) / (count - 1))

    for i, value in enumerate(data.values):
        if value is None:
            continue
        nxt = data.values[i + 1] if i + 1 < count else None
        if nxt is None:
            dot(to_x(i), to_y(value), LINE)
            continue
        kind = OVER if i in data.over else LINE
        for x, y in _line(to_x(i), to_y(value), to_x(i + 1), to_y(nxt)):
            dot(x, y, kind)
    return grid


def _line(x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int]]:
    """Bresenham: the dots from (x0, y0) to (x1, y1)."""
    points = []
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
    err = dx + dy
    while True:
        points.append((x0, y0))
        if x0 == x1 and y0 == y1:
            return points
        e2 = 2 * err
        if e2 >= dy:
            err += dy
            x0 += sx
        if e2 <= dx:
            err += dx
            y0 += sy


def _number(value: float | None, signed: bool = True) -> str:
    if value is None:
        return "—"
    return f"{value:+.2f}" if signed else f"{value:.2f}"


class MoodChart(Widget):
    """Draws the two bands at whatever width it is given."""

    DEFAULT_CSS = f"MoodChart {{ height: {CHART_HEIGHT}; }}"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.mood: Mood | None = None
        self.bounds = (0.30, 0.20)

    def show(self, mood: Mood | None, bounds: tuple[float, float]) -> None:
        self.mood, self.bounds = mood, bounds
        self.display = mood is not None
        self.refresh()

    def render(self) -> Text:
        pane = self.query_ancestor(MoodPane)
        return chart_text(self.mood, self.bounds, self.size.width, pane.style_of)


def chart_text(
    mood: Mood | None, bounds: tuple[float, float], width: int, style: Callable[[str], Style]
) -> Text:
    text = Text(end="", no_wrap=True)
    if mood is None:
        return text
    if not mood.snapshots:
        text.append(_("No snapshots in the mood file yet: nothing to chart."), style="italic")
        return text
    plot_width = max(4, width - GUTTER - 2)
    kinds = {AXIS: style("mood--axis"), OVER: style("mood--over")}
    bands = (
        ("valence", series(mood.snapshots, "valence", bounds[0]), -1.0, 1.0, VALENCE_ROWS, 0.0),
        ("energy", series(mood.snapshots, "energy", bounds[1]), 0.0, 1.0, ENERGY_ROWS, None),
    )
    for n, (name, data, low, high, height, zero) in enumerate(bands):
        if n:
            text.append(" " * GUTTER + "│\n", style=kinds[AXIS])
        kinds[LINE] = style(f"mood--{name}")
        grid = plot(data, low, high, plot_width, height, zero)
        zero_row = None if zero is None else round((high - zero) / (high - low) * (height * 4 - 1))
        for y, cells in enumerate(grid):
            tick = ""
            if y == 0:
                tick = f"{high:+.1f}" if low < 0 else f"{high:.1f}"
            elif y == height - 1:
                tick = f"{low:+.1f}" if low < 0 else f"{low:.1f}"
            elif zero_row is not None and y == zero_row // 4:
                tick = " 0.0"
            label = _(name) if y == 0 else ""
            text.append(
                f"{padded(label, 8)}{tick:>5}┤", style=kinds[LINE] if label else kinds[AXIS]
            )
            for bits, kind in cells:
                text.append(chr(0x2800 + bits), style=kinds.get(kind, ""))
            text.append("\n")
    text.append(" " * GUTTER + "└" + "─" * plot_width + "\n", style=kinds[AXIS])
    oldest, newest = mood.snapshots[-1].time, mood.snapshots[0].time
    left = row(oldest)
    left.truncate(plot_width // 2, overflow="ellipsis")
    right = row(newest if len(mood.snapshots) > 1 else "")
    right.truncate(max(0, plot_width - left.cell_len - 1), overflow="ellipsis")
    gap = max(1, plot_width - left.cell_len - right.cell_len + 1)
    text.append(" " * (GUTTER + 1))
    text.append_text(left)
    text.append(" " * gap)
    text.append_text(right)
    return text


class MoodPane(Pane):
    """Current values, the healing-loop guard, the chart and the snapshot list."""

    DEFAULT_CSS = """
    MoodPane #mood-scroll { height: 1fr; padding: 0 1; }
    MoodPane #mood-summary { height: auto; margin-bottom: 1; }
    MoodPane #mood-snapshots { height: auto; margin-top: 1; }
    MoodPane > .mood--valence { color: $accent; }
    MoodPane > .mood--energy { color: $success; }
    MoodPane > .mood--over { color: $error; text-style: bold; }
    MoodPane > .mood--axis { text-style: dim; }
    MoodPane > .mood--guard-on { color: $error; text-style: bold; }
    MoodPane > .mood--guard-off { color: $success; }
    """
    COMPONENT_CLASSES = {
        "mood--valence",
        "mood--energy",
        "mood--over",
        "mood--axis",
        "mood--guard-on",
        "mood--guard-off",
    }
    BINDINGS = [
        Binding("enter", "open", N_("Open file"), id="mood.open"),
        Binding("h", "history", N_("History"), id="mood.history"),
    ]
    VIEW = "mood"  # what a layout must feed for this pane (Layout.views)
    COMMANDS = [
        (N_("Mood: open mood_state.md"), N_("In the file viewer (enter)"), "open"),
        (N_("Mood: history of mood_state.md"), N_("Snapshots, diff and rollback (h)"), "history"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.store: Store | None = None
        self.mood: Mood | None = None
        self.summary_text = Text()
        self.snapshots_text = Text()

    def has_work(self, store: Store) -> bool:
        return self.VIEW in views(store)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="mood-scroll"):
            yield Static(id="mood-summary")
            yield MoodChart(id="mood-chart")
            yield Static(id="mood-snapshots")

    def restyle(self) -> None:
        if self.store is not None:
            self.show_store(self.store)  # the summary, the chart and the list hold colours

    def focus(self, scroll_visible: bool = True) -> MoodPane:
        self.query_one("#mood-scroll").focus(scroll_visible)
        return self

    def show_store(self, store: Store) -> None:
        self.store = store
        self.mood = mood_of(store)
        self.refresh_bindings()
        t = store.config.thresholds
        bounds = (t.mood_step_valence, t.mood_step_energy)
        self.summary_text = self._summary(store, bounds)
        self.snapshots_text = self._snapshots(bounds)
        self.query_one("#mood-summary", Static).update(self.summary_text)
        self.query_one(MoodChart).show(self.mood, bounds)
        self.query_one("#mood-snapshots", Static).update(self.snapshots_text)

    def _summary(self, store: Store, bounds: tuple[float, float]) -> Text:
        text = Text(end="")
        mood = self.mood
        if not self.has_work(store):
            text.append(_("No companion layout in this store (memory/mood_state.md)."), "italic")
            return text
        if mood is None:
            text.append(
                _("No {file} in this store: the agent has not recorded a mood.").format(
                    file=Mood.FILE
                ),
                "italic",
            )
            return text
        text.append(_("Now") + "  ", style="bold")
        text.append(_("valence") + " ", style=self.style_of("mood--valence"))
        text.append(_number(mood.valence), style="bold")
        text.append("   " + _("energy") + " ", style=self.style_of("mood--energy"))
        text.append(_number(mood.energy, signed=False), style="bold")
        n = len(mood.snapshots)
        snapshots = ngettext("{n} snapshot", "{n} snapshots", n).format(n=f"{n:,}")
        said = _("({snapshots} in {file})").format(snapshots=snapshots, file=Mood.FILE)
        text.append(f"   {said}\n", style="dim")
        text.append(_("Healing-loop guard") + "  ")
        if mood.g4c_count is None:
            text.append(
                _("unknown (no consecutive_g4c_count in {file})").format(file=Mood.AUX),
                style="italic",
            )
        elif mood.healing_guard_on:
            text.append(_("ON"), style=self.style_of("mood--guard-on"))
            text.append(_(": positive Δvalence forbidden until it resets"), style="bold")
            text.append(f" (consecutive_g4c_count {mood.g4c_count})")
        else:
            text.append(_("off"), style=self.style_of("mood--guard-off"))
            text.append(" " + _("(consecutive_g4c_count {n}; on at 2)").format(n=mood.g4c_count))
        text.append("\n" + _("Last decay") + "  ")
        text.append_text(row(mood.last_decay) if mood.last_decay else Text(_("unknown"), "italic"))
        valence = series(mood.snapshots, "valence", bounds[0])
        energy = series(mood.snapshots, "energy", bounds[1])
        over = len(valence.over) + len(energy.over)
        text.append(
            "\n"
            + _("Step bounds  |Δvalence| ≤ {valence} · |Δenergy| ≤ {energy} · ").format(
                valence=f"{bounds[0]:.2f}", energy=f"{bounds[1]:.2f}"
            )
        )
        text.append(
            ngettext("{n} step over the bound", "{n} steps over the bound", over).format(n=over),
            style=self.style_of("mood--over") if over else "",
        )
        text.append("\n")
        text.append("── " + _("valence"), style=self.style_of("mood--valence"))
        text.append("  ")
        text.append("── " + _("energy"), style=self.style_of("mood--energy"))
        text.append("  ")
        text.append("── " + _("step over the bound"), style=self.style_of("mood--over"))
        return text

    def _snapshots(self, bounds: tuple[float, float]) -> Text:
        text = Text(end="", no_wrap=True)
        mood = self.mood
        if mood is None or not mood.snapshots:
            return text
        text.append(
            padded(_("time"), 17)
            + padded(_("source"), 13)
            + padded(_("valence"), 8, right=True)
            + f"{'Δ':>7}"
            + padded(_("energy"), 8, right=True)
            + f"{'Δ':>7}  "
            + _("note")
            + "\n",
            style="bold",
        )
        snaps = mood.snapshots
        over = self.style_of("mood--over")
        for n, snap in enumerate(snaps):
            older = snaps[n + 1] if n + 1 < len(snaps) else None
            for value, width in ((snap.time, 16), (snap.source, 12)):
                cell = row(value)
                cell.truncate(width, overflow="ellipsis", pad=True)
                text.append_text(cell)
                text.append(" ")
            for key, bound, signed in (("valence", bounds[0], True), ("energy", bounds[1], False)):
                value = getattr(snap, key)
                before = getattr(older, key) if older else None
                text.append(f"{_number(value, signed):>8}")
                if value is None or before is None:
                    text.append(f"{'':>7}")
                    continue
                delta = value - before
                text.append(f"{delta:>+7.2f}", style=over if abs(delta) > bound + 1e-9 else "")
            text.append("  ")
            text.append_text(row(snap.note))
            if n + 1 < len(snaps):
                text.append("\n")
        return text

    # --- actions ------------------------------------------------------------------

    def action_open(self) -> None:
        if self.mood is None:
            return
        line = self.mood.snapshots[0].line if self.mood.snapshots else 1
        self.post_message(OpenFile(self.mood.file, line))

    def action_history(self) -> None:
        self.post_message(ShowHistory(Mood.FILE))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("history", "open") and self.mood is None:
            return None  # no mood_state.md here
        return True
