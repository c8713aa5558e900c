"""Cline's Memory Bank (SPEC §3b "More agents") on banks no one here wrote, as real
files: detection (and no other layout's folder claimed), ids, each finding where it is
due and nowhere else, what the model is given and in which order, edits and archives
that leave every byte outside their lines alone, the demo, and hostile files.

Cline's rules, restated from cline/cline: docs/best-practices/memory-bank.mdx (the six
core files and their hierarchy; "read ALL memory bank files at the start of EVERY
task") and src/core/context/context-management/context-window-utils.ts (a model of
unknown window gets 128,000 tokens, of which a task may use 128,000 - 30,000).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path

import pytest

from memtui.demo.common import Sink
from memtui.engine import ops
from memtui.engine.entries import entry_text, iter_entries, resolve
from memtui.engine.identity import fingerprint
from memtui.engine.layouts import layout
from memtui.engine.ops.common import Refused
from memtui.engine.store import layouts_at, open_store
from memtui.engine.write.transaction import Conflict
from tests.conftest import memory_digest, write_tree
from tests.helpers import TODAY_DATE, demo_template
from tests.hostile_calls import READS, all_paths, cli, reads, refused, run

# --- Cline's numbers, restated ---------------------------------------------------------
CORE = [
    "projectbrief.md",
    "productContext.md",
    "systemPatterns.md",
    "techContext.md",
    "activeContext.md",
    "progress.md",
]  # fmt: skip  (the hierarchy: brief first)
USABLE = 128_000 - 30_000  # getContextWindowInfo, a model of unknown window
BANK_WARN, FILE_SHARE = USABLE // 4, USABLE // 4 // 6  # the budget memtui names
SHARED = {"unreadable", "path-escape", "json-invalid", "fence-unclosed", "config-invalid"}

ACTIVE = """\
# Active Context

Last updated: 2026-11-27

## Current focus
- Invite links for households

## Next steps
- Expire invites after 7 days
"""
PROGRESS = """\
# Progress

Last updated: 2026-11-27

## What works
- The today list

