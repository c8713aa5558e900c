r"""What Claude Code makes of MEMORY.md before the agent sees it, step by step, as its
own code does: src/utils/claudemd.ts parseMemoryFileContent for type "AutoMem" (the same
in the 2.1.88 source and in the bundled JS of @anthropic-ai/claude-code-linux-x64 2.1.332,
where it is followed by a sanitizing pass), then src/memdir/memdir.ts
truncateEntrypointContent:

1. the YAML front matter is taken off (frontmatterParser.ts: `^---\s*\n…---\s*\n?`,
   a BOM dropped first);
2. HTML comment blocks are taken off (stripHtmlCommentsFromTokens over marked's
   `Lexer({gfm: false})`: a top-level html token that starts with `<!--` and holds
   `-->`, with the blank lines after it; a comment inside a paragraph or a code block,
   or one never closed, stays);
3. what is left is trimmed and cut at 200 lines, then at 25,000 UTF-16 units (at the
   last newline before it), and a warning paragraph is appended after a cut;
4. (2.1.332) line endings are made `\n` and control / invisible characters dropped.

The cap counts only what step 2 leaves (CHANGELOG 2.1.211: "measure only loaded content,
excluding frontmatter and HTML comments"). Each kept character remembers its place in
the file, so the first line not loaded is named by its line in the file.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from itertools import accumulate, pairwise

from memtui.engine.layouts.common import JS_SPACE
from memtui.layouts.claude.blocks import comment_blocks

MAX_LINES = 200  # MAX_ENTRYPOINT_LINES
MAX_UNITS = 25_000  # MAX_ENTRYPOINT_BYTES: in fact the JS string length (UTF-16 units)
HOOK_UNITS = 80  # the warning quotes the first line cut off, shortened to 80 units
INDEX = "MEMORY.md"

_WS = "[" + re.escape(JS_SPACE) + "]"
FRONT = re.compile(f"---{_WS}*\\n([\\s\\S]*?)---{_WS}*\\n?")  # frontmatterParser's K0
COMMENT = re.compile(r"<!--[\s\S]*?-->")


@dataclass(frozen=True, slots=True)
class Loaded:
    """MEMORY.md as the agent gets it."""

    text: str  # exactly what the agent gets, Claude's warning included
    warning: str  # the paragraph Claude appends after a cut ("" when none)
    line_count: int  # lines Claude counts (front matter and comments off, trimmed)
    unit_count: int  # UTF-16 units Claude counts
    loaded_lines: int
    first_unloaded_line: int | None  # 1-based line of the file, None: all loaded
    by_lines: bool
    by_units: bool
    stripped: frozenset[int]  # 1-based file lines Claude takes off before it counts


def units(text: str) -> int:
    """JavaScript's `.length`: UTF-16 code units (a character past U+FFFF is two)."""
    return len(text) if text.isascii() else len(text.encode("utf-16-le", "surrogatepass")) // 2


def load(raw: str) -> Loaded:
    kept, body = _kept(raw)
    text = "".join(raw[a:b] for a, b in kept) if body is None else body.text
    where = _Where(raw, kept) if body is None else body.where
    trimmed = text.strip(JS_SPACE)
    lead = len(text) - len(text.lstrip(JS_SPACE))
    lines = trimmed.split("\n")
    line_count, unit_count = len(lines), units(trimmed)
    by_lines, by_units = line_count > MAX_LINES, unit_count > MAX_UNITS
    stripped = _stripped(raw, where)
    if not (by_lines or by_units):
        return Loaded(sanitize(trimmed), "", line_count, unit_count, line_count, None,
                      False, False, stripped)  # fmt: skip
    cut = "\n".join(lines[:MAX_LINES]) if by_lines else trimmed
    if units(cut) > MAX_UNITS:
        code = _code(cut)
        at = _last_newline(code, MAX_UNITS)
        cut = code[: at if at > 0 else MAX_UNITS].tobytes().decode("utf-16-le", "surrogatepass")
    whole = trimmed[len(cut) : len(cut) + 1] == "\n"
    loaded = cut.count("\n") + 1 if whole else 0
    first = where.line(lead + (len(cut) + 1 if whole else 0))
    warning = _warning(trimmed, cut, loaded, line_count, unit_count, by_lines, by_units)
    return Loaded(
        sanitize(cut + "\n\n" + warning), sanitize(warning), line_count, unit_count, loaded,
        first, by_lines, by_units, stripped,
    )  # fmt: skip


# --- steps 1 and 2: what Claude takes off -------------------------------------------


