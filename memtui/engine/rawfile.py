"""A store file's bytes, read safely: a regular file only (a FIFO must not hang us),
never more than the size limit, and the stat that vouches for them on a later read.
No dataclasses here: `memtui search` reads through this alone (engine.textfile builds
the decoded TextFile on it)."""

from __future__ import annotations

import os
import stat
import time

from memtui.i18n import Msg, msg

# A file changed this recently may change again within the same timestamp tick
# (Linux stamps files from a coarse clock): its stat can't vouch for its content.
RACY_NS = 2_000_000_000

Stamp = int


def stamp_of(info: os.stat_result) -> Stamp | None:
    """What says a file is unchanged, or None if it changed too recently to tell."""
    if time.time_ns() - max(info.st_mtime_ns, info.st_ctime_ns) < RACY_NS:
        return None
    return hash((info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev))


def unchanged(abspath: str, stamp: Stamp | None) -> bool:
    """Whether the file at `abspath` still has the stat it had when read (same inode,
    size and times, and old enough that a same-tick rewrite would have shown)."""
    if stamp is None:
        return False
    try:
        info = os.stat(abspath)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and stamp_of(info) == stamp


def not_regular(mode: int) -> str:
    """What stands where a regular file should be, as the reason it is not read (one
    wording for the reader, `context` and the write path's refusals)."""
    if stat.S_ISDIR(mode):
        return msg("a folder, not a file")
    if stat.S_ISFIFO(mode):
        return msg("a FIFO, not a regular file")
    if stat.S_ISSOCK(mode):
        return msg("a socket, not a regular file")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return msg("a device, not a regular file")
    return msg("not a regular file")


def not_a_file(abspath: str) -> str | None:
    """Why what a listing found at `abspath` is no regular file, from its stat alone: a
    FIFO is never opened (a read would wait for a writer). None: nothing is there (a
    dangling link) or it is a regular file by now."""
    try:
        info = os.stat(abspath)  # a link here leads inside the root: the listing vetted it
    except (OSError, ValueError):
        return None
    return None if stat.S_ISREG(info.st_mode) else not_regular(info.st_mode)


def not_readable(rel: str, reason: str) -> str:
    """A file that could not be read, named with why: what findings' neighbours, `context`
    and refusals say of it."""
    return msg("{file} is not readable: {reason}", file=rel, reason=reason)


def never_shown(rel: str, reason: str) -> Msg:
    """The finding on a file no layout reads as text: what it is, and that it stays so."""
    return msg("{file} is {reason}; never shown as text, never written", file=rel, reason=reason)


def too_large(limit: int, size: int | None = None) -> str:
    if size is None:
        return msg("larger than the {limit:,}-byte limit", limit=limit)
    return msg("larger than the {limit:,}-byte limit ({size:,} bytes)", limit=limit, size=size)


def read_bytes(abspath: str, limit: int) -> bytes | str:
    """The file's bytes, or why they can't be had."""
    got = read_raw(abspath, limit)
    return got if isinstance(got, str) else got[0]


def read_raw(abspath: str, limit: int) -> tuple[bytes, Stamp | None] | str:
    """The bytes and stamp, or why they can't be had. read() without a size: a
    sized read would allocate `limit` bytes up front for every small file."""
    stamp: Stamp | None = None
    try:
        fd = os.open(abspath, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not hang us
    except OSError as exc:
        return msg("cannot be read: {error}", error=exc.strerror or str(exc))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return not_regular(info.st_mode)
        if info.st_size > limit:
            return too_large(limit, info.st_size)
        raw = os.read(fd, info.st_size + 1)
        if len(raw) > info.st_size:  # it grew meanwhile: read the rest
            raw += _read_rest(fd, limit)
        else:  # read as it was stat'ed (a same-size change shows in the times)
            stamp = stamp_of(info)
    except OSError as exc:
        return msg("cannot be read: {error}", error=exc.strerror or str(exc))
    finally:
        os.close(fd)
    if len(raw) > limit:  # grew while we read it
        return too_large(limit)
    return raw, stamp


def _read_rest(fd: int, limit: int) -> bytes:
    chunks = []
    total = 0
    while total <= limit:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)
