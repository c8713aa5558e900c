"""The flat front-matter fast path gives exactly what PyYAML gives, or steps aside.

`frontmatter._load_flat` reads the `key: value` lines agents write without PyYAML.
Its contract: for any text it returns either None (PyYAML decides) or the very
mapping PyYAML's safe loader builds, same keys in the same order, same values of
the same types (timestamps kept as the text written, as memtui reads them). These
tests generate flat-looking documents character by character, including what makes
YAML differ from a naive reading (quotes, colons, `#`, CJK and odd spaces, numbers,
booleans, dates, empty values, CR line breaks), and hold the fast path to PyYAML's
safe loaders (yaml.safe_load's, built here on their own).
"""

from __future__ import annotations

import datetime as dt
import os
import re

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memtui.engine import frontmatter

SETTINGS = settings(max_examples=400, deadline=None)
ERROR = object()


def _without_timestamps(base: type) -> type:
    """`base` (a PyYAML safe loader) with timestamps kept as the text written."""
    resolvers = {
        first: [(tag, rx) for tag, rx in items if tag != "tag:yaml.org,2002:timestamp"]
        for first, items in base.yaml_implicit_resolvers.items()
    }
    return type("Reference", (base,), {"yaml_implicit_resolvers": resolvers})


# yaml.safe_load's loaders: the C one (libyaml, what memtui's YAML path uses when
# built) and the pure-Python one. They differ on tabs after a value (the pure one
# refuses `a:\tb`), so the fast path is held to the C one, and to the pure one
# wherever that one reads the text at all.
C_LOADER = _without_timestamps(getattr(yaml, "CSafeLoader", yaml.SafeLoader))
PURE_LOADER = _without_timestamps(yaml.SafeLoader)


def reference(doc: str, loader: type = C_LOADER):
    try:
        data = yaml.load(doc, Loader=loader)
    except Exception:  # any refusal: the fast path must step aside
        return ERROR
    return {} if data is None else data


def fast(doc: str):
    try:
        return frontmatter._load_flat(doc)
    except ValueError:  # an int of 4,300+ digits: load() hands it to YAML
        return None


def assert_fast_agrees(doc: str) -> None:
    got = fast(doc)
    if got is None:
        return
    expected = reference(doc)
    assert expected is not ERROR, f"fast path read {got!r} where YAML refuses"
    assert isinstance(expected, dict)
    assert got == expected
    assert list(got) == list(expected)
    assert [type(v) for v in got.values()] == [type(v) for v in expected.values()]
    for a, b in zip(got.values(), expected.values(), strict=True):
        if isinstance(a, list):
            assert [type(x) for x in a] == [type(x) for x in b]
    pure = reference(doc, PURE_LOADER)
    assert pure is ERROR or pure == got


# What makes YAML read a value otherwise than as plain text.
SPECIAL = (
    "yes", "No", "ON", "off", "y", "n", "true", "False", "null", "Null", "~", "1.5", "-1.5",
    ".5", "1.", "1e5", "1e+5", "0x1f", "010", "0o17", "0b101", "1_000", "12:30", "-1:20",
    ".inf", "-.Inf", ".nan", "<<", "=", "+1", "-0", "00", "42", "-7", "2026-11-29",
    "2026-11-29T21:40:00+08:00", "2026-11-29 21:40", "20261129-0007", "s-07c7",
)  # fmt: skip
CHARS = (
    "abcXYZ0129_-.+/:#,'\"[]{}&*!|>%@`~? \t记忆约定你好·：，「」é"
    "\r\x85\u2028\xa0\u3000\ufeff\x0b\x7f\\"
)
word = st.text(alphabet=CHARS, min_size=1, max_size=14)
quoted = st.text(alphabet=CHARS.replace("\r", ""), max_size=10).map(lambda s: f'"{s}"')
single = st.text(alphabet=CHARS.replace("\r", ""), max_size=10).map(lambda s: f"'{s}'")
flow = st.lists(st.one_of(st.sampled_from(SPECIAL), word), max_size=3).map(
    lambda xs: "[" + ", ".join(xs) + "]"
)
value = st.one_of(
    st.just(""),
    st.sampled_from(SPECIAL),
    word,
    quoted,
    single,
    flow,
    st.lists(st.integers(-999, 999), max_size=4).map(lambda xs: str(xs)),
    st.integers(-(10**12), 10**12).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
)
key = st.one_of(
    st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True),
    st.sampled_from(["id", "on", "yes", "No", "null", "true", "y", "~", "<<", "1", "a b", "键"]),
)
gap = st.sampled_from(["", " ", "  ", "\t", " \t"])  # between the colon and the value
tail = st.sampled_from(["", " ", "\t", " #c", "\r"])  # end of a line, before its break
line = st.one_of(
    st.tuples(key, gap, value, tail).map(lambda t: f"{t[0]}:{t[1]}{t[2]}{t[3]}"),
    st.sampled_from(["", " ", "\t", "\r", "# comment", "- item", "  nested: 1"]),
)


