"""Claude Code's own numbers and cuts (src/memdir/memdir.ts, memoryScan.ts,
memoryTypes.ts), kept exact: what `context` shows and the findings rest on them."""

from __future__ import annotations

import os
import re
from array import array
from dataclasses import dataclass
from urllib.parse import unquote

from memtui.engine.layouts.common import JS_SPACE
from memtui.layouts.claude.detect import (  # noqa: F401 - re-exported
    ARCHIVE,
    ARCHIVE_LINES,
    INDEX,
    LINK,
    RECALL_LINES,
    TYPES,
)

MAX_LINES = 200  # MAX_ENTRYPOINT_LINES
MAX_UNITS = 25_000  # MAX_ENTRYPOINT_BYTES: in fact the JS string length (UTF-16 units)
WARN_LINES = 150
WARN_UNITS = 20_000
LONG_LINE = 150  # "about 150 characters a line"
RECALL_FILES = 200  # MAX_MEMORY_FILES: the newest by mtime
ARCHIVED = ".archived"
# Any Markdown link, to whatever it names: a line linking out of the folder is shaped
# like a pointer even when its target is not a .md file (path-escape, SPEC §5).
ANY_LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)<>\s]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def units(text: str) -> int:
    """JavaScript's `.length`: UTF-16 code units (a character past U+FFFF is two)."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF) if not text.isascii() else len(text)


@dataclass(frozen=True, slots=True)
class Cut:
    """What truncateEntrypointContent keeps of MEMORY.md."""

    text: str  # the loaded text (Claude appends its own warning line after it)
    line_count: int  # lines of the trimmed text
    unit_count: int  # UTF-16 units of the trimmed text
    loaded_lines: int
    first_unloaded_line: int | None  # 1-based line of the file, None: all loaded
    by_lines: bool
    by_units: bool


def cut(raw: str) -> Cut:
    """raw.trim(), the first 200 lines, then at most 25,000 units cut at the last
    newline at or before unit 25,000 (memdir.ts truncateEntrypointContent)."""
    trimmed = raw.strip(JS_SPACE)
    lead = raw[: len(raw) - len(raw.lstrip(JS_SPACE))].count("\n")  # file lines trimmed off
    lines = trimmed.split("\n")
    line_count, unit_count = len(lines), units(trimmed)
    by_lines, by_units = line_count > MAX_LINES, unit_count > MAX_UNITS
    text = "\n".join(lines[:MAX_LINES]) if by_lines else trimmed
    if units(text) > MAX_UNITS:
        code = array("H", text.encode("utf-16-le", "surrogatepass"))
        at = _last_newline(code, MAX_UNITS)
        stop = at if at > 0 else MAX_UNITS
        text = code[:stop].tobytes().decode("utf-16-le", "surrogatepass")
    if text == trimmed:
        return Cut(text, line_count, unit_count, line_count, None, by_lines, by_units)
    loaded = text.count("\n") + 1
    # A cut at a newline ends a line; a cut mid-line (no newline at all) loads part of it.
    whole = trimmed[len(text) : len(text) + 1] == "\n"
    first = lead + loaded + (1 if whole else 0)
    return Cut(
        text, line_count, unit_count, loaded if whole else loaded - 1, first, by_lines, by_units
    )


def _last_newline(code: array, limit: int) -> int:
    """lastIndexOf('\\n', limit) over UTF-16 units; -1 if none."""
    for i in range(min(limit, len(code) - 1), -1, -1):
        if code[i] == 10:
            return i
    return -1


def target_of(ref: str) -> str:
    """A link's target as a path from the root (`#anchor` dropped, %-escapes read)."""
    return os.path.normpath(unquote(ref.split("#", 1)[0])).replace(os.sep, "/")
