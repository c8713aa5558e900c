"""Store text as literal Rich Text: never markup, never a terminal escape.

Widgets parse a plain `str` as markup (`[@click=app.quit]` would run an
action); a `Text` is literal. Control characters are made visible first,
because Rich passes ESC and C1 straight to the terminal.
"""

from __future__ import annotations

from rich.text import Text

from memtui.sanitize import one_line, printable


def literal(text: str, style: str = "") -> Text:
    return Text(printable(text), style=style, end="")


def row(text: str, style: str = "") -> Text:
    """One row of a list: line breaks and tabs shown inline."""
    return Text(one_line(text), style=style, no_wrap=True, end="")
