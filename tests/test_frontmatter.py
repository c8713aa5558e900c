"""memtui.engine.frontmatter: an exact split, and a fast flat path that equals PyYAML."""

from __future__ import annotations

import contextlib
import json

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memtui.engine import frontmatter
from memtui.engine.frontmatter import FrontMatterError
from tests.conftest import run_cli, tree_digest

SETTINGS = settings(max_examples=200, deadline=None)


def _yaml(doc: str):
    return yaml.load(doc, Loader=frontmatter._loader())


# --- split -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["", "plain text\n", "# 标题\n---\nkey: v\n---\n", "---", " ---\na: 1\n---\n", "----\na\n"],
)
def test_split_without_front_matter_keeps_the_whole_text(text):
    got = frontmatter.split(text)
    assert got == frontmatter.Split(None, text, 0)


@pytest.mark.parametrize(
    "text", ["---\n", "---\nid: 1\n", "---\nid: 1\nbody\n--\n", "---\r\na\r\n"]
)
def test_split_opening_fence_without_close_is_an_error(text):
    with pytest.raises(FrontMatterError, match="closing"):
        frontmatter.split(text)


def test_split_never_drops_text_between_fences():
    text = "---\n\nSome text\n\n---\nmore"
    got = frontmatter.split(text)
    assert got.yaml_text == "\nSome text\n\n"
    assert got.body == "more"
    assert got.body_line == 5
    assert text.splitlines()[got.body_line] == "more"
    with pytest.raises(FrontMatterError, match="not a mapping"):
        frontmatter.load(got.yaml_text)


def test_split_crlf_fences():
    text = "---\r\nid: 20261129-0007\r\nentry_type: fact\r\n---\r\n- 事实\r\n"
    got = frontmatter.split(text)
    assert got.yaml_text == "id: 20261129-0007\r\nentry_type: fact\r\n"
    assert got.body == "- 事实\r\n"
    assert got.body_line == 4
    assert frontmatter.load(got.yaml_text) == {"id": "20261129-0007", "entry_type": "fact"}


def test_split_dots_closer_and_trailing_blanks_on_fences():
    text = "---  \na: 1\n... \t\nbody\n---\nnot front matter\n"
    got = frontmatter.split(text)
    assert (got.yaml_text, got.body, got.body_line) == (
        "a: 1\n",
        "body\n---\nnot front matter\n",
        3,
    )


@pytest.mark.parametrize(
    ("text", "body", "body_line"),
    [("---\n---\n", "", 2), ("---\n---", "", 2), ("---\n---\nbody", "body", 2)],
)
def test_split_empty_front_matter_is_an_empty_mapping(text, body, body_line):
    got = frontmatter.split(text)
    assert got.yaml_text == ""
    assert (got.body, got.body_line) == (body, body_line)
    assert frontmatter.load(got.yaml_text) == {}


def test_split_ignores_an_indented_fence_inside_the_yaml():
    text = "---\nnote: |\n  ---\n  still yaml\n---\nbody\n"
    got = frontmatter.split(text)
    assert got.yaml_text == "note: |\n  ---\n  still yaml\n"
    assert frontmatter.load(got.yaml_text) == {"note": "---\nstill yaml\n"}
    assert got.body_line == 5


yaml_line = st.text(alphabet="abc: -'\"[]#记忆\t\r", max_size=12).filter(
    lambda s: s.rstrip(" \t\r") not in ("---", "...")
)


@SETTINGS
@given(
    st.lists(yaml_line, max_size=6),
    st.text(alphabet="x-.\n\r 记", max_size=20),
    st.sampled_from(["---", "...", "---\r", "--- "]),
    st.sampled_from(["\n", "\r\n"]),
)
def test_split_is_exact(fm_lines, body, closer, eol):
    head = "---" + eol + "".join(line + "\n" for line in fm_lines)
    text = head + closer + "\n" + body
    got = frontmatter.split(text)
    assert got.yaml_text == "".join(line + "\n" for line in fm_lines)
    assert got.body == body
    assert text == text[: len(text) - len(body)] + got.body
    assert got.body_line == text[: len(text) - len(body)].count("\n")


