"""Text a person hands memtui to write (a body file, stdin, what $EDITOR saved, a
reason): read only up to the store's size limit, never a whole endless stream, and
never by waiting forever on a named pipe that nothing writes to.

The limit is the store's `max_file_bytes` (memtui.toml): more than that would make
a file memtui itself calls unreadable. Reading happens before any lock is taken.
"""

from __future__ import annotations

import os
import stat

from memtui.engine.errors import MemtuiError
from memtui.i18n import msg

CHUNK = 1 << 20
REASON_MAX_CHARS = 2000  # a reject reason is a sentence; it goes into every file and audit


class InputError(MemtuiError):
    """The input cannot be used (too large, binary, not UTF-8, nothing writing to
    it); nothing was changed."""


class InputMissing(InputError):
    """The input cannot be opened at all (no such file, a folder): a wrong call."""


def read_input(path: str, limit: int, what: str | None = None) -> str:
    """The UTF-8 text of `path` ("-" is stdin), at most `limit` bytes.

    A regular file is checked by its size first; a pipe, FIFO or device is read
    up to limit+1 bytes only. A FIFO that no process has open for writing is
    refused rather than waited on. Raises InputMissing or InputError."""
    name = what or ("stdin" if path == "-" else path)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC  # a FIFO must not hang the open
    try:
        fd = os.dup(0) if path == "-" else os.open(path, flags)  # stdin: its mode, untouched
    except OSError as exc:
        raise InputMissing(
            msg("cannot read {name}: {value}", name=name, value=exc.strerror or exc)
        ) from None
    try:
        data = _read_bounded(fd, name, limit, own=path != "-")
    finally:
        os.close(fd)
    return decode_input(data, name)


def _read_bounded(fd: int, name: str, limit: int, own: bool) -> bytes:
    try:
        info = os.fstat(fd)
    except OSError as exc:
        raise InputMissing(
            msg("cannot read {name}: {value}", name=name, value=exc.strerror or exc)
        ) from None
    if stat.S_ISDIR(info.st_mode):
        raise InputMissing(msg("cannot read {name}: it is a folder", name=name))
    if stat.S_ISREG(info.st_mode) and info.st_size > limit:
        raise InputError(_too_large(name, limit, info.st_size))
    chunks: list[bytes] = []
    if stat.S_ISFIFO(info.st_mode) and not os.get_blocking(fd):
        # Opened without blocking: an empty read means no process has the pipe open
        # for writing (a FIFO nobody feeds), refused rather than waited on; EAGAIN
        # means a writer holds it open, so its data is worth waiting for.
        try:
            first = os.read(fd, min(CHUNK, limit + 1))
        except BlockingIOError:
            first = None
        except OSError as exc:
            raise InputError(
                msg("cannot read {name}: {value}", name=name, value=exc.strerror or exc)
            ) from None
        if first == b"":
            raise InputError(
                msg("{name} is a pipe that nothing is writing to; nothing changed", name=name)
            )
        if first:
            chunks.append(_no_nul(first, name))
    if own and not os.get_blocking(fd):
        os.set_blocking(fd, True)  # our own open file description, not the shared stdin
    total = sum(map(len, chunks))
    while total <= limit:
        try:
            chunk = os.read(fd, min(CHUNK, limit + 1 - total))
        except OSError as exc:
            raise InputError(
                msg("cannot read {name}: {value}", name=name, value=exc.strerror or exc)
            ) from None
        if not chunk:
            break
        chunks.append(_no_nul(chunk, name))
        total += len(chunk)
    if total > limit:
        raise InputError(_too_large(name, limit))
    return b"".join(chunks)


def _no_nul(chunk: bytes, name: str) -> bytes:
    """NUL bytes make a file binary (the reader calls it unreadable): /dev/zero is
    refused at its first chunk, not after the whole limit."""
    if b"\x00" in chunk:
        raise InputError(
            msg("{name} is binary (it contains NUL bytes); nothing changed", name=name)
        )
    return chunk


def decode_input(data: bytes, name: str) -> str:
    """UTF-8 text (a BOM is dropped: the file keeps its own), or InputError."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            msg(
                "{name} is not valid UTF-8 (byte {start}, line {line}); nothing changed",
                name=name,
                start=exc.start,
                line=line,
            )
        ) from None


def check_reason(reason: str) -> str:
    if len(reason) > REASON_MAX_CHARS:
        raise InputError(
            msg(
                "the reason is {count:,} characters, more than "
                "{REASON_MAX_CHARS:,}; say it in a sentence (nothing changed)",
                count=len(reason),
                REASON_MAX_CHARS=REASON_MAX_CHARS,
            )
        )
    return reason


def _too_large(name: str, limit: int, size: int | None = None) -> str:
    if size is None:
        return msg(
            "{name} is larger than the {limit:,}-byte limit (max_file_bytes in memtui.toml); "
            "nothing changed",
            name=name,
            limit=limit,
        )
    return msg(
        "{name} is larger than the {limit:,}-byte limit ({size:,} bytes) (max_file_bytes in "
        "memtui.toml); nothing changed",
        name=name,
        limit=limit,
        size=size,
    )
