"""events.md is parsed by two loops: a text without fenced code takes the fast one
(plain tuples from findall, the headings' offsets from a second pass; in a text
without CR each value is matched greedily up to its last non-blank), a text with
code blocks goes match by match, skipping what is inside a block. On any text
without code the two give the same events: numbers, labels, dates, types, fields,
spans (lines and characters), from the start or from a line in the middle (what a
reopen after an append parses)."""

from __future__ import annotations

import datetime as dt

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine.markdown import NO_FENCES
from memtui.engine.textfile import TextFile
from memtui.layouts.companion import parse as companion

HEADINGS = st.sampled_from(
    [
        "### [E001] 2026-11-29 · 约定",
        "### [E000] 2026-11-29T21:40 · last_active",
        "### [E12] 2026-02-30 · 情绪事件",
        "### [E] 2026-11-29 · 用户Todo",
        "### [Ex] no date",
        "### [E١٢] 2026-11-29 · 约定",  # Arabic-Indic digits: no number
        "### [E" + "9" * 19 + "] 2026-11-29 · 约定",  # too long to be a number
        "###  [E007]  2026-11-29 ·  重要事件  ",
        "### plain title",
        "###",
        "## 段落",
        "# 事件记录",
        "#### [E003] deeper",
        "#tag not a heading",
        "###\t[E004] tab",
    ]
)
FIELD_LINES = st.sampled_from(
    [
        "**类型**：约定",
        "**类型**: 情绪事件 ",
        "** 状态 **：待跟进",
        "**状态**：已完成\r",
        "**到期日**：2026-12-01",
        "**到期日**：2026-13-01",
        "**情绪强度**：⭐⭐⭐",
        "**情绪强度**：7",
        "**内容**：和小林决定明年一起去京都",
        "**类型**：",
        "**类型**：   ",
        "**状态**：待跟进 \t ",
        "**到期日**：\t2026-12-01\t",
        "**情绪强度**： ⭐ ⭐ ",
        "**状态**：a\rb",
        "**状态**：done\r \t",
        " **类型**：indented, no field",
        "",
        "text with ### inside",
        "\u3000",
    ]
)
LINE = st.one_of(HEADINGS, FIELD_LINES)


def both(text: str, since: int = 0) -> None:
    tf = TextFile("memory/events.md", text, False, len(text.encode()))
    matched = companion._events_between_code(tf, since, NO_FENCES)
    whole = companion.PIECE
    try:
        for piece in (whole, 1, 2, 3):  # the matches listed a few headings at a time too
            companion.PIECE = piece
            fast = companion._events(tf, since)
            assert fast == matched
            assert [(e.span, e.text, e.fields) for e in fast] == [
                (e.span, e.text, e.fields) for e in matched
            ]
    finally:
        companion.PIECE = whole


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=14), st.sampled_from(["\n", "\r\n"]), st.booleans())
@example(["### [E001] 2026-11-29 · 约定", "**类型**：约定"], "\n", False)
@example(["**类型**：约定", "### [E001] a", "**状态**：待跟进", "**状态**：已完成"], "\n", True)
def test_fast_loop_equals_the_match_by_match_loop(lines, eol, trailing):
    text = eol.join(lines) + (eol if trailing else "")
    both(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINE, min_size=1, max_size=10), st.data())
def test_from_a_line_in_the_middle_too(lines, data):
    text = "\n".join(lines) + "\n"
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n" and i + 1 < len(text)]
    both(text, data.draw(st.sampled_from(starts)))


def test_a_text_with_code_blocks_takes_the_match_by_match_loop():
    text = "### [E001] 2026-11-29 · 约定\n```\n### [E002] code\n**状态**：待跟进\n```\n"
    events = companion._events(TextFile("memory/events.md", text, False, len(text.encode())))
    assert [e.label for e in events] == ["E001"]
    assert events[0].status is None
    assert events[0].span.stop == 5


def reference_date(text: str) -> dt.date | None:
    """parse_date's rule as dt.date and dt.time say it."""
    match = companion.DATE.match(text.strip())
    if not match:
        return None
    try:
        day = dt.date(int(match.group(1)), int(match.group(2)), int(match.group(3)))
        if match.group(4) is not None:
            dt.time(int(match.group(4)), int(match.group(5)), int(match.group(6) or 0))
    except ValueError:
        return None
    return day


DATE_PIECES = st.sampled_from(
    ["2026", "0000", "9999", "-", "02", "29", "30", "13", "00", "T", " ", ":", "23", "24",
     "59", "60", "٢٠٢٦", "١٢", "x", "\u3000"]
)  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(st.lists(DATE_PIECES, max_size=12))
@example(["2026", "-", "02", "-", "29"])
@example(["2024", "-", "02", "-", "29", "T", "24", ":", "00"])
@example(["2024", "-", "02", "-", "29", " ", "23", ":", "59", ":", "60"])
@example(["٢٠٢٦", "-", "١٢", "-", "١٢", "T", "١٢", ":", "١٢"])
def test_a_date_is_what_dt_date_and_dt_time_accept(pieces):
    text = "".join(pieces)
    assert companion.parse_date(text) == reference_date(text)


def reference_title(title: str) -> tuple[int | None, str, str]:
    """An event heading's number, date and type as the regular expressions read them."""
    match = companion.EVENT_ID.match(title)
    number = companion.small_int(match.group(1)) if match else None
    tag = match or companion.LEADING_TAG.match(title)
    date, _, kind = (title[tag.end() :] if tag else title).partition("·")
    return number, date.strip(), kind.strip()


TITLE_PIECES = st.sampled_from(
    ["[", "]", "E", "e", "0", "07", "١٢", "9" * 19, " ", "·", "2026-11-29", "约定", "x", "[E"]
)


@settings(max_examples=500, deadline=None)
@given(st.lists(TITLE_PIECES, max_size=8).map("".join))
@example("[E007] 2026-11-29 · 约定")
@example("[E] 2026-11-29 · 约定")
@example("[E١٢] x")
@example("[E12x] x")
@example("[E12]]")
def test_a_heading_reads_as_the_regular_expressions_read_it(title):
    tf = TextFile("memory/events.md", "", False, 0)
    event = companion._event(tf, title, {}, companion.Span("memory/events.md", 0, 1, 0, 0))
    assert (event.number, event.date, event.type) == reference_title(title)
