"""What a long change says while it runs: how far it is, and whether it waits for a lock
someone else holds.

A face installs a callback around one action (`with reporting(report): ...`), as it
installs the operation (write/operation.py); the engine calls it from wherever it is:
a bulk accept or reject after each of its chunks (layouts/dsh/chunks.py), the lock only
when a non-blocking flock attempt failed, so "waiting for the store lock" is said
only while another writer holds it. Each call hands the whole state, so a face may
drop all but the newest. Without a callback, reporting costs nothing.

A face may also hand a `stop` question: a bulk change asks it between its chunks
(stopped(), which marks the last receipt) and, when it says yes, ends there: the
chunks done stay done (each is one transaction, all of them one operation that one
undo takes back), the rest are left untouched.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Progress:
    done: int = 0  # items finished
    total: int | None = None  # items in all; None: not counted (a change of one thing)
    waiting: str | None = None  # the lock file another writer holds, while waiting for it


Report = Callable[[Progress], None]


class _Reporter:
    def __init__(self, report: Report, stop: Callable[[], bool] | None) -> None:
        self.report = report
        self.stop = stop
        self.state = Progress()

    def tell(self, **changes: object) -> None:
        self.state = replace(self.state, **changes)  # type: ignore[arg-type]
        self.report(self.state)


_current: ContextVar[_Reporter | None] = ContextVar("memtui_progress", default=None)


@contextlib.contextmanager
def reporting(report: Report, stop: Callable[[], bool] | None = None) -> Iterator[None]:
    """Calls to advanced() and waiting() inside go to `report`, in this thread; `stop`
    answers stop_asked()."""
    token = _current.set(_Reporter(report, stop))
    try:
        yield
    finally:
        _current.reset(token)


def advanced(done: int, total: int) -> None:
    """`done` of `total` items are finished (0 first: the total is known)."""
    reporter = _current.get()
    if reporter is not None:
        reporter.tell(done=done, total=total)


def waiting(lock: str | None) -> None:
    """Another writer holds `lock` and this change waits for it; None: it has it now."""
    reporter = _current.get()
    if reporter is not None and reporter.state.waiting != lock:
        reporter.tell(waiting=lock)


def stop_asked() -> bool:
    """Whether the face asked the running bulk change to end after its current chunk."""
    reporter = _current.get()
    return reporter is not None and reporter.stop is not None and reporter.stop()


def each(items: Sequence[T], change: Callable[[T], Any]) -> list[Any]:
    """`change` of each item in turn (a change of its own each, as a face's bulk archive
    of a selection makes them), as one bulk change: the total told first, how many are
    done after each, and a stop asked ends it between two. The receipts of those done;
    the last one's details say `stopped` (done, left) when it was stopped."""
    done: list[Any] = []
    advanced(0, len(items))
    for item in items:
        if done and stopped(done[-1], len(done), len(items)):  # the rest untouched
            break
        done.append(change(item))
        advanced(len(done), len(items))
    return done


def stopped(receipt: Any, done: int, total: int) -> bool:
    """Whether the face asked the bulk change to stop after `receipt`, the last of the
    `done` of `total` made; if so its details say `stopped` (done, left) for the face."""
    if not stop_asked():
        return False
    details = getattr(receipt, "details", None)
    if isinstance(details, dict):
        details["stopped"] = {"done": done, "left": total - done}
    return True
