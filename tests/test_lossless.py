"""Lossless reading (SPEC §0): bytes round-trip, exact line offsets, exact entry spans.

Every property here is checked on generated files: LF, CRLF and mixed endings,
with or without a UTF-8 BOM, with or without a trailing newline, CJK text,
blank-line runs, unknown lines, and characters that str.splitlines() would
break on (lone "\\r", U+2028, VT, FF, NEL) but a memory file does not.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.engine import entries, markdown, textfile
from memtui.engine.store import open_store
from memtui.engine.textfile import BOM, TextFile
from tests.conftest import TODAY, tree_digest, write_tree

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
STORE_SETTINGS = settings(SETTINGS, max_examples=100)  # these open a real store per example
TODAY_DATE = dt.date.fromisoformat(TODAY)

# Characters a line may hold. "\r", U+2028, VT, FF and NEL are content: they must not split.
LINE_CHARS = "ab xyZ09_.记忆约定你好事件⭐·：:*-#\t\r\u2028\u2029\x0b\x0c\x85\u3000\u00e9"
FIELD_CHARS = LINE_CHARS.replace("\r", "")  # a field value ending in "\r" would become CRLF
line_text = st.text(alphabet=LINE_CHARS, max_size=14)
field_text = st.text(alphabet=FIELD_CHARS, max_size=14)
EOLS = ("\n", "\r\n")


def _walk(root: Path) -> list[str]:
    """Every path below root, folders included (tree_digest only lists files)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            out.append(os.path.relpath(os.path.join(dirpath, name), root))
    return sorted(out)


def _decode(raw: bytes, path: str = "f.md") -> TextFile:
    tf = textfile.decode(path, raw)
    assert isinstance(tf, TextFile), tf
    return tf


# --- textfile --------------------------------------------------------------


@st.composite
def raw_files(draw):
    """(raw bytes, text, bom, [(content, eol)], unterminated tail)."""
    style = draw(st.sampled_from(["lf", "crlf", "mixed"]))
    pick_eol = {
        "lf": st.just("\n"),
        "crlf": st.just("\r\n"),
        "mixed": st.sampled_from(EOLS),
    }[style]
    content = st.one_of(line_text, st.just(""), st.just("   "), st.just("- 你好，世界"))
    lines = draw(st.lists(st.tuples(content, pick_eol), max_size=15))
    tail = draw(st.one_of(st.just(""), line_text))
    bom = draw(st.booleans())
    text = "".join(c + e for c, e in lines) + tail
    raw = (BOM if bom else b"") + text.encode("utf-8")
    return raw, text, bom, lines, tail


@SETTINGS
@given(raw_files())
def test_decode_encode_round_trips_byte_for_byte(case):
    raw, text, bom, _lines, _tail = case
    tf = _decode(raw)
    assert tf.text == text
    assert tf.bom is bom
    assert tf.size == len(raw)
    assert tf.digest() == hashlib.sha256(raw).hexdigest()
    assert tf.encode() == raw
    assert tf.encode(tf.text) == raw
    assert tf.encode("") == (BOM if bom else b"")


@STORE_SETTINGS
@given(raw_files())
def test_read_file_from_disk_round_trips(case):
    raw, text, bom, _lines, _tail = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "events.md")
        path.write_bytes(raw)
        tf = textfile.read_file(str(path), "events.md", 1 << 20)
        assert isinstance(tf, TextFile), tf
        assert (tf.text, tf.bom, tf.encode()) == (text, bom, raw)
        assert path.read_bytes() == raw


@SETTINGS
@given(raw_files())
def test_split_and_iter_lines_have_exact_offsets(case):
    _raw, text, _bom, lines, tail = case
    expected = [c + e[:-1] for c, e in lines] + ([tail] if tail else [])
    assert textfile.split_lines(text) == expected  # "\r" of CRLF kept; U+2028 etc. don't split
    got = list(textfile.iter_lines(text))
    assert [index for index, _off, _line in got] == list(range(len(expected)))
    offset = 0
    for (_index, off, line), (content, eol) in zip(got, [*lines, (tail, "")], strict=False):
        assert off == offset
        assert text[off : off + len(line)] == line
        whole = content + eol[:-1] if eol else content
        assert line == (whole[:-1] if whole.endswith("\r") else whole)
        offset += len(content) + len(eol)
    assert len(got) == len(expected)