class _Where:
    """The file offset of each character of the text Claude keeps: `spans` of a base
    text (the file, or its `\n`-normalized tail) whose concatenation is that text, and
    `conv` from a base offset to the file's."""

    def __init__(
        self, raw: str, spans: list[tuple[int, int]], conv: Callable[[int], int] | None = None
    ) -> None:
        self.raw = raw
        self.text_spans = spans
        self.conv = conv or (lambda i: i)
        self.cum = list(accumulate(b - a for a, b in spans))
        self.spans = [(self.conv(a), self.conv(b)) for a, b in spans]  # what of the file

    def offset(self, pos: int) -> int:
        k = bisect_right(self.cum, pos)
        if k >= len(self.text_spans):
            return len(self.raw)
        return self.conv(self.text_spans[k][0] + pos - (self.cum[k - 1] if k else 0))

    def line(self, pos: int) -> int:
        """The 1-based file line of the kept text's character at `pos`."""
        return self.raw.count("\n", 0, self.offset(pos)) + 1


@dataclass(frozen=True, slots=True)
class _Body:
    text: str
    where: _Where


def _kept(raw: str) -> tuple[list[tuple[int, int]], _Body | None]:
    """The spans of `raw` Claude keeps after the front matter; with comments taken off,
    the text it keeps (its line endings made `\\n`, as stripHtmlComments does)."""
    bom = 1 if raw.startswith("\ufeff") else 0
    match = FRONT.match(raw, bom) if raw.find("---", bom + 3) >= 0 else None
    start = match.end() if match else 0  # no front matter: the content as read, BOM and all
    if "<!--" not in raw[start:]:
        return [(start, len(raw))], None
    return [(start, len(raw))], _uncommented(raw, start)


def _uncommented(raw: str, start: int) -> _Body | None:
    """stripHtmlComments over raw[start:]; None when no block was taken off."""
    norm = re.sub(r"\r\n?", "\n", raw[start:])
    spans: list[tuple[int, int]] = []
    at, was = 0, 0
    for a, b in comment_blocks(norm):
        if "-->" not in norm[a:b]:
            continue  # an unclosed comment: marked's token, but nothing is taken off
        spans.append((was, a))
        kept = _outside_comments(norm, a, b)
        if "".join(norm[x:y] for x, y in kept).strip(JS_SPACE):
            spans.extend(kept)  # what is left of the block beside its comments stays
        was = b
        at += 1
    if not at:
        return None
    spans.append((was, len(norm)))
    spans = [(a, b) for a, b in spans if b > a]
    text = "".join(norm[a:b] for a, b in spans)
    return _Body(text, _Where(raw, spans, _to_file(raw, start, norm)))


def _to_file(raw: str, start: int, norm: str) -> Callable[[int], int]:
    """From an offset in `norm` (raw[start:] with its line endings made `\n`) to the
    file's: the same line, the same column (a lone `\r` is a line of its own in `norm`
    only, so the lines after one are off by as many)."""
    if len(norm) == len(raw) - start:
        return lambda i: start + i
    norm_starts = [0] + [m.end() for m in re.finditer("\n", norm)]
    raw_starts = [start] + [start + m.end() for m in re.finditer("\n", raw[start:])]

    def conv(i: int) -> int:
        line = bisect_right(norm_starts, i) - 1
        if line >= len(raw_starts):
            return len(raw)
        return min(raw_starts[line] + i - norm_starts[line], len(raw))

    return conv


def _outside_comments(text: str, a: int, b: int) -> list[tuple[int, int]]:
    spans, was = [], a
    for m in COMMENT.finditer(text, a, b):
        spans.append((was, m.start()))
        was = m.end()
    spans.append((was, b))
    return [(x, y) for x, y in spans if y > x]


def _stripped(raw: str, where: _Where) -> frozenset[int]:
    """File lines none of whose visible characters Claude keeps (front matter, comments)."""
    spans = where.spans
    gaps = [(0, spans[0][0] if spans else len(raw))]
    gaps += [(a[1], b[0]) for a, b in pairwise(spans)]
    gaps += [(spans[-1][1], len(raw))] if spans else []
    out: set[int] = set()
    for a, b in gaps:
        if b > a:  # only the lines around what was taken off can have lost everything
            last = raw.find("\n", b)
            out |= _dark(raw, spans, raw.rfind("\n", 0, a) + 1, len(raw) if last < 0 else last)
    return frozenset(out)


