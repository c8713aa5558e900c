"""Printing for the command line: JSON for scripts, sanitised text for people."""

from __future__ import annotations

import sys
from typing import Any

from memtui.sanitize import json_escaped, printable


def line(text: str = "") -> None:
    sys.stdout.write(printable(text) + "\n")


def emit_json(data: Any) -> None:
    """JSON with CJK kept readable; C1 controls and the invisible characters (bidi
    controls, zero-width) escaped too: the very same values for a program, nothing
    hidden or reordered on a terminal."""
    import json

    sys.stdout.write(json_escaped(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")


def warn(text: str) -> None:
    sys.stderr.write(f"memtui: {printable(text)}\n")


def location(file: str | None, line_no: int | None) -> str:
    if file is None:
        return "-"
    return f"{file}:{line_no}" if line_no else file
