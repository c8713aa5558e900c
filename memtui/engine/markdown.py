"""Line-level Markdown structure: `## sections` and their items, with spans.

facts.md can hold 50,000 lines, so the scan is one tight pass over
`str.split` lines that looks at each line's first character only.
"""

from __future__ import annotations

import re

from memtui.engine.model import Section, Span, item_text
from memtui.engine.textfile import TextFile, split_lines

HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
ITEM_MARKS = frozenset("-*•")


def sections(tf: TextFile, level: int = 2, keep_items: bool = True) -> list[Section]:
    """Each heading of `level` up to the next heading of that level or higher.

    Without `keep_items` only the items' line numbers are kept (facts.md)."""
    found: list[Section] = []
    open_name: str | None = None
    start = char_start = offset = 0
    names: list[str] = []
    numbers: list[int] = []
    lines = split_lines(tf.text)
    for index, line in enumerate(lines):
        first = line[:1]
        if first == "#":
            match = HEADING.match(line.rstrip("\r"))
            depth = len(match.group(1)) if match else 0
            if match and depth <= level:
                if open_name is not None:
                    span = Span(tf.path, start, index, char_start, offset)
                    found.append(Section(open_name, tuple(names), span, tuple(numbers)))
                    open_name = None
                if depth == level:
                    open_name, start, char_start = match.group(2), index, offset
                    names, numbers = [], []
        elif first in ITEM_MARKS and open_name is not None and line[1:2] in (" ", "\t"):
            if keep_items:
                names.append(item_text(line))
            numbers.append(index + 1)
        offset += len(line) + 1
    if open_name is not None:
        end = len(tf.text)
        found.append(
            Section(
                open_name,
                tuple(names),
                Span(tf.path, start, len(lines), char_start, end),
                tuple(numbers),
            )
        )
    return found
