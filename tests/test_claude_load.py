"""What Claude Code makes of MEMORY.md before the agent sees it (claude/load.py, after
claude-code 2.1.332's processMemoryFile + truncateEntrypointContent): front matter and
HTML comment blocks off before the 200-line / 25,000-unit cap is counted (CHANGELOG
2.1.211), Claude's warning paragraph after a cut, line endings and invisible
characters as the prompt gets them; findings and `context` follow it."""

from __future__ import annotations

import json
import os
from pathlib import Path

from memtui.engine.context import context_of
from memtui.engine.store import layouts_at, open_store
from memtui.layouts.claude.load import file_size, load
from tests.conftest import run_cli, write_tree


def _pointers(n: int, start: int = 1) -> str:
    return "".join(f"- [m{i}](m{i}.md) — hook\n" for i in range(start, start + n))


FRONT = "---\nname: index\nupdated: 2026-05-01\n---\n"  # 4 lines
COMMENT = "<!-- kept by hand:\n  one line a memory\n-->\n\n"  # 4 lines, the blank one too


def test_front_matter_and_comment_blocks_are_off_the_text_and_the_count() -> None:
    raw = FRONT + "# Memory\n" + COMMENT + _pointers(199)
    loaded = load(raw)
    assert loaded.text == "# Memory\n" + _pointers(199).rstrip("\n")
    assert (loaded.line_count, loaded.first_unloaded_line, loaded.warning) == (200, None, "")
    assert loaded.stripped == frozenset({1, 2, 3, 4, 6, 7, 8})  # line 9 is blank


def test_the_first_unloaded_line_is_named_by_its_line_in_the_file() -> None:
    raw = FRONT + COMMENT + _pointers(205)
    loaded = load(raw)
    assert loaded.loaded_lines == 200
    assert loaded.first_unloaded_line == 4 + 4 + 201  # past the front matter and comment
    assert loaded.text.endswith(
        'starting at line 201 ("- [m201](m201.md) — hook"). Keep index entries to one line '
        "under ~200 chars; move detail into topic files."
    )


def test_a_comment_inside_a_paragraph_or_a_code_fence_stays() -> None:
    inline = "Some text <!-- not a block --> more\n- [a](a.md) — x\n"
    assert load(inline).text == inline.rstrip("\n")
    fenced = "```\n<!-- in code -->\n```\n- [a](a.md) — x\n"
    assert load(fenced).text == fenced.rstrip("\n")
    unclosed = "- [a](a.md) — x\n<!-- never closed\n- [b](b.md) — y\n"
    assert load(unclosed).text == unclosed.rstrip("\n")


def test_what_is_left_of_a_comment_line_stays_and_crlf_becomes_lf() -> None:
    raw = "# Memory\r\n<!-- c --> kept tail\r\n- [a](a.md) — x\r\n"
    assert load(raw).text == "# Memory\n kept tail\n- [a](a.md) — x"


def test_invisible_characters_are_dropped_as_claude_sanitizes() -> None:
    raw = "\ufeff- [a](a.md) — zero\u200bwidth, joiner a\u200db kept\u0007\n"
    assert load(raw).text == "- [a](a.md) — zerowidth, joiner a\u200db kept"


def test_file_size_reads_as_claude_prints_it() -> None:
    assert [file_size(n) for n in (1000, 1280, 25_000, 30_000, 3 * 1024 * 1024)] == [
        "1000 bytes",
        "1.3KB",  # toFixed rounds the tie up
        "24.4KB",
        "29.3KB",
        "3MB",
    ]


def test_context_and_findings_follow_what_claude_strips(tmp_path: Path) -> None:
    memories = {f"m{i}.md": f"---\ndescription: d\ntype: user\n---\nm{i}\n" for i in range(1, 200)}
    index = FRONT + "# Memory\n" + COMMENT + _pointers(199)
    root = write_tree(tmp_path / "c", {"MEMORY.md": index, **memories})
    store = open_store(root)
    codes = {(f.code, f.line) for f in store.findings}
    assert not [c for c in codes if c[0] in ("index-truncated", "index-content")], codes
    assert ("index-size", None) in codes  # 200 lines counted, not 208
    [cf] = context_of(store)["claude"]
    assert cf.first_unloaded_line is None and "HTML comments" in cf.note
    assert cf.text.startswith("# Memory\n- [m1](m1.md)")


def test_past_the_cut_the_truncation_is_named_at_its_file_line(tmp_path: Path) -> None:
    memories = {f"m{i}.md": f"---\ndescription: d\ntype: user\n---\nm{i}\n" for i in range(1, 206)}
    root = write_tree(tmp_path / "c", {"MEMORY.md": FRONT + _pointers(205), **memories})
    store = open_store(root)
    [cut] = [f for f in store.findings if f.code == "index-truncated"]
    assert cut.line == 205 and "front matter" in cut.message
    [cf] = context_of(store)["claude"]
    assert cf.first_unloaded_line == 205 and cf.text.count("> WARNING: MEMORY.md is 205 lines") == 1


