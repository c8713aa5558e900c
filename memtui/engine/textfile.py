"""Reading store files safely and losslessly.

A `TextFile` keeps the decoded text plus what is needed to write it back
byte for byte: whether it had a BOM. UTF-8 decoding is exact, so `encode()`
gives back the very bytes read, and the content hash is derived from them
only when a write needs it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class TextFile:
    path: str  # relative to the root, with "/"
    text: str  # decoded, BOM removed
    bom: bool
    size: int

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


def decode(path: str, raw: bytes) -> TextFile | Unreadable:
    if b"\x00" in raw:
        return Unreadable(path, "binary file (contains NUL bytes)")
    bom = raw.startswith(BOM)
    try:
        text = raw[3:].decode("utf-8") if bom else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return Unreadable(path, f"not valid UTF-8 (byte {exc.start}, line {line})")
    return TextFile(path, text, bom, len(raw))


def read_file(abspath: str, relpath: str, limit: int) -> TextFile | Unreadable:
    """Read one file whole; never raises for bad content."""
    raw = read_bytes(abspath, limit)
    if isinstance(raw, str):
        return Unreadable(relpath, raw)
    return decode(relpath, raw)


def read_bytes(abspath: str, limit: int) -> bytes | str:
    """The file's bytes, or why they can't be had. read() without a size: a
    sized read would allocate `limit` bytes up front for every small file."""
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
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    finally:
        os.close(fd)
    if len(raw) > limit:  # grew while we read it
        return f"larger than the {limit}-byte limit"
    return raw


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
