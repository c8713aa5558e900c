"""Gemini CLI's memory (SPEC §3b "More agents": gemini) on homes and projects no one
here wrote, as real files: detection (side by side with other layouts, never taking
their folders), ids, what the model is given (each file's block, byte for byte as the
agent's own code builds it), each finding where it is due and nowhere else, edits and
archives that leave every byte outside their lines alone, and hostile imports.

Gemini CLI's rules, restated from google-gemini/gemini-cli: memoryDiscovery.ts
(concatenateInstructions: `--- Context from: <path> ---`, trimmed content, `--- End of
Context from: <path> ---`; the global files, then the private project memory
MEMORY.md, else its legacy GEMINI.md), memoryImportProcessor.ts (the tree format's
comments, depth 5, code spans, the project root by `.git` else the file's own folder),
memoryTool.ts (context file names: the configured ones, then GEMINI.md; save_memory's
`## Gemini Added Memories` section). The expected texts below were checked against
those functions run by Node on the same files.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest

from memtui.engine import ops
from memtui.engine.context import context_of
from memtui.engine.entries import entry_text, iter_entries, resolve
from memtui.engine.identity import fingerprint
from memtui.engine.layouts import detectors
from memtui.engine.ops.common import Refused
from memtui.engine.store import layouts_at, open_store
from memtui.engine.write.transaction import Conflict
from tests.conftest import memory_digest, write_tree
from tests.helpers import demo_template

ADDED = "## Gemini Added Memories"  # memoryTool.ts MEMORY_SECTION_HEADER
GLOBAL = f"""\
# Preferences

- Answer briefly.

## Style

@./style.md

