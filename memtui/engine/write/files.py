"""Low-level durable file operations used by the transaction."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal

from memtui.engine.paths import TEMP_MARK, is_temp_name  # noqa: F401 - re-exported


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_or_none(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def digest_of(path: str) -> str | None:
    data = read_or_none(path)
    return None if data is None else sha256(data)


def write_durable(path: str, data: bytes, mode: int = 0o644) -> None:
    """Write, flush and fsync a new file (it must not exist)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fchmod(fd, mode)  # mkstemp-style 0600 or the umask must not change the mode
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(path: str) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def file_mode(path: str, default: int = 0o644) -> int:
    try:
        return os.stat(path).st_mode & 0o7777
    except FileNotFoundError:
        return default


_CRASH_AT = os.environ.get("MEMTUI_CRASH_AT")  # "step" or "step#n" (its n-th time)
_crash_seen: dict[str, int] = {}


def crash_point(step: str) -> None:
    """Fault injection for the crash tests: die by SIGKILL at the step that
    MEMTUI_CRASH_AT names (e.g. `journaled`, `applied:2#3`). Free when unset."""
    if _CRASH_AT is None:
        return
    count = _crash_seen[step] = _crash_seen.get(step, 0) + 1
    if _CRASH_AT in (step, f"{step}#{count}"):
        os.kill(os.getpid(), signal.SIGKILL)


def unlink_quietly(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def ensure_dir(path: str, known: set[str] | None = None, dirty: set[str] | None = None) -> None:
    """makedirs, with every folder it creates made durable in its parent. `known`
    holds folders already checked by the caller (a bulk accept touches thousands
    of files in a handful of folders); parents go to `dirty` for the caller to
    fsync once, or are fsynced here."""
    if known is not None and path in known:
        return
    missing = []
    probe = path
    while not os.path.isdir(probe):
        missing.append(probe)
        probe = os.path.dirname(probe)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder)
        if dirty is None:
            fsync_dir(os.path.dirname(folder))
        else:
            dirty.add(os.path.dirname(folder))
    if known is not None:
        known.add(path)
