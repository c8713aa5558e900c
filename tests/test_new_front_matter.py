"""A new front-matter file is composed by python-frontmatter (engine/compose.py): every
value reads back as the very string given (YAML's `yes`, `null`, `123`, `a: b` quoted),
one line each, keys in the order given, the body as given; the line endings those of
the file it sits beside."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from memtui.engine import frontmatter as exact
from memtui.engine.compose import new_front_matter_text
from memtui.layouts.claude.ops import add_memory

TRICKY = [
    "yes",
    "null",
    "123",
    "a: b",
    "- dash",
    "#tag",
    " lead",
    "it's",
    "用户偏好 · 回复",
    "x " * 60,
]


@pytest.mark.parametrize("value", TRICKY)
def test_every_value_reads_back_as_the_string_given(value):
    text = new_front_matter_text({"name": value, "description": "d", "type": "user"}, "Body.\n")
    head = exact.split(text)
    assert exact.load(head.yaml_text) == {"name": value, "description": "d", "type": "user"}
    assert yaml.safe_load(head.yaml_text)["name"] == value  # any YAML reader, too
    assert text.count("\n") == 7  # ---, three keys, ---, blank, body: one line each


def test_layout_keys_in_order_then_a_blank_line_and_the_body_as_given():
    body = "    indented first line\n\n**Why:** because.\n\n\n"
    text = new_front_matter_text({"name": "n", "description": "d", "type": "feedback"}, body)
    assert text == (
        "---\nname: n\ndescription: d\ntype: feedback\n---\n\n"
        "    indented first line\n\n**Why:** because.\n"
    )


def test_crlf_beside_crlf_files():
    text = new_front_matter_text({"name": "n", "type": "user"}, "a\r\nb\r\n", "\r\n")
    assert text == "---\r\nname: n\r\ntype: user\r\n---\r\n\r\na\r\nb\r\n"


def test_a_new_claude_memory_keeps_a_title_yaml_would_misread(tmp_path: Path):
    root = tmp_path / "claude"
    root.mkdir()
    (root / "MEMORY.md").write_text("- [User](user.md) — who\n", encoding="utf-8")
    (root / "user.md").write_text("---\nname: User\ndescription: who\ntype: user\n---\n\nMe.\n")
    add_memory(str(root), "flag.md", "project", "123", "The flag.", title="yes")
    text = (root / "flag.md").read_text(encoding="utf-8")
    assert yaml.safe_load(exact.split(text).yaml_text) == {
        "name": "yes",
        "description": "123",
        "type": "project",
    }
