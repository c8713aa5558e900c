"""open_store and a user's action pause Python's cyclic garbage collector while they
make their objects, and hand the collector back as they found it: on or off as
before, nobody's frozen objects thawed, nothing of their own left frozen, a cycle
made meanwhile still collected, and two pauses in two threads (the app's load beside
a change) ending in either order."""

from __future__ import annotations

import gc
import threading
import weakref

import pytest

import memtui.engine.store as store_module
from memtui.engine.collector import gc_paused
from memtui.engine.store import open_store
from memtui.engine.write.operation import operation
from tests.conftest import write_tree

DSH = {"index.txt": "# index\n", "facts.md": "## PYTHON_ENV\n- use a venv\n"}


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_on_or_off_as_it_was(tmp_path, collector, enabled):
    root = write_tree(tmp_path / "s", DSH)
    gc.enable() if enabled else gc.disable()
    store = open_store(root)
    assert store.data.get("dsh") is not None
    assert gc.isenabled() is enabled
    assert gc.get_freeze_count() == 0


def test_objects_someone_froze_stay_frozen(tmp_path, collector):
    root = write_tree(tmp_path / "s", DSH)
    gc.freeze()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    open_store(root)
    assert gc.get_freeze_count() == frozen


def test_a_cycle_made_during_an_open_is_still_collected(tmp_path, collector, monkeypatch):
    """What the open makes goes to the oldest generation unwalked, not out of reach."""
    root = write_tree(tmp_path / "s", DSH)
    gc.enable()

    class Node:
        pass

    refs = []
    real_open = store_module._open

    def open_making_a_cycle(*args, **kwargs):
        a, b = Node(), Node()
        a.other, b.other = b, a  # garbage once this frame ends, but only for the collector
        refs.append(weakref.ref(a))
        return real_open(*args, **kwargs)

    monkeypatch.setattr(store_module, "_open", open_making_a_cycle)
    open_store(root)
    assert refs[0]() is not None  # unreachable, yet not freed by reference counting
    gc.collect()
    assert refs[0]() is None


def test_an_action_pauses_the_collector_once_for_all_its_transactions(collector):
    gc.enable()
    with operation():
        assert not gc.isenabled()
        with operation():  # a bulk action's chunks join it
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner end does not turn it back on
    assert gc.isenabled()


@pytest.mark.parametrize("first_out", ["load", "change"])
def test_pauses_in_two_threads_end_in_either_order(collector, first_out):
    """The app's load and a change overlap: the collector stays off until both end, then
    is on, as the first found it (a pause saving "off" from the other would leave it off
    for good)."""
    gc.enable()
    entered = {name: threading.Event() for name in ("load", "change")}
    leave = {name: threading.Event() for name in ("load", "change")}
    left = {name: threading.Event() for name in ("load", "change")}

    def pause(name: str) -> None:
        with gc_paused():
            entered[name].set()
            leave[name].wait(10)
        left[name].set()

    threads = {name: threading.Thread(target=pause, args=(name,)) for name in entered}
    for name, thread in threads.items():  # the load first, then the change
        thread.start()
        entered[name].wait(10)
    second_out = "change" if first_out == "load" else "load"
    leave[first_out].set()
    left[first_out].wait(10)
    assert not gc.isenabled()  # the other still makes its objects
    leave[second_out].set()
    for thread in threads.values():
        thread.join(10)
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