@SETTINGS
@given(raw_files())
def test_line_count_is_wc_l_plus_unterminated_last_line(case):
    raw, text, _bom, lines, tail = case
    expected = raw.count(b"\n") + (1 if tail else 0)
    assert textfile.line_count(text) == expected == len(lines) + (1 if tail else 0)
    assert textfile.line_count(text) == len(textfile.split_lines(text))


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n",
        b"a",
        b"a\nb",
        b"a\nb\n",
        b"a\r\nb\r\n\r\n\r\n",
        b"\n\n\nx",
        "甲\u2028乙\x0b丙\x0c丁\r戊\n己".encode(),
        BOM + "记忆\r\n".encode(),
    ],
)
@pytest.mark.skipif(shutil.which("wc") is None, reason="needs wc(1) from coreutils")
def test_line_count_agrees_with_real_wc(tmp_path, raw):
    path = tmp_path / "f.md"
    path.write_bytes(raw)
    with path.open("rb") as fh:
        wc = int(subprocess.run(["wc", "-l"], stdin=fh, capture_output=True, check=True).stdout)
    text = _decode(raw).text
    unterminated = 1 if text and not text.endswith("\n") else 0
    assert textfile.line_count(text) == wc + unterminated


def test_separators_inside_a_line_do_not_split():
    text = "a\u2028b\x0bc\x0cd\re\x85f\x1cg\u2029h\n第二行"
    assert text.splitlines() != textfile.split_lines(text)  # str.splitlines would break it up
    assert textfile.split_lines(text) == ["a\u2028b\x0bc\x0cd\re\x85f\x1cg\u2029h", "第二行"]
    assert [off for _i, off, _l in textfile.iter_lines(text)] == [0, text.index("第")]
    assert textfile.line_count(text) == 2


def test_a_second_bom_is_content_and_survives():
    raw = BOM + BOM + "### [E001] 2026-11-20 · 约定\n".encode()
    tf = _decode(raw)
    assert tf.bom and tf.text.startswith("\ufeff###")
    assert tf.encode() == raw


# --- events.md (companion layout) -------------------------------------------

FIELD_KEYS = ("类型", "内容", "情绪强度", "用户状态", "后续", "状态", "到期日")
TYPES = ("约定", "情绪事件", "用户Todo", "重要事件")


@dataclass
class GenEvent:
    heading: str
    number: int
    date: str
    fields: list[tuple[str, str]]
    chunk: str  # the exact text of the event: heading line to the next heading


def _safe_free_line(line: str) -> str:
    """A body line that is neither a heading nor a field/item line."""
    return "x" + line if line.startswith(("#", "*", "-", "•")) else line


def _eol_source(draw):
    """Draw a line-ending style (lf, crlf or mixed); return a function giving the next EOL."""
    style = draw(st.sampled_from(["lf", "crlf", "mixed"]))

    def eol() -> str:
        if style == "mixed":
            return draw(st.sampled_from(EOLS))
        return "\n" if style == "lf" else "\r\n"

    return eol


