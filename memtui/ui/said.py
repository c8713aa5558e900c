"""What the app says of an engine error, in the reader's language: the engine's text
is a Msg (memtui.i18n) when it has a template, else shown as it is."""

from __future__ import annotations

from rich.cells import cell_len, chop_cells

from memtui.i18n import Msg, tr


def error_text(exc: BaseException) -> str:
    """The error's message translated when the engine made it with msg()."""
    said = next((a for a in exc.args if isinstance(a, Msg)), None) if len(exc.args) == 1 else None
    return tr(said) if said is not None else str(exc)


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


def padded(text: str, width: int, *, right: bool = False) -> str:
    """`text` and spaces to `width` terminal cells (a label column: 名称 is 4 cells);
    `right`: the spaces first, as f"{text:>{width}}" would if it counted cells."""
    pad = " " * max(0, width - cell_len(text))
    return pad + text if right else text + pad


def shown(text: str) -> str:
    """A row's words from the engine that may be the store's own (a heading, a file
    name): translated only when the engine made them with msg(), never by chance."""
    return tr(text) if isinstance(text, Msg) else text
