"""What the faces derive from a snapshot (the events timeline, the outline) is made once
per snapshot, in the app's loading worker, and a new snapshot makes its own."""

from __future__ import annotations

import datetime as dt

from memtui.demo import write_demo
from memtui.engine.outline import store_outline
from memtui.engine.store import open_store
from memtui.engine.timeline import timeline

TODAY = dt.date(2026, 11, 30)


def test_a_snapshot_makes_its_timeline_and_outline_once(tmp_path):
    write_demo(tmp_path, 1, today=TODAY)
    store = open_store(tmp_path, today=TODAY)
    assert timeline(store) is timeline(store)
    assert store_outline(store) is store_outline(store)


def test_a_new_snapshot_derives_its_own(tmp_path):
    write_demo(tmp_path, 1, today=TODAY)
    first = open_store(tmp_path, today=TODAY)
    events = len(timeline(first).events)
    with (tmp_path / "memory/events.md").open("a", encoding="utf-8") as f:
        f.write("\n### [E950] 2026-11-29 · 重要事件\n**类型**：重要事件\n**内容**：new\n")
    second = open_store(tmp_path, previous=first, reopen=True, today=TODAY)
    assert len(timeline(second).events) == events + 1
    assert len(timeline(first).events) == events  # the old snapshot keeps what it showed
    assert store_outline(second) is not store_outline(first)
