"""Python's cyclic garbage collector, paused while memtui makes many objects at once.

Opening a large store makes hundreds of thousands of objects without cycles, and a
bulk accept of 10,000 candidates plans and checks as many: the collector walked every
live object many times over while they were made (a quarter of a large open; 9.2 s
against 7.3 s for that accept, medians of 4 alternating runs). Reference counting
still frees them all. The pause is counted, not nested by hand: the app's load and a
change of the user's run in two threads at once, and the collector comes back on as
it was only when the last of them ends."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

_lock = threading.Lock()
_paused = 0  # pauses running, in any thread
_was_enabled = False  # as the first of them found it


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """No cyclic collection until every pause running has ended; then the collector is
    on or off as the first one found it."""
    global _paused, _was_enabled
    with _lock:
        if not _paused:
            _was_enabled = gc.isenabled()
            gc.disable()
        _paused += 1
    try:
        yield
    finally:
        with _lock:
            _paused -= 1
            if not _paused:
                _resume()


def _resume() -> None:
    if gc.get_freeze_count() == 0:
        # Hand what was made to the oldest generation unwalked (freeze, then unfreeze):
        # else the first allocation after enable() walks all of it as young objects.
        # A cycle among them is still found by the next full collection.
        gc.freeze()
        gc.unfreeze()
    if _was_enabled:
        gc.enable()