@SETTINGS
@given(st.lists(line, max_size=7), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
@example(["a: b\rc"], "\n", True)  # a CR inside a line is a line break to YAML
@example(["a: b\t#c"], "\n", True)
@example(["a:\r"], "\n", True)
@example(["a: \u3000b"], "\n", True)
def test_flat_path_equals_yaml_or_steps_aside(lines, eol, trailing):
    assert_fast_agrees(eol.join(lines) + (eol if trailing else ""))


@SETTINGS
@given(st.lists(st.tuples(key, value), max_size=7, unique_by=lambda kv: kv[0]))
def test_plain_flat_mappings_equal_yaml(pairs):
    """The shape agents write: `key: value` per line, no stray characters around."""
    assert_fast_agrees("".join(f"{k}: {v}\n" for k, v in pairs))


@pytest.mark.parametrize(
    "doc",
    [
        "a: b\rc\n",  # YAML reads the CR as a line break and refuses what follows
        "a: b\r \n",
        "a: 1_0\n",
        "on: 1\n",
        "a: b\n  c: d\n",
        "a: [1, [2]]\n",
        'a: "x\\ty"\n',
        "a: 'it''s'\n",
        "a: b: c\n",
        "a: b #c\n",
    ],
)
def test_what_is_not_plainly_flat_goes_to_yaml(doc):
    assert fast(doc) is None


def test_agents_front_matter_takes_the_fast_path():
    """A candidate as agents write it is read without YAML, and reads as YAML reads it."""
    doc = (
        "id: 20261129-0007\nentry_type: fact\ntarget: PYTHON_ENV\n"
        'evidence: "pytest -q → 41 passed"\nsource_session: s-1f3a\n'
        "source_seqs: [12, 13]\ncreated_at: 2026-11-29T21:40:00+08:00\n"
        "title: 周末 部署:记忆#1\nnote:\nsteps: [deploy, docker]\n"
    )
    got = fast(doc)
    assert got is not None
    assert got == reference(doc)
    assert got["created_at"] == "2026-11-29T21:40:00+08:00"
    assert yaml.safe_load(doc)["created_at"] == dt.datetime.fromisoformat(got["created_at"])


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_demo_candidates_take_the_fast_path(tmp_path, eol):
    from memtui.demo import write_demo

    write_demo(tmp_path / "s", size=1, today=dt.date(2026, 11, 29))
    pending = tmp_path / "s" / "pending"
    names = sorted(os.listdir(pending))
    assert names
    for name in names:
        text = (pending / name).read_text(encoding="utf-8").replace("\n", eol)
        yaml_text = frontmatter.split(text).yaml_text
        assert yaml_text is not None
        got = fast(yaml_text)
        assert got is not None, name
        assert got == reference(yaml_text)


# --- the fast path's shortcuts equal the regular expressions they replace ------

# What a plain one-line YAML scalar is: no indicator first, no `: ` and no ` #` inside.
PLAIN = re.compile(r"[^-?:,\[\]{}#&*!|>'\"%@`\s](?:[^:#\n]|:(?![ \t])|(?<![ \t])#)*")


@SETTINGS
@given(st.text(alphabet=CHARS + "\n\x1c\u2003", min_size=1, max_size=12))
@example(":")
@example("a:")
@example("a#")
@example("\u3000a")
def test_plain_check_equals_the_plain_scalar_pattern(raw):
    expected = bool(PLAIN.fullmatch(raw)) and not raw.endswith(":")
    assert frontmatter._is_plain(raw) == expected


@SETTINGS
@given(st.text(alphabet="0123456789+-._:eExXabfinINaAoOyYsStTrRuUlL<=~", min_size=1, max_size=9))
@example("0")
@example("00")
@example("2026-11-29")
@example("1e-5")
@example("-1")
def test_number_and_boolean_shortcuts_equal_the_yaml_words_pattern(raw):
    """Booleans by set, ASCII digits as int, a sign inside: the value is what the
    regular expression of YAML 1.1's words says it is."""
    word = frontmatter._YAML_WORDS.fullmatch(raw)
    if not frontmatter._is_plain(raw) or raw in frontmatter._NULLS:
        return
    expected = raw if word is None else int(raw) if word.lastgroup == "int" else "YAML"
    got = frontmatter._flat_value(raw)
    assert (got if got is not frontmatter._UNSURE else "YAML") == expected


# --- lines already read are remembered (agents repeat most of them) ----------


def typed(data):
    return None if data is None else [(k, v, type(v)) for k, v in data.items()]


@SETTINGS
@given(st.lists(line, max_size=7), st.lists(line, max_size=7))
def test_a_line_read_before_reads_the_same_in_any_text(lines, others):
    doc = "\n".join(lines) + "\n"
    frontmatter._lines.clear()
    first = fast(doc)
    fast("\n".join(others + lines) + "\n")  # the same lines, read in another text
    assert typed(fast(doc)) == typed(first)
    assert_fast_agrees(doc)


def test_a_list_value_is_each_mappings_own():
    first = fast("source_seqs: [12, 13]\nsteps: [deploy, docker]\n")
    first["source_seqs"].append(14)
    first["steps"].append("x")
    assert fast("source_seqs: [12, 13]\nsteps: [deploy, docker]\n") == {
        "source_seqs": [12, 13],
        "steps": ["deploy", "docker"],
    }


def test_what_is_remembered_is_bounded():
    frontmatter._lines.clear()
    for n in range(frontmatter._LINES_MAX + 100):
        assert fast(f"id: c-{n}\nentry_type: fact\n") == {"id": f"c-{n}", "entry_type": "fact"}
    assert len(frontmatter._lines) == frontmatter._LINES_MAX
    assert fast("id: new\nentry_type: fact\n") == {"id": "new", "entry_type": "fact"}
