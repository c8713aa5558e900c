"""Reading store files safely and losslessly.

A `TextFile` keeps the decoded text plus what is needed to write it back
byte for byte: whether it had a BOM. UTF-8 decoding is exact, so `encode()`
gives back the very bytes read, and the content hash is derived from them
only when a write needs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from memtui.engine.rawfile import (  # noqa: F401 - re-exported
    Stamp,
    read_bytes,
    read_raw,
    stamp_of,
    unchanged,
)
from memtui.engine.records import maker
from memtui.i18n import msg

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class TextFile:
    path: str  # relative to the root, with "/"
    text: str  # decoded, BOM removed
    bom: bool
    size: int
    # The hash of (size, mtime_ns, ctime_ns, inode, device) when read, if the file was
    # older than rawfile.RACY_NS then: a later open may reuse this text while that is unchanged.
    # (One int, not the tuple: 17,000 tuples of five big ints cost 4 MB.)
    stamp: Stamp | None = field(default=None, compare=False)
    # The UTF-8 bytes of `text` while they are not decoded yet, else None: a text the
    # cache kept (engine/cache.py) is decoded when first read, as most are never shown
    # (the --size 500 demo's 21 MB: 25 ms of every warm open).
    utf8: bytes | None = field(default=None, compare=False, repr=False)

    def __getattr__(self, name: str) -> str:
        """`text` of a file the cache kept (its slot unset until now)."""
        if name != "text":
            raise AttributeError(name)
        utf8 = self.utf8
        if utf8 is None:  # decoded meanwhile by another thread, or never given
            return _TEXT_SLOT.__get__(self, TextFile)  # type: ignore[no-any-return]
        text = utf8.decode("utf-8", "surrogatepass")
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "utf8", None)
        return text

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
_TEXT_SLOT = TextFile.__dict__["text"]


class Undecoded:
    """A TextFile of its text's UTF-8 bytes, decoded when first read (TextFile.utf8):
    what engine/cache.py unpickles (it names this class, which becomes a TextFile)."""

    __slots__ = TextFile.__slots__

    def __init__(self, path: str, utf8: bytes, bom: bool, size: int, stamp: Stamp | None):
        self.path = path
        self.utf8 = utf8
        self.bom = bom
        self.size = size
        self.stamp = stamp
        self.__class__ = TextFile  # type: ignore[assignment]

    @staticmethod
    def args(tf: TextFile) -> tuple[str, bytes, bool, int, Stamp | None]:
        """What Undecoded(*args) makes `tf` again of (its bytes as read, decoded or not)."""
        utf8 = tf.utf8
        if utf8 is None:
            utf8 = tf.text.encode("utf-8", "surrogatepass")
        return tf.path, utf8, tf.bom, tf.size, tf.stamp


def decode(path: str, raw: bytes, stamp: Stamp | None = None) -> TextFile | Unreadable:
    if b"\x00" in raw:
        return Unreadable(path, msg("binary file (contains NUL bytes)"))
    bom = raw.startswith(BOM)
    try:
        text = raw[3:].decode("utf-8") if bom else raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        return Unreadable(
            path, msg("not valid UTF-8 (byte {byte}, line {line})", byte=exc.start, line=line)
        )
    return _new_text(path, text, bom, len(raw), stamp, None)


def read_file(abspath: str, relpath: str, limit: int) -> TextFile | Unreadable:
    """Read one file whole; never raises for bad content."""
    got = read_raw(abspath, limit)
    if isinstance(got, str):
        return Unreadable(relpath, got)
    return decode(relpath, *got)


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
