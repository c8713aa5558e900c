"""Line-level text surgery shared by the layouts' operations and edit.

Every helper works on decoded text and returns new text; only the lines it is
asked to touch change. A file's own line ending is used for what is added, and
a file that ends without a newline still does afterwards.
"""

from __future__ import annotations

import os

from memtui.engine.config import Thresholds
from memtui.engine.ops.common import Refused, current_text
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Transaction, WriteError
from memtui.i18n import msg

Line = tuple[int, int, str]  # (char start, char stop incl. its "\n", content without EOL)


def check_root(root: str) -> None:
    if not os.path.isdir(root):
        raise Refused(msg("{root} is not a folder", root=root))


def load(
    tx: Transaction, rel: str, limits: Thresholds, *, must_exist: bool = True
) -> TextFile | None:
    """The file's current text under the lock (current_text); every reason it cannot
    be used, a path outside the root included, is a Refused."""
    try:
        return current_text(tx, rel, must_exist=must_exist, limits=limits)
    except Refused:
        raise
    except WriteError as exc:  # outside the root, a link, memtui's own bookkeeping
        raise Refused(str(exc)) from None


def encode(tf: TextFile | None, text: str) -> bytes:
    """Bytes for a file's new text (its BOM kept); a new file is plain UTF-8."""
    return tf.encode(text) if tf is not None else text.encode("utf-8")


def eol_of_text(text: str, default: str = "\n") -> str:
    if "\n" not in text:
        return default
    crlf = text.count("\r\n")
    return "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"


def line_ranges(text: str, start: int = 0, stop: int | None = None) -> list[Line]:
    """Each line of text[start:stop] as (start, stop incl. "\\n", content without EOL)."""
    end_all = len(text) if stop is None else stop
    out: list[Line] = []
    pos = start
    while pos < end_all:
        nl = text.find("\n", pos, end_all)
        end = end_all if nl == -1 else nl + 1
        content = text[pos : end_all if nl == -1 else nl]
        out.append((pos, end, content[:-1] if content.endswith("\r") else content))
        pos = end
    return out


def is_blank(content: str) -> bool:
    return not content.strip()


def block_lines(chunk: str) -> list[str]:
    """A chunk's lines without their EOL, trailing blank lines dropped."""
    lines = [content for _s, _e, content in line_ranges(chunk)]
    while lines and is_blank(lines[-1]):
        lines.pop()
    return lines


def append_block(text: str, lines: list[str], eol: str, *, blank: bool = True) -> str:
    """`lines` added at the end, after one blank line (unless the text is empty or
    already ends with a blank line). A text without a final newline keeps none."""
    if not lines:
        return text
    if not text:
        return eol.join(lines) + eol
    ends_nl = text.endswith("\n")
    body = text if ends_nl else text + eol
    last = line_ranges(body)[-1][2]
    if blank and not is_blank(last):
        body += eol
    return body + eol.join(lines) + (eol if ends_nl else "")


def insert_after_content(text: str, start: int, stop: int, lines: list[str], eol: str) -> str:
    """`lines` inserted after the last non-blank line of text[start:stop] (a section:
    before the blank lines that separate it from the next one)."""
    if not lines:
        return text
    ranges = [r for r in line_ranges(text, start, stop) if not is_blank(r[2])]
    if not ranges:
        return text[:start] + "".join(line + eol for line in lines) + text[start:]
    _s, end, _c = ranges[-1]
    if text[end - 1 : end] == "\n":
        return text[:end] + "".join(line + eol for line in lines) + text[end:]
    # the last line of a file without a final newline: it stays without one
    return text[:end] + eol + eol.join(lines) + text[end:]


def cut(text: str, start: int, stop: int, *, separators: bool = False) -> str:
    """text without [start, stop) (whole lines). At the end of the file the final
    newline convention is kept; with `separators`, the blank lines that only
    separated the cut block from the one before it go too."""
    if stop < len(text) or start == 0:
        return text[:start] + text[stop:]
    if separators:
        while start > 0:
            prev = text.rfind("\n", 0, start - 1) + 1
            if not is_blank(text[prev : start - 1]):
                break
            start = prev
    if not text.endswith("\n") and start > 0 and text[start - 1] == "\n":
        start -= 2 if text[start - 2 : start] == "\r\n" else 1
    return text[:start]


def keep_final_newline(old: str, new: str) -> str:
    """If `old` ended without a newline and `new` gained one at the end, drop it."""
    if old and not old.endswith("\n") and new.endswith("\n"):
        return new[:-2] if new.endswith("\r\n") else new[:-1]
    return new


def one_line(value: str | None, what: str, *, required: bool = True) -> str | None:
    """A field value that must fit on one line."""
    if value is None:
        if required:
            raise Refused(msg("{what} is required", what=what))
        return None
    if not isinstance(value, str):
        raise Refused(msg("{what} must be text", what=what))
    text = value.strip()
    if "\n" in text or "\r" in text:
        raise Refused(msg("{what} must be one line", what=what))
    if required and not text:
        raise Refused(msg("{what} is empty", what=what))
    return text
