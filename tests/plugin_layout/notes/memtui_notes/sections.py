"""NOTES.md as notes: each `## ` heading (outside code fences) starts one, which runs
to the next. Pure text in, positions out: the parse and the operations share it."""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = re.compile(r"## +(\S.*?)[ \t]*\r?\n?")
FENCE = re.compile(r"(```|~~~)")
# In archive/NOTES.md, the line above each archived note: where it was.
MARK = re.compile(
    r"<!-- notes: archived, was note (\d+) of the file(?:, before note:(\S+?))?"
    r"(; no final newline)? -->\r?\n?"
)


@dataclass(frozen=True, slots=True)
class Section:
    slug: str
    title: str
    start: int  # its heading's line (0-based)
    stop: int  # the line after its last non-blank line
    end: int  # the line after the blank lines that follow it (the next heading's)
    char_start: int
    char_stop: int  # the end of its text as shown (its last non-blank line, with its eol)
    char_end: int  # the end of what it takes along when archived (the blank lines too)


def slug_of(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "note"


def lines_of(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def sections(text: str) -> list[Section]:
    """Every note of the text, in order."""
    lines = lines_of(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    heads: list[tuple[int, str]] = []
    fenced = False
    for i, line in enumerate(lines):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
        elif not fenced and (m := HEADING.fullmatch(line)):
            heads.append((i, m.group(1)))
    found = []
    for n, (start, title) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        stop = end
        while stop > start + 1 and not lines[stop - 1].strip():
            stop -= 1
        found.append(
            Section(
                slug_of(title), title, start, stop, end, offsets[start], offsets[stop], offsets[end]
            )
        )
    return found


def find(text: str, slug: str) -> list[Section]:
    return [s for s in sections(text) if s.slug == slug]


@dataclass(frozen=True, slots=True)
class Archived:
    """One note in archive/NOTES.md: its mark line, then its text."""

    slug: str
    title: str
    place: int  # which note of the file it was (0: the first)
    before: str | None  # the note it was before; None: it was the last
    final_newline: bool  # whether its text ended with a newline where it was
    char_start: int  # its mark line's start
    char_end: int  # the next mark's start (or the end)
    text_start: int
    line: int  # its heading's line (0-based)


def archived(text: str) -> list[Archived]:
    lines = lines_of(text)
    marks = []
    offset = 0
    for i, line in enumerate(lines):
        if m := MARK.fullmatch(line):
            marks.append((i, offset, m))
        offset += len(line)
    found = []
    for n, (i, at, m) in enumerate(marks):
        end = marks[n + 1][1] if n + 1 < len(marks) else len(text)
        start = at + len(lines[i])
        head = HEADING.fullmatch(lines[i + 1]) if i + 1 < len(lines) else None
        if head is None:
            continue  # a mark without its note: not ours to restore
        title = head.group(1)
        found.append(
            Archived(
                slug_of(title),
                title,
                int(m.group(1)),
                m.group(2),
                m.group(3) is None,
                at,
                end,
                start,
                i + 1,
            )
        )
    return found


def mark(place: int, before: str | None, final_newline: bool) -> str:
    where = f"note {place} of the file" + (f", before note:{before}" if before else "")
    return f"<!-- notes: archived, was {where}{'' if final_newline else '; no final newline'} -->\n"