## Known issues
- Push subscriptions expire on iOS
"""


def bank(**changes: str | bytes | None) -> dict[str, str | bytes]:
    """A whole bank (memory-bank/<name>: text), with `changes` (None removes a file)."""
    files: dict[str, str | bytes] = {
        "projectbrief.md": "# Project Brief\n\n## Goals\n- Water plants on time\n",
        "productContext.md": "# Product Context\n\n## Why\n- People forget\n",
        "systemPatterns.md": "# System Patterns\n\n## Architecture\n- Next.js\n",
        "techContext.md": "# Tech Context\n\n## Stack\n- SQLite\n",
        "activeContext.md": ACTIVE,
        "progress.md": PROGRESS,
    }
    for key, text in changes.items():
        name = key.replace("__", "/")
        name += "" if "." in name.rsplit("/", 1)[-1] else ".md"
        if text is None:
            files.pop(name, None)
        else:
            files[name] = text
    return {f"memory-bank/{name}": text for name, text in files.items()}


def project(tmp_path: Path, **changes: str | bytes | None) -> Path:
    return write_tree(tmp_path / "proj", bank(**changes))


def found(root: Path) -> list[tuple[str, str, str | None]]:
    """(code, level, file) of each finding (today pinned)."""
    store = open_store(root, today=TODAY_DATE)
    return sorted((f.code, f.level, f.file) for f in store.findings)


def ids(root: Path) -> list[str]:
    return [e.id for e in iter_entries(open_store(root, today=TODAY_DATE)) if e.kind == "cline"]


def cline_edit(root: Path, name: str, text: str, **shown: object):
    return layout("cline").edit(str(root), "cline", name, text, **shown)


def mem(root: Path) -> dict[str, str]:
    return memory_digest(root)


# --- detection ---------------------------------------------------------------------


def test_a_project_holding_memory_bank_with_a_core_file_is_a_cline_store(tmp_path):
    root = write_tree(tmp_path / "p", {"memory-bank/progress.md": "# Progress\n", "README.md": "x"})
    assert layouts_at(str(root)) == ("cline",)
    assert open_store(root).layouts == ("cline",)


@pytest.mark.parametrize(
    "files",
    [
        {"memory-bank/notes.md": "# Notes\n"},  # a memory-bank/ without a core file
        {"progress.md": "# Progress\n", "activeContext.md": "# A\n"},  # core names, no bank
        {"docs/memory-bank/progress.md": "# Progress\n"},  # not at the root
        {"memory-bank": "a file, not a folder\n", "x.md": "# x\n"},
    ],
)
def test_no_bank_no_cline(tmp_path, files):
    root = write_tree(tmp_path / "p", files)
    assert "cline" not in layouts_at(str(root))


def test_a_bank_folder_that_links_out_of_the_root_is_not_followed(tmp_path):
    outside = write_tree(tmp_path / "outside", {"progress.md": "# SECRET progress\n"})
    root = tmp_path / "p"
    root.mkdir()
    (root / "memory-bank").symlink_to(outside, target_is_directory=True)
    assert "cline" not in layouts_at(str(root))


def test_the_bank_under_clinerules_is_read_with_the_same_ids(tmp_path):
    files = {f".clinerules/{rel}": text for rel, text in bank().items()}
    root = write_tree(tmp_path / "p", {**files, ".clinerules/memory-bank.md": "# rules\n"})
    store = open_store(root, today=TODAY_DATE)
    assert store.layouts == ("cline",)
    entry = resolve(store, "cline:activeContext.md#Next steps")
    assert entry.file == ".clinerules/memory-bank/activeContext.md"
    assert "# rules" not in " ".join(c["file"] for c in _context(root))  # the rules: no bank


def test_memory_bank_wins_over_the_one_under_clinerules(tmp_path):
    files = {**bank(), ".clinerules/memory-bank/progress.md": "# Other\n"}
    root = write_tree(tmp_path / "p", files)
    assert {e.file for e in iter_entries(open_store(root)) if e.kind == "cline"} == {
        f"memory-bank/{n}" for n in CORE
    }


def test_a_bank_opened_directly_is_its_own_root_with_the_same_ids(tmp_path):
    root = project(tmp_path) / "memory-bank"
    write_tree(root, {"features/reminders.md": "# Reminders\n\n## Rules\n- one a day\n"})
    store = open_store(root, today=TODAY_DATE)
    assert store.layouts == ("cline",)
    assert resolve(store, "cline:features/reminders.md#Rules").file == "features/reminders.md"
    before = mem(root)
    ops.archive(str(root), "cline:activeContext.md#Next steps")
    assert set(mem(root)) - set(before) == {".memory-bank-archive.jsonl"}  # hidden
    assert "cline:activeContext.md#Next steps" not in ids(root)
    ops.restore(str(root), "cline:activeContext.md#Next steps")
    assert mem(root) == before


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_template(tmp_path_factory, "cline-demo")


@pytest.mark.parametrize("folder", ["", "claude", "hermes", "openclaw", "cline"])
def test_no_layout_claims_anothers_demo_folder(demo, folder):
    expected = {"": ("workspace", "companion", "dsh"), "cline": ("cline",)}
    assert layouts_at(str(demo / folder)) == expected.get(folder, (folder,))


# --- entries and their ids ---------------------------------------------------------------


def test_each_file_and_section_is_an_entry_in_reading_order_hidden_paths_aside(tmp_path):
    root = project(
        tmp_path,
        zeta__notes="# Notes\n",
        features__api="# API\n\n## Routes\n- /plants\n",
        **{".drafts__x.md": "# draft\n", ".hidden.md": "# hidden\n", "diagram.png": b"\x89PNG"},
    )
    assert ids(root) == [
        "cline:projectbrief.md", "cline:projectbrief.md#Goals",
        "cline:productContext.md", "cline:productContext.md#Why",
        "cline:systemPatterns.md", "cline:systemPatterns.md#Architecture",
        "cline:techContext.md", "cline:techContext.md#Stack",
        "cline:activeContext.md", "cline:activeContext.md#Current focus",
        "cline:activeContext.md#Next steps",
        "cline:progress.md", "cline:progress.md#What works", "cline:progress.md#Known issues",
        "cline:features/api.md", "cline:features/api.md#Routes", "cline:zeta/notes.md",
    ]  # fmt: skip
    store = open_store(root)
    assert entry_text(store, resolve(store, "cline:progress.md#Known issues")) == (
        "## Known issues\n- Push subscriptions expire on iOS\n"
    )


TWICE = "# Active Context\n\n## Notes\n- first\n\n## Focus\n- x\n\n## Notes\n- second\n"


def test_sections_sharing_a_heading_are_named_by_place_and_fingerprint(tmp_path):
    root = project(tmp_path, activeContext=TWICE)
    listed = [i for i in ids(root) if "#Notes" in i]
    first, second = "## Notes\n- first\n\n", "## Notes\n- second\n"
    assert listed == [
        f"cline:activeContext.md#Notes@{fingerprint(first)}",
        f"cline:activeContext.md#Notes#2@{fingerprint(second)}",
    ]
    store = open_store(root)
    assert entry_text(store, resolve(store, listed[1])) == second
    assert ("bank-heading-duplicate", "info", "memory-bank/activeContext.md") in found(root)
    before = mem(root)
    for call in (ops.archive, lambda r, i: cline_edit(Path(r), i.split(":", 1)[1], "## Notes\n")):
        with pytest.raises(Refused, match=r"2 sections .* are headed 'Notes'"):
            call(str(root), "cline:activeContext.md#Notes")
    assert mem(root) == before
    ops.archive(str(root), listed[1])  # the second one, as listed
    assert "- second" not in (root / "memory-bank/activeContext.md").read_text()
    assert "- first" in (root / "memory-bank/activeContext.md").read_text()
    ops.restore(str(root), "cline:activeContext.md#Notes")
    assert mem(root) == before


def test_a_section_that_moved_since_it_was_listed_is_not_touched(tmp_path):
    root = project(tmp_path, activeContext=TWICE)
    second = next(i for i in ids(root) if "#Notes#2" in i)
    path = root / "memory-bank/activeContext.md"
    path.write_text(TWICE.replace("## Focus", "## Notes\n- new\n\n## Focus"))  # the agent
    before = mem(root)
    with pytest.raises(Conflict, match="moved since it was shown"):
        ops.archive(str(root), second)
    assert mem(root) == before


# --- findings ------------------------------------------------------------------------------


def test_a_whole_fresh_bank_has_no_finding(tmp_path):
    assert found(project(tmp_path)) == []


def test_the_figures_are_clines_own(tmp_path):
    from memtui.layouts.cline import rules

    assert layout("cline").thresholds == {
        "cline_bank_warn_tokens": BANK_WARN,
        "cline_bank_max_tokens": USABLE,
        "cline_file_tokens": FILE_SHARE,
        "cline_stale_days": 1,
    }
    assert (BANK_WARN, FILE_SHARE) == (24_500, 4_083)
    assert rules.tokens(4) == 1 and rules.tokens(5) == 2  # about 4 bytes a token


def test_the_summary_says_the_banks_files_their_cost_and_what_is_missing(tmp_path):
    root = project(tmp_path, techContext=None)
    ops.archive(str(root), "cline:progress.md#Known issues")
    store = open_store(root, today=TODAY_DATE)
    tokens = sum(-(-(root / f"memory-bank/{n}").stat().st_size // 4) for n in CORE if n != CORE[3])
    assert layout("cline").summary(store.data["cline"]) == [
        f"5 bank files (~{tokens:,} tokens at every task start), 1 core missing, 1 archived"
    ]
    assert layout("cline").title == "a Cline Memory Bank"  # memtui demo --help says it


def test_a_missing_core_file_is_named(tmp_path):
    root = project(tmp_path, techContext=None, systemPatterns=None)
    assert found(root) == [
        ("bank-core-missing", "warning", "memory-bank/systemPatterns.md"),
        ("bank-core-missing", "warning", "memory-bank/techContext.md"),
    ]


def test_a_folder_where_a_core_file_should_be_is_named(tmp_path):
    root = project(tmp_path, techContext=None, **{"techContext.md__x.md": "# x\n"})
    store = open_store(root, today=TODAY_DATE)
    (f,) = [f for f in store.findings if f.code == "bank-core-missing"]
    assert f.file == "memory-bank/techContext.md" and "is a folder, not a file" in f.message


def test_a_file_past_its_share_of_the_budget_is_named_and_one_within_it_not(tmp_path):
    line = "- a fact about the project\n"  # 27 bytes
    big = "# Progress\n\n## Log\n" + line * (FILE_SHARE * 4 // len(line) + 1)
    root = project(tmp_path, progress=big)
    assert found(root) == [("bank-file-size", "warning", "memory-bank/progress.md")]
    fits = "# Progress\n\n## Log\n" + line * ((FILE_SHARE * 4 - 40) // len(line))
    assert found(project(tmp_path / "2", progress=fits)) == []


def test_a_bank_past_a_quarter_of_the_window_warns_and_past_all_of_it_errs(tmp_path):
    chunk = "# Notes\n\n" + "x" * (FILE_SHARE * 4 - 100) + "\n"  # each under its share
    over = BANK_WARN * 4 // len(chunk) + 1
    root = project(tmp_path, **{f"notes__{n:02d}": chunk for n in range(over)})
    assert found(root) == [("bank-size", "warning", "memory-bank/notes/00.md")]
    under = project(tmp_path / "2", **{f"notes__{n:02d}": chunk for n in range(over - 2)})
    assert found(under) == []
    full = project(tmp_path / "3", **{f"notes__{n:02d}": chunk for n in range(USABLE // 4000 + 1)})
    assert found(full) == [("bank-size", "error", "memory-bank/notes/00.md")]


def test_active_context_dated_before_progress_is_stale(tmp_path):
    root = project(tmp_path, activeContext=ACTIVE.replace("2026-11-27", "2026-11-20"))
    store = open_store(root, today=TODAY_DATE)
    assert [(f.code, f.file) for f in store.findings] == [
        ("bank-stale", "memory-bank/activeContext.md")
    ]
    assert "is dated 2026-11-20, progress.md 2026-11-27" in store.findings[0].message


@pytest.mark.parametrize(
    "active, progress",
    [
        ("2026-11-27", "2026-11-27"),  # the same day
        ("2026-11-28", "2026-11-27"),  # newer
        ("2026-11-27", "Beta 2026-12-24, updated 2026-11-27"),  # a date ahead says nothing
    ],
)
def test_active_context_not_older_than_progress_is_not_stale(tmp_path, active, progress):
    root = project(
        tmp_path,
        activeContext=ACTIVE.replace("2026-11-27", active),
        progress=PROGRESS.replace("2026-11-27", progress),
    )
    assert found(root) == []


@pytest.mark.parametrize("hours, stale", [(-72, True), (-12, False), (48, False)])
def test_without_dates_staleness_is_by_modification_time(tmp_path, hours, stale):
    undated = {"activeContext": "# Active\n- focus\n", "progress": "# Progress\n- done\n"}
    root = project(tmp_path, **undated)
    now = dt.datetime(2026, 11, 28, 12).timestamp()
    os.utime(root / "memory-bank/progress.md", (now, now))
    then = now + hours * 3600
    os.utime(root / "memory-bank/activeContext.md", (then, then))
    assert (("bank-stale", "warning", "memory-bank/activeContext.md") in found(root)) == stale


def test_every_code_the_layout_gives_is_declared(tmp_path):
    root = project(tmp_path, activeContext=TWICE, techContext=None, progress="x" * 20_000)
    week_ago = dt.datetime(2026, 11, 22).timestamp()  # neither carries a date: by the times
    os.utime(root / "memory-bank/activeContext.md", (week_ago, week_ago))
    codes = {f.code for f in open_store(root).findings}
    assert codes == {"bank-heading-duplicate", "bank-core-missing", "bank-file-size", "bank-stale"}
    assert codes <= set(layout("cline").codes)
    assert all(level in ("error", "warning", "info") for level, _ in layout("cline").codes.values())


def test_memtui_toml_sets_the_layouts_thresholds(tmp_path):
    root = project(tmp_path)
    (root / "memtui.toml").write_text("[thresholds]\ncline_file_tokens = 10\n")
    assert ("bank-file-size", "warning", "memory-bank/progress.md") in found(root)
    assert "config-invalid" not in {code for code, _, _ in found(root)}


# --- context ---------------------------------------------------------------------------------


def _context(root: Path) -> list[dict]:
    store = open_store(root, today=TODAY_DATE)
    from memtui.engine.context import context_json

    (got,) = [lay for lay in context_json(store)["layouts"] if lay["layout"] == "cline"]
    return got["files"]


def test_context_is_every_bank_file_whole_in_the_hierarchys_order(tmp_path):
    root = project(tmp_path, zeta="# Z\n", features__api="# API\n", alpha="# A\n")
    files = _context(root)
    assert [f["file"] for f in files] == [f"memory-bank/{n}" for n in CORE] + [
        "memory-bank/alpha.md",
        "memory-bank/features/api.md",
        "memory-bank/zeta.md",
    ]
    for f in files:
        assert f["cut"] is False and f["first_unloaded_line"] is None
        assert f["text"] == (root / f["file"]).read_text(encoding="utf-8")


# --- edit ----------------------------------------------------------------------------------


CRLF = "# Active\r\n\r\n## Current focus\r\n- invites\r\n\r\n## Next steps\r\n- expire them"


def test_an_edit_changes_its_section_alone_crlf_and_no_final_newline_kept(tmp_path):
    root = project(tmp_path, activeContext=CRLF)
    path = root / "memory-bank/activeContext.md"
    receipt = cline_edit(root, "activeContext.md#Current focus", "## Current focus\n- reminders\n")
    assert receipt.changes and receipt.changes[0].path == "memory-bank/activeContext.md"
    assert path.read_bytes() == CRLF.replace("- invites", "- reminders").encode()
    cline_edit(root, "activeContext.md#Next steps", "## Next steps\n- ship\n")
    assert path.read_bytes().endswith(b"## Next steps\r\n- ship")  # still no final newline


def test_an_edit_of_a_whole_file_and_its_refusals(tmp_path):
    root = project(tmp_path)
    path = root / "memory-bank/progress.md"
    cline_edit(root, "progress.md", "# Progress\n\n## What works\n- all of it\n")
    assert path.read_text() == "# Progress\n\n## What works\n- all of it\n"
    before = mem(root)
    for name, text, why in [
        ("progress.md#What works", "- no heading\n", "one section"),
        ("progress.md#What works", "## What works\n- a\n\n## More\n- b\n", "one section"),
        ("progress.md#What works", "  \n", "empty"),
        ("progress.md#Nothing", "## Nothing\n", "no section 'Nothing'"),
        ("../secret.md", "x\n", "not a Memory Bank file"),
        (".hidden.md", "x\n", "not a Memory Bank file"),
    ]:
        with pytest.raises(Refused, match=why):
            cline_edit(root, name, text)
    assert mem(root) == before


def test_an_edit_of_a_section_the_agent_changed_since_it_was_shown_is_refused(tmp_path):
    root = project(tmp_path)
    store = open_store(root)
    shown = resolve(store, "cline:progress.md#What works")
    fp = fingerprint(entry_text(store, shown) or "")
    path = root / "memory-bank/progress.md"
    path.write_text(PROGRESS.replace("- The today list", "- The today list, sorted"))
    before = mem(root)
    with pytest.raises(Conflict, match="changed since it was shown"):
        cline_edit(root, "progress.md#What works", "## What works\n- x\n", expect=fp)
    assert mem(root) == before


def test_memtui_edit_edits_a_cline_section(tmp_path, capsys):
    root = project(tmp_path)
    text = tmp_path / "new.md"
    text.write_text("## Next steps\n- ship invites\n")
    code, _, err = run(
        capsys, root, "edit", "cline:activeContext.md#Next steps", "--text-file", str(text)
    )
    assert code == 0, err
    assert (root / "memory-bank/activeContext.md").read_text().endswith("- ship invites\n")


# --- archive and restore -------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, text, section",
    [
        ("activeContext", ACTIVE, "Current focus"),  # in the middle
        ("activeContext", ACTIVE, "Next steps"),  # the last
        ("activeContext", ACTIVE.rstrip("\n"), "Next steps"),  # the last, no final newline
        ("activeContext", CRLF, "Current focus"),
        ("activeContext", CRLF, "Next steps"),
        ("progress", "## What works\n- all\n\n## Known issues\n- none\n", "What works"),  # first
    ],
)
def test_archive_then_restore_leaves_every_byte_as_it_was(tmp_path, name, text, section):
    root = project(tmp_path, **{name: text})
    before = mem(root)
    ops.archive(str(root), f"cline:{name}.md#{section}")
    after = (root / f"memory-bank/{name}.md").read_bytes()
    assert section.encode() not in after
    assert text.encode().replace(b"\r\n", b"\n") != after.replace(b"\r\n", b"\n")
    assert f"cline:{name}.md#{section}" not in ids(root)
    assert (b"\r\n" in after) == ("\r\n" in text)
    ops.restore(str(root), f"cline:{name}.md#{section}")
    assert mem(root) == before  # the archive folder went with its last section


def test_a_section_goes_back_to_its_place_after_the_agent_wrote_elsewhere(tmp_path):
    root = project(tmp_path)
    ops.archive(str(root), "cline:progress.md#What works")
    path = root / "memory-bank/progress.md"
    path.write_text(path.read_text() + "\n## Milestones\n- beta\n")  # the agent appends
    ops.restore(str(root), "cline:progress.md#What works")
    assert path.read_text() == PROGRESS + "\n## Milestones\n- beta\n"


def test_an_archive_beside_others_leaves_them_as_they_were(tmp_path):
    root = project(tmp_path)
    ops.archive(str(root), "cline:progress.md#Known issues")
    before = mem(root)
    ops.archive(str(root), "cline:activeContext.md#Next steps")
    ops.restore(str(root), "cline:activeContext.md#Next steps")
    assert mem(root) == before


def test_memtui_undo_takes_an_archive_back_whole(tmp_path, capsys):
    root = project(tmp_path)
    before, paths = mem(root), _paths(root)
    assert run(capsys, root, "archive", "cline:progress.md#What works")[0] == 0
    assert ".memory-bank-archive.jsonl" in mem(root)
    assert run(capsys, root, "undo")[0] == 0
    assert (mem(root), _paths(root)) == (before, paths)  # no folder left behind either


def _paths(root: Path) -> set[str]:
    """Every path below root, folders too, but memtui's own."""
    return {p for p in all_paths(root) if not p.startswith((".history", ".memory.lock"))}