@st.composite
def events_files(draw):
    eol = _eol_source(draw)

    preamble_line = st.one_of(
        line_text,
        st.sampled_from(["# 事件记录", "## 说明", "", "> 由 memory_write 维护", "---", "#tag"]),
    ).filter(lambda s: not s.startswith("### "))
    preamble = "".join(line + eol() for line in draw(st.lists(preamble_line, max_size=5)))

    events: list[GenEvent] = []
    for _ in range(draw(st.integers(0, 7))):
        day = draw(st.dates(dt.date(2024, 1, 1), dt.date(2027, 12, 31))).isoformat()
        trail = draw(st.sampled_from(["", " ", "  \t"]))
        if draw(st.integers(0, 3)) == 0:
            hh, mm = draw(st.integers(0, 23)), draw(st.integers(0, 59))
            number, date = 0, f"{day}T{hh:02d}:{mm:02d}"
            heading = f"### [E000] {date} · last_active{trail}"
        else:
            number, date = draw(st.integers(1, 1200)), day
            heading = f"### [E{number:03d}] {date} · {draw(st.sampled_from(TYPES))}{trail}"
        chunk = heading + eol()
        fields: list[tuple[str, str]] = []
        for kind in draw(st.lists(st.sampled_from(["field", "free", "blank"]), max_size=8)):
            if kind == "field":
                key = draw(st.sampled_from(FIELD_KEYS))
                value = draw(field_text)
                sep = draw(st.sampled_from(["：", ":", " ：", "： "]))
                chunk += f"**{key}**{sep}{value}" + eol()
                fields.append((key, value.strip(" \t")))
            elif kind == "free":
                chunk += _safe_free_line(draw(line_text)) + eol()
            else:
                chunk += eol()
        events.append(GenEvent(heading, number, date, fields, chunk))

    if not draw(st.booleans()):  # no trailing newline on the last line
        if events:
            events[-1].chunk = events[-1].chunk.removesuffix("\n")  # a CRLF leaves a lone "\r"
        else:
            preamble = preamble.removesuffix("\n")
    bom = draw(st.booleans())
    replace_at = draw(st.integers(0, max(0, len(events) - 1)))
    replacement = draw(
        st.sampled_from(
            [
                "",
                "### [E777] 2026-12-01 · 约定\n**到期日**：2026-12-24\n",
                "### [E001] 2026-11-20 · 约定\r\n**状态**：已完成\r\n\r\n",
                "一行没有换行",
            ]
        )
    )
    return preamble, events, bom, replace_at, replacement


def _events_text(preamble: str, events: list[GenEvent]) -> str:
    return preamble + "".join(e.chunk for e in events)


@STORE_SETTINGS
@given(events_files())
def test_event_spans_partition_events_md_exactly(case):
    preamble, gen, bom, replace_at, replacement = case
    text = _events_text(preamble, gen)
    raw = (BOM if bom else b"") + text.encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        write_tree(root, {"memory/events.md": raw})
        before, paths = tree_digest(root), _walk(root)
        store = open_store(root, today=TODAY_DATE)
        assert tree_digest(root) == before
        assert _walk(root) == paths

    assert store.layouts == ("companion",)
    tf = store.texts["memory/events.md"]
    assert tf.text == text and tf.encode() == raw
    events = store.data.get("companion").events
    assert len(events) == len(gen)

    pos = len(preamble)
    for event, want in zip(events, gen, strict=True):
        span = event.span
        chunk = text[span.char_start : span.char_stop]
        assert chunk.startswith(want.heading)
        assert chunk == want.chunk
        assert span.char_start == pos  # ordered, disjoint, no gap
        pos = span.char_stop
        # line numbers agree with the char offsets
        assert text[: span.char_start].count("\n") == span.start
        if span.char_stop == len(text):
            assert span.stop == textfile.line_count(text)
        else:
            assert text[: span.char_stop].count("\n") == span.stop
        assert event.number == want.number
        assert event.date == want.date
        assert list(event.fields) == want.fields
    assert pos == len(text)
    first = events[0].span.char_start if events else len(text)
    assert text[:first] == preamble
    assert text[:first] + "".join(text[e.span.char_start : e.span.char_stop] for e in events) == (
        text
    )

    # entry ids resolve to the same exact text
    listed = [e for e in entries.iter_entries(store) if e.kind == "event"]
    assert [entries.entry_text(store, e) for e in listed] == [g.chunk for g in gen if g.number != 0]

    for event in events:
        cs, ce = event.span.char_start, event.span.char_stop
        assert tf.encode(text[:cs] + text[cs:ce] + text[ce:]) == raw

    if events:
        cs, ce = events[replace_at].span.char_start, events[replace_at].span.char_stop
        new_raw = tf.encode(text[:cs] + replacement + text[ce:])
        prefix = tf.encode(text[:cs])
        suffix = text[ce:].encode("utf-8")
        assert raw[: len(prefix)] == new_raw[: len(prefix)] == prefix
        assert raw[len(raw) - len(suffix) :] == new_raw[len(new_raw) - len(suffix) :] == suffix
        assert new_raw[len(prefix) : len(new_raw) - len(suffix)] == replacement.encode("utf-8")


