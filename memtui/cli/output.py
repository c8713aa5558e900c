"""Printing for the command line: JSON for scripts, sanitised text for people."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any

from memtui import cells
from memtui.i18n import N_, _, error_text, shown
from memtui.sanitize import json_escaped, printable


def line(text: str = "", *, lead: str = "") -> None:
    """`text` sanitised; `lead` is memtui's own (e.g. a coloured level), written as is."""
    sys.stdout.write(lead + printable(text) + "\n")


BLOCK = 256  # lines


def lines(texts: Iterable[str]) -> None:
    """line() of each text, written BLOCK lines at a time: where the output is
    unbuffered (PYTHONUNBUFFERED) a write is a system call, and a search prints
    thousands of lines. What was made is written even if making the next fails."""
    block: list[str] = []
    try:
        for text in texts:
            block.append(printable(text) + "\n")
            if len(block) == BLOCK:
                sys.stdout.write("".join(block))
                block.clear()
    finally:
        if block:
            sys.stdout.write("".join(block))


# SGR codes of the levels: error bold red, warning yellow, info cyan
_LEVEL_SGR = {"error": "1;31", "warning": "33", "info": "36"}
# each level as `check` prints it (--format text), in the reader's language
_LEVEL_WORD = {"error": N_("error"), "warning": N_("warning"), "info": N_("info")}


def colour_wanted() -> bool:
    """Colour on a terminal only: piped output, or NO_COLOR set (no-color.org), is plain."""
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def level_word(level: str, width: int = 8) -> str:
    """The level in the reader's language, padded to `width` terminal cells (a Chinese
    character takes two), coloured when colour_wanted()."""
    word = _(_LEVEL_WORD[level]) if level in _LEVEL_WORD else level
    sgr = _LEVEL_SGR.get(level)
    said = padded(word, width + 1)
    if sgr and colour_wanted():
        return f"\x1b[{sgr}m{word}\x1b[0m{said[len(word) :]}"
    return said


def padded(text: str, width: int) -> str:
    """`text` and spaces to `width` terminal cells, at least one space (a column)."""
    return cells.padded(text, width - 1) + " "


def emit_json(data: Any) -> None:
    """JSON with CJK kept readable; C1 controls and the invisible characters (bidi
    controls, zero-width) escaped too: the very same values for a program, nothing
    hidden or reordered on a terminal."""
    import json

    sys.stdout.write(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


said = error_text  # an error's message in the reader's language, as the app says it


def warn(text: str) -> None:
    sys.stderr.write(f"memtui: {printable(text)}\n")


def location(file: str | None, line_no: int | None) -> str:
    if file is None:
        return "-"
    return f"{file}:{line_no}" if line_no else file


def detail(key: str, value: Any) -> str:
    """A receipt's or log entry's detail as people write it: a count as 1,974 (a line
    number as it is), a list as `a, b` (its first ten), a list of records by its count
    (`--json` has them)."""
    if isinstance(value, int) and not isinstance(value, bool) and key not in ("line", "lines"):
        return f"{value:,}"
    if isinstance(value, list | tuple):
        if any(isinstance(v, dict) for v in value):
            return _("{n} (--json lists them)").format(n=f"{len(value):,}")
        more = " …" if len(value) > 10 else ""
        return ", ".join(str(v) for v in value[:10]) + more
    return shown(value) if isinstance(value, str) else str(value)  # a summary: the engine's words
