"""The app keeps each snapshot out of the cyclic collector's walk (ui/heap.py): a load
freezes what it made, a cycle frozen meanwhile is collected once the frozen heap has
grown by half, and an app that ends leaves nothing frozen."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from textual.pilot import Pilot

from memtui.ui.app import MemtuiApp
from memtui.ui.heap import GROWTH, Heap
from tests.ui_helpers import demo_store, run, until


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_a_load_is_not_collected_while_it_runs_and_is_frozen_after(collector):
    gc.enable()
    with Heap().loading():
        assert not gc.isenabled()
        made = Node()
    assert gc.isenabled()
    dead = weakref.ref(made)
    del made
    gc.collect()
    assert dead() is not None  # frozen: a full collection does not walk it
    gc.unfreeze()
    gc.collect()
    assert dead() is None  # thawed, the collector frees it


def test_the_collector_stays_off_when_it_was_off(collector):
    gc.disable()
    with Heap().loading():
        pass
    assert not gc.isenabled()


def test_a_frozen_cycle_is_collected_once_the_heap_grew_by_half(collector):
    heap = Heap()
    with heap.loading():
        cycles = [Node() for _ in range(10)]
    dead = weakref.ref(cycles[0])
    del cycles  # garbage now, but frozen: no collection finds it
    gc.collect()
    assert dead() is not None
    base = gc.get_freeze_count()
    # loads below the threshold collect nothing (no pause on every reload)
    with heap.loading():
        pass
    assert dead() is not None
    grown = [Node() for _ in range(int(base * (GROWTH - 1)) + 1000)]
    gc.freeze()
    with heap.loading():
        assert dead() is None  # collected before the load
    del grown
    heap.release()
    gc.collect()
    assert gc.get_freeze_count() == 0


def test_the_app_freezes_its_snapshot_and_thaws_it_when_it_ends(tmp_path: Path, collector):
    root = demo_store(tmp_path / "store")
    seen: list[int] = []

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await until(pilot, lambda: gc.get_freeze_count() > 0, what="the snapshot frozen")
        store = app.store
        assert store is not None
        seen.append(gc.get_freeze_count())
        first = store
        app.action_reload()
        await until(pilot, lambda: app.store is not first, what="the reload")

    run(MemtuiApp(str(root), watch=False), body, loaded=True)
    assert seen and seen[0] > 0
    assert gc.get_freeze_count() == 0


def test_a_failed_load_or_one_after_the_app_ended_freezes_nothing(collector):
    heap = Heap()
    gc.enable()
    try:
        with heap.loading():
            raise OSError("the store went away")
    except OSError:
        pass
    assert gc.isenabled() and gc.get_freeze_count() == 0
    heap.release()
    with heap.loading():
        pass
    assert gc.isenabled() and gc.get_freeze_count() == 0
