"""Noticing the agent's writes cheaply: stat, don't read.

Each poll stats the files memtui parses at the root and in memory/, plus the
layout folders themselves (a file created, removed or renamed there changes
the folder's mtime; an atomic replace is a rename). Every tenth poll stats
every file, for in-place edits inside large folders.
"""

from __future__ import annotations

import contextlib
import os

from memtui.engine.paths import LAYOUT_DIRS, discover

Fingerprint = dict[str, tuple[int, int, int]]  # path -> (mtime_ns, size, inode)


def _stat(root: str, rel: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(os.path.join(root, rel))
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def quick(root: str, top_files: list[str]) -> Fingerprint:
    paths = [".", *top_files, "memory", *(name for name, _ in LAYOUT_DIRS)]
    with contextlib.suppress(OSError):
        paths += [f"memory/{n}" for n in os.listdir(os.path.join(root, "memory"))]
    found = {}
    for rel in paths:
        got = _stat(root, rel)
        if got is not None:
            found[rel] = got
    return found


def full(root: str) -> Fingerprint:
    scan, _, _ = discover(root)
    found = {}
    for rel in scan.files:
        got = _stat(root, rel)
        if got is not None:
            found[rel] = got
    return found


def changed(old: Fingerprint, new: Fingerprint) -> tuple[str, ...]:
    keys = old.keys() | new.keys()
    return tuple(sorted(k for k in keys if old.get(k) != new.get(k)))
