"""Line-level Markdown structure: `## sections` and their items, with spans.

a file can hold 50,000 lines, so the scan is one tight pass over
`str.split` lines that looks at each line's first character only.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from dataclasses import dataclass

from memtui.engine.model import Section, Span, item_text
from memtui.engine.textfile import TextFile, split_lines

HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
ITEM_MARKS = frozenset("-*•")
ITEM_STARTS = tuple(mark + gap for mark in sorted(ITEM_MARKS) for gap in " \t")  # `- item`
# A code fence line (CommonMark): up to 3 spaces, then 3+ backticks or tildes.
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})([^\n]*)$", re.M)


@dataclass(frozen=True, slots=True)
class Fences:
    """The fenced code blocks of a text: inside them a `## X` or `- x` line is code,
    not a heading or an item."""

    starts: tuple[int, ...] = ()  # char offset of each opening fence line
    ends: tuple[int, ...] = ()  # char offset of the end of its closing fence line
    unclosed: int | None = None  # 1-based line of a fence never closed, if any

    def inside(self, pos: int) -> bool:
        """Whether char offset `pos` lies in a fenced block (its fence lines included)."""
        i = bisect.bisect_right(self.starts, pos) - 1
        return i >= 0 and pos < self.ends[i]

    def lines(self, text: str) -> frozenset[int]:
        """The 0-based indexes of the lines inside fenced blocks."""
        found: set[int] = set()
        line = pos = 0  # counted on from the block before: one pass over the text
        for start, end in zip(self.starts, self.ends, strict=True):
            line += text.count("\n", pos, start)
            last = line + text.count("\n", start, end)
            found.update(range(line, last + 1))
            line, pos = last, end
        return frozenset(found)


NO_FENCES = Fences()


def fences(text: str, since: int = 0) -> Fences:
    """The closed fenced code blocks of `text` from char `since` (a line start outside
    any block). An opening fence that is never closed is reported in `unclosed` and
    does not hide the rest of the file: CommonMark would make everything after it
    code, but the agent reading the file sees its later headings as headings."""
    if "```" not in text and "~~~" not in text:
        return NO_FENCES  # the usual file: one fast scan, no regex
    starts: list[int] = []
    ends: list[int] = []
    opened: tuple[int, str, int] | None = None  # (offset, fence char, fence length)
    for m in FENCE.finditer(text, since):
        run, rest = m.group(1), m.group(2)
        if opened is None:
            if run[0] == "`" and "`" in rest:
                continue  # a backtick fence's info string may not hold a backtick
            opened = (m.start(), run[0], len(run))
        elif run[0] == opened[1] and len(run) >= opened[2] and not rest.strip(" \t\r"):
            starts.append(opened[0])
            ends.append(m.end())
            opened = None
    unclosed = None if opened is None else text.count("\n", 0, opened[0]) + 1
    return Fences(tuple(starts), tuple(ends), unclosed)


def sections(
    tf: TextFile,
    level: int = 2,
    keep_items: bool = True,
    fenced: Fences | None = None,
    lines: list[str] | None = None,
) -> list[Section]:
    """Each heading of `level` up to the next heading of that level or higher.
    Headings and items inside fenced code blocks are content (`fenced`: the text's
    fences, if already worked out; `lines`: its split_lines, if already made).

    Without `keep_items` only the items' line numbers are kept (a 50,000-line file)."""
    if lines is None:
        lines = split_lines(tf.text)
    code = fenced if fenced is not None else fences(tf.text)
    if code.starts:
        return _sections_line_by_line(tf, lines, level, keep_items, code)
    # No code block (the usual file): the headings and the items of the whole text
    # are found first, without a Python step per line (50,000 lines).
    bounds: list[tuple[int, str | None]] = []  # each heading of `level` or higher: (line, name)
    for index in _heading_lines(tf.text):
        match = HEADING.match(lines[index].rstrip("\r"))
        if match and len(match.group(1)) <= level:
            bounds.append((index, match.group(2) if len(match.group(1)) == level else None))
    bounds.append((len(lines), None))
    starts = itertools.repeat(ITEM_STARTS)
    items = list(itertools.compress(itertools.count(1), map(str.startswith, lines, starts)))
    found: list[Section] = []
    offset = done = 0  # the char offset of line `done`
    for (start, name), (stop, _) in itertools.pairwise(bounds):
        if name is None:
            continue  # a higher heading: no section until the next one of `level`
        char_start = offset = offset + sum(map(len, lines[done:start])) + start - done
        char_stop = offset = offset + sum(map(len, lines[start:stop])) + stop - start
        done = stop
        numbers = items[bisect.bisect_left(items, start + 2) : bisect.bisect_right(items, stop)]
        names = tuple(item_text(lines[n - 1]) for n in numbers) if keep_items else ()
        span = Span(tf.path, start, stop, char_start, min(char_stop, len(tf.text)))
        found.append(Section(name, names, span, tuple(numbers)))
    return found


_HEADING_START = re.compile(r"\n#")


@dataclass(frozen=True, slots=True)
class Headed:
    """A section as ids name it: its heading (stripped), and which of the sections of
    its file so headed it is (a heading is not an id where two sections share it)."""

    heading: str
    span: Span
    nth: int  # 1-based, among the sections of its file with this heading
    count: int  # how many sections of its file have it


def numbered(found: list[Section]) -> list[Headed]:
    """Each section as ids name it (Headed)."""
    counts = Counter(s.name.strip() for s in found)
    seen: Counter[str] = Counter()
    out = []
    for s in found:
        heading = s.name.strip()
        seen[heading] += 1
        out.append(Headed(heading, s.span, seen[heading], counts[heading]))
    return out


def _heading_lines(text: str) -> list[int]:
    """The 0-based indexes of the lines that start with `#`."""
    found = [0] if text.startswith("#") else []
    line = pos = 0
    for m in _HEADING_START.finditer(text):
        line += text.count("\n", pos, m.end())
        pos = m.end()
        found.append(line)
    return found


def _sections_line_by_line(
    tf: TextFile, lines: list[str], level: int, keep_items: bool, code: Fences
) -> list[Section]:
    """`sections` of a text with fenced code blocks: line by line, skipping the
    headings and items inside a block."""
    found: list[Section] = []
    open_name: str | None = None
    start = char_start = offset = 0
    names: list[str] = []
    numbers: list[int] = []
    for index, line in enumerate(lines):
        first = line[:1]
        if (first == "#" or first in ITEM_MARKS) and code.inside(offset):
            pass  # a heading or item inside a code block is code
        elif first == "#":
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
