"""Folders of one transaction, opened once as descriptors and checked on the descriptor.

memtui's own folders (`.history/…`, the journal) must be real folders all the
way down: a link anywhere in them is refused, since it could lead the
snapshots, the journal or the audit log out of the store. Store folders may be
links that stay inside the root (a store may link `sops/` to a folder beside
it); where one leads is checked on the opened descriptor itself, so a link
swapped in after the check cannot win. Folders memtui creates are never more
open than the folder they are created in, nor than the mode asked for.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
from collections.abc import Callable, Iterator

from memtui.engine.paths import is_inside
from memtui.engine.write.errors import Unsafe
from memtui.engine.write.faults import fault_point
from memtui.i18n import msg

_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
ModeFor = Callable[[str], int]  # relative folder path -> the mode wanted for it


class Dirs:
    def __init__(self, root: str, folder_mode: int = 0o777) -> None:
        self.root = root
        self.folder_mode = folder_mode  # the most a folder created without mode_for may allow
        self._fds: dict[tuple[str, bool], int] = {}
        self._root_fd: int | None = None
        self._unsynced: set[int] | None = None  # parents of new folders, while batched
        self._guard = threading.Lock()  # the descriptors are shared by writer threads

    @contextlib.contextmanager
    def batched_fsync(self) -> Iterator[None]:
        """Folders made inside get their parent fsynced once, on leaving, rather than
        once per folder: a bulk accept makes a history folder per superseded sop, all
        in `.history/sops/`. Callers leave before their commit point (the journal), so
        every folder is as durable there as before."""
        self._unsynced = set()
        try:
            yield
            for fd in self._unsynced:
                os.fsync(fd)
        finally:
            self._unsynced = None

    def close(self) -> None:
        fds = list(self._fds.values())
        if self._root_fd is not None:
            fds.append(self._root_fd)
        self._fds.clear()
        self._root_fd = None
        for fd in fds:
            os.close(fd)

    def root_fd(self) -> int:
        if self._root_fd is None:
            fd = os.open(self.root, _DIR)
            with self._guard:
                if self._root_fd is None:
                    self._root_fd, fd = fd, -1
            if fd != -1:
                os.close(fd)
        assert self._root_fd is not None
        return self._root_fd

    def own(self, rel: str, create: bool = True, mode_for: ModeFor | None = None) -> int | None:
        """memtui's own folder: no component may be a link. None if absent and not created."""
        return self._open(rel, create, mode_for, own=True)

    def store(self, rel: str, create: bool = True, mode_for: ModeFor | None = None) -> int | None:
        """A store folder ('' = the root), which must resolve inside the root."""
        return self._open(rel, create, mode_for, own=False)

    def _open(self, rel: str, create: bool, mode_for: ModeFor | None, own: bool) -> int | None:
        rel = rel.strip("/")
        if not rel:
            return self.root_fd()
        key = (rel, own)
        if key in self._fds:
            return self._fds[key]
        fd = self._opened(rel, create, mode_for, own)
        if fd is None:
            return None
        with self._guard:  # two writer threads may have opened it at once: keep one
            kept = self._fds.setdefault(key, fd)
        if kept != fd:
            os.close(fd)
        return kept

    def _opened(self, rel: str, create: bool, mode_for: ModeFor | None, own: bool) -> int | None:
        parent_rel, name = os.path.split(rel)
        parent = self._open(parent_rel, create, mode_for, own)
        if parent is None:
            return None
        flags = _DIR | os.O_NOFOLLOW if own else _DIR
        try:
            fd = os.open(name, flags, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
            self._mkdir(parent, name, rel, mode_for)
            fd = os.open(name, flags, dir_fd=parent)
        except OSError as exc:
            raise self._refusal(parent, name, rel, exc) from None
        if not own and not is_inside(self.root, _where(fd, os.path.join(self.root, rel))):
            os.close(fd)
            raise Unsafe(
                msg("{rel!r} leads outside the store root; refused; nothing was changed", rel=rel)
            )
        return fd

    def _mkdir(self, parent: int, name: str, rel: str, mode_for: ModeFor | None) -> None:
        fault_point("mkdir", rel)
        wanted = self.folder_mode if mode_for is None else mode_for(rel)
        mode = os.fstat(parent).st_mode & 0o777 & wanted
        try:
            os.mkdir(name, 0o700, dir_fd=parent)
        except FileExistsError:
            return
        fd = os.open(name, _DIR | os.O_NOFOLLOW, dir_fd=parent)
        try:
            os.fchmod(fd, mode | 0o700)  # never looser than its parent; always the owner's
        finally:
            os.close(fd)
        if self._unsynced is None:
            os.fsync(parent)
        else:
            self._unsynced.add(parent)

    def _refusal(self, parent: int, name: str, rel: str, exc: OSError) -> Unsafe:
        try:
            is_link = os.path.islink(os.path.join(f"/proc/self/fd/{parent}", name))
        except OSError:
            is_link = False
        if is_link or exc.errno == errno.ELOOP:
            return Unsafe(
                msg(
                    "{rel} is a symbolic link; memtui keeps its own files only in "
                    "real folders inside the store; nothing was changed",
                    rel=rel,
                )
            )
        if exc.errno == errno.ENOTDIR:
            return Unsafe(
                msg("{rel} is a file where memtui expects a folder; nothing was changed", rel=rel)
            )
        return Unsafe(
            msg(
                "{rel} cannot be opened ({strerror}); nothing was changed",
                rel=rel,
                strerror=exc.strerror,
            )
        )


def _where(fd: int, path: str) -> str:
    """The real path of an open folder: from the descriptor itself where the system says
    (Linux /proc, macOS F_GETPATH), else from its path (a weaker, earlier check)."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        pass
    import fcntl

    if hasattr(fcntl, "F_GETPATH"):
        raw = fcntl.fcntl(fd, fcntl.F_GETPATH, bytes(1024))
        return os.fsdecode(raw.split(b"\0", 1)[0])
    return os.path.realpath(path)
