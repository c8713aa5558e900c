"""Claude Code's auto memory (SPEC §3b): detection, every finding at its line, what
the agent loads (the exact 200-line / 25,000 UTF-16-unit cut), and the changes
memtui makes there (edit, add, archive and restore) kept byte for byte."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from memtui.engine import ops
from memtui.engine.context import context_of
from memtui.engine.entries import iter_entries
from memtui.engine.ops.common import Refused
from memtui.engine.store import layouts_at, open_store
from memtui.layouts.claude.ops import add_memory
from tests.conftest import run_cli, tree_digest, write_tree
from tests.helpers import expect, findings


def memory(name: str, type_: str = "feedback", description: str = "a hook") -> str:
    return f"---\nname: {name}\ndescription: {description}\ntype: {type_}\n---\n\n{name} body\n"


INDEX = (
    "- [User role](user_role.md) — senior backend engineer\n"
    "- [Testing](feedback_testing.md) — integration tests hit a real database\n"
)
FOLDER = {
    "MEMORY.md": INDEX,
    "user_role.md": memory("User role", "user"),
    "feedback_testing.md": memory("Testing"),
}


def test_a_claude_folder_is_detected_and_the_companion_summary_is_not(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", FOLDER)
    assert layouts_at(str(root)) == ("claude",)
    assert open_store(root).layouts == ("claude",)
    typed_only = write_tree(tmp_path / "t", {"user_role.md": memory("x", "user")})
    assert layouts_at(str(typed_only)) == ("claude",)
    companion = write_tree(
        tmp_path / "p", {"MEMORY.md": INDEX, "memory/events.md": "# events\n", **FOLDER}
    )
    assert "claude" not in layouts_at(str(companion))


def test_each_finding_at_its_line(tmp_path: Path) -> None:
    index = (
        INDEX
        + "- [Gone](gone.md) — missing\n"  # 3
        + "- [Again](feedback_testing.md) — twice\n"  # 4
        + "Plain content in the index\n"  # 5
        + "- [Out](../secret.md) — outside\n"  # 6
        + f"- [Long](long.md) — {'x' * 140}\n"  # 7
        + "## A heading is structure\n"
    )
    root = write_tree(
        tmp_path / "c",
        {
            **FOLDER,
            "MEMORY.md": index,
            "long.md": memory("Long"),
            "orphan.md": "---\nname: Orphan\ntype: mood\n---\n\nbody\n",
            "team/notes.md": memory("Notes", "project", ""),
        },
    )
    got = [f for f in findings(root) if f[0] != "topic-orphan" or f[2] != "team/notes.md"]
    assert got == expect(
        ("pointer-missing", "error", "MEMORY.md", 3),
        ("pointer-duplicate", "warning", "MEMORY.md", 4),
        ("index-content", "warning", "MEMORY.md", 5),
        ("path-escape", "error", "MEMORY.md", 6),
        ("index-line-long", "warning", "MEMORY.md", 7),
        ("topic-orphan", "warning", "orphan.md", None),
        ("memory-type", "warning", "orphan.md", 1),
        ("memory-description", "warning", "orphan.md", 1),
        ("memory-description", "warning", "team/notes.md", 1),
    )


def test_front_matter_past_the_30_lines_recall_reads_has_no_type(tmp_path: Path) -> None:
    late = "---\n" + "k: v\n" * 30 + "description: d\ntype: user\n---\nbody\n"
    root = write_tree(
        tmp_path / "c", {**FOLDER, "late.md": late, "MEMORY.md": INDEX + "- [L](late.md) — l\n"}
    )
    codes = {(f[0], f[2]) for f in findings(root)}
    assert ("memory-type", "late.md") in codes and ("memory-description", "late.md") in codes


NESTED_MEMORIES = {
    # current Claude Code's form: type under metadata: (a description there is not read)
    "flow.md": "---\nname: Flow\ndescription: d\nmetadata: {node_type: memory, type: project, "
    "originSessionId: 5f0c2a9e-0d4e-4c4b-9d55-3d0f3f5b7a11}\n---\nbody\n",
    "block.md": "---\nname: Block\nmetadata:\n  node_type: memory\n  type: feedback\n"
    "  description: only here\n---\nbody\n",
    # YAML refuses `a: b` in a value: Claude Code's quoting reads it, and the nested type
    "colon.md": "---\nname: Colon\ndescription: Don't mock: prod broke\nmetadata:\n"
    "  type: user\n---\nbody\n",
    "colon_flow.md": "---\ndescription: a: b\nmetadata: {node_type: memory, type: reference}\n"
    "---\nbody\n",
    # Claude Code 2.1.332 reads `metadata = {...top level, ...metadata:}`: a type set
    # under metadata: wins over the top-level one, usable or not
    "flat.md": "---\ndescription: d\ntype: user\nmetadata: {type: mood}\n---\nbody\n",
    "flat_bad.md": "---\ndescription: d\ntype: mood\nmetadata: {type: project}\n---\nbody\n",
    # still warned: an invalid nested type, an empty nested description
    "bad_nested.md": "---\ndescription: d\nmetadata:\n  type: mood\n---\nbody\n",
    "empty.md": "---\ntype: user\nmetadata: {description: ''}\n---\nbody\n",
}


def test_type_and_description_under_metadata_are_read(tmp_path: Path) -> None:
    index = "".join(f"- [{n}]({n}) — hook\n" for n in NESTED_MEMORIES)
    root = write_tree(tmp_path / "c", {"MEMORY.md": index, **NESTED_MEMORIES})
    # the description is read from the top level only (block.md has it under metadata:)
    assert findings(root) == expect(
        ("memory-description", "warning", "block.md", 1),
        ("memory-type", "warning", "bad_nested.md", 1),
        ("memory-description", "warning", "empty.md", 1),
        ("memory-type", "warning", "flat.md", 1),
    )
    typed = {m.file: m.type for m in open_store(root).data["claude"].memories}
    assert typed["flat.md"] == "mood" and typed["flat_bad.md"] == "project"
    nested_only = write_tree(tmp_path / "n", {"block.md": NESTED_MEMORIES["block.md"]})
    assert layouts_at(str(nested_only)) == ("claude",)


def _pointers(n: int, hook: str = "hook") -> str:
    return "".join(f"- [m{i}](m{i}.md) — {hook}\n" for i in range(1, n + 1))


def test_201_lines_cut_at_200_and_the_first_unloaded_line_named(tmp_path: Path) -> None:
    files = {"MEMORY.md": "\n\n" + _pointers(201)}  # two blank lines first: Claude trims them
    files |= {f"m{i}.md": memory(f"m{i}") for i in range(1, 202)}
    root = write_tree(tmp_path / "c", files)
    store = open_store(root)
    truncated = [f for f in store.findings if f.code == "index-truncated"]
    assert [(f.level, f.line) for f in truncated] == [("error", 203)]
    [loaded] = context_of(store)["claude"]
    assert loaded.first_unloaded_line == 203 and loaded.lines == 200
    # what the agent gets ends with the warning Claude appends (memdir.ts
    # truncateEntrypointContent); its line numbers count the trimmed text
    warning = (
        "> WARNING: MEMORY.md is 201 lines (limit: 200). Only part of it was loaded: 1 of "
        '201 lines were cut off, starting at line 201 ("- [m201](m201.md) — hook"). Keep '
        "index entries to one line under ~200 chars; move detail into topic files."
    )
    assert loaded.text == _pointers(200).rstrip("\n") + "\n\n" + warning
    assert "Claude's own" in loaded.note


def test_the_unit_cut_counts_utf16_units_and_cuts_at_the_last_newline(tmp_path: Path) -> None:
    # 30 lines of 999 units each (CJK is one unit, an emoji two): 29,999 units trimmed
    line = "好" * 997 + "😀"  # 997 + 2 = 999 units, 998 characters
    root = write_tree(tmp_path / "c", {**FOLDER, "MEMORY.md": (line + "\n") * 30})
    store = open_store(root)
    [loaded] = context_of(store)["claude"]
    assert loaded.first_unloaded_line == 26  # 25 lines = 24,999 units, then the newline
    assert loaded.text == "\n".join([line] * 25) + (
        "\n\n> WARNING: MEMORY.md is 29.3KB (limit: 24.4KB) — index entries are too long. "
        "Only part of it was loaded: 5 of 30 lines were cut off, starting at line 26 "
        f'("{line[:79]}…"). Keep index entries to one line under ~200 chars; move detail '
        "into topic files."
    )
    assert [f.line for f in store.findings if f.code == "index-truncated"] == [26]


def test_index_size_warns_before_the_cut(tmp_path: Path) -> None:
    files = {"MEMORY.md": _pointers(150), **{f"m{i}.md": memory(f"m{i}") for i in range(1, 151)}}
    root = write_tree(tmp_path / "c", files)
    assert ("index-size", "warning", "MEMORY.md", None) in findings(root)
    assert not [f for f in findings(root) if f[0] == "index-truncated"]


def test_recall_cutoff_names_the_oldest(tmp_path: Path) -> None:
    files = {"MEMORY.md": _pointers(201), **{f"m{i}.md": memory(f"m{i}") for i in range(1, 202)}}
    root = write_tree(tmp_path / "c", files)
    for i in range(1, 202):
        os.utime(root / f"m{i}.md", ns=(i * 10**9, i * 10**9))  # m1 is the oldest
    store = open_store(root)
    [cutoff] = [f for f in store.findings if f.code == "recall-cutoff"]
    assert cutoff.file == "m1.md" and "m1.md" in cutoff.message


def test_archive_then_restore_is_byte_for_byte_and_leaves_no_md_meanwhile(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", FOLDER)
    before = tree_digest(root)
    ops.archive(str(root), "claude:feedback_testing.md")
    left = [str(p.relative_to(root)) for p in root.rglob("*.md") if ".history" not in p.parts]
    assert sorted(left) == ["MEMORY.md", "user_role.md"]
    assert "feedback_testing.md" not in (root / "MEMORY.md").read_text()
    assert (root / ".archive/feedback_testing.md.archived").read_text() == FOLDER[
        "feedback_testing.md"
    ]
    ops.restore(str(root), "claude:feedback_testing.md")
    after = {
        k: v
        for k, v in tree_digest(root).items()
        if not k.startswith((".history", ".memory.lock", ".archive"))
    }
    assert after == before


def test_edit_a_memory_and_an_index_line(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", FOLDER)
    new = memory("Testing", description="tests hit a real database")
    ops.edit_entry(str(root), "claude:feedback_testing.md", new)
    assert (root / "feedback_testing.md").read_text() == new
    ops.edit_entry(
        str(root), "claude-index:user_role.md", "- [User role](user_role.md) — staff engineer"
    )
    assert (root / "MEMORY.md").read_text() == INDEX.replace("senior backend", "staff")
    with pytest.raises(Refused):
        ops.edit_entry(str(root), "claude-index:user_role.md", "- [a](user_role.md)\nmore content")


def test_add_a_memory_writes_the_file_and_its_index_line(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", FOLDER)
    add_memory(str(root), "project_freeze", "project", "merge freeze from March 5", "Freeze.")
    store = open_store(root)
    assert "claude:project_freeze.md" in {e.id for e in iter_entries(store)}
    assert (
        (root / "MEMORY.md")
        .read_text()
        .endswith("- [project_freeze](project_freeze.md) — merge freeze from March 5\n")
    )
    assert not store.findings
    with pytest.raises(Refused):
        add_memory(str(root), "project_freeze", "project", "again", "x")


def test_cli_check_and_context_json(tmp_path: Path) -> None:
    files = {"MEMORY.md": _pointers(205), **{f"m{i}.md": memory(f"m{i}") for i in range(1, 206)}}
    root = write_tree(tmp_path / "c", files)
    got = run_cli("check", "--json", "--store", str(root))
    assert got.returncode == 1
    codes = {(f["code"], f["line"]) for f in json.loads(got.stdout)["findings"]}
    assert ("index-truncated", 201) in codes
    got = run_cli("context", "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    [layout] = data["layouts"]
    [file] = layout["files"]
    assert (layout["layout"], file["file"], file["cut"], file["first_unloaded_line"]) == (
        "claude",
        "MEMORY.md",
        True,
        201,
    )
    assert file["loaded"]["lines"] == 200
    assert file["text"].startswith(_pointers(200).rstrip("\n") + "\n\n> WARNING: MEMORY.md is 205")


def test_a_memory_is_named_by_its_bare_file_name_too(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", FOLDER)
    shown = run_cli("show", "user_role.md", "--store", str(root))
    assert shown.returncode == 0 and shown.stdout.startswith("# claude:user_role.md")
    assert run_cli("archive", "user_role.md", "--store", str(root)).returncode == 0
    assert (root / ".archive/user_role.md.archived").is_file()
    assert run_cli("restore", "user_role.md", "--store", str(root)).returncode == 0
    assert (root / "MEMORY.md").read_text() == INDEX


def test_a_web_link_is_content_not_a_pointer(tmp_path: Path) -> None:
    index = INDEX + "- [Docs](https://example.com/guide.md) — the team guide\n"
    root = write_tree(tmp_path / "c", {**FOLDER, "MEMORY.md": index})
    assert findings(root) == expect(("index-content", "warning", "MEMORY.md", 3))


def test_archive_and_restore_keep_crlf_and_a_missing_final_newline(tmp_path: Path) -> None:
    index = INDEX.replace("\n", "\r\n").rstrip("\r\n")  # the last line is the memory's own
    root = write_tree(tmp_path / "c", {**FOLDER, "MEMORY.md": index})
    before = tree_digest(root)
    ops.archive(str(root), "claude:feedback_testing.md")
    assert (root / "MEMORY.md").read_bytes() == INDEX.splitlines()[0].encode() + b"\r\n"
    ops.restore(str(root), "claude:feedback_testing.md")
    own = (".history", ".memory.lock", ".archive")
    assert {k: v for k, v in tree_digest(root).items() if not k.startswith(own)} == before


def test_lines_put_back_or_added_end_as_the_index_ends_its_lines(tmp_path: Path) -> None:
    """The index went CRLF after an archive: the restored line comes back in CRLF, and
    a memory added after it too."""
    root = write_tree(tmp_path / "c", FOLDER)
    ops.archive(str(root), "claude:feedback_testing.md")
    index = root / "MEMORY.md"
    index.write_bytes(index.read_bytes().replace(b"\n", b"\r\n"))
    ops.restore(str(root), "claude:feedback_testing.md")
    assert index.read_bytes() == INDEX.replace("\n", "\r\n").encode()
    add_memory(str(root), "project_x", "project", "x", "X.")
    assert index.read_bytes().endswith(b"\r\n- [project_x](project_x.md) \xe2\x80\x94 x\r\n")
    assert index.read_bytes().count(b"\n") == index.read_bytes().count(b"\r\n") == 3


def test_front_matter_yaml_would_refuse_is_read_as_claude_reads_it(tmp_path: Path) -> None:
    # Claude Code quotes what YAML chokes on: `description: a: b` is the text "a: b"
    colon = "---\nname: Mocks\ndescription: Don't mock the DB: prod broke\ntype: feedback\n---\nx\n"
    index = INDEX + "- [Mocks](feedback_mocks.md) — no mocks\n"
    root = write_tree(tmp_path / "c", {**FOLDER, "feedback_mocks.md": colon, "MEMORY.md": index})
    assert findings(root) == []


OWN = (".history", ".memory.lock", ".archive")


@pytest.mark.parametrize("index", [True, False], ids=["with-index", "typed-only"])
def test_archiving_the_last_memory_leaves_a_claude_folder(tmp_path: Path, index: bool) -> None:
    """With its last memory archived the folder holds no memory and no link: its
    .archive/ (or its MEMORY.md's snapshot) keeps it Claude's, so restore, the log and
    undo still open it."""
    files = {"project_stack.md": memory("Stack", "project")}
    if index:
        files["MEMORY.md"] = "- [Stack](project_stack.md) — the stack\n"
    root = write_tree(tmp_path / "c", files)
    before = tree_digest(root)

    def call(*argv: str) -> str:
        got = run_cli(*argv, "--store", str(root))
        assert got.returncode == 0, (argv, got.stderr)
        return got.stdout

    call("archive", "claude:project_stack.md")
    assert "archive-memory" in call("log")
    call("restore", "claude:project_stack.md")
    assert {k: v for k, v in tree_digest(root).items() if not k.startswith(OWN)} == before
    call("archive", "claude:project_stack.md")
    call("undo")
    assert {k: v for k, v in tree_digest(root).items() if not k.startswith(OWN)} == before


def test_a_companion_memory_md_memtui_wrote_is_not_taken_for_claudes(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "p",
        {
            "MEMORY.md": "【最近未解决事项】\n- 无\n",
            "memory/persona.md": "# persona\n",
            ".history/MEMORY.md/20261129T000000Z.1": "old\n",
        },
    )
    assert layouts_at(str(root)) == ("companion",)
    (root / "memory/persona.md").unlink()
    assert layouts_at(str(root)) == ("claude",)  # no other layout writes a root MEMORY.md