# --- a MEMORY.md that holds content, not links -------------------------------------------

CONTENT_INDEX = "# Project Memory\n\n## Build\n- run `uv run pytest` before a push\n"


def test_a_memory_md_of_content_alone_is_a_claude_index_with_index_content(
    tmp_path: Path,
) -> None:
    root = write_tree(tmp_path / "c", {"MEMORY.md": CONTENT_INDEX, "debugging.md": "# Notes\n"})
    assert layouts_at(str(root)) == ("claude",)
    got = {(f.code, f.line) for f in open_store(root).findings if f.code == "index-content"}
    assert got == {("index-content", 4)}  # headings are structure, the bullet is content


def test_a_content_memory_md_beside_another_agents_files_is_not_claimed(tmp_path: Path) -> None:
    beside = {
        "USER.md": "likes tea\n",  # Hermes' memories/ (or OpenClaw)
        "SOUL.md": "# Soul\n",  # OpenClaw
        "GEMINI.md": "# Gemini\n",  # Gemini CLI
        "memory_summary.md": "summary\n",  # Codex
        "notes.txt": "a project folder, not a memory folder\n",
        "system/persona.md": "# me\n",  # Letta MemFS
    }
    for i, (name, text) in enumerate(beside.items()):
        root = write_tree(tmp_path / f"f{i}", {"MEMORY.md": CONTENT_INDEX, name: text})
        assert "claude" not in layouts_at(str(root)), name
    hermes = write_tree(tmp_path / "h", {"MEMORY.md": "- uses uv\n§\n- likes tea\n"})
    assert "claude" not in layouts_at(str(hermes))


# --- the `modified` stamp ---------------------------------------------------------------


def test_the_modified_stamp_is_shown_and_recall_still_orders_by_mtime(tmp_path: Path) -> None:
    stamped = (
        "---\nname: role\ndescription: the role\nmetadata:\n  node_type: memory\n  type: user\n"
        "  originSessionId: 0f3c\n  modified: 2026-05-01T10:00:00.000Z\n---\n\nBackend.\n"
    )
    plain = "---\nname: old\ndescription: d\ntype: user\n---\nOld.\n"
    index = "- [role](role.md) — r\n- [old](old.md) — o\n"
    root = write_tree(tmp_path / "c", {"MEMORY.md": index, "role.md": stamped, "old.md": plain})
    os.utime(root / "role.md", (1_000_000_000, 1_000_000_000))  # the stamp is newer than mtime
    shown = json.loads(run_cli("show", "claude:role.md", "--json", "--store", str(root)).stdout)
    assert (shown["modified"], shown["modified_from"]) == ("2026-05-01T10:00:00Z", "front matter")
    shown = json.loads(run_cli("show", "claude:old.md", "--json", "--store", str(root)).stdout)
    assert shown["modified_from"] == "mtime"
    store = open_store(root)
    assert [m.file for m in store.data["claude"].memories] == ["old.md", "role.md"]  # by mtime
    assert not [f for f in store.findings if f.file == "role.md"]  # nested type is read


def test_only_top_level_comment_blocks_are_taken_off_as_marked_tokenizes() -> None:
    # each expectation checked against marked 15's Lexer({gfm: false}), as Claude lexes
    cases = {
        "plain text\n   <!-- continues the paragraph -->\n": None,
        "plain text\n<!-- interrupts it -->\nmore\n": "plain text\nmore",
        "* item\n  <!-- inside the item -->\n": None,
        "* item\n<!-- ends the list -->\n- [a](a.md)\n": "* item\n- [a](a.md)",
        "<div>\n<!-- inside an html block -->\n</div>\n": None,
        "    <!-- indented code -->\n": None,
        "<!-- spans\n- [a](a.md) — hook\n   until here -->\n# Memory\n": "# Memory",
    }
    for raw, kept in cases.items():
        assert load(raw).text == (raw.strip() if kept is None else kept), raw


def test_a_pointer_commented_out_points_nowhere(tmp_path: Path) -> None:
    index = "# Memory\n<!-- - [Old](old.md) — gone -->\n- [Role](role.md) — r\n"
    role = "---\nname: role\ndescription: d\ntype: user\n---\nBackend.\n"
    root = write_tree(tmp_path / "c", {"MEMORY.md": index, "role.md": role})
    store = open_store(root)
    assert not store.findings  # no pointer-missing for old.md, no index-content
    assert [line.target for line in store.data["claude"].lines] == ["role.md"]


def test_with_crlf_the_cut_is_still_named_at_its_file_line() -> None:
    raw = (FRONT + COMMENT + _pointers(205)).replace("\n", "\r\n")
    loaded = load(raw)
    assert (loaded.first_unloaded_line, loaded.loaded_lines) == (4 + 4 + 201, 200)
    assert loaded.stripped == frozenset({1, 2, 3, 4, 5, 6, 7})
    assert "\r" not in loaded.text and loaded.text.startswith("- [m1](m1.md) — hook\n")
