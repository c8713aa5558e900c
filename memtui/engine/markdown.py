"""Line-level Markdown structure: headings, `## sections` and their items, with spans.

Scanning uses whole-text regular expressions (C speed) rather than a Python
loop per line: facts.md can hold 50,000 lines.
"""

from __future__ import annotations

import re

from memtui.engine.model import Section, Span
from memtui.engine.textfile import LineCounter, TextFile

HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
HEADINGS = re.compile(r"^(#{1,6})[ \t]+([^\n]*?)[ \t]*\r?$", re.M)
ITEMS = re.compile(r"^[-*•][ \t]+([^\n]*?)[ \t]*\r?$", re.M)


def heading_level(line: str) -> int:
    match = HEADING.match(line)
    return len(match.group(1)) if match else 0


def sections(tf: TextFile, level: int = 2) -> list[Section]:
    """Each heading of `level` up to the next heading of that level or higher."""
    text = tf.text
    lines = LineCounter(text)
    heads = [(m.start(), len(m.group(1)), m.group(2)) for m in HEADINGS.finditer(text)]
    items = [(m.start(), m.group(1)) for m in ITEMS.finditer(text)]
    stops = [len(text)] * len(heads)  # where each heading's block ends
    for i in range(len(heads) - 2, -1, -1):
        after = heads[i + 1]
        stops[i] = after[0] if after[1] <= level else stops[i + 1]
    found: list[Section] = []
    j = 0
    for (start, depth, name), stop in zip(heads, stops, strict=True):
        if depth != level:
            continue
        first = lines.at(start)
        while j < len(items) and items[j][0] < start:
            j += 1
        names: list[str] = []
        numbers: list[int] = []
        while j < len(items) and items[j][0] < stop:
            numbers.append(lines.at(items[j][0]) + 1)
            names.append(items[j][1])
            j += 1
        last = lines.at(stop) + (1 if stop == len(text) and not text.endswith("\n") else 0)
        span = Span(tf.path, first, max(last, first + 1), start, stop)
        found.append(Section(name, tuple(names), span, tuple(numbers)))
    return found