def test_a_hash_word_inside_an_event_is_content_not_a_heading(store):
    """`#标签` is not a Markdown heading (no space after '#'): the event runs on past it."""
    text = (
        "# 事件记录\n"
        "\n"
        "### [E001] 2026-11-20 · 约定\n"
        "**类型**：约定\n"
        "#周末 #散步\n"
        "**状态**：待跟进\n"
        "**到期日**：2026-12-01\n"
        "\n"
        "### [E000] 2026-11-29T21:40 · last_active\n"
    )
    root = store({"memory/events.md": text})
    got = open_store(root, today=TODAY_DATE)
    first, sentinel = got.data.get("companion").events
    span_text = text[first.span.char_start : first.span.char_stop]
    assert span_text == text[text.index("### [E001]") : text.index("### [E000]")]
    assert first.status == "待跟进"
    assert first.due == "2026-12-01"
    assert sentinel.span.char_start == text.index("### [E000]")


# --- facts.md (markdown.sections) --------------------------------------------


@dataclass
class GenSection:
    name: str
    items: list[str]
    item_lines: list[int]
    chunk: str


@st.composite
def facts_files(draw):
    eol = _eol_source(draw)

    pre_lines = draw(
        st.lists(
            st.one_of(
                line_text.map(_safe_free_line),
                st.sampled_from(["# 环境事实", "", "<!-- 由 agent 维护 -->", "#note"]),
            ),
            max_size=4,
        )
    )
    preamble = "".join(line + eol() for line in pre_lines)
    line_no = len(pre_lines)
    sections: list[GenSection] = []
    names = st.one_of(
        st.from_regex(r"[A-Z][A-Z0-9_]{0,10}", fullmatch=True),
        st.sampled_from(["PYTHON_ENV", "网络 代理", "GIT"]),
    )
    for _ in range(draw(st.integers(0, 6))):
        name = draw(names)
        chunk = f"## {name}" + eol()
        line_no += 1
        items: list[str] = []
        item_lines: list[int] = []
        for kind in draw(st.lists(st.sampled_from(["item", "free", "blank", "sub"]), max_size=8)):
            if kind == "item":
                body = draw(field_text)
                chunk += f"{draw(st.sampled_from('-*•'))} {body}" + eol()
                items.append(body.strip(" \t"))
                item_lines.append(line_no + 1)
            elif kind == "free":
                chunk += _safe_free_line(draw(line_text)) + eol()
            elif kind == "sub":
                chunk += draw(st.sampled_from(["### 细节", "#### 更细", "#tag 不是标题"])) + eol()
            else:
                chunk += eol()
            line_no += 1
        sections.append(GenSection(name, items, item_lines, chunk))
    if not draw(st.booleans()):
        if sections:
            sections[-1].chunk = sections[-1].chunk.removesuffix("\n")
        else:
            preamble = preamble.removesuffix("\n")
    return preamble, sections, draw(st.booleans())