# --- load: the flat fast path equals PyYAML ------------------------------------

WORDS = ("memory", "pytest", "记忆", "用户偏好", "s-1f3a", "a.b", "x/y", "1a", "é", "中文 English")
YAML_SPECIAL = (
    "yes", "no", "Yes", "NO", "on", "off", "true", "False", "y", "n", "1.5", "-1.5", ".5",
    "0x1f", "010", "0o17", "0b101", "1_000", "1e+5", "1e5", "12:30", "190:20:30", ".inf",
    "-.inf", ".nan", "<<", "=", "+1", "-0", "00", "1.", "Null", "nULL", "~x",
)  # fmt: skip
DATES = ("2026-11-29", "2026-11-29T21:40:00+08:00", "2026-11-29 21:40", "2026-11-29T21:40")
NULLS = ("", "~", "null", "Null", "NULL")

plain_word = (
    st.text(
        alphabet="abcxyzABC019_./-:#,[]{}&*!|>'\"%@` 记忆约定你好·：，", min_size=1, max_size=12
    )
    .map(str.strip)
    .filter(bool)
)
quoted = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters='"\\'), max_size=10
).map(lambda s: f'"{s}"')
int_list = st.lists(st.integers(-999, 999), max_size=4).map(
    lambda xs: "[" + ", ".join(map(str, xs)) + "]"
)
values = st.one_of(
    st.sampled_from(WORDS),
    plain_word,
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
    st.integers(-(10**9), 10**9).map(str),
    st.integers(0, 999).map(lambda n: f"+{n}"),
    quoted,
    int_list,
    st.sampled_from(NULLS),
    st.sampled_from(DATES),
    st.sampled_from(YAML_SPECIAL),
)
safe_keys = st.from_regex(r"k_[a-z_]{0,8}", fullmatch=True)  # never a YAML word
any_keys = st.one_of(
    st.from_regex(r"[a-z_]{1,10}", fullmatch=True),
    st.sampled_from(["id", "target", "evidence", "on", "yes", "no", "off", "null", "true", "y"]),
)


def _doc(pairs, eol, blank_every, trailing):
    lines = []
    for i, (key, value) in enumerate(pairs):
        lines.append(f"{key}: {value}" if value else f"{key}:")
        if blank_every and i % blank_every == 0:
            lines.append("")
    return eol.join(lines) + (eol if trailing else "")


def _check_agrees(doc: str) -> None:
    try:
        expected = _yaml(doc)
    except yaml.YAMLError:
        expected = None
    if isinstance(expected, dict) and frontmatter.has_alias(doc):
        with pytest.raises(FrontMatterError):  # anchors/aliases are refused by design
            frontmatter.load(doc)
    elif isinstance(expected, dict):
        got = frontmatter.load(doc)
        assert got == expected
        assert [type(v) for v in got.values()] == [type(v) for v in expected.values()]
        assert list(got) == list(expected)
    else:
        with contextlib.suppress(FrontMatterError):  # any other exception fails
            frontmatter.load(doc)


@SETTINGS
@given(
    st.lists(st.tuples(safe_keys, values), max_size=6, unique_by=lambda kv: kv[0]),
    st.sampled_from(["\n", "\r\n"]),
    st.integers(0, 3),
    st.booleans(),
)
def test_flat_values_agree_with_pyyaml(pairs, eol, blank_every, trailing):
    _check_agrees(_doc(pairs, eol, blank_every, trailing))


