"""Store text made safe to show: no byte of a memory file may drive a terminal, and
no character may hide itself or reorder what is shown around it.

Shared by both faces (the CLI and the app); imports nothing but `re`.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, a CR not ending a line, DEL, and C1 (0x9b is CSI).
_CONTROL = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
# Characters that show nothing or reorder the text around them, so that a name or a
# line reads as something else (`memory_rtl\u202egnp.md`): the soft hyphen, bidi
# marks, embeddings, overrides and isolates (U+061C, U+200E/F, U+202A-E, U+2066-9),
# zero-width and invisible characters (U+180E, U+200B-D, U+2060-4, U+206A-F, a BOM
# inside the text: a file's own BOM is kept apart, never in the text), line and
# paragraph separators, interlinear annotations and the invisible tag characters.
INVISIBLE = (
    "\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
)
_UNSAFE = re.compile(f"[{_CONTROL}{INVISIBLE}]|\r(?!\n)")
_JSON_UNSAFE = re.compile(f"[\x7f-\x9f{INVISIBLE}]")  # json.dumps escapes only C0


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def printable(text: str) -> str:
    """Control and invisible characters shown as visible escapes (`\\x1b`, `\\u202e`),
    never sent raw."""
    if text.isprintable():  # each of them is a control, format or separator character:
        return text  # none is printable (tests/test_text_escaping.py checks every one)
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """printable(), and on one row: tabs as spaces, line breaks as ⏎."""
    return printable(text.replace("\r\n", "⏎").replace("\n", "⏎").replace("\t", "    "))


def json_escaped(text: str) -> str:
    """JSON text (from json.dumps) with DEL, C1 and the invisible characters as
    `\\uXXXX` escapes (UTF-16 pairs above U+FFFF): the same JSON value, safe to print
    on a terminal."""
    return _JSON_UNSAFE.sub(_json_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
