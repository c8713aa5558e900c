"""`fact-duplicate`: a fact whose text, its runs of whitespace made one space, is
already in facts.md. The parse takes the usual fact (only single spaces inside) as
its own key and compares only facts whose key's hash repeats; on any facts.md it
reports exactly what comparing every fact's normalised text in order reports."""

from __future__ import annotations

import datetime as dt
import sys

from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine.config import Thresholds
from memtui.engine.reader import StoreReader
from memtui.engine.textfile import TextFile
from memtui.layouts.dsh import parse as dsh

BLANKS = [" ", "  ", "\t", "\u3000", "\xa0", "\x85", "\u2028", "\x1c", "\x0b", "\r"]


def reference(tf: TextFile) -> list[tuple[int, str]]:
    """(line, message) of each duplicate: every fact's normalised text, in file order."""
    seen: dict[str, int] = {}
    found = []
    for section in dsh.sections(tf, 2, False):
        lines = tf.text.split("\n")
        for n in section.item_lines:
            key = " ".join(lines[n - 1][2:].strip(" \t\r").split())
            first = seen.setdefault(key, n)
            if first != n:
                found.append((n, f"the same fact is already on line {first}"))
    return found


def parsed(tf: TextFile) -> list[tuple[int, str]]:
    reader = StoreReader("/nowhere", frozenset(), frozenset(), Thresholds(), dt.date(2026, 11, 29))
    reader.findings.layout = "dsh"  # as open_store runs its parse: its codes are declared
    dsh._parse_facts(reader, tf)
    return [(f.line, f.message) for f in reader.findings.items if f.code == "fact-duplicate"]


word = st.sampled_from(["db", "runs", "on", "10.0.0.5", "数据库", "在", "端口", "x"])
fact = st.lists(st.one_of(word, st.sampled_from(BLANKS)), min_size=1, max_size=6).map("".join)
line = st.one_of(
    fact.map(lambda f: "- " + f),
    fact.map(lambda f: "-\t" + f),
    st.sampled_from(["## PYTHON_ENV", "## HOSTS", "# Facts", "### deeper", "", "prose", "-x"]),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(line, max_size=14), st.sampled_from(["\n", "\r\n"]))
@example(["## A", "- db runs", "- db  runs", "- db\u3000runs"], "\n")
@example(["## A", "- db runs", "- db  runs"], "\n")  # printable, but not its own key
@example(["## A", "- db runs", "## B", "- db runs"], "\r\n")
def test_duplicates_are_what_comparing_every_normalised_fact_finds(lines, eol):
    text = eol.join(lines) + eol
    tf = TextFile("facts.md", text, False, len(text.encode()))
    assert parsed(tf) == reference(tf)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.one_of(word, st.sampled_from(BLANKS)), max_size=8).map("".join))
@example(" a")
@example("a ")
@example("")
def test_fact_key_is_the_text_with_its_blanks_made_one_space(text):
    assert dsh.fact_key(text) == " ".join(text.split())


def test_the_space_is_the_one_printable_blank():
    """What fact_key's shortcut rests on: a printable text holds no blank but " "."""
    blanks = [c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()]
    assert [c for c in blanks if c.isprintable()] == [" "]