{ADDED}
- My preferred package manager is pnpm.
- I prefer pytest over unittest.
"""
STYLE = "- Two spaces, no tabs.\n"


def home(tmp_path: Path, **files: str | bytes) -> Path:
    """A Gemini home (`.gemini`): the global GEMINI.md importing style.md, plus `files`."""
    base = {"GEMINI.md": GLOBAL, "style.md": STYLE, "projects.json": '{"projects": {}}'}
    return write_tree(tmp_path / ".gemini", {**base, **files})


def context(root: Path) -> list[tuple[str, str]]:
    return [(c.file, c.text) for c in context_of(open_store(root))["gemini"]]


def found(root: Path) -> list[tuple[str, str | None, int | None]]:
    return sorted((f.code, f.file, f.line) for f in open_store(root).findings)


def gemini_ids(root: Path) -> list[str]:
    return [e.id for e in iter_entries(open_store(root)) if e.layout == "gemini"]


def block(root: Path, rel: str, body: str) -> str:
    path = f"{root}/{rel}"
    return f"--- Context from: {path} ---\n{body}\n--- End of Context from: {path} ---"


# --- detection ---------------------------------------------------------------------


def test_a_gemini_home_is_known_by_its_name_or_its_own_files(tmp_path):
    assert layouts_at(str(home(tmp_path))) == ("gemini",)
    other = write_tree(
        tmp_path / "backup", {"installation_id": "x", "tmp/p/memory/MEMORY.md": "- a\n"}
    )
    assert layouts_at(str(other)) == ("gemini",)  # no GEMINI.md: its private memory alone


def test_a_project_with_a_context_file_at_its_root_is_one(tmp_path):
    root = write_tree(tmp_path / "p", {"GEMINI.md": "# P\n", "src/app.py": "x = 1\n"})
    assert layouts_at(str(root)) == ("gemini",)
    assert [e.file for e in iter_entries(open_store(root))] == ["GEMINI.md"]  # not its code


@pytest.mark.parametrize(
    "files",
    [
        {"AGENTS.md": "# A\n"},  # another agent's name, not configured
        {"docs/GEMINI.md": "# deep\n"},  # not at the root
        {"settings.json": "{}", "tmp/p/chats/x.json": "{}"},  # a home's look, no memory
    ],
)
def test_no_context_file_no_gemini(tmp_path, files):
    assert "gemini" not in layouts_at(str(write_tree(tmp_path / "p", files)))


def test_settings_name_the_context_files_gemini_md_after_them(tmp_path):
    settings = {"context": {"fileName": ["AGENTS.md", "CONTEXT.md"]}}
    root = write_tree(
        tmp_path / "p",
        {
            ".gemini/settings.json": "// comments are allowed\n" + json.dumps(settings),
            "GEMINI.md": "# g\n",
            "CONTEXT.md": "# c\n",
            "AGENTS.md": "# a\n",
        },
    )
    assert [f for f, _ in context(root)] == ["AGENTS.md", "CONTEXT.md", "GEMINI.md"]


def test_a_settings_file_that_does_not_parse_is_said_and_gemini_md_read(tmp_path):
    root = home(tmp_path, **{"settings.json": '{"context": ', "AGENTS.md": "# a\n"})
    assert ("settings-invalid", "settings.json", None) in found(root)
    assert [f for f, _ in context(root)] == ["GEMINI.md"]


def test_a_folder_another_agent_keeps_is_also_a_gemini_project(tmp_path):
    bank = {"memory-bank/progress.md": "# Progress\n", "GEMINI.md": "# G\n"}
    assert layouts_at(str(write_tree(tmp_path / "p", bank))) == ("cline", "gemini")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_template(tmp_path_factory, "gemini-demo")


def test_the_demo_is_a_home_no_other_layout_claims_nor_it_theirs(demo):
    assert layouts_at(str(demo / "gemini")) == ("gemini",)
    for sub in sorted(p for p in demo.iterdir() if p.is_dir() and p.name != "gemini"):
        assert "gemini" not in layouts_at(str(sub)), sub.name
    assert "gemini" not in layouts_at(str(demo))


def test_usual_places_follow_gemini_cli_home(tmp_path):
    det = detectors()["gemini"]
    assert det.usual_places("/home/u", {}) == ["/home/u/.gemini"]
    assert det.usual_places("/home/u", {"GEMINI_CLI_HOME": "/srv/g"}) == ["/srv/g/.gemini"]


# --- context: each file's block, as the agent's code builds it --------------------------


def test_a_home_gives_the_global_file_then_each_private_memory_index(tmp_path):
    root = home(
        tmp_path,
        **{
            "tmp/sprout/memory/MEMORY.md": "- reminders are hourly\n",
            "tmp/sprout/memory/GEMINI.md": "# legacy: not loaded beside MEMORY.md\n",
            "tmp/sprout/memory/notes.md": "# read on demand\n",
            "tmp/sprout/.project_root": "/home/dev/sprout",
            "tmp/old/memory/GEMINI.md": "- legacy private memory\n",
        },
    )
    style = f"<!-- Imported from: ./style.md -->\n{STYLE}\n<!-- End of import from: ./style.md -->"
    loaded = {
        "GEMINI.md": GLOBAL.replace("@./style.md", style).strip(),
        "tmp/old/memory/GEMINI.md": "- legacy private memory",
        "tmp/sprout/memory/MEMORY.md": "- reminders are hourly",
    }  # the global file, then each project's private memory: its MEMORY.md, else GEMINI.md
    assert context(root) == [(rel, block(root, rel, body)) for rel, body in loaded.items()]
    notes = {c.file: c.note for c in context_of(open_store(root))["gemini"]}
    assert "/home/dev/sprout" in notes["tmp/sprout/memory/MEMORY.md"]


# Every rule of processImports at once; the expected text is what Node gave for it.
TRICKY = (
    b"\xef\xbb\xbf@./sub/a.md first\r\n"  # a BOM: the @ is not after a space
    b"mail me: x@y.com and `@./sub/a.md` in code\r\n"
    b"```\n@./sub/b.md\n```\n"  # a fenced block is a code region too
    b"@./nope.md. @../outside.md @https://x.org/a @./self-ref.md\n"
    b"@./deep/d1.md\n"
    b"\n  \n"
)
TRICKY_TEXT = """\
@./sub/a.md first\r
mail me: x@y.com and `@./sub/a.md` in code\r
```
@./sub/b.md
```
<!-- Import failed: ./nope.md. - ENOENT: no such file or directory, access '{root}/nope.md.' --> \
<!-- Import failed: ../outside.md - Path traversal attempt --> \
<!-- Import failed: https://x.org/a - Path traversal attempt --> \
<!-- Imported from: ./self-ref.md -->
self: <!-- File already processed: ./self-ref.md -->

<!-- End of import from: ./self-ref.md -->
<!-- Imported from: ./deep/d1.md -->
level 1 <!-- Imported from: ./d2.md -->
level 2 <!-- Imported from: ./d3.md -->
level 3 <!-- Imported from: ./d4.md -->
level 4 <!-- Imported from: ./d5.md -->
level 5 @./d6.md

<!-- End of import from: ./d5.md -->

<!-- End of import from: ./d4.md -->

<!-- End of import from: ./d3.md -->

<!-- End of import from: ./d2.md -->

