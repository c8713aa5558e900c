"""`--help` laid out by terminal cells: argparse wraps with textwrap, which counts a
Chinese character as one column (it takes two) and breaks only at spaces (Chinese has
none), so a translated help ran past an 80-column terminal. Text of narrow characters
only is left to argparse, as it always was."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable
from typing import Any

# a run of narrow non-space characters, a run of spaces, or one wide character (compiled
# on first use: 3 ms a call of any verb otherwise, for the help that is rarely asked)
_WIDE = (
    "\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6"
)
_TOKEN = rf"\s+|[^\s{_WIDE}]+|."
_NO_LINE_START = set("，。、；：！？）》」』】")  # kept on the line before them
_NO_LINE_END = set("（《「『【")  # kept with what follows


def _wide(text: str) -> bool:
    from rich.cells import cell_len

    return cell_len(text) != len(text)


def _tokens(text: str) -> list[str]:
    """The pieces a line may break between, punctuation kept where Chinese keeps it."""
    out: list[str] = []
    glue = False
    for token in re.findall(_TOKEN, text):  # re caches the compiled pattern
        if out and (glue or token in _NO_LINE_START):
            out[-1] += token
        else:
            out.append(token)
        glue = token in _NO_LINE_END
    return out


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` cells (a longer unbreakable word alone)."""
    from rich.cells import cell_len

    lines: list[str] = []
    current, used = "", 0
    for token in _tokens(text):
        size = cell_len(token)
        if used + size > width and current.strip():
            lines.append(current.rstrip())
            current, used = "", 0
            if token.isspace():
                continue
        current += token
        used += size
    if current.strip():
        lines.append(current.rstrip())
    return lines


class CellHelpFormatter(argparse.HelpFormatter):
    """argparse's layout, measured in terminal cells where the text has wide characters."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _wide(text):
            return super()._split_lines(text, width)
        return wrap(self._whitespace_matcher.sub(" ", text).strip(), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _wide(text):
            return super()._fill_text(text, width, indent)
        flat = self._whitespace_matcher.sub(" ", text).strip()
        return "\n".join(indent + line for line in wrap(flat, width - len(indent)))

    def _format_usage(
        self, usage: Any, actions: Iterable[argparse.Action], groups: Any, prefix: Any
    ) -> str:
        """The usage's later lines indented under its first, past a wide "usage:"."""
        if prefix is None:
            prefix = argparse._("usage: ")  # type: ignore[attr-defined]
        if prefix.isascii():  # also each verb's parser being made (prefix ""): no rich
            return super()._format_usage(usage, actions, groups, prefix)
        from rich.cells import cell_len

        extra = cell_len(prefix) - len(prefix)
        self._width -= extra  # argparse wraps the usage counting the prefix in characters
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += extra
        first, *rest = text.split("\n")
        return "\n".join([first, *(" " * extra + r if r.startswith(" ") else r for r in rest)])
