"""Modes of what memtui creates: never more readable than what it comes from.

Agent memory holds personal data and people keep it 0600. A copy (snapshot,
journal, archive, composed file) takes the most private mode among the files
its change reads or touches; a new file also no more than its siblings; the
audit log no more than the most private memory file in the store.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable

from memtui.engine.paths import discover, is_temp_name
from memtui.engine.write import operation
from memtui.engine.write.dirs import Dirs

OPEN = 0o666  # what a file gets when nothing constrains it (less the umask)
NOT_A_FILE = -1  # a sibling that is a folder or a link: no mode of a file


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


def audit_mode(root: str, private: int, of_store: Callable[[], int] | None = None) -> int:
    """For a new audit log: no more readable than any memory file in the store (a scan,
    once; `of_store`: the transaction's StoreMode); for an existing one, the caller
    narrows it by this change's files alone."""
    if os.path.lexists(os.path.join(root, ".history", "audit.jsonl")):
        return private
    return private & (of_store or (lambda: store_mode(root)))()


def store_mode(root: str) -> int:
    """What every memory file of the store allows (their most private mode), less the umask."""
    by_folder: dict[str, list[str]] = {}
    for rel in discover(root)[0].files:
        folder, _, name = rel.rpartition("/")  # discover's paths: "/" always, no leading one
        by_folder.setdefault(folder, []).append(name)
    mode = OPEN
    for folder, names in by_folder.items():
        mode &= _folder_modes(os.path.join(root, folder) if folder else root, names)
        if not mode & 0o066:
            break  # the owner's bits alone: no file can narrow it further
    return private_mode([mode]) & ~umask() | 0o600


def _folder_modes(path: str, names: list[str]) -> int:
    """The bits every one of these files allows (links followed, as os.stat does); a file
    that cannot be stat'ed counts for nothing. Stat'ed through the folder's descriptor:
    17,000 path lookups from the root cost more than the stats themselves."""
    mode = OPEN
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        fd = None
    try:
        for name in names:
            try:
                if fd is None:
                    mode &= os.stat(os.path.join(path, name)).st_mode
                else:
                    mode &= os.stat(name, dir_fd=fd).st_mode
            except OSError:
                continue
    finally:
        if fd is not None:
            os.close(fd)
    return mode


class StoreMode:
    """store_mode(root), scanned at most once: a store's first write creates both the lock
    file and the audit log, and each wants it (two scans of every file were a fifth of a
    bulk accept on a large store)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self._mode: int | None = None

    def __call__(self) -> int:
        if self._mode is None:
            self._mode = store_mode(self.root)
        return self._mode


class Siblings:
    """The mode of a new file: no more open than its siblings and the change's sources."""

    def __init__(self, dirs: Dirs) -> None:
        self.dirs = dirs
        self._seen: dict[str, int | None] = {}
        self._umask: int | None = None

    def mode(self, rel_dir: str, private: int) -> int | None:
        """None when nothing constrains it (the umask decides)."""
        if rel_dir not in self._seen:
            self._seen[rel_dir] = self._of(rel_dir)
        sibling = self._seen[rel_dir]
        if sibling is None and private == OPEN:
            return None
        return private & (OPEN if sibling is None else sibling) & ~self.umask()

    def umask(self) -> int:
        """The process umask, read once a transaction (not once a new file: each read is
        one of /proc/self/status)."""
        if self._umask is None:
            self._umask = umask()
        return self._umask

    def _of(self, rel_dir: str) -> int | None:
        """The folder's regular files' modes. A bulk action's chunks each add files to the
        same folders: each chunk stats only the names (and inodes) the one before it did
        not see, where stat'ing every file again made rejecting 10,000 candidates into one
        folder quadratic (458,000 stats). A file chmod'ed meanwhile keeps, for the rest of
        the action, the mode it had when first seen."""
        folder = self.dirs.store(rel_dir, create=False)
        if folder is None:
            return None
        known: dict[tuple[str, int], int] = operation.seen(
            ("sibling modes", self.dirs.root, rel_dir)
        )
        now: dict[tuple[str, int], int] = {}
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith(".") or is_temp_name(entry.name):
                    continue
                key = (entry.name, entry.inode())
                mode = known.get(key)
                if mode is None:
                    try:
                        info = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    mode = info.st_mode if stat.S_ISREG(info.st_mode) else NOT_A_FILE
                now[key] = mode
        known.clear()
        known.update(now)
        found = [mode for mode in now.values() if mode != NOT_A_FILE]
        return private_mode(found) if found else None
