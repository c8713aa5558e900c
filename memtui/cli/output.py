"""Printing for the command line: JSON for scripts, sanitised text for people."""

from __future__ import annotations

import re
import sys
from typing import Any

from memtui.sanitize import printable

_C1 = re.compile(r"[\x80-\x9f]")


def line(text: str = "") -> None:
    sys.stdout.write(printable(text) + "\n")


def emit_json(data: Any) -> None:
    """JSON with CJK kept readable; C1 controls escaped too (json escapes only C0)."""
    import json

    text = json.dumps(data, ensure_ascii=False, indent=2)
    sys.stdout.write(_C1.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


def warn(text: str) -> None:
    sys.stderr.write(f"memtui: {printable(text)}\n")


def location(file: str | None, line_no: int | None) -> str:
    if file is None:
        return "-"
    return f"{file}:{line_no}" if line_no else file
