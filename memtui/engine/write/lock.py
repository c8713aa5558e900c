"""The store lock, shared with the agents' bash: `flock -x -w 10` on `.memory.lock`.

fcntl.flock is used directly, as the agents' `flock` does: a lock library's
soft fallback would silently stop excluding the agent. The lock file is
never deleted or replaced (a new inode would break mutual exclusion).
"""

from __future__ import annotations

import fcntl
import os
import time

from memtui.engine.paths import LOCK_NAME

WAIT_SECONDS = 10.0


class LockTimeout(Exception):
    pass


class StoreLock:
    """Exclusive flock on <root>/.memory.lock; a context manager. Not re-entrant."""

    def __init__(self, root: str, wait: float = WAIT_SECONDS) -> None:
        self.path = os.path.join(root, LOCK_NAME)
        self.wait = wait
        self._fd: int | None = None

    def __enter__(self) -> StoreLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        # O_APPEND without O_TRUNC: opening never changes the file the agent also opens.
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
        deadline = time.monotonic() + self.wait
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise LockTimeout(
                        f"the store lock {LOCK_NAME} is held by another writer (the agent?) "
                        f"and was not free within {self.wait:g} s; nothing was changed"
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.05)
                continue
            self._fd = fd
            return

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