<!-- End of import from: ./deep/d1.md -->"""


def tricky(tmp_path: Path) -> Path:
    files: dict[str, str | bytes] = {"GEMINI.md": TRICKY, "self-ref.md": "self: @./self-ref.md\n"}
    files |= {f"deep/d{i}.md": f"level {i} @./d{i + 1}.md\n" for i in range(1, 7)}
    files |= {"sub/a.md": "# A\n@./b.md\n", "sub/b.md": "B: @./a.md\n"}
    write_tree(tmp_path, {"outside.md": "outside the folder\n"})
    return write_tree(tmp_path / "p", files)


def test_imports_are_inlined_as_gemini_cli_does_it(tmp_path):
    root = tricky(tmp_path)
    assert context(root) == [("GEMINI.md", block(root, "GEMINI.md", TRICKY_TEXT.format(root=root)))]


def test_each_import_problem_is_found_where_it_is_and_nowhere_else(tmp_path):
    root = tricky(tmp_path)
    assert found(root) == [
        ("import-cycle", "self-ref.md", 1),
        ("import-depth", "deep/d5.md", 1),
        ("import-missing", "GEMINI.md", 6),
        ("import-refused", "GEMINI.md", 6),
        ("path-escape", "GEMINI.md", 6),
    ]


def test_with_a_git_root_above_an_import_may_reach_up_to_it(tmp_path):
    write_tree(tmp_path / "repo", {".git/HEAD": "ref: x\n", "shared/style.md": "- tabs\n"})
    root = write_tree(tmp_path / "repo/app", {"GEMINI.md": "@../shared/style.md\n"})
    (text,) = [t for _, t in context(root)]
    assert (
        "<!-- Import failed: ../shared/style.md - memtui: not read, outside the store -->" in text
    )
    assert found(root) == [("import-outside", "GEMINI.md", 1)]  # Gemini reads it: no error
    notes = [c.note for c in context_of(open_store(root))["gemini"]]
    assert "repo/GEMINI.md" not in notes[0]  # none there
    write_tree(tmp_path / "repo", {"GEMINI.md": "# repo\n"})
    assert f"{tmp_path}/repo/GEMINI.md" in context_of(open_store(root))["gemini"][0].note


def test_an_empty_file_gives_no_block_and_says_so(tmp_path):
    root = write_tree(tmp_path / "p", {"GEMINI.md": " \n\n"})
    (loaded,) = context_of(open_store(root))["gemini"]
    assert loaded.text == "" and "empty once trimmed" in loaded.note


def test_a_clean_home_has_no_finding(tmp_path):
    root = home(tmp_path, **{"tmp/p/memory/MEMORY.md": "- Email me at dev@example.com.\n"})
    assert found(root) == []


# --- hostile imports -------------------------------------------------------------------


def test_an_import_of_a_fifo_a_link_out_or_a_huge_file_is_named_never_read(tmp_path):
    (tmp_path / "secret.md").write_text("SECRET\n")
    root = write_tree(
        tmp_path / "p",
        {
            "GEMINI.md": "@./pipe.md @./out.md @./big.md\n",
            "big.md": "x" * 5000,
            "memtui.toml": "[thresholds]\nmax_file_bytes = 4096\n",
        },
    )
    os.mkfifo(root / "pipe.md")
    (root / "out.md").symlink_to(tmp_path / "secret.md")
    (text,) = [t for _, t in context(root)]  # no hang
    assert "SECRET" not in text and "xxxx" not in text
    got = {(code, file) for code, file, _ in found(root)}
    assert {("unreadable", "pipe.md"), ("unreadable", "big.md")} <= got
    assert ("path-escape", "GEMINI.md") in got  # the link leads out: Gemini refuses it too


# --- ids, edit, archive, restore ---------------------------------------------------------


def test_files_sections_and_added_memories_are_entries(tmp_path):
    root = home(tmp_path)
    assert gemini_ids(root) == [
        "gemini:GEMINI.md",
        "gemini:GEMINI.md#Style",
        "gemini:GEMINI.md#Gemini Added Memories",
        "gemini-memory:GEMINI.md#1",
        "gemini-memory:GEMINI.md#2",
        "gemini:style.md",
    ]
    store = open_store(root)
    assert entry_text(store, resolve(store, "gemini-memory:GEMINI.md#2")) == (
        "- I prefer pytest over unittest.\n"
    )


def test_editing_a_memory_changes_its_line_only(tmp_path):
    root = home(tmp_path)
    before = (root / "GEMINI.md").read_text()
    ops.edit_entry(str(root), "gemini-memory:GEMINI.md#1", "- My preferred package manager is npm.")
    after = (root / "GEMINI.md").read_text()
    assert after == before.replace("is pnpm.", "is npm.")
    with pytest.raises(Refused):
        ops.edit_entry(str(root), "gemini-memory:GEMINI.md#1", "- one\n\n- two\n")
    assert (root / "GEMINI.md").read_text() == after


def test_an_edit_of_what_the_agent_changed_meanwhile_is_refused(tmp_path):
    root = home(tmp_path)
    shown = fingerprint("- I prefer pytest over unittest.\n")
    path = root / "GEMINI.md"
    path.write_text(path.read_text().replace("unittest.", "unittest, always."))
    with pytest.raises(Conflict):
        ops.edit_entry(str(root), f"gemini-memory:GEMINI.md#2@{shown}", "- I prefer nose.")


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
@pytest.mark.parametrize("final", [True, False])
@pytest.mark.parametrize(
    "ref", ["gemini-memory:GEMINI.md#1", "gemini-memory:GEMINI.md#2", "gemini:GEMINI.md#Style"]
)
def test_archive_then_restore_is_byte_for_byte(tmp_path, eol, final, ref):
    text = GLOBAL.replace("\n", eol) if final else GLOBAL.rstrip("\n").replace("\n", eol)
    root = home(tmp_path, **{"GEMINI.md": "\ufeff" + text})
    before = memory_digest(root)
    ops.archive(str(root), ref)
    assert ref not in gemini_ids(root) or ref.endswith("#1")  # #2 became #1
    assert ".gemini-memory-archive.jsonl" in memory_digest(root)
    ops.restore(str(root), ref)
    assert memory_digest(root) == before


def test_a_memory_whose_place_is_gone_comes_back_where_save_memory_put_one(tmp_path):
    root = home(tmp_path)
    ops.archive(str(root), "gemini-memory:GEMINI.md#1")
    path = root / "GEMINI.md"
    path.write_text(path.read_text().replace("- I prefer pytest over unittest.\n", ""))
    ops.restore(str(root), "gemini-memory:GEMINI.md#1")
    assert path.read_text().endswith(f"{ADDED}\n- My preferred package manager is pnpm.\n")


def test_a_context_file_is_not_archived_whole(tmp_path):
    root = home(tmp_path)
    before = memory_digest(root)
    with pytest.raises(Refused, match="by name"):
        ops.archive(str(root), "gemini:GEMINI.md")
    assert memory_digest(root) == before


def test_a_subfolders_context_file_is_shown_not_loaded_at_start(tmp_path):
    root = write_tree(
        tmp_path / "p",
        {"GEMINI.md": "# root\n", "src/api/GEMINI.md": "## Routes\n- REST\n", "src/x.py": ""},
    )
    assert "gemini:src/api/GEMINI.md#Routes" in gemini_ids(root)
    assert [f for f, _ in context(root)] == ["GEMINI.md"]  # just in time, when a tool goes there


def test_settings_boundary_markers_set_the_project_root_of_imports(tmp_path):
    settings = {"context": {"memoryBoundaryMarkers": ["package.json"]}}
    write_tree(tmp_path / "repo", {"package.json": "{}", "docs/style.md": "- tabs\n"})
    files = {"GEMINI.md": "@../docs/style.md\n", ".gemini/settings.json": json.dumps(settings)}
    root = write_tree(tmp_path / "repo/app", files)
    assert found(root) == [("import-outside", "GEMINI.md", 1)]  # inside the project root
    files[".gemini/settings.json"] = json.dumps({"context": {"memoryBoundaryMarkers": []}})
    write_tree(root, files)  # no marker: the file's own folder is the root
    assert found(root) == [("path-escape", "GEMINI.md", 1)]


def test_no_write_to_a_private_memory_while_gemini_cli_extracts_from_it(tmp_path):
    """memoryService.ts: a live `.extraction.lock` (pid, startedAt; stale after 35 min)."""
    root = home(tmp_path, **{"tmp/p/memory/MEMORY.md": "# P\n\n## Notes\n- one\n"})
    lock = root / "tmp/p/memory/.extraction.lock"
    now = dt.datetime.now(dt.UTC)
    lock.write_text(json.dumps({"pid": os.getpid(), "startedAt": now.isoformat()}))
    before = memory_digest(root)
    for call in (
        lambda: ops.edit_entry(
            str(root), "gemini:tmp/p/memory/MEMORY.md#Notes", "## Notes\n- two\n"
        ),
        lambda: ops.archive(str(root), "gemini:tmp/p/memory/MEMORY.md#Notes"),
    ):
        with pytest.raises(Refused, match="extraction"):
            call()
    assert memory_digest(root) == before
    old = now - dt.timedelta(minutes=36)  # stale: Gemini CLI itself would take it over
    lock.write_text(json.dumps({"pid": os.getpid(), "startedAt": old.isoformat()}))
    ops.archive(str(root), "gemini:tmp/p/memory/MEMORY.md#Notes")
