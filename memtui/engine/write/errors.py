"""What the write path refuses or fails with; every one says whether anything changed."""

from __future__ import annotations

import errno

from memtui.engine.errors import MemtuiError
from memtui.i18n import msg


class WriteError(MemtuiError):
    """A refused or failed change. Nothing was written unless the message says so."""


class Refused(WriteError):
    """The operation is not allowed as asked (the reason says why); nothing changed."""


class Conflict(WriteError):
    """A file changed since it was read (by the agent?)."""


class ReadBackMismatch(WriteError):
    pass


class Unsafe(WriteError):
    """A path memtui will not write through: a link out, a FIFO, a file for a folder."""


class JournalStuck(WriteError):
    """An interrupted change that can be neither finished nor undone safely."""


class LockTimeout(WriteError):
    pass


_PLAIN = {
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "it is a folder where a file should be",
    errno.ENOTDIR: "a file stands where a folder should be",
    errno.ELOOP: "it is a symbolic link, which memtui does not follow here",
    errno.ENXIO: "it is not a regular file",
    errno.EIO: "an input/output error",
    errno.ENAMETOOLONG: "the name is too long",
    errno.EMLINK: "too many links",
}


def plain(exc: OSError) -> str:
    """An OSError in words, without Python's `[Errno n]`."""
    return _PLAIN.get(exc.errno or 0) or (exc.strerror or str(exc)).lower()


def os_failure(rel: str, exc: OSError, applied: bool = False) -> WriteError:
    tail = (
        "the change was interrupted and is settled by the next memtui command"
        if applied
        else "nothing was changed"
    )
    return WriteError(msg("{rel}: {plain}; {tail}", rel=rel, plain=plain(exc), tail=tail))
