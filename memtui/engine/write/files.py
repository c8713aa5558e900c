"""Low-level file operations of the write path.

Every open here is of a regular file only, never blocks (a FIFO or a device
where a store file should be is refused, not waited on) and never follows a
link at the last step. Folders are reached through descriptors (`Dirs`), so
a link swapped in after a check cannot redirect a write.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Callable

from memtui.engine.paths import TEMP_MARK, is_temp_name  # noqa: F401 - re-exported
from memtui.engine.rawfile import not_readable, not_regular, too_large
from memtui.engine.write import groupsync, parallel
from memtui.engine.write.errors import Unsafe, WriteError, plain
from memtui.engine.write.faults import crash_point, fault_point  # noqa: F401 - re-exported
from memtui.i18n import msg

NO_LIMIT = 1 << 62
_READ = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def dir_mode(file_mode: int) -> int:
    """The folder mode that lets in whoever the file lets read: 0600 → 0700, 0640 → 0750."""
    mode = file_mode & 0o777
    return mode | ((mode & 0o444) >> 2)


def _regular(fd: int, rel: str, limit: int) -> os.stat_result:
    """The file's stat, or Unsafe saying why it is not read (the reader's words)."""
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        raise Unsafe(
            msg(
                "{not_readable}; nothing was changed",
                not_readable=not_readable(rel, not_regular(info.st_mode)),
            )
        )
    if info.st_size > limit:
        why = too_large(limit, info.st_size)
        raise Unsafe(
            msg(
                "{not_readable}; memtui never writes it, nothing was changed",
                not_readable=not_readable(rel, why),
            )
        )
    return info


def read_at(
    dir_fd: int | None, name: str, rel: str = "", limit: int = NO_LIMIT, follow: bool = False
) -> tuple[bytes, int] | None:
    """(bytes, mode) of a regular file, or None if absent. Unsafe for a link (unless
    `follow`), a FIFO, a device, a folder or a file over `limit`."""
    rel = rel or name
    try:
        fd = os.open(name, _READ & ~os.O_NOFOLLOW if follow else _READ, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unsafe(
                msg("{rel} is a symbolic link; memtui does not write through links", rel=rel)
            ) from None
        raise WriteError(
            msg("{rel} cannot be read: {plain}; nothing was changed", rel=rel, plain=plain(exc))
        ) from None
    try:
        info = _regular(fd, rel, limit)
        data = _read_to_end(fd, info.st_size, limit)
        if len(data) > limit:
            raise Unsafe(
                msg(
                    "{rel} grew past the {limit}-byte limit; nothing was changed",
                    rel=rel,
                    limit=limit,
                )
            )
        return data, info.st_mode & 0o7777
    finally:
        os.close(fd)


def _read_to_end(fd: int, size: int, limit: int) -> bytes:
    """The file's bytes to its end, `size` expected, or as soon as they pass `limit`."""
    chunks = []
    total = 0
    while total <= limit and (chunk := os.read(fd, max(size + 1 - total, 1 << 16))):
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def read_or_none(path: str) -> bytes | None:
    """A regular file's bytes (None: absent); a FIFO or device is refused, never waited on."""
    got = read_at(None, path, os.path.basename(path), follow=True)
    return None if got is None else got[0]


def digest_of(path: str) -> str | None:
    data = read_or_none(path)
    return None if data is None else sha256(data)


