"""Text that lies about itself: bidirectional controls and invisible characters in file
names and content are shown as visible escapes (`\\u202e`) in the CLI's text, its
messages and the app, so `memory_rtl<U+202E>gnp.md` cannot pass for another name.
JSON output escapes them too and still decodes to the exact text; `show --raw` gives
the bytes as they are."""

from __future__ import annotations

import json
import unicodedata

import pytest
from conftest import run_cli, tree_digest

from memtui.sanitize import _UNSAFE, json_escaped, one_line, printable
from memtui.ui.safe import literal, row
from tests.helpers import ENV, INDEX_TXT

RLO = "\u202e"
TOPIC = f"memory_rtl{RLO}gnp.md"  # shows as memory_rtlpng.md reversed: "memory_rtldm.gnp"
HIDDEN = [
    "\u200b",  # zero width space
    "\u200c",
    "\u200d",  # zero width joiner
    "\u200e",  # left-to-right mark
    "\u200f",
    "\u061c",  # Arabic letter mark
    "\u2060",  # word joiner
    "\ufeff",  # a BOM inside the text
    *(chr(c) for c in range(0x202A, 0x202F)),  # embeddings, overrides
    *(chr(c) for c in range(0x2066, 0x206A)),  # isolates
]
RAW = set(HIDDEN)
FACT = f"- the token is abc{''.join(HIDDEN)}def\n"


@pytest.fixture
def root(store):
    return store(
        {
            "memory.md": f"# 索引\n\n## 学习\n- 伪装的文件 → {TOPIC}\n",
            "user.md": "# 用户\n",
            TOPIC: "# 伪装\n",
            "index.txt": INDEX_TXT,
            "facts.md": f"## HOSTS\n{FACT}",
        }
    )


def no_raw(text: str) -> None:
    found = sorted(f"U+{ord(c):04X}" for c in set(text) & RAW)
    assert not found, f"raw invisible characters reach the terminal: {found}"


def cli(root, *args: str):
    before = tree_digest(root)
    result = run_cli(*args, "--store", str(root), env=ENV)
    assert "internal error" not in result.stderr
    assert tree_digest(root) == before
    return result


def test_every_hidden_character_is_escaped_by_printable():
    for ch in HIDDEN:
        shown = printable(f"a{ch}b")
        assert shown == f"a\\u{ord(ch):04x}b", unicodedata.name(ch, hex(ord(ch)))
    assert printable("\U000e0041") == "\\U000e0041"  # an invisible tag character
    assert printable("中文 ⭐ café\tx\n") == "中文 ⭐ café\tx\n"  # ordinary text untouched
    assert one_line(f"a{RLO}\nb") == "a\\u202e⏎b"


def test_printable_text_needs_no_escape():
    """printable() returns text Python calls printable as it is, without its regex:
    every character the regex escapes is one Python does not call printable."""
    unsafe = [chr(c) for c in range(0x110000) if _UNSAFE.search(chr(c))]
    assert "\r" in unsafe and RLO in unsafe
    assert [c for c in unsafe if c.isprintable()] == []


def test_json_escaping_keeps_the_exact_value():
    for text in [*HIDDEN, "\U000e0041", "\x85", "\x7f", TOPIC, FACT]:
        escaped = json_escaped(json.dumps(text, ensure_ascii=False))
        no_raw(escaped)
        assert json.loads(escaped) == text


def test_file_name_with_an_override_is_escaped_in_check_and_list(root):
    shown = "memory_rtl\\u202egnp.md"
    for args in (("check",), ("list",)):
        result = cli(root, *args)
        no_raw(result.stdout + result.stderr)
        assert shown in result.stdout, args


def test_json_output_escapes_and_decodes_to_the_exact_name(root):
    result = cli(root, "check", "--json")
    no_raw(result.stdout)
    assert "\\u202e" in result.stdout
    files = {f["file"] for f in json.loads(result.stdout)["findings"]}
    assert TOPIC in files  # topic-name: the exact name, for a script to act on


def test_content_is_escaped_in_show_and_search_but_raw_on_request(root):
    shown = cli(root, "show", "fact:HOSTS")
    no_raw(shown.stdout)
    assert "abc\\u200b\\u200c\\u200d" in shown.stdout
    hits = cli(root, "search", "token")
    no_raw(hits.stdout)
    assert "\\u2066" in hits.stdout
    raw = run_cli("show", "fact:HOSTS", "--raw", "--store", str(root), env=ENV)
    assert FACT in raw.stdout  # asked for: byte for byte


def test_messages_escape_what_the_user_typed(root):
    result = cli(root, "show", f"fact:{RLO}HOSTS")
    assert result.returncode == 1
    no_raw(result.stderr)
    assert "\\u202eHOSTS" in result.stderr


def test_the_app_shows_them_visibly():
    text = f"{TOPIC} abc\u200bdef"
    assert literal(text).plain == "memory_rtl\\u202egnp.md abc\\u200bdef"
    assert row(text).plain == literal(text).plain
