"""Anthropic's memory tool (SPEC §3b "More agents": memory-tool) on stores no one here
wrote, as real files: detection both ways against Hermes' and Codex's `memories/`, ids,
each finding where it is due and nowhere else, what the model is given (the `view
/memories` listing, byte for byte), edits and archives that keep every other byte, the
demo, and hostile files.

The tool's rules, restated from anthropic-sdk-python
src/anthropic/lib/tools/_beta_builtin_memory_tool.py (BetaLocalFilesystemMemoryTool):
`/memories` is `<base_path>/memories`, base_path "./memory"; `view` of a folder lists
names and sizes two levels deep, hidden names left out, under a fixed header; `view` of
a file refuses one past MAX_LINES = 999,999 lines; `create` writes file_text as given.
"""

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
from memtui.engine.write.transaction import Conflict
from tests.conftest import memory_digest, write_tree
from tests.helpers import demo_template
from tests.hostile_calls import reads, run

HEADER = (
    "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:"
)
MAX_LINES = 999_999  # the SDK's MAX_LINES
SHARED = {"unreadable", "path-escape", "json-invalid", "config-invalid"}

PREFS = "# Preferences\n- Small pull requests\n- pnpm, never npm"  # created: no final newline
TASK = "# Checkout refactor\n- [ ] Move totals into a pure function\n"


def sdk_store(tmp_path: Path, files: dict[str, str | bytes] | None = None) -> Path:
    """The SDK's base folder (`./memory`) holding memories/."""
    files = {"user_preferences.md": PREFS, "tasks/checkout.md": TASK} if files is None else files
    return write_tree(tmp_path / "memory", {f"memories/{k}": v for k, v in files.items()})


def ids(root: Path) -> list[str]:
    return [e.id for e in iter_entries(open_store(root)) if e.layout == "memory-tool"]


def codes(root: Path) -> list[tuple[str, str | None]]:
    return sorted((f.code, f.file) for f in open_store(root).findings)


def listing(root: Path) -> str:
    return "\n".join(cf.text for cf in context_of(open_store(root))["memory-tool"])


def size_of(path: Path) -> str:
    """A folder's size as _format_file_size writes it (4096 on most filesystems: 4K)."""
    n = path.stat().st_size
    for unit, step in (("B", 1), ("K", 1024), ("M", 1024**2)):
        if n < step * 1024:
            return f"{n // step}{unit}" if n % step == 0 else f"{n / step:.1f}{unit}"
    raise AssertionError(n)


# --- detection ---------------------------------------------------------------------------


def test_the_sdks_base_folder_and_the_memories_folder_itself_are_both_stores(tmp_path):
    root = sdk_store(tmp_path)
    assert layouts_at(str(root)) == ("memory-tool",)
    assert layouts_at(str(root / "memories")) == ("memory-tool",)
    expected = ["memory-tool:tasks/checkout.md", "memory-tool:user_preferences.md"]
    assert ids(root) == ids(root / "memories") == expected


@pytest.mark.parametrize(
    "files",
    [
        {},  # an empty memories/: nothing the model sees
        {".hidden.md": "x"},  # only what view leaves out
    ],
)
def test_a_memories_folder_the_model_sees_nothing_in_is_no_store(tmp_path, files):
    root = write_tree(tmp_path / "memory", {f"memories/{k}": v for k, v in files.items()})
    (root / "memories").mkdir(parents=True, exist_ok=True)
    assert "memory-tool" not in layouts_at(str(root))


HERMES_MEMORY = "Project uses pnpm\n§\nCI runs on GitHub Actions"


@pytest.mark.parametrize(
    "files",
    [
        {"memories/MEMORY.md": HERMES_MEMORY, "memories/USER.md": "Name: Ada"},
        {"memories/MEMORY.md": "one entry only"},  # only Hermes' own names
        {"memories/MEMORY.md": HERMES_MEMORY, "memories/notes.md": "x"},  # § separators
        {"memories/MEMORY.md": "x", "memories/MEMORY.md.bak.1764000000": "x", "SOUL.md": "me"},
        {"memories/MEMORY.md": "x", "memories/notes.md": "y", "config.yaml": "", "skills/a": ""},
    ],
)
def test_a_hermes_home_is_hermes_and_never_the_memory_tools(tmp_path, files):
    root = write_tree(tmp_path / "home", files)
    assert layouts_at(str(root)) == ("hermes",)
    assert "memory-tool" not in layouts_at(str(root / "memories"))


@pytest.mark.parametrize(
    "files",
    [
        {"MEMORY.md": "# Notes\n- pnpm", "project.md": "# Project"},  # no § , other files
        {"MEMORY.md": "# Notes", "USER.md": "Ada", "tasks/a.md": "x"},
    ],
)
def test_a_memory_tool_store_holding_memory_md_is_not_taken_for_hermes(tmp_path, files):
    root = sdk_store(tmp_path, files)
    assert layouts_at(str(root)) == ("memory-tool",)
    assert f"memory-tool:{sorted(files)[0]}" in ids(root)


