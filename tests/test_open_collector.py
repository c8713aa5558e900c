"""open_store pauses Python's cyclic garbage collector while it builds a snapshot, and
hands the collector back as it found it: on or off as before, nobody's frozen
objects thawed, nothing of its own left frozen, and a cycle made meanwhile still
collected."""

from __future__ import annotations

import gc
import weakref

import pytest

import memtui.engine.store as store_module
from memtui.engine.store import open_store
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
