"""`## sections` of a Markdown file are read two ways: a text without fenced code
finds its headings and items for the whole text at once, a text with code blocks
goes line by line, skipping what is inside a block. On any text without code the
two give the same sections: names, items, item lines, spans (lines and chars)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine import markdown
from memtui.engine.textfile import TextFile, split_lines

LINES = st.sampled_from(
    [
        "# Facts",
        "## PYTHON_ENV",
        "##  HOSTS  ",
        "##\tTabbed",
        "## ",
        "###  deeper",
        "#tag",
        "#",
        "####### seven",
        "- db runs on 10.0.0.5",
        "-\ttabbed item",
        "* star item",
        "• 要点",
        "-no space",
        "-",
        "  - indented",
        "",
        "prose line",
        "数据库在 10.0.0.5",
    ]
)


def both(text: str, level: int, keep_items: bool) -> None:
    tf = TextFile("facts.md", text, False, len(text.encode()))
    fast = markdown.sections(tf, level, keep_items)
    lines = split_lines(text)
    by_line = markdown._sections_line_by_line(tf, lines, level, keep_items, markdown.NO_FENCES)
    assert fast == by_line
    # the lines a caller split already (dsh's facts) read as the text's own split
    assert markdown.sections(tf, level, keep_items, lines=split_lines(text)) == fast


@settings(max_examples=400, deadline=None)
@given(
    st.lists(LINES, max_size=14),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.integers(1, 3),
    st.booleans(),
)
@example(["## A", "- a", "# top", "- b", "## B", "- c"], "\n", False, 2, True)
@example(["- before", "## A", "- a"], "\r\n", True, 2, False)
def test_whole_text_reading_equals_line_by_line(lines, eol, trailing, level, keep_items):
    text = eol.join(lines) + (eol if trailing else "")
    both(text, level, keep_items)


def test_a_text_with_code_blocks_reads_line_by_line():
    text = "## A\n- a\n```\n## not a section\n- not an item\n```\n- b\n"
    found = markdown.sections(TextFile("facts.md", text, False, len(text)), 2)
    assert [(s.name, s.items, s.item_lines) for s in found] == [("A", ("a", "b"), (2, 7))]
