"""What the write path refuses or fails with; every one says whether anything changed."""

from __future__ import annotations

import errno

from memtui.engine.errors import MemtuiError
from memtui.i18n import N_, Msg, msg


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
    errno.EROFS: N_("the file system is read-only"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder where a file should be"),
    errno.ENOTDIR: N_("a file stands where a folder should be"),
    errno.ELOOP: N_("it is a symbolic link, which memtui does not follow here"),
    errno.ENXIO: N_("it is not a regular file"),
    errno.EIO: N_("an input/output error"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EMLINK: N_("too many links"),
}


def plain(exc: OSError) -> str:
    """An OSError in words, without Python's `[Errno n]`."""
    said = _PLAIN.get(exc.errno or 0)
    return Msg(said) if said else (exc.strerror or str(exc)).lower()


def os_failure(rel: str, exc: OSError, applied: bool = False) -> WriteError:
    if applied:
        return WriteError(
            msg(
                "{rel}: {plain}; the change was interrupted and is settled by the next memtui "
                "command",
                rel=rel,
                plain=plain(exc),
            )
        )
    return WriteError(msg("{rel}: {plain}; nothing was changed", rel=rel, plain=plain(exc)))
