"""Char offsets in a text as (line, column) pairs: a scan matches the whole text at
once (one regex pass in C) and reports each hit by its line."""

from __future__ import annotations

import re
from bisect import bisect_right

_NEWLINE = re.compile("\n")


class Lines:
    """The start offset of each line of `text` ("\\n"-separated, as the engine counts)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """Made on the first hit: most texts have none."""
        if self._starts is None:
            self._starts = [0, *(m.end() for m in _NEWLINE.finditer(self.text))]
        return self._starts

    def at(self, offset: int) -> tuple[int, int]:
        """(1-based line, column) of a char offset."""
        n = bisect_right(self.starts, offset) - 1
        return n + 1, offset - self.starts[n]

    def end(self, line: int) -> int:
        """The column where 1-based `line` ends (its "\\r" not counted)."""
        start = self.starts[line - 1]
        stop = self.starts[line] - 1 if line < len(self.starts) else len(self.text)
        if stop > start and self.text[stop - 1] == "\r":
            stop -= 1
        return stop - start

    def span(self, start: int, stop: int) -> tuple[int, int, int]:
        """(line, start column, stop column) of text[start:stop], cut at its first line's end."""
        line, col = self.at(start)
        return line, col, min(col + (stop - start), self.end(line))
