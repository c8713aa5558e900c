"""The faces' own views (the events timeline, the mood, an entry's items) come from what
the layouts declare (Layout.views, timeline, mark, mood, items), never from a layout's
name: a small "diary" layout, registered for the test, feeds the Events pane and
`memtui events`, and `memtui done` reaches its `mark`."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from memtui.cli import main
from memtui.engine.layouts import detectors
from memtui.engine.layouts.base import Detection, Layout, Listing, there
from memtui.engine.layouts.common import refused
from memtui.engine.model import Event, Span
from memtui.engine.store import open_store
from memtui.engine.timeline import Timeline, timeline
from memtui.engine.views import archived_items, items, mood, views
from memtui.ui.panes.events import EventsPane
from memtui.ui.panes.registry import absent
from tests import demo_facts as facts
from tests.conftest import write_tree
from tests.ui_helpers import PaneHost, demo_store, until
from tests.ui_helpers import run_loaded as run

DIARY = "diary.md"
TODAY = dt.date(2026, 11, 30)
# date | status | due | text; 待跟进 is what Event.is_open reads as open
LINES = (
    "2026-11-01 | 待跟进 | 2026-11-10 | call the plumber\n"
    "2026-11-20 | 已完成 | | paint the door\n"
    "2026-11-25 | 待跟进 | 2026-12-24 | buy a tree\n"
)


class DiaryDetection(Detection):
    name = "diary"
    looks_for = DIARY
    full = f"{__name__}:Diary"
    order = 90

    def detect(self, top: Listing) -> bool:
        return there(top, DIARY)


class Diary(DiaryDetection, Layout):
    """One dated line per entry: a timeline whose entries are marked done or open."""

    kinds = ("diary",)
    views = frozenset({"timeline"})
    marks = {"diary": ("done", "open")}

    def knows(self, rel: str) -> bool:
        return rel == DIARY

    def parse(self, reader: Any, top: Listing) -> tuple[Event, ...]:
        tf = reader.read(DIARY)
        if tf is None:
            return ()
        out, at = [], 0
        for n, line in enumerate(tf.text.splitlines(keepends=True)):
            date, status, due, _text = (part.strip() for part in line.split("|"))
            span = Span(DIARY, n, n + 1, at, at + len(line))
            out.append(Event(n + 1, f"D{n + 1}", date, "note", status, due or None, None, span, tf))
            at += len(line)
        return tuple(out)

    def timeline(self, store: Any, data: tuple[Event, ...]) -> Timeline:
        order = sorted(range(len(data)), key=lambda i: data[i].date, reverse=True)
        shown = tuple(data[i] for i in order)
        late = {i for i, e in enumerate(shown) if e.is_open and e.due and e.due < str(TODAY)}
        return Timeline(
            shown,
            tuple(e.label for e in shown),
            frozenset(late),
            store.today,
            positions=tuple(order),
            layout=self.name,
            kind="diary",
            file=DIARY,
            types=("note",),
        )

    def demo(self, sink: Any, rng: Any, size: int, today: dt.date) -> dict[str, int]:
        return {}  # none in `memtui demo`: the tests write its store

    def mark(self, root: str, kind: str, name: str, state: str, **shown: Any) -> Any:
        raise refused(f"the diary's mark: {kind}:{name} {state} expect={shown.get('expect')}")


@pytest.fixture
def diary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store holding only the diary, its layout registered as an entry point would be."""
    monkeypatch.setitem(detectors(), "diary", DiaryDetection())
    return write_tree(tmp_path / "diary", {DIARY: LINES})


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_layout_that_declares_a_timeline_is_what_memtui_events_lists(diary, capsys):
    code, out, _err = cli(capsys, "events", "--store", str(diary), "--json")
    assert code == 0
    got = json.loads(out)
    # in file order, its ids with its own kind, the overdue one marked by its rule
    assert [(e["id"], e["overdue"]) for e in got["events"]] == [
        ("diary:D1", True),
        ("diary:D2", False),
        ("diary:D3", False),
    ]
    code, out, _err = cli(capsys, "events", "--store", str(diary), "--overdue")
    assert code == 0 and out.splitlines()[0].startswith("D1  2026-11-01  note")
    assert "OVERDUE" in out and "D3" not in out


def test_done_and_reopen_reach_the_owning_layouts_mark(diary, capsys):
    code, _out, err = cli(capsys, "done", "diary:D3", "--store", str(diary))
    assert code == 1 and "the diary's mark: diary:D3 done expect=None" in err
    code, _out, err = cli(capsys, "reopen", "diary:D1", "--store", str(diary))
    assert code == 1 and "the diary's mark: diary:D1 open" in err


def test_an_id_whose_layout_sets_no_state_is_refused_naming_those_that_do(diary, capsys):
    before = (diary / DIARY).read_bytes()
    code, _out, err = cli(capsys, "done", "topic:notes", "--store", str(diary))
    assert code == 1
    assert "'topic:notes' is not marked done" in err
    assert "event:" in err and "diary:" in err
    assert (diary / DIARY).read_bytes() == before


def test_the_tabs_follow_the_views_the_stores_layouts_feed(diary, tmp_path):
    store = open_store(diary, TODAY)
    assert views(store) == {"timeline"} and mood(store) is None
    assert absent(store) == {"mood"}  # its Events tab is shown, no Mood tab
    both = open_store(demo_store(tmp_path / "demo"), TODAY)
    assert {"timeline", "mood"} <= views(both) and absent(both) == set()
    assert mood(both) is not None and timeline(both) is not None
    dsh_only = open_store(write_tree(tmp_path / "dsh", {"index.txt": "", "facts.md": ""}), TODAY)
    assert absent(dsh_only) == {"events", "mood"}
    assert timeline(dsh_only) is None


def test_the_events_pane_shows_any_layouts_timeline(diary):
    async def body(pilot: Pilot, app: PaneHost) -> None:
        pane = app.query_one(EventsPane)
        await until(pilot, lambda: pane.rows.count == 3)
        assert pane.has_work(app.store)
        assert pane.timeline is not None and pane.timeline.ids == ("D3", "D2", "D1")
        assert "1 overdue" in pane.header_text.plain
        assert pane.detail_text.plain.startswith("diary:D3")
        await pilot.press("t")  # its own types: all, then note
        assert "[note]" in pane.header_text.plain and pane.rows.count == 3
        await pilot.press("h")
        assert app.histories == [DIARY]
        # d as its layout's marks allow; v greyed: it declares no archive
        assert pane.check_action("toggle_done", ()) is True
        assert pane.check_action("toggle_archived", ()) is None

    run(PaneHost(str(diary), "events"), body)


def test_an_entrys_items_and_the_archived_ones_come_from_its_layout(tmp_path):
    store = open_store(demo_store(tmp_path / "demo"), TODAY)
    found, where = items(store, f"profile:{facts.RELATIONS}")
    assert facts.FATHER in found and where == "to archive/memory/user_profile.md"
    assert items(store, "topic:nothing") == ([], "to the archive")
    assert archived_items(store) == ([], None)  # nothing archived yet
