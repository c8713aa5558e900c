"""Text measured in terminal cells, for both faces: a Chinese character takes two, so
len() would misalign a column. rich is imported when first used, so a CLI verb that
pads nothing never loads it."""

from __future__ import annotations


def padded(text: str, width: int, *, right: bool = False) -> str:
    """`text` and spaces to `width` terminal cells (a label column: 名称 is 4 cells);
    `right`: the spaces first, as f"{text:>{width}}" would if it counted cells."""
    pad = " " * max(0, width - cells(text))
    return pad + text if right else text + pad


def cells(text: str) -> int:
    """The terminal cells `text` takes: a wide (CJK) character two, a combining mark none."""
    from rich.cells import cell_len

    return cell_len(text)
