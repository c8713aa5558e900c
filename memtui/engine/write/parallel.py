"""Many small durable writes of one transaction, a few at a time.

A bulk accept fsyncs hundreds of snapshots and staged sops before its commit point
(written first, on the calling thread: files.Unsynced). Each fsync is a wait on the
disk, not work for Python (the call lets go of the GIL), and fsyncs that are in flight
together are committed by the file system's journal together. Every one still
finishes, fsynced, before `each` returns, so the journal (the commit point) comes
after all of them, exactly as when done one by one. A handful of writes (every
single-file change) stays on the calling thread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

WORKERS = 8
SERIAL_BELOW = 16  # fewer writes than this: no threads


def each(
    items: Sequence[Item], fn: Callable[[Item], Result], failed: Callable[[Item], None]
) -> list[Result]:
    """fn(item) for every item, results in item order. On a failure, every other write
    still runs to its end (the caller's abort then removes them all); then `failed(item)`
    is told the first failing item (in item order) and its exception is raised."""
    if len(items) < SERIAL_BELOW:
        results = []
        for item in items:
            try:
                results.append(fn(item))
            except BaseException:
                failed(item)
                raise
        return results
    with ThreadPoolExecutor(min(WORKERS, len(items)), thread_name_prefix="memtui-io") as pool:
        futures = [pool.submit(fn, item) for item in items]
    # leaving the pool waited for every write
    for item, future in zip(items, futures, strict=True):
        exc = future.exception()
        if exc is not None:
            failed(item)
            raise exc
    return [future.result() for future in futures]
