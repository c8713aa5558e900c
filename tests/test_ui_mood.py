"""The mood pane driven by Pilot over real stores in tmp_path (PaneHost: the real app with
only this pane): values, the healing-loop guard, steps over the bound, the braille chart,
and missing or odd data."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memtui.engine.store import open_store
from memtui.ui.panes.mood import LINE, OVER, MoodChart, MoodPane, Series, plot
from tests.conftest import write_tree
from tests.helpers import EVENTS
from tests.ui_helpers import (
    SIZE,
    PaneHost,
    assert_literal,
    demo_store,
    hostile_store,
    press_until,
    screen_text,
    store_loaded,
    until,
)
from tests.ui_helpers import run_loaded as run


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "s")


def test_mood_pane_shows_values_guard_steps_and_chart(demo: Path) -> None:
    mood = open_store(demo).data.get("companion").mood  # type: ignore[union-attr]
    assert mood is not None and mood.g4c_count == 1  # the guard is off in the demo
    newest, oldest = mood.snapshots[0], mood.snapshots[-1]
    # the one step over the bound (SPEC: |Δvalence| ≤ 0.30), newest first
    steps = [(a, b) for a, b in itertools.pairwise(mood.snapshots)]
    over = [a for a, b in steps if abs(a.valence - b.valence) > 0.30]  # type: ignore[operator]
    assert len(over) == 1

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(MoodPane)
        await until(pilot, lambda: "valence" in pane.summary_text.plain)
        summary = pane.summary_text.plain
        assert f"valence {mood.valence:.2f}" in summary and f"energy {mood.energy:.2f}" in summary
        assert "Healing-loop guard  off (consecutive_g4c_count 1" in summary
        assert f"Last decay  {mood.last_decay}" in summary
        assert "|Δvalence| ≤ 0.30 · |Δenergy| ≤ 0.20 · 1 step over the bound" in summary
        lines = pane.snapshots_text.plain.splitlines()
        assert len(lines) == len(mood.snapshots) + 1  # a heading, then newest first
        assert lines[1].startswith(f"{newest.time[:16]} {newest.source}")
        assert lines[1].endswith(newest.note)
        style = pane.style_of("mood--over")
        step = next(s for s in pane.snapshots_text.spans if s.style == style)
        i = mood.snapshots.index(over[0])
        delta = over[0].valence - mood.snapshots[i + 1].valence  # type: ignore[operator]
        assert pane.snapshots_text.plain[step.start : step.end].strip() == f"{delta:+.2f}"
        shown = screen_text(app)
        assert "valence  +1.0┤" in shown and "energy    1.0┤" in shown
        assert sum(1 for ch in shown if 0x2801 <= ord(ch) <= 0x28FF) > 50  # braille dots
        # oldest at the left, newest at the right
        first, last = oldest.time[:16], newest.time[:16]
        axis = next(line for line in shown.splitlines() if first in line)
        assert axis.index(first) < axis.index(last)
        await pilot.press("enter", "h")
        assert app.opened == [("memory/mood_state.md", newest.line)]
        assert app.histories == ["memory/mood_state.md"]

        (demo / ".mood_state_aux").write_text(
            "last_decay_written_at: 2026-11-28T22:47:00+08:00\nconsecutive_g4c_count: 2\n"
        )
        store = app.store
        await press_until(pilot, "ctrl+r", lambda: app.store is not store)
        summary = pane.summary_text.plain
        assert "Healing-loop guard  ON: positive Δvalence forbidden" in summary
        assert "(consecutive_g4c_count 2)" in summary

        def on_colour() -> Any:
            text = pane.summary_text
            span = next(s for s in text.spans if text.plain[s.start : s.end] == "ON")
            return span.style.color  # type: ignore[union-attr]

        dark = on_colour()
        app.theme = "nord"  # the prebuilt text follows the theme
        await until(pilot, lambda: on_colour() != dark)
        assert on_colour() == pane.style_of("mood--guard-on").color

    run(PaneHost(str(demo), "mood"), body)


def test_mood_pane_handles_missing_and_odd_data(tmp_path: Path) -> None:
    def store_of(name: str, files: dict[str, str | bytes]) -> Any:
        return open_store(write_tree(tmp_path / name, files))

    events_only: dict[str, str | bytes] = {EVENTS: "### [E000] 2026-11-28T22:00 · last_active\n"}
    one = "valence: 0.1\nenergy: 0.5\n\n### 2026-11-28T22:00 · source=conversation\n"
    cases = {
        "no companion": store_of("ws", {"memory.md": "# idx\n", "soul.md": "## name\n"}),
        "no mood file": store_of("a", events_only),
        "no snapshots": store_of("b", {"memory/mood_state.md": "valence: 0.1\nenergy: 0.5\n"}),
        "one snapshot": store_of("c", {"memory/mood_state.md": one + "valence: 0.1\n"}),
        "bad values": store_of(
            "d",
            {
                "memory/mood_state.md": "valence: x\n\n"
                "### 2026-11-28T22:00 · source=conversation\nvalence: ?\nenergy: 3\n"
                "### 2026-11-27T22:00 · source=decay\nvalence: 0.2\nenergy: 0.1\n",
            },
        ),
        "hostile": open_store(hostile_store(tmp_path / "h")),
    }

    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(MoodPane)
        chart = app.query_one(MoodChart)
        seen = {}
        for name, store in cases.items():
            pane.show_store(store)
            await pilot.pause()
            seen[name] = (pane.summary_text.plain, screen_text(app), pane.snapshots_text.plain)
        assert "No companion layout" in seen["no companion"][0]
        assert "No memory/mood_state.md" in seen["no mood file"][0]
        assert "No snapshots" in seen["no snapshots"][1]
        assert "valence +0.10" in seen["one snapshot"][0]
        assert re.search(r"conversation +\+0\.10 +— ", seen["one snapshot"][2])
        assert "valence —" in seen["bad values"][0]
        assert "unknown (no consecutive_g4c_count" in seen["bad values"][0]
        assert "ON: positive Δvalence forbidden" in seen["hostile"][0]
        assert "[@click=app.quit]t[/]" in seen["hostile"][0]
        assert_literal(pane.snapshots_text.plain)
        assert chart.display and app.is_running

    run(PaneHost(str(hostile_store(tmp_path / "start")), "mood"), body)


def test_braille_plot_runs_oldest_to_newest_and_marks_big_steps() -> None:
    rising = plot(Series((-1.0, 1.0), frozenset()), -1.0, 1.0, width=2, height=1)
    (first_bits, first_kind), (last_bits, last_kind) = rising[0]
    assert first_bits & 0x40 and last_bits & 0x08  # bottom left to top right
    assert first_kind == last_kind == LINE
    jump = plot(Series((0.0, 1.0, None, 0.5), frozenset({0})), 0.0, 1.0, width=4, height=2)
    kinds = {kind for line in jump for _bits, kind in line}
    assert OVER in kinds and LINE in kinds  # the 0→1 step over the bound; the lone 0.5 dot
    assert plot(Series((), frozenset()), 0, 1, width=3, height=1) == [[(0, 0)] * 3]


def test_snapshot_mood(demo: Path, snap_compare: Any) -> None:
    async def ready(pilot: Pilot) -> None:
        await store_loaded(pilot, pilot.app)  # type: ignore[arg-type]
        await pilot.pause()

    assert snap_compare(PaneHost(str(demo), "mood"), terminal_size=SIZE, run_before=ready)
