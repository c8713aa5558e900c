"""Where the front matter ends: `frontmatter.split` takes a shortcut for the usual
first line (`---` and a newline) and builds its result without the NamedTuple's
Python-level constructor. Held here to the plain reading of the rule, a regular
expression per line: on any text it gives the same parts, or refuses the same."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine import frontmatter

OPEN = re.compile(r"---[ \t]*\r?")
CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*\r?")


def reference(text: str):
    """Front matter is `---` on the first line up to the next `---` or `...` line."""
    lines = text.split("\n")
    if len(lines) < 2 or not OPEN.fullmatch(lines[0]):
        return (None, text, 0)
    for n in range(1, len(lines)):
        if CLOSE.fullmatch(lines[n]):
            head = "\n".join(lines[1:n]) + ("\n" if n > 1 else "")
            body = "\n".join(lines[n + 1 :])
            return (head, body, n + 1)  # the body starts on the line after
    return "refused"


def actual(text: str):
    try:
        got = frontmatter.split(text)
    except frontmatter.FrontMatterError:
        return "refused"
    assert type(got) is frontmatter.Split
    return tuple(got)


PIECES = st.sampled_from(["---", "...", "-", " ", "\t", "\r", "\n", "a: b", "id: 1", "#"])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12))
@example(["---", "\n", "a: b", "\n", "---", "\n", "body"])
@example(["---", "\n", "---"])
@example(["---", "\r", "\n", "a: b", "\n", "...", "\n"])
@example(["---", " ", "\n", "a: b", "\n"])
@example(["---"])
def test_split_equals_the_rule_read_line_by_line(pieces):
    text = "".join(pieces)
    assert actual(text) == reference(text)
