"""What the app says, in the reader's language: an engine error's text and a row's
words (memtui.i18n's, as the CLI says them), a sentence wrapped by terminal cells."""

from __future__ import annotations

from rich.cells import cell_len, chop_cells

from memtui.i18n import error_text as error_text  # the app's errors: as the CLI's
from memtui.i18n import shown as shown  # a row's words: a Msg translated, the store's not


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` terminal cells, broken at spaces where there are
    any and anywhere in a run without (Chinese), as textwrap cannot: it counts characters."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        joined = f"{line} {word}" if line else word
        if cell_len(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        *full, line = chop_cells(word, width) or [""]
        lines += full
    return [*lines, line] if line or not lines else lines
