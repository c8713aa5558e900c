"""Reading store files safely and losslessly.

A `TextFile` keeps the decoded text plus what is needed to write it back
byte for byte: whether it had a BOM. UTF-8 decoding is exact, so `encode()`
gives back the very bytes read, and the content hash is derived from them
only when a write needs it.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from memtui.engine.records import maker

BOM = b"\xef\xbb\xbf"
# A file changed this recently may change again within the same timestamp tick
# (Linux stamps files from a coarse clock): its stat can't vouch for its content.
RACY_NS = 2_000_000_000

Stamp = int


@dataclass(frozen=True, slots=True)
class TextFile:
    path: str  # relative to the root, with "/"
    text: str  # decoded, BOM removed
    bom: bool
    size: int
    # The hash of (size, mtime_ns, ctime_ns, inode, device) when read, if the file was
    # older than RACY_NS then: a later open may reuse this text while that is unchanged.
    # (One int, not the tuple: 17,000 tuples of five big ints cost 4 MB.)
    stamp: Stamp | None = field(default=None, compare=False)

    def digest(self) -> str:
        """sha256 of the bytes read (the write path's conflict check)."""
        import hashlib

        return hashlib.sha256(self.encode()).hexdigest()

    def encode(self, text: str | None = None) -> bytes:
        """The bytes for `text` (default: this file's text), with the BOM kept."""
        body = (self.text if text is None else text).encode("utf-8")
        return BOM + body if self.bom else body

    def lines(self) -> list[str]:
        return split_lines(self.text)


@dataclass(frozen=True, slots=True)
class Unreadable:
    path: str
    reason: str


_new_text = maker(TextFile)  # one per file read: 17,000 at a large store's open


def decode(path: str, raw: bytes, stamp: Stamp | None = None) -> TextFile | Unreadable:
    if b"\x00" in raw:
        return Unreadable(path, "binary file (contains NUL bytes)")
    bom = raw.startswith(BOM)
    try:
        text = raw[3:].decode("utf-8") if bom else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return Unreadable(path, f"not valid UTF-8 (byte {exc.start}, line {line})")
    return _new_text(path, text, bom, len(raw), stamp)


def read_file(abspath: str, relpath: str, limit: int) -> TextFile | Unreadable:
    """Read one file whole; never raises for bad content."""
    got = _read(abspath, limit)
    if isinstance(got, str):
        return Unreadable(relpath, got)
    return decode(relpath, *got)


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


def read_bytes(abspath: str, limit: int) -> bytes | str:
    """The file's bytes, or why they can't be had."""
    got = _read(abspath, limit)
    return got if isinstance(got, str) else got[0]


def _read(abspath: str, limit: int) -> tuple[bytes, Stamp | None] | str:
    """The bytes and stamp, or why they can't be had. read() without a size: a
    sized read would allocate `limit` bytes up front for every small file."""
    stamp: Stamp | None = None
    try:
        fd = os.open(abspath, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not hang us
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        if info.st_size > limit:
            return f"larger than the {limit}-byte limit ({info.st_size} bytes)"
        raw = os.read(fd, info.st_size + 1)
        if len(raw) > info.st_size:  # it grew meanwhile: read the rest
            raw += _read_rest(fd, limit)
        else:  # read as it was stat'ed (a same-size change shows in the times)
            stamp = stamp_of(info)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if len(raw) > limit:  # grew while we read it
        return f"larger than the {limit}-byte limit"
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


def split_lines(text: str) -> list[str]:
    """Lines without their "\\n" (a "\\r" before it stays, so CRLF survives).

    Unlike str.splitlines this splits on "\\n" only: U+2028, VT or FF inside a
    line are content, not breaks. A final line without "\\n" is kept; a text
    ending in "\\n" has no empty last element.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def iter_lines(text: str) -> Iterator[tuple[int, int, str]]:
    """(0-based index, char offset of the line, line without its EOL)."""
    offset = 0
    for index, raw in enumerate(split_lines(text)):
        yield index, offset, raw[:-1] if raw.endswith("\r") else raw
        offset += len(raw) + 1


def line_count(text: str) -> int:
    """Lines as a person counts them (`wc -l`, plus a last line without "\\n")."""
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


class LineCounter:
    """0-based line index of increasing char offsets, counting newlines once."""

    __slots__ = ("_line", "_pos", "_text")

    def __init__(self, text: str) -> None:
        self._text, self._pos, self._line = text, 0, 0

    def at(self, pos: int) -> int:
        self._line += self._text.count("\n", self._pos, pos)
        self._pos = pos
        return self._line