def test_archive_and_restore_refusals(tmp_path):
    root = project(tmp_path)
    before = mem(root)
    with pytest.raises(Refused, match="not archived whole"):
        ops.archive(str(root), "cline:progress.md")
    with pytest.raises(Refused, match="is not archived"):
        ops.restore(str(root), "cline:progress.md#What works")
    with pytest.raises(Conflict, match="changed since it was shown"):
        ops.archive(str(root), "cline:progress.md#What works", expect="0" * 12)
    assert mem(root) == before


def test_the_tree_offers_archive_on_sections_and_restore_on_archived_ones(tmp_path):
    from memtui.engine.outline import store_outline

    root = project(tmp_path)
    ops.archive(str(root), "cline:progress.md#Known issues")
    (group,) = [i for i in store_outline(open_store(root)) if i.key == "cline"]
    items = group.children()
    files = [i.label for i in items]
    assert files[:6] == CORE and files[6] == "archived (1)"
    active = items[4].children()
    assert [(i.entry_id, i.verbs) for i in active] == [
        ("cline:activeContext.md#Current focus", ("edit", "archive")),
        ("cline:activeContext.md#Next steps", ("edit", "archive")),
    ]
    (row,) = items[6].children()
    assert (row.target, row.verbs) == ("cline:progress.md#Known issues", ("restore",))
    store = open_store(root)  # the tree sends the archive row's fingerprint as shown
    shown = fingerprint(entry_text(store, resolve(store, f"file:{row.file}")) or "")
    ops.restore(str(root), row.target, expect=shown)
    assert (root / "memory-bank/progress.md").read_text() == PROGRESS