def write_new(
    dir_fd: int | None,
    name: str,
    data: bytes,
    mode: int | None = None,
    unsynced: Unsynced | None = None,
    label: str = "",
) -> None:
    """Create `name` (it must not exist), write, fsync. `mode` None: 0666 less the umask.
    `unsynced`: not fsynced here, but handed to it (open) for its `sync`, named `label`."""
    fault_point("write", name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(name, flags, 0o600 if mode is not None else 0o666, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if mode is not None:
            os.fchmod(fd, mode)  # exactly this mode, whatever the umask
        if unsynced is None:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        raise
    if unsynced is None:
        os.close(fd)
    else:
        unsynced.files.append((fd, label or name))


def link_new(
    source: tuple[int, str],
    dir_fd: int,
    name: str,
    data: bytes,
    mode: int,
    unsynced: Unsynced,
    label: str,
) -> bool:
    """Make `name` a second name of the store file `source` (folder descriptor, name)
    when that file holds exactly `data` with exactly `mode`, is ours and has no other
    name: a snapshot of a file the change replaces or removes, for one link instead of
    a create, a write and (for a removal) a freed file. False, with nothing left, when
    the file system has no links or the file is not that; FileExistsError as write_new.
    The change then never writes to that file again (it replaces or removes the name),
    so the snapshot keeps exactly these bytes; handed to `unsynced` like write_new's."""
    fault_point("write", name)
    try:
        os.link(source[1], name, src_dir_fd=source[0], dst_dir_fd=dir_fd, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:
        return False  # no links here (EPERM, EXDEV, EMLINK...): a copy instead
    try:
        fd = os.open(name, _READ, dir_fd=dir_fd)
    except OSError:
        unlink_quietly(name, dir_fd)
        return False
    try:
        info = os.fstat(fd)
        same = (
            stat.S_ISREG(info.st_mode)
            and info.st_nlink == 2
            and info.st_uid == os.geteuid()
            and stat.S_IMODE(info.st_mode) == mode
            and info.st_size == len(data)
            and _read_to_end(fd, len(data), len(data)) == data
        )
    except OSError:
        same = False
    if not same:  # replaced or written since it was read, shared, or not ours to keep
        os.close(fd)
        unlink_quietly(name, dir_fd)
        return False
    unsynced.files.append((fd, label))
    unsynced.links.append(label)
    return True


class Unsynced:
    """Files written (still open) and folders changed by one phase of a commit, to be
    fsynced together at its end. Writing hundreds of snapshots each followed by its
    fsync made every mkdir and create wait on the journal commit the fsync before it
    started (0.5 ms a mkdir here); written first and fsynced after, side by side, they
    cost a third. Everything is still fsynced before `sync` returns, so before the
    caller's commit point, exactly as when done one by one."""

    def __init__(self) -> None:
        self.files: list[tuple[int, str]] = []  # (descriptor, name): closed once synced
        self.folders: dict[int, str] = {}  # descriptor (the caller's: Dirs) -> its name
        self.links: list[str] = []  # link_new's snapshots, by name

    def sync(self, failed: Callable[[str], None] = lambda name: None) -> None:
        """Make every file and folder durable, then close the files: one syncfs per file
        system for a large batch (groupsync), else an fsync each, side by side
        (parallel.each); `failed(name)` is told the one that could not be synced."""
        files, folders = self.files, self.folders
        names = dict(files) | folders
        try:
            every = [fd for fd, _ in files] + list(folders)
            if groupsync.sync(every, lambda fd: failed(names[fd])):
                return
            parallel.each(files, _sync_file, lambda item: failed(item[1]))
        finally:
            self.close()
            self.folders = {}
        parallel.each(list(folders), os.fsync, lambda fd: failed(folders[fd]))

    def close(self) -> None:
        """Close every file still open (after a failure: the caller's abort removes it)."""
        files, self.files = self.files, []
        for fd, _ in files:
            with contextlib.suppress(OSError):
                os.close(fd)


def _sync_file(item: tuple[int, str]) -> None:
    os.fsync(item[0])


def write_durable(path: str, data: bytes, mode: int | None = 0o644) -> None:
    write_new(None, path, data, mode)


def append_at(dir_fd: int, name: str, data: bytes, rel: str, mode: int) -> None:
    """Append to a regular file (created with `mode`), narrowing its mode to `mode`:
    the audit log is never more readable than the files it speaks of."""
    fault_point("write", name)
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(name, flags, 0o600, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise Unsafe(
                msg("{rel} is a symbolic link; memtui does not write through it", rel=rel)
            ) from None
        raise
    try:
        info = _regular(fd, rel, NO_LIMIT)
        if info.st_mode & 0o777 & ~mode:
            os.fchmod(fd, info.st_mode & 0o777 & mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_fd(fd: int) -> None:
    os.fsync(fd)


def fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def unlink_quietly(name: str, dir_fd: int | None = None) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(name, dir_fd=dir_fd)
