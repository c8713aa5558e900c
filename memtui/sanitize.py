"""Store text made safe to show: no byte of a memory file may drive a terminal.

Shared by both faces (the CLI and the app); imports nothing but `re`.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, a CR not ending a line, DEL, and C1 (0x9b is CSI).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


def printable(text: str) -> str:
    """Control characters shown as visible escapes (`\\x1b`), never sent raw."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def one_line(text: str) -> str:
    """printable(), and on one row: tabs as spaces, line breaks as ⏎."""
    return printable(text.replace("\r\n", "⏎").replace("\n", "⏎").replace("\t", "    "))