@STORE_SETTINGS
@given(facts_files())
def test_markdown_sections_partition_facts_md_exactly(case):
    preamble, gen, bom = case
    text = preamble + "".join(s.chunk for s in gen)
    raw = (BOM if bom else b"") + text.encode("utf-8")
    tf = _decode(raw, "facts.md")
    found = markdown.sections(tf, 2)
    assert [s.name for s in found] == [g.name for g in gen]
    pos = len(preamble)
    for section, want in zip(found, gen, strict=True):
        cs, ce = section.span.char_start, section.span.char_stop
        assert cs == pos
        assert text[cs:ce] == want.chunk
        assert text[cs:ce].startswith(f"## {want.name}")
        assert text[:cs].count("\n") == section.span.start
        assert list(section.items) == want.items
        assert list(section.item_lines) == want.item_lines
        assert tf.encode(text[:cs] + text[cs:ce] + text[ce:]) == raw
        pos = ce
    assert pos == len(text)
    first = found[0].span.char_start if found else len(text)
    assert text[:first] + "".join(text[s.span.char_start : s.span.char_stop] for s in found) == (
        text
    )

    # the dsh layout hands out the same spans, and opening the store writes nothing
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "store"
        write_tree(root, {"index.txt": "[RULES] 只记验证过的事实\n", "facts.md": raw})
        before, paths = tree_digest(root), _walk(root)
        store = open_store(root, today=TODAY_DATE)
        assert tree_digest(root) == before
        assert _walk(root) == paths
    assert "dsh" in store.layouts
    assert [(s.name, _span_tuple(s.span)) for s in store.data.get("dsh").fact_sections] == [
        (s.name.strip(), _span_tuple(s.span)) for s in found
    ]
    assert store.texts["facts.md"].encode() == raw


def _span_tuple(span):
    return span.start, span.stop, span.char_start, span.char_stop


# --- opening a whole store never writes -------------------------------------


def _mixed_store() -> dict[str, str | bytes]:
    crlf = "\r\n"
    return {
        # workspace
        "memory.md": "# 记忆索引\r\n\r\n## 用户\r\n- 偏好 → user.md\r\n- 缺失 → memory_gone.md",
        "user.md": BOM + "## 称呼\n- 小林\n".encode(),
        "memory_travel.md": "去过京都\u2028和大阪\n\n\n",
        "memory_Bad-Name.md": "x",
        # companion
        "memory/events.md": (
            "# 事件\n\n### [E001] 2026-11-20 · 约定\n**到期日**：2026-11-01\n**状态**：待跟进"
            + crlf
            + "### [E001] 2026-02-30 · 约定\r\n### [E000] 2026-11-29T21:40 · last_active"
        ),
        "memory/mood_state.md": "valence: 0.9\nenergy: 2\n### 2026-11-29T21:40 · source=x\n",
        "memory/user_profile.md": "## 爱好\n" + "".join(f"- 爱好{i}\n" for i in range(12)),
        "MEMORY.md": "【最近未解决事项】\n- E009\n",
        ".mood_state_aux": "consecutive_g4c_count: 3\n",
        # dsh
        "index.txt": "[RULES] x\n# --- auto ---\n[FACTS] OLD\n# --- end auto ---\n",
        "facts.md": "## ENV\n- a\n- a\n",
        "sops/deploy.md": "---\ntitle: 部署\n---\n# 部署\n",
        "pending/p1.md": "---\nid: p1\nentry_type: fact\n---\n- no evidence\n",
        "pending/p2.md": "---\nid: [unclosed\n---\n",
        "memory-meta.json": '{"version": 1, "entries": {}, "extra": [1, 2]}',
        "memory_stats.json": "{not json",
        "file_access_stats.json": b"\xff\xfe binary?",
        "notes/unrelated.md": "not memtui's\n",
    }


def test_open_store_never_changes_or_creates_anything(tmp_path):
    root = write_tree(tmp_path / "store", _mixed_store())
    (root / "link_out.md").symlink_to(tmp_path)
    before, paths = tree_digest(root), _walk(root)
    stat_before = {p: os.stat(root / p, follow_symlinks=False).st_mtime_ns for p in paths}
    store = open_store(root, today=TODAY_DATE)
    again = open_store(root, today=TODAY_DATE)
    assert tree_digest(root) == before
    assert _walk(root) == paths
    assert {p: os.stat(root / p, follow_symlinks=False).st_mtime_ns for p in paths} == stat_before
    assert set(store.layouts) == {"workspace", "companion", "dsh"}
    assert store.findings == again.findings
    for rel, tf in store.texts.items():
        assert tf.encode() == (root / rel).read_bytes(), rel