@SETTINGS
@given(
    st.lists(st.tuples(any_keys, values), max_size=5),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_flat_keys_and_values_agree_with_pyyaml(pairs, eol, trailing):
    """Keys are any [a-z_]+ word, as the brief's flat front matter allows."""
    _check_agrees(_doc(pairs, eol, 0, trailing))


@pytest.mark.parametrize(
    "doc",
    [
        "id: 20261129-0007\nentry_type: fact\ntarget: PYTHON_ENV\n"
        'evidence: "pytest -q → 41 passed"\nsource_session: s-1f3a\n'
        "source_seqs: [12, 13]\ncreated_at: 2026-11-29T21:40:00+08:00\n",
        "created_at: 2026-11-29\nupdated: 2026-11-29 21:40:00\n",
        "a: 010\nb: 0x1f\nc: yes\nd: 1.5\ne: ~\nf:\ng: [1, 2]\nh: []\n",
    ],
)
def test_flat_examples_agree_with_pyyaml(doc):
    assert frontmatter.load(doc) == _yaml(doc)


def test_timestamps_stay_strings():
    got = frontmatter.load("created_at: 2026-11-29T21:40:00+08:00\nday: 2026-11-29\n")
    assert got == {"created_at": "2026-11-29T21:40:00+08:00", "day": "2026-11-29"}
    nested = frontmatter.load("when: {at: 2026-11-29}\nlist: [2026-11-30]\n")
    assert nested == {"when": {"at": "2026-11-29"}, "list": ["2026-11-30"]}


def test_a_key_reads_the_same_whether_or_not_the_doc_is_flat():
    """The flat path must not change what a key means: compare with a non-flat sibling line."""
    flat = frontmatter.load("on: 1\n")
    mixed = frontmatter.load("on: 1\nseqs: [a]\n")
    assert set(flat) == set(mixed) - {"seqs"}


# --- load: broken YAML ---------------------------------------------------------


@pytest.mark.parametrize(
    "doc",
    [
        "k: [1, 2",
        "k: {a",
        "- a\n- b",
        "just text",
        "42",
        '"a string"',
        "k: 'unterminated",
        "\tk: v",
        "k: v\n  bad: indent",
        "a: b: c",
        "k: *alias",
        "k: !!python/object:os.system x",
        "k: !!binary zz!",
        "? [1]\n: x",
        "<<: 1",
        "k: !foo x",
        'k: "\\uZZZZ"',
        "k: " + "[" * 3000 + "]" * 3000,
        # explicit tags whose constructors raise plain Python errors
        "k: !!int abc",
        "k: !!float abc",
        "k: !!int",
        "k: !!bool maybe",
        "k: !!timestamp abc",
        "k: !!timestamp 2026-13-45",
    ],
)
def test_broken_yaml_raises_front_matter_error_only(doc):
    with pytest.raises(FrontMatterError) as info:
        frontmatter.load(doc)
    message = str(info.value)
    assert message.startswith("front matter is not")
    assert len(message) > len("front matter is not valid YAML")


def test_yaml_error_message_points_at_the_file_line():
    # front matter text starts on file line 2 (line 1 is the opening ---)
    with pytest.raises(FrontMatterError, match=r"\(line 5\)"):
        frontmatter.load("id: 1\nevidence: x\nbad: [unclosed, \n: :\n")
    with pytest.raises(FrontMatterError, match=r"\(line 3\)"):
        frontmatter.load("id: 1\na: b: c\n")


def test_a_candidate_with_a_bad_tag_is_a_finding_not_a_crash(store):
    root = store(
        {
            "index.txt": "[RULES] 只记验证过的事实\n",
            "pending/20261129-0001.md": "---\nid: 20261129-0001\nentry_type: fact\n"
            "target: ENV\nevidence: ok\nsource_seqs: !!int abc\n---\n- 事实\n",
        }
    )
    before = tree_digest(root)
    got = run_cli("check", "--json", "--store", str(root))
    assert "internal error" not in got.stderr
    assert "Traceback" not in got.stderr
    assert got.returncode == 1, got.stderr
    findings = json.loads(got.stdout)["findings"]
    bad = [f for f in findings if f["code"] == "pending-bad-frontmatter"]
    assert [(f["level"], f["file"]) for f in bad] == [("error", "pending/20261129-0001.md")]
    assert tree_digest(root) == before