def _dark(raw: str, spans: list[tuple[int, int]], lo: int, hi: int) -> set[int]:
    """Among the lines of raw[lo:hi], those with visible characters but none kept."""
    keep = bytearray(hi - lo)
    for a, b in spans:
        a, b = max(a, lo), min(b, hi)
        if b > a:
            keep[a - lo : b - lo] = b"\x01" * (b - a)
    out, line, seen, kept = set(), raw.count("\n", 0, lo) + 1, False, False
    for i in range(lo, hi):
        c = raw[i]
        if c == "\n":
            if seen and not kept:
                out.add(line)
            line, seen, kept = line + 1, False, False
        elif not c.isspace():
            seen = True
            kept = kept or bool(keep[i - lo])
    if seen and not kept:
        out.add(line)
    return out


# --- step 3: the cut and Claude's warning ---------------------------------------------


def _code(text: str) -> array:
    return array("H", text.encode("utf-16-le", "surrogatepass"))


def _last_newline(code: array, limit: int) -> int:
    """lastIndexOf('\\n', limit) over UTF-16 units; -1 if none."""
    for i in range(min(limit, len(code) - 1), -1, -1):
        if code[i] == 10:
            return i
    return -1


def _warning(
    trimmed: str, cut: str, loaded: int, lines: int, count: int, by_lines: bool, by_units: bool
) -> str:
    """The paragraph truncateEntrypointContent appends, word for word."""
    if loaded == 0:
        lost = f"everything after the first {units(cut)} characters of line 1 was cut off"
    else:
        nxt = len(cut) + 1
        end = trimmed.find("\n", nxt)
        first = trimmed[nxt : end if end >= 0 else None].strip(JS_SPACE)
        quoted = f' ("{_shortened(first, HOOK_UNITS)}")' if first else ""
        lost = f"{lines - loaded} of {lines} lines were cut off, starting at line {loaded + 1}"
        lost += quoted
    if by_units and not by_lines:
        why = f"{file_size(count)} (limit: {file_size(MAX_UNITS)}) \u2014 index entries are "
        why += "too long"
    elif by_lines and not by_units:
        why = f"{lines} lines (limit: {MAX_LINES})"
    else:
        why = f"{lines} lines and {file_size(count)}"
    return (
        f"> WARNING: {INDEX} is {why}. Only part of it was loaded: {lost}. Keep index "
        "entries to one line under ~200 chars; move detail into topic files."
    )


def _shortened(text: str, limit: int) -> str:
    """Claude's truncateToWidth-like cut: at a word boundary past half, with `…`."""
    if units(text) <= limit:
        return text
    code = _code(text)[: limit - 1]
    if code and 0xD800 <= code[-1] <= 0xDBFF:
        code = code[:-1]
    head = code.tobytes().decode("utf-16-le", "surrogatepass")
    space = re.search(r"\s\S*$", head)
    words = "" if space is None else head[: space.start()].rstrip(JS_SPACE)
    return f"{words if units(words) > limit / 2 else head.rstrip(JS_SPACE)}\u2026"


def file_size(n: int) -> str:
    """formatFileSize: `24.4KB` (JavaScript's toFixed(1), `.0` dropped)."""
    kb = Decimal(n) / 1024
    if kb < 1:
        return f"{n} bytes"
    for unit in ("KB", "MB", "GB"):
        if kb < 1024 or unit == "GB":
            fixed = str(kb.quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
            return fixed.removesuffix(".0") + unit
        kb /= 1024
    raise AssertionError  # pragma: no cover


# --- step 4: what reaches the prompt ----------------------------------------------------

_KEEP = {0x200C, 0x200D, 0xFE0E, 0xFE0F}
_IGNORABLE = (  # Default_Ignorable_Code_Point (DerivedCoreProperties.txt)
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)  # fmt: skip


def _dropped(c: str) -> bool:
    o = ord(c)
    if o in _KEEP or c in "\t\n":
        return False
    if o < 0x20 or 0x7F <= o <= 0x9F:
        return True
    if unicodedata.category(c) in ("Cf", "Co", "Cn", "Cs"):
        return True
    return any(a <= o <= b for a, b in _IGNORABLE)


def sanitize(text: str) -> str:
    """sanitizeMemoryText: line endings as `\\n`; control, format and invisible
    characters dropped (zero-width joiners and variation selectors 15/16 kept)."""
    text = re.sub(r"\r\n?|[\u2028\u2029]", "\n", text)
    dropped = {ord(c): None for c in set(text) if _dropped(c)}  # each character once
    return text.translate(dropped) if dropped else text
