"""The app's long-lived heap, kept out of the cyclic collector's walk.

A snapshot of a large store is some 300,000 objects that live until the next one.
Each full collection walked all of them, about 110 ms on the UI thread, every
minute or so even when nothing changed: most of the idle CPU, and a stall for
the key pressed meanwhile. So a load ends by freezing what is alive (gc.freeze):
reference counting still frees an old snapshot, but a cycle among frozen objects
(widgets a reload replaced, say) is never found. When the frozen heap has grown
by half since its last full collection, the next load first unfreezes and
collects, in its worker, once.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from memtui.engine.collector import gc_paused

GROWTH = 1.5  # frozen objects, over those after the last full collection, that start one


class Heap:
    def __init__(self) -> None:
        self._base = 0  # frozen objects after the last full collection (0: none frozen yet)
        self._ended = False

    @contextlib.contextmanager
    def loading(self) -> Iterator[None]:
        """Around a load: no collection while it makes its objects, then, if it succeeded
        and the app still runs, all of them frozen (from a worker; the collector is
        paused for the whole process meanwhile)."""
        if self._base and gc.get_freeze_count() > self._base * GROWTH:
            gc.unfreeze()
            gc.collect()
            self._base = 0
        with gc_paused():
            yield
            if not self._ended:  # (a failed load's traceback holds cycles: not frozen)
                gc.freeze()
                self._base = self._base or gc.get_freeze_count()

    def release(self) -> None:
        """The app has ended: what it froze is the collector's again, and a load still
        running freezes nothing."""
        self._ended = True
        gc.unfreeze()
        self._base = 0
