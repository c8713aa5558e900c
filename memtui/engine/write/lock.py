"""The store lock, shared with the agents' bash: `flock -x -w 10` on `.memory.lock`.

fcntl.flock is used directly, as the agents' `flock` does: a lock library's
soft fallback would silently stop excluding the agent. The lock file is
never deleted or replaced (a new inode would break mutual exclusion).
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import time
from collections.abc import Callable

from memtui.engine.paths import LOCK_NAME
from memtui.engine.write import progress
from memtui.engine.write.errors import LockTimeout, Unsafe, WriteError, plain
from memtui.engine.write.faults import fault_point
from memtui.i18n import msg

WAIT_SECONDS = 10.0
# Never blocks (a FIFO here would hang the open), never follows a link out of the store.
_OPEN = os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


def _new_lock_mode(path: str, of_store: Callable[[], int] | None = None) -> int:
    """A new lock file is as open as the memory files themselves: whoever may write them
    (the agent) must be able to open it, and nobody else needs to. `of_store`: the
    folder's store_mode, when the caller has it (or will need it too)."""
    if os.path.lexists(path):
        return 0o644  # not used: the file exists
    if of_store is not None:
        return of_store()
    from memtui.engine.write.modes import store_mode

    return store_mode(os.path.dirname(path))


def open_lock_file(
    path: str, name: str = LOCK_NAME, of_store: Callable[[], int] | None = None
) -> int:
    """A descriptor on the lock file, which must be a regular file; Unsafe otherwise."""
    try:
        fault_point("lock", path)
        try:
            # O_APPEND without O_TRUNC: opening never changes the file the agent also opens.
            fd = os.open(path, os.O_WRONLY | _OPEN, _new_lock_mode(path, of_store))
        except OSError as exc:
            if exc.errno not in (errno.EROFS, errno.EACCES):
                raise
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO):
            raise Unsafe(
                msg(
                    "{name} is a symbolic link, not the lock file the agent shares; nothing "
                    "was changed",
                    name=name,
                )
                if exc.errno == errno.ELOOP
                else msg(
                    "{name} is a FIFO, not the lock file the agent shares; nothing was changed",
                    name=name,
                )
            ) from None
        raise WriteError(
            msg("{name}: {plain}; nothing was changed", name=name, plain=plain(exc))
        ) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise Unsafe(msg("{name} is not a regular file; nothing was changed", name=name))
    return fd


class StoreLock:
    """Exclusive flock on <root>/.memory.lock (or another lock file of the store, such as
    an agent's own `<file>.lock`, Detection.locks); a context manager. Not re-entrant."""

    def __init__(
        self,
        root: str,
        wait: float = WAIT_SECONDS,
        name: str = LOCK_NAME,
        of_store: Callable[[], int] | None = None,
    ) -> None:
        self.path = os.path.join(root, name)
        self.name = name
        self.wait = wait
        self.of_store = of_store  # the store's mode for a new lock file (modes.StoreMode)
        self._fd: int | None = None

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        fd = open_lock_file(self.path, self.name, self.of_store)
        deadline = time.monotonic() + self.wait
        delay = 0.005
        waited = False
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    if not waited:  # held by someone else: only now is there a wait to tell
                        waited = True
                        progress.waiting(self.name)
                    if time.monotonic() >= deadline:
                        os.close(fd)
                        raise LockTimeout(
                            msg(
                                "the lock {name} is held by another writer (the agent?) and "
                                "was not free within {wait:g} s; nothing was changed",
                                name=self.name,
                                wait=self.wait,
                            )
                        ) from None
                    time.sleep(delay)
                    delay = min(delay * 2, 0.05)
                    continue
                self._fd = fd
                return
        finally:
            if waited:
                progress.waiting(None)

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
