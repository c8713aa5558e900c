"""Noticing the agent's writes cheaply: stat, don't read.

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
from collections.abc import Iterable

from memtui.engine.paths import LAYOUT_DIRS, discover

Fingerprint = dict[str, tuple[int, int, int]]  # path -> (mtime_ns, size, inode)

POLL = 0.5  # seconds between polls
SWEEP_SHARE = 0.003  # of the time, at most, spent on each of the sweep and the walk
SWEEP_MAX = 60  # polls between sweeps, however large the store
FULL_EVERY = 20  # polls, at least, between walks of the whole tree
QUICK_TOP_MAX = 64  # root files stat'ed every poll; more wait for the sweep


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