# --- the demo --------------------------------------------------------------------------------


def test_the_demo_is_a_cline_bank_showing_its_one_finding(tmp_path):
    today = dt.date(2026, 11, 29)

    def write(to: Path) -> dict[str, str]:
        counts = layout("cline").demo(Sink(to), random.Random("x"), 1, today)
        assert counts == {"cline_files": 7}
        return mem(to)

    assert write(tmp_path / "a") == write(tmp_path / "b")  # same (rng, size, today): same bytes
    root = tmp_path / "a" / "cline"
    store = open_store(root, today=today)
    assert store.layouts == ("cline",)
    assert [(f.code, f.file) for f in store.findings] == [
        ("bank-stale", "memory-bank/activeContext.md")
    ]
    assert "memory-bank/features/reminders.md" in {e.file for e in iter_entries(store)}


def test_check_list_context_on_the_demo_through_the_cli(demo, capsys):
    root = demo / "cline"
    got = reads(capsys, root, *READS)
    assert got["check"][0] == 0
    checked = json.loads(got["check --json"][1])
    assert checked["layouts"] == ["cline"]
    assert [f["code"] for f in checked["findings"]] == ["bank-stale"]
    listed = [e["id"] for e in json.loads(got["list --json"][1])["entries"]]
    assert "cline:activeContext.md#Next steps" in listed
    for eid in listed:  # every id listed shows
        code, out, err = run(capsys, root, "show", eid)
        assert code == 0 and out, (eid, err)
    files = json.loads(got["context --json"][1])["layouts"][0]["files"]
    assert [f["file"].split("/", 1)[1] for f in files] == [*CORE, "features/reminders.md"]
    assert "== cline: memory-bank/projectbrief.md" in got["context"][1]