def test_a_project_holding_memories_among_other_files_is_not_claimed_its_folder_is(tmp_path):
    root = write_tree(tmp_path / "project", {"README.md": "# P", "memories/progress.md": "- x"})
    assert "memory-tool" not in layouts_at(str(root))
    assert layouts_at(str(root / "memories")) == ("memory-tool",)


def test_codexs_memories_folder_is_not_the_memory_tools(tmp_path):
    root = write_tree(tmp_path / ".codex", {"memories/memory_summary.md": "- x\n"})
    assert "memory-tool" not in layouts_at(str(root))
    assert "memory-tool" not in layouts_at(str(root / "memories"))


def test_a_memories_folder_that_links_out_of_the_root_is_not_followed(tmp_path):
    outside = sdk_store(tmp_path / "out")
    root = tmp_path / "base"
    root.mkdir()
    (root / "memories").symlink_to(outside / "memories")
    assert "memory-tool" not in layouts_at(str(root))


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_template(tmp_path_factory, "memory-tool-demo")


@pytest.mark.parametrize("folder", ["", "claude", "hermes", "openclaw", "cline", "memory-tool"])
def test_no_layout_claims_anothers_demo_folder(demo, folder):
    expected = {"": ("workspace", "companion", "dsh")}
    assert layouts_at(str(demo / folder)) == expected.get(folder, (folder,))


# --- context: what view returns -----------------------------------------------------------


def test_context_is_the_view_listing_byte_for_byte(tmp_path):
    root = sdk_store(
        tmp_path,
        {
            "b.md": "x" * 1536,  # 1.5K
            "a.xml": "",  # 0B
            "notes/deep/deeper/far.md": "far",  # past two levels: not listed
            "notes/z.md": "z" * 2048,  # 2K
            ".hidden/secret.md": "s",  # hidden: left out, and what is below it
            "notes/.draft.md": "d",
        },
    )
    mem = root / "memories"
    expected = "\n".join(
        [
            HEADER,
            f"{size_of(mem)}\t/memories",
            "0B\t/memories/a.xml",
            "1.5K\t/memories/b.md",
            f"{size_of(mem / 'notes')}\t/memories/notes/",
            f"{size_of(mem / 'notes/deep')}\t/memories/notes/deep/",
            "2K\t/memories/notes/z.md",
        ]
    )
    assert listing(root) == expected
    assert listing(mem) == expected  # the same, opened as /memories itself
    files = [cf.file for cf in context_of(open_store(root))["memory-tool"]]
    assert files == ["memories/a.xml", "memories/b.md", "memories/notes/z.md"]


def test_memtuis_own_files_are_hidden_from_the_listing(tmp_path):
    root = sdk_store(tmp_path)
    before = listing(root / "memories")
    ops.archive(str(root / "memories"), "memory-tool:tasks/checkout.md")
    assert (root / "memories" / ".memory-tool-archive.jsonl").is_file()
    assert ".memory" not in listing(root / "memories")
    ops.restore(str(root / "memories"), "memory-tool:tasks/checkout.md")
    assert listing(root / "memories") == before


# --- findings ------------------------------------------------------------------------------


def test_a_fresh_store_has_no_finding(tmp_path):
    assert codes(sdk_store(tmp_path)) == []


def test_a_file_below_two_levels_is_named_not_listed(tmp_path):
    root = sdk_store(tmp_path, {"a/b.md": "listed", "a/b/c.md": "not listed"})
    assert codes(root) == [("memtool-deep", "memories/a/b/c.md")]
    assert "memory-tool:a/b/c.md" in ids(root)  # still an entry: the model can view it


def test_a_file_past_the_tools_line_limit_is_an_error_and_one_at_it_is_not(tmp_path):
    at_limit = "\n" * (MAX_LINES - 1)  # split("\n") gives MAX_LINES lines
    root = sdk_store(tmp_path, {"ok.md": at_limit, "long.md": at_limit + "\n"})
    assert codes(root) == [("memtool-lines", "memories/long.md")]


def test_every_code_the_layout_gives_is_declared(tmp_path):
    from memtui.engine.layouts import layout

    declared = set(layout("memory-tool").codes) | SHARED
    root = sdk_store(tmp_path, {"a/b/c.md": "x", "big.md": "\n" * MAX_LINES})
    assert {code for code, _ in codes(root)} <= declared


# --- edit, archive, restore ----------------------------------------------------------------


