"""Line-level Markdown structure: headings, `## sections` and their items, with spans."""

from __future__ import annotations

import re
from dataclasses import dataclass

from memtui.engine.model import Section, Span
from memtui.engine.textfile import TextFile, iter_lines

HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
ITEM = re.compile(r"^[-*•][ \t]+(.*?)[ \t]*$")


@dataclass(slots=True)
class _Open:
    name: str
    start: int
    char_start: int
    items: list[str]
    item_lines: list[int]


def heading_level(line: str) -> int:
    match = HEADING.match(line)
    return len(match.group(1)) if match else 0


def sections(tf: TextFile, level: int = 2) -> list[Section]:
    """Each heading of `level` up to the next heading of that level or higher."""
    found: list[Section] = []
    current: _Open | None = None
    stop = 0
    for index, offset, line in iter_lines(tf.text):
        match = HEADING.match(line) if line.startswith("#") else None
        if match and len(match.group(1)) <= level:
            if current:
                found.append(_close(tf, current, index, offset))
            current = None
            if len(match.group(1)) == level:
                current = _Open(match.group(2), index, offset, [], [])
        elif current:
            item = ITEM.match(line)
            if item:
                current.items.append(item.group(1))
                current.item_lines.append(index + 1)
        stop = index + 1
    if current:
        found.append(_close(tf, current, stop, len(tf.text)))
    return found


def _close(tf: TextFile, block: _Open, stop: int, char_stop: int) -> Section:
    span = Span(tf.path, block.start, stop, block.char_start, min(char_stop, len(tf.text)))
    return Section(block.name, tuple(block.items), span, tuple(block.item_lines))