# --- hostile files ---------------------------------------------------------------------------


SECRET = "TOPSECRET-cline-7f3a"


@pytest.mark.parametrize("name", ["progress.md", "features/api.md"])  # a core file, another
@pytest.mark.parametrize("what", ["fifo", "folder", "link out", "bad utf-8", "oversized"])
def test_a_hostile_bank_file_is_named_and_nothing_hangs(tmp_path, capsys, what, name):
    outside = write_tree(tmp_path / "outside", {"secret.md": f"# {SECRET}\n"})
    root = project(tmp_path, features__api="# API\n\n## Routes\n- /plants\n")
    rel = f"memory-bank/{name}"
    path = root / rel
    path.unlink()
    core = name == "progress.md"
    expected = {"folder": "bank-core-missing" if core else "unreadable", "link out": "path-escape"}
    if what == "fifo":
        os.mkfifo(path)
    elif what == "folder":
        path.mkdir()
    elif what == "link out":
        path.symlink_to(outside / "secret.md")
    elif what == "bad utf-8":
        path.write_bytes(b"# Progress\n\xff\xfe broken\n")
    else:
        path.write_text("# Progress\n" + "x" * 500)
        (root / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 400\n")
    got = reads(capsys, root, *READS)
    checked = json.loads(got["check --json"][1])
    named = {f["code"] for f in checked["findings"] if f["file"] == rel}
    assert expected.get(what, "unreadable") in named, checked
    assert all(SECRET not in out + err for _, out, err in got.values())
    files = {f["file"]: f for f in json.loads(got["context --json"][1])["layouts"][0]["files"]}
    if what != "folder":  # never left out silently: named, with why
        assert files[rel]["text"] == ""
        assert f"{rel} (not readable" in got["context"][1]


def test_refusals_through_the_cli_change_nothing(tmp_path, capsys):
    root = project(tmp_path)
    refused(capsys, root, "archive", "cline:progress.md")
    refused(capsys, root, "restore", "cline:progress.md#What works")
    refused(capsys, root, "archive", "cline:progress.md#What works", "--expect", "0" * 12)
    code, out, _ = cli(capsys, "archive", "cline:progress.md#What works", "--store", str(root))
    assert code == 0 and "archive" in out


# --- the app ---------------------------------------------------------------------------------


def test_the_apps_tree_archives_a_section_with_x_and_restores_it(tmp_path):
    """No face names the layout: the tree draws its outline, x archives a section and x on
    its archived row puts it back, byte for byte, through the engine."""
    from memtui.ui.app import MemtuiApp
    from memtui.ui.panes.index_tree import IndexTree
    from tests.ui_helpers import answer_confirm, press_on, run, until, visible

    root = project(tmp_path)
    before = mem(root)
    app = MemtuiApp(str(root), watch=False)
    path = root / "memory-bank/activeContext.md"

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        tree = app.query_one(IndexTree)
        await press_on(pilot, tree, "Cline", "right")
        await press_on(pilot, tree, "activeContext.md", "right")
        await press_on(pilot, tree, "Next steps", "x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: "Next steps" not in path.read_text(), what="the archive")
        await until(pilot, lambda: any(n.label.plain.startswith("archived") for n in visible(tree)))
        await press_on(pilot, tree, "archived", "right")
        await press_on(pilot, tree, "activeContext.md · Next steps", "x")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: mem(root) == before, what="the restore")

    run(app, body, loaded=True)
