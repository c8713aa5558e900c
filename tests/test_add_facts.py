"""Adding facts to facts.md's sections: a fact already in its section is skipped. The
word prefilter (a key with a word missing from the section cannot be there) gives the
same edit as comparing every new fact with every fact of the section, and the sections
worked out from the edit (carried to a bulk accept's next chunk) equal a fresh parse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.layouts.dsh import text as dsh_text
from memtui.layouts.dsh.text import add_facts, fact_key, fact_sections, might_hold, sections_after

WORDS = st.sampled_from(["numpy", "3.2.8", "锁定", "build01", "C", "扩展", "a", "ab", "-", "`x`"])
BLANKS = st.sampled_from([" ", "  ", "\t", "\u3000", " \t "])


@st.composite
def fact(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=4))
    text = words[0]
    for word in words[1:]:
        text += draw(BLANKS) + word
    return text


@st.composite
def facts_file(draw: st.DrawFn) -> str:
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    lines = draw(st.sampled_from([["# Facts", ""], [], ["intro", "- not in a section"]]))
    for name in draw(st.lists(st.sampled_from(["A", "B", "C", "ENV", "# Other"]), max_size=5)):
        lines.append(name if name.startswith("# ") else f"## {name}")
        lines += [f"- {f}" + draw(st.sampled_from(["", " ", "\t"])) for f in draw(st.lists(fact()))]
        lines += draw(st.lists(st.sampled_from(["", "  ", "note", "### sub"]), max_size=2))
    text = eol.join(lines)
    return text + eol if draw(st.booleans()) else text


additions = st.dictionaries(
    st.sampled_from(["A", "B", "C", "ENV", "NEW"]), st.lists(fact(), min_size=1, max_size=5)
)


@settings(max_examples=300, deadline=None)
@given(text=facts_file(), more=additions)
def test_the_prefilter_gives_the_edit_a_full_comparison_gives(text, more):
    fast = add_facts(text, more)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dsh_text, "might_hold", lambda section, key: True)
        slow = add_facts(text, more)
    assert fast == slow


@given(section=st.text(), key=fact().map(fact_key))
def test_a_section_that_holds_the_fact_always_might_hold_it(section, key):
    spaced = key.replace(" ", " \t ")
    assert might_hold(f"{section}\n- {spaced}\n", key)


def test_a_fact_is_skipped_in_its_own_section_only():
    text = "# Facts\n\n## A\n- numpy  3.2.8\n\n## B\n- other\n"
    edit = add_facts(text, {"A": ["numpy 3.2.8", "new one"], "B": ["numpy 3.2.8"]})
    assert edit.skipped == [("A", "numpy 3.2.8")]
    assert edit.added == {"A": 1, "B": 1}
    assert "- new one\n\n## B\n- other\n- numpy 3.2.8\n" in edit.text


@settings(max_examples=500, deadline=None)
@given(text=facts_file(), more=additions)
def test_sections_after_an_edit_equal_a_fresh_parse(text, more):
    found = fact_sections(text)
    edit = add_facts(text, more, found)
    assert sections_after(found, text, edit) == fact_sections(edit.text)


def test_a_fenced_text_is_parsed_afresh():
    text = "## A\n- one\n```\n## not a heading\n```\n"
    found = fact_sections(text)
    assert sections_after(found, text, add_facts(text, {"A": ["two"]}, found)) is None
