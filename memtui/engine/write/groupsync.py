"""Group commit: one syncfs(2) per file system for a batch of new files and folders.

A bulk accept makes hundreds of files durable before its commit point. Even side by
side, each fsync waits for its own journal commit and device flush; syncfs commits
the file system once and waits for every dirty page and inode on it, ours among them
(PostgreSQL's `recovery_init_sync_method = syncfs` rests on the same call). Since
Linux 5.8 syncfs reports a writeback error that happened after the descriptor was
opened, so a failed write of one of our files is not lost. Elsewhere (older kernels,
macOS) `sync` says no and the caller fsyncs each one.

The price: syncfs also flushes other programs' dirty data on that file system. So a
batch smaller than BATCH keeps per-file fsyncs.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence

BATCH = 16  # files and folders in one sync: fewer, and each gets its own fsync
_ERRORS_SINCE = (5, 8)  # the kernel from which syncfs reports writeback errors


@functools.cache
def _syncfs() -> Callable[[int], int] | None:
    """libc's syncfs, where it exists and reports errors; None elsewhere."""
    if not sys.platform.startswith("linux") or _kernel() < _ERRORS_SINCE:
        return None
    try:
        import ctypes

        call = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return None
    call.argtypes = [ctypes.c_int]
    call.restype = ctypes.c_int

    def syncfs(fd: int) -> int:
        return 0 if call(fd) == 0 else ctypes.get_errno()

    return syncfs


def _kernel() -> tuple[int, int]:
    try:
        major, minor = os.uname().release.split(".")[:2]
        return int(major), int("".join(c for c in minor if c.isdigit()) or 0)
    except ValueError:
        return (0, 0)


def sync(fds: Sequence[int], failed: Callable[[int], None]) -> bool:
    """Make every descriptor's file or folder durable with one syncfs per file system.
    False (nothing done) where that is not possible or the batch is small; OSError,
    after `failed(fd)` is told the first descriptor of the file system that failed."""
    syncfs = _syncfs() if len(fds) >= BATCH else None  # (a small one imports no ctypes)
    if syncfs is None:
        return False
    devices: dict[int, int] = {}  # st_dev -> its first descriptor
    for fd in fds:
        devices.setdefault(os.fstat(fd).st_dev, fd)
    for fd in devices.values():
        code = syncfs(fd)
        if code:
            failed(fd)
            raise OSError(code, os.strerror(code))
    return True
