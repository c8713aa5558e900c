"""Noticing the agent's writes cheaply: the OS tells, else stat, don't read.

`watch` listens for the operating system's change notifications (watchfiles:
inotify, FSEvents, kqueue), so an idle app costs nothing; a change counts when it
lands in a folder the store reads. Where notifications are missing or fail (some
network file systems, an exhausted inotify limit), it polls as below, and even
with notifications a slow sweep (NOTIFIED_SHARE of a core) still stats every file
read, for a file system that delivers no events for writes from another host.

Each poll (POLL seconds) stats the layout folders (a file created, removed or
renamed there changes the folder's mtime; an atomic replace is a rename), the
files in memory/, and the files memtui parses at the root when there are few
(QUICK_TOP_MAX; a store with thousands of root files leaves them to the sweep).
A sweep stats every file the last snapshot holds, for in-place edits inside
large folders (a candidate appended to): as often as costs at most SWEEP_SHARE
of one core, so once a second on small stores and every SWEEP_MAX polls at
most on 17,000 files. The folders are walked again for new nested folders at
most every FULL_EVERY polls, and as rarely as the same share of time needs.
Idle on the large demo store, all of this stays well under 1% of a core.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from memtui.engine.paths import LAYOUT_DIRS, discover

Fingerprint = dict[str, tuple[int, int, int]]  # path -> (mtime_ns, size, inode)

POLL = 0.5  # seconds between polls
SWEEP_SHARE = 0.003  # of the time, at most, spent on each of the sweep and the walk
SWEEP_MAX = 60  # polls between sweeps, however large the store
FULL_EVERY = 20  # polls, at least, between walks of the whole tree
QUICK_TOP_MAX = 64  # root files stat'ed every poll; more wait for the sweep
NOTIFIED_SHARE = 0.0003  # of the time spent sweeping when notifications work
SETTLE_MS = 50  # notifications this close together make one change


def _stat(root: str, rel: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(os.path.join(root, rel))
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def quick(root: str, top_files: list[str]) -> Fingerprint:
    top = top_files if len(top_files) <= QUICK_TOP_MAX else []
    paths = [".", *top, "memory", *(name for name, _ in LAYOUT_DIRS)]
    with contextlib.suppress(OSError):
        paths += [f"memory/{n}" for n in os.listdir(os.path.join(root, "memory"))]
    return sweep(root, paths)


def full(root: str) -> Fingerprint:
    scan, _, _ = discover(root)
    return sweep(root, scan.files)


def sweep(root: str, files: Iterable[str]) -> Fingerprint:
    found = {}
    for rel in files:
        got = _stat(root, rel)
        if got is not None:
            found[rel] = got
    return found


def sweep_every(cost: float) -> int:
    """Polls between sweeps, for a sweep that took `cost` seconds."""
    return max(2, min(SWEEP_MAX, math.ceil(cost / SWEEP_SHARE / POLL)))


def full_every(cost: float) -> int:
    """Polls between walks of the tree, for a walk that took `cost` seconds."""
    return max(FULL_EVERY, math.ceil(cost / SWEEP_SHARE / POLL))


def changed(old: Fingerprint, new: Fingerprint, *, added: bool = True) -> tuple[str, ...]:
    """Paths whose stat differs; with `added=False`, paths only `new` has don't count
    (a sweep over a newer snapshot's files: those were read already)."""
    keys = old.keys() | new.keys() if added else old.keys()
    return tuple(sorted(k for k in keys if old.get(k) != new.get(k)))


class Stop(Protocol):
    """When to stop watching: a threading.Event, or a worker's cancellation."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float) -> bool: ...


class Cancelled:
    """A worker's cancellation as a `Stop`."""

    def __init__(self, worker: object) -> None:
        self._worker = worker

    def is_set(self) -> bool:
        return bool(getattr(self._worker, "is_cancelled", False))

    def wait(self, timeout: float) -> bool:
        time.sleep(timeout)
        return self.is_set()


Files = Callable[[], tuple[tuple[str, ...], list[str]]]  # (every file read, root files)


def watch(
    root: str,
    files: Files,
    changed_paths: Callable[[tuple[str, ...]], None],
    stop: Stop,
    keep: Callable[[], Callable[[str], bool]] | None = None,
) -> None:
    """Call `changed_paths` with what changed on disk, until `stop` is set. `keep()`
    says which paths are the store's (an agent home's logs and databases are not)."""
    try:
        import watchfiles

        events = watchfiles.watch(
            root,
            watch_filter=None,
            debounce=SETTLE_MS,
            step=SETTLE_MS,
            stop_event=stop,
            rust_timeout=int(POLL * 1000),
            yield_on_timeout=True,
            raise_interrupt=False,
            ignore_permission_denied=True,
        )
        _notified(root, files, changed_paths, stop, events, keep or _everything)
    except (OSError, RuntimeError):  # no notifications here (or they broke): poll
        if not stop.is_set():
            poll(root, files, changed_paths, stop)


def _notified(
    root: str,
    files: Files,
    changed_paths: Callable[[tuple[str, ...]], None],
    stop: Stop,
    events: Iterable[set[tuple[object, str]]],
    keep: Callable[[], Callable[[str], bool]],
) -> None:
    known, _ = files()
    swept, every = sweep(root, known), SWEEP_MAX
    folders = read_folders(known)
    for waits, batch in enumerate(events, 1):
        if stop.is_set():
            return
        now_known, _ = files()
        if now_known is not known:  # a new snapshot: its folders, once
            known, folders = now_known, read_folders(now_known)
        paths = read_paths(root, (path for _, path in batch), folders, keep()) if batch else ()
        # the first look (once the watch is set up) and the slow sweep catch writes no
        # notification reports
        if waits == 1 or waits % every == 0:
            start = time.perf_counter()
            now_swept = sweep(root, known)
            cost = time.perf_counter() - start
            every = max(SWEEP_MAX, math.ceil(cost / NOTIFIED_SHARE / POLL))
            paths += changed(swept, now_swept, added=False)
            swept = now_swept
        if paths:
            changed_paths(tuple(sorted(set(paths))))


def _everything() -> Callable[[str], bool]:
    return lambda rel: True


def read_folders(known: Iterable[str]) -> frozenset[str]:
    """The folders the store reads: the root, the layout folders, those of its files."""
    folders = {".", "memory", *(name for name, _ in LAYOUT_DIRS)}
    folders.update(os.path.dirname(rel) or "." for rel in known)
    return frozenset(folders)


def read_paths(
    root: str,
    absolute: Iterable[str],
    folders: frozenset[str],
    keep: Callable[[str], bool] | None = None,
) -> tuple[str, ...]:
    """The notified paths in `folders` (read_folders) that `keep` says are the store's:
    an agent's logs, caches or database beside its memory do not reload the store."""
    found = []
    prefix = os.path.join(root, "")
    for path in absolute:
        # what relpath gives for a path under the root (thousands a bulk change: relpath
        # makes both absolute and splits them, each time)
        rel = path[len(prefix) :] if path.startswith(prefix) else os.path.relpath(path, root)
        if rel.startswith((".history", os.pardir)) or rel == ".memory.lock":
            continue  # memtui's own books; outside the root
        if (os.path.dirname(rel) or ".") in folders and (keep is None or keep(rel)):
            found.append(rel)
    return tuple(found)


def poll(
    root: str, files: Files, changed_paths: Callable[[tuple[str, ...]], None], stop: Stop
) -> None:
    """The fallback: stat what the store reads every POLL seconds (see the top)."""
    polls, every = 0, 2
    known, top = files()
    quick_seen = quick(root, top)
    swept = sweep(root, known)
    start = time.perf_counter()
    walked = full(root)
    walk_every = full_every(time.perf_counter() - start)
    while not stop.wait(POLL):
        polls += 1
        known, top = files()
        now_quick = quick(root, top)
        paths = changed(quick_seen, now_quick)
        quick_seen = now_quick
        if polls % every == 0:
            start = time.perf_counter()
            now_swept = sweep(root, known)
            every = sweep_every(time.perf_counter() - start)
            paths += changed(swept, now_swept, added=False)
            swept = now_swept
        if polls % walk_every == 0:
            start = time.perf_counter()
            now_walked = full(root)
            walk_every = full_every(time.perf_counter() - start)
            paths += changed(walked, now_walked)
            walked = now_walked
        if paths:
            changed_paths(paths)
