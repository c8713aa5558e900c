"""Modes of what memtui creates: never more readable than what it comes from.

Agent memory holds personal data and people keep it 0600. A copy (snapshot,
journal, archive, composed file) takes the most private mode among the files
its change reads or touches; a new file also no more than its siblings; the
audit log no more than the most private memory file in the store.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable

from memtui.engine.paths import discover, is_temp_name
from memtui.engine.write.dirs import Dirs

OPEN = 0o666  # what a file gets when nothing constrains it (less the umask)


def umask() -> int:
    """The process umask, read without changing it (os.umask would, for every thread)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    return 0o022


def private_mode(file_modes: Iterable[int]) -> int:
    """The permission bits every one of these modes allows (0666 for none)."""
    mode = OPEN
    for m in file_modes:
        mode &= m
    return (mode & 0o666) | 0o600  # the owner always keeps read and write


def audit_mode(root: str, private: int) -> int:
    """For a new audit log: no more readable than any memory file in the store (a scan,
    once); for an existing one, the caller narrows it by this change's files alone."""
    if os.path.lexists(os.path.join(root, ".history", "audit.jsonl")):
        return private
    return private & store_mode(root)


def store_mode(root: str) -> int:
    """What every memory file of the store allows (their most private mode), less the umask."""
    scan = discover(root)[0]
    found = []
    for rel in scan.files:
        try:
            found.append(os.stat(os.path.join(root, rel)).st_mode)
        except OSError:
            continue
    return private_mode(found) & ~umask() | 0o600


class Siblings:
    """The mode of a new file: no more open than its siblings and the change's sources."""

    def __init__(self, dirs: Dirs) -> None:
        self.dirs = dirs
        self._seen: dict[str, int | None] = {}

    def mode(self, rel_dir: str, private: int) -> int | None:
        """None when nothing constrains it (the umask decides)."""
        if rel_dir not in self._seen:
            self._seen[rel_dir] = self._of(rel_dir)
        sibling = self._seen[rel_dir]
        if sibling is None and private == OPEN:
            return None
        return private & (OPEN if sibling is None else sibling) & ~umask()

    def _of(self, rel_dir: str) -> int | None:
        folder = self.dirs.store(rel_dir, create=False)
        if folder is None:
            return None
        found = []
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or is_temp_name(entry.name):
                    continue
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    found.append(info.st_mode)
        return private_mode(found) if found else None