def test_an_edit_keeps_the_files_missing_final_newline_and_crlf(tmp_path):
    root = sdk_store(tmp_path, {"prefs.md": PREFS, "crlf.md": b"# A\r\n- one\r\n"})
    ops.edit_entry(str(root), "memory-tool:prefs.md", "# Preferences\n- Big pull requests\n")
    assert (root / "memories/prefs.md").read_bytes() == b"# Preferences\n- Big pull requests"
    ops.edit_entry(str(root), "memory-tool:crlf.md", "# A\n- two\n")
    assert (root / "memories/crlf.md").read_bytes() == b"# A\r\n- two\r\n"


def test_an_edit_of_a_file_the_application_changed_since_it_was_shown_is_refused(tmp_path):
    from memtui.engine.identity import fingerprint

    root = sdk_store(tmp_path)
    shown = fingerprint(PREFS)
    (root / "memories/user_preferences.md").write_text(PREFS + "\n- Tabs", encoding="utf-8")
    before = memory_digest(root)
    for call in (
        lambda: ops.edit_entry(str(root), "memory-tool:user_preferences.md", "x", expect=shown),
        lambda: ops.archive(str(root), "memory-tool:user_preferences.md", expect=shown),
    ):
        with pytest.raises(Conflict):
            call()
    assert memory_digest(root) == before


@pytest.mark.parametrize("content", [PREFS.encode(), b"\xef\xbb\xbf# A\r\n- b", b""])
def test_archive_then_restore_leaves_every_byte_as_it_was(tmp_path, content):
    root = sdk_store(tmp_path, {"tasks/one.md": content, "keep.md": "k"})
    before = memory_digest(root)
    ops.archive(str(root), "memory-tool:tasks/one.md")
    assert not (root / "memories/tasks/one.md").exists()
    assert "memory-tool:tasks/one.md" not in ids(root)
    ops.restore(str(root), "memory-tool:tasks/one.md")
    assert memory_digest(root) == before
    assert not (root / ".memory-tool-archive.jsonl").exists()  # the last one back: no book


def test_a_store_whose_every_file_is_archived_stays_one_until_restored(tmp_path):
    root = sdk_store(tmp_path, {"only.md": "x"})
    ops.archive(str(root / "memories"), "memory-tool:only.md")
    assert layouts_at(str(root / "memories")) == ("memory-tool",)
    ops.restore(str(root / "memories"), "memory-tool:only.md")
    assert (root / "memories/only.md").read_text() == "x"


@pytest.mark.parametrize(
    "ref", ["memory-tool:../escape.md", "memory-tool:/etc/passwd", "memory-tool:.hidden.md"]
)
def test_a_path_the_tool_would_refuse_is_refused(tmp_path, ref):
    root = sdk_store(tmp_path)
    before = memory_digest(root)
    for call in (
        lambda: ops.edit_entry(str(root), ref, "x"),
        lambda: ops.archive(str(root), ref),
        lambda: ops.restore(str(root), ref),
    ):
        with pytest.raises(Exception) as err:
            call()
        assert not isinstance(err.value, AssertionError)
    assert memory_digest(root) == before


def test_restore_refuses_when_the_file_is_there_again(tmp_path):
    root = sdk_store(tmp_path)
    ops.archive(str(root), "memory-tool:tasks/checkout.md")
    (root / "memories/tasks/checkout.md").write_text("new", encoding="utf-8")
    with pytest.raises(Refused, match="exists again"):
        ops.restore(str(root), "memory-tool:tasks/checkout.md")
    book = (root / ".memory-tool-archive.jsonl").read_text(encoding="utf-8")
    assert json.loads(book)["text"] == TASK


# --- the demo and the command line --------------------------------------------------------


def test_the_demo_shows_its_one_finding_and_the_listing(demo, capsys):
    root = demo / "memory-tool"
    got = reads(capsys, root, ("check", "--json"), ("context",), ("list",))
    found = json.loads(got["check --json"][1])["findings"]
    assert [(f["code"], f["file"]) for f in found] == [
        ("memtool-deep", "memories/tasks/done/2026/payment-retries.md")
    ]
    assert HEADER in got["context"][1]
    assert "/memories/tasks/done/\n" in listing(root) + "\n"
    assert "payment-retries" not in listing(root)
    code, out, _ = run(capsys, root, "show", "memory-tool:user_preferences.md")
    assert code == 0 and "pnpm" in out


def test_a_fifo_in_place_of_a_listed_file_is_named_in_context_and_nothing_hangs(tmp_path):
    root = sdk_store(tmp_path)
    path = root / "memories/user_preferences.md"
    path.unlink()
    os.mkfifo(path)
    got = {cf.file: cf for cf in context_of(open_store(root))["memory-tool"]}
    assert got["memories/user_preferences.md"].unreadable
    assert ("unreadable", "memories/user_preferences.md") in codes(root)
