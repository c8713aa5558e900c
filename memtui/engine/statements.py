"""What a file tells its agent, one statement at a time (Layout.statements): the units
the cut-correction rule (engine.cut_correction) compares across a file's cut, and moves.

By default a statement is a line with text, outside front matter, code fences and HTML
comments, and not a heading; a layout whose entries span lines (Hermes' §-separated
entries) gives its own."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from memtui.engine.records import maker

# A date an entry carries in its own text (2026-03-01, 2026-03-01T09:30): its "when".
DATE = re.compile(r"(?<!\d)\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?(?!\d)")
# the same, found from its "-MM-DD" (a literal "-" first: 30 times faster over a large file)
_DATE_REST = re.compile(r"-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?(?!\d)")
_YEAR = re.compile(r"\d{4}|\d")
_RAW = re.compile(r"<(style|script)\b", re.I)
_RAW_END = re.compile(r"</(style|script)>", re.I)
_TAG = re.compile(r"</?[A-Za-z][^<>]*>")  # a line that is one HTML tag: markup, not memory
_FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")


@dataclass(frozen=True, slots=True)
class Statement:
    """One thing the file tells the agent, and where it is."""

    line: int  # 1-based, its first line
    last_line: int  # 1-based, its last line
    start: int  # its text: chars [start, stop) of the file's decoded text (BOM excluded)
    stop: int
    gone: tuple[int, int]  # the chars taken out when it moves away (its separator too)
    when: str | None = None  # the date it carries (ISO), if any: which of two is newer


_new_statement = maker(Statement)  # a line each: 2,000 on a large store's cut memory.md


def by_line(text: str) -> list[Statement]:
    """Every line with text as a statement, but front matter, fenced code, HTML comments,
    <style> and <script> blocks, headings and table rules: what a Markdown memory file
    says, a line at a time."""
    out: list[Statement] = []
    pos, n, fence, comment, raw = 0, 0, "", False, False
    front = text.startswith("---")
    size = len(text)
    dates = _dates(text)  # one pass: the first date at or after each line
    date = next(dates, None)
    while pos < size:
        nl = text.find("\n", pos)
        end = size if nl == -1 else nl + 1
        stop = end - (1 if nl != -1 else 0)
        stop -= 1 if stop > pos and text[stop - 1] == "\r" else 0
        n += 1
        line = text[pos:stop]
        bare = line.strip()
        opened = _FENCE.match(line)
        if front:
            front = not (n > 1 and bare in ("---", "..."))
        elif fence:
            fence = "" if opened and opened.group(1)[0] == fence[0] else fence
        elif opened:
            fence = opened.group(1)
        elif comment or bare.startswith("<!--"):
            comment = "-->" not in bare
        elif raw or _RAW.match(bare):  # a <style> or <script> block is no memory
            raw = _RAW_END.search(bare) is None
        elif bare and not bare.startswith(("#", "|-", "|:", "---")) and not _TAG.fullmatch(bare):
            # moving away takes the line with its ending; a last line without one, the
            # ending before it (the file keeps no final newline)
            gone = (pos, end) if nl != -1 or pos == 0 else (_line_end_before(text, pos), end)
            while date is not None and date[0] < pos:
                date = next(dates, None)
            when = text[date[0] : date[1]] if date is not None and date[1] <= stop else None
            out.append(_new_statement(n, n, pos, stop, gone, when))
        pos = end
    return out


def _dates(text: str) -> Iterator[tuple[int, int]]:
    """(start, stop) of each DATE in `text`, in order."""
    for m in _DATE_REST.finditer(text):
        at = m.start() - 4
        year = at >= 0 and _YEAR.fullmatch(text, at, m.start()) is not None
        if year and (at == 0 or _YEAR.match(text[at - 1]) is None):
            yield at, m.end()


def _line_end_before(text: str, pos: int) -> int:
    """Where the line ending just before `pos` starts (its \\r with it)."""
    at = pos - 1
    return at - 1 if at > 0 and text[at - 1] == "\r" else at


def separated(text: str, spans: list[tuple[int, int]]) -> list[Statement]:
    """Entries at `spans` (char offsets, in file order) with separators between them (a
    Hermes `§` line): one moving away takes the separator before it (the first, the one
    after it), so the others stay separated exactly as before."""
    out = []
    line, counted = 1, 0  # the line at `counted`: each span's line counted from the last's
    for i, (start, stop) in enumerate(spans):
        after = spans[1][0] if len(spans) > 1 else stop
        gone = (spans[i - 1][1], stop) if i else (start, after)
        line += text.count("\n", counted, start)
        last = line + text.count("\n", start, stop)
        counted = start
        found = DATE.search(text, start, stop)
        out.append(Statement(line, last, start, stop, gone, found.group(0) if found else None))
    return out
