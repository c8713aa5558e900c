"""Immutable records the engine hands to its faces (CLI and UI)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from memtui.engine.textfile import TextFile

ERROR = "error"
WARNING = "warning"
INFO = "info"
LEVELS = (ERROR, WARNING, INFO)


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    level: str
    file: str | None
    line: int | None  # 1-based
    message: str
    # the layout that found it (None: the store's own checks); a fix is its layout's
    layout: str | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "level": self.level,
            "file": self.file,
            "line": self.line,
            "message": self.message,
        }


class Span(NamedTuple):
    """A run of whole lines in one file: lines [start, stop) and chars [char_start, char_stop).

    Char offsets index the decoded text (BOM excluded), so a write can splice
    exactly these characters and leave every other byte alone. A NamedTuple:
    immutable, and three times cheaper to make than a frozen dataclass.
    """

    file: str
    start: int
    stop: int
    char_start: int
    char_stop: int

    @property
    def lineno(self) -> int:
        return self.start + 1

    @property
    def last_lineno(self) -> int:
        return max(self.start + 1, self.stop)


@dataclass(frozen=True, slots=True)
class Entry:
    """One addressable thing in a store, named by its stable id (SPEC §6)."""

    id: str
    kind: str  # topic | event | fact | sop | pending | profile | file
    layout: str  # the layout's name, or `store` (a file no layout claims)
    title: str
    file: str
    span: Span | None = None  # None: the whole file

    @property
    def line(self) -> int | None:
        return self.span.lineno if self.span else None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "layout": self.layout,
            "title": self.title,
            "file": self.file,
            "line": self.line,
            "end_line": self.span.last_lineno if self.span else None,
        }


# --- a Markdown file's sections ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Section:
    """A `## heading` block of a Markdown file, with its `- ` items."""

    name: str
    items: tuple[str, ...]
    span: Span
    item_lines: tuple[int, ...] = ()  # 1-based, one per item


# --- the timeline and mood views (engine.timeline, engine.views) ------------


FIELD_LINE = re.compile(r"^\*\*(.+?)\*\*[ \t]*[：:][ \t]*([^\n]*?)[ \t]*\r?$", re.M)


@dataclass(frozen=True, slots=True)
class Event:
    """One `### [ENNN] date · type` entry. The fields the checks need are parsed
    up front; the rest are read from the file's text only when asked for, which
    keeps 20,000 events cheap to hold."""

    number: int | None  # None: no usable number
    label: str  # "E007", or "L12" (its line) when it has no number
    date: str
    type: str
    status: str | None
    due: str | None
    stars_raw: str | None
    span: Span
    source: TextFile = field(repr=False, compare=False)

    @property
    def is_sentinel(self) -> bool:
        return self.number == 0

    @property
    def text(self) -> str:
        return self.source.text[self.span.char_start : self.span.char_stop]

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        return tuple((m.group(1).strip(), m.group(2)) for m in FIELD_LINE.finditer(self.text))

    def field(self, key: str) -> str | None:
        return next((v for k, v in self.fields if k == key), None)

    @property
    def is_open(self) -> bool:
        return self.status is not None and self.status.strip() == "待跟进"

    @property
    def content(self) -> str:
        return self.field("内容") or ""

    @property
    def stars(self) -> int | None:
        raw = self.stars_raw
        return None if raw is None or not raw.strip() else count_stars(raw)

    def to_json(self) -> dict[str, Any]:
        fields = self.fields
        return {
            "number": self.number,
            "date": self.date,
            "type": self.type,
            "status": self.status,
            "open": self.is_open,
            "due": self.due,
            "stars": self.stars,
            "content": next((v for k, v in fields if k == "内容"), ""),
            "fields": dict(fields),
            "file": self.span.file,
            "line": self.span.lineno,
        }


def item_text(line: str) -> str:
    """The text of a `- item` line (marker, padding and line ending removed)."""
    return line[2:].strip(" \t\r")


def count_stars(raw: str) -> int:
    """情绪强度 as a number: ⭐ glyphs, or a digit written instead."""
    stars = raw.count("⭐") + raw.count("★")
    if stars:
        return stars
    digits = "".join(ch for ch in raw if ch.isdigit())
    # 18 digits say "not 1-5" as well as 5,000 would (int() refuses 4,300+ digits)
    return int(digits[:18]) if digits.isascii() and digits else 0


@dataclass(frozen=True, slots=True)
class MoodSnapshot:
    time: str
    source: str
    valence: float | None
    energy: float | None
    note: str
    line: int


@dataclass(frozen=True, slots=True)
class Mood:
    # where its agent keeps it (SPEC §2), for faces that say it is absent
    FILE: ClassVar[str] = "memory/mood_state.md"
    AUX: ClassVar[str] = ".mood_state_aux"  # consecutive_g4c_count lives here

    file: str
    valence: float | None
    energy: float | None
    snapshots: tuple[MoodSnapshot, ...]  # newest first, as in the file
    last_decay: str | None
    g4c_count: int | None

    @property
    def healing_guard_on(self) -> bool:
        return (self.g4c_count or 0) >= 2

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "valence": self.valence,
            "energy": self.energy,
            "last_decay_written_at": self.last_decay,
            "consecutive_g4c_count": self.g4c_count,
            "healing_guard_on": self.healing_guard_on,
            "snapshots": [
                {
                    "time": s.time,
                    "source": s.source,
                    "valence": s.valence,
                    "energy": s.energy,
                    "note": s.note,
                    "line": s.line,
                }
                for s in self.snapshots
            ],
        }


# --- what every layout hands the faces ------------------------------------


@dataclass(frozen=True, slots=True)
class OutlineItem:
    """One row of a layout's outline, as plain data: the app's tree renders these
    without knowing the layout. `children` is called when the row is opened (lazy:
    20,000 events are not made into rows until someone looks)."""

    label: str
    file: str | None = None
    line: int | None = None  # 1-based
    entry_id: str | None = None
    # (text, level): level is error|warning|info|ok|muted|heat. A tally of findings is one
    # badge with one level per word: ("✖1 ⚠3", "error warning").
    badges: tuple[tuple[str, str], ...] = ()
    # what a face may offer on it: edit, open, archive, restore, and archive-item,
    # restore-item (x asks which item first), restore-event (restored in the Events pane)
    verbs: tuple[str, ...] = ()
    children: Callable[[], tuple[OutlineItem, ...]] | None = field(default=None, compare=False)
    key: str = ""  # stable among its siblings across snapshots (default: the label)
    style: str = ""  # the label's own look: group | muted
    target: str | None = None  # the id archive/restore acts on, when not entry_id
    folder: str | None = None  # a group standing for a folder: the files under it are its
    holds: tuple[str, ...] = ()  # the files a group's rows stand for (without building them)
    not_offered: str = ""  # why edit or archive, not in `verbs`, is not offered: said when asked


@dataclass(frozen=True, slots=True)
class ContextFile:
    """What the agent loads from one file at the start of a session (SPEC §3c)."""

    file: str
    text: str  # exactly what reaches the agent
    first_unloaded_line: int | None  # 1-based; None: the whole file is loaded
    lines: int  # lines loaded
    note: str = ""  # why it is cut where it is, in words
    # The last line not loaded, when the file's end is loaded again (an agent may keep a
    # tail); None: nothing after the cut is loaded.
    last_unloaded_line: int | None = None
    # Why memtui could not read the file the agent loads (the reader's reason); its
    # text is then unknown, shown as none. None: it was read.
    unreadable: str | None = None
    # Lines of `text` that are the agent's own words, not the file's: (before the file's
    # text, after it), as when an agent wraps the file in a prompt of its own. Shown
    # marked as the agent's, never numbered as lines of the file.
    agent_lines: tuple[int, int] = (0, 0)

    @property
    def cut(self) -> bool:
        return self.first_unloaded_line is not None

    def to_json(self) -> dict[str, Any]:
        data = {
            "file": self.file,
            "cut": self.cut,
            "first_unloaded_line": self.first_unloaded_line,
            "loaded": {
                "lines": self.lines,
                "bytes": len(self.text.encode("utf-8", "surrogatepass")),
                "chars": len(self.text),
            },
            "text": self.text,
        }
        if self.unreadable is not None:
            data["unreadable"] = self.unreadable
        return data
