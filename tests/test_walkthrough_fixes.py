"""Fixes for the newcomer walkthrough (/tmp/walk/REPORT.md items 12, 15, 16, 17, 19),
each on a real store in tmp_path through the real CLI or the engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine.entries import iter_entries
from memtui.engine.ops import dsh, workspace
from memtui.engine.store import open_store
from tests.conftest import run_cli, write_tree
from tests.helpers import ENV, TODAY_DATE, findings

DSH_INDEX = "[RULES] No Execution, No Memory\n# --- auto ---\n# --- end auto ---\n"


def sop_candidate(cid: str, target: str) -> str:
    return (
        f"---\nid: {cid}\nentry_type: sop\ntarget: {json.dumps(target)}\n"
        f'evidence: "ran it: ok"\nsource_session: s\ncreated_at: 2026-11-29T00:00:00Z\n---\n'
        "1. step\n"
    )


# --- #19: `add KIND ... --store P` ------------------------------------------------


def test_add_topic_takes_store_after_the_kind(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## Projects\n- {old} → memory_old.md\n", "memory_old.md": "x\n"},
    )
    body = write_tree(tmp_path, {"b.txt": "the body\n"}) / "b.txt"
    args = ["--section", "Projects", "--description", "new one", "--body-file", str(body)]
    got = run_cli("add", "topic", "newtopic", *args, "--store", str(root), cwd=tmp_path, env=ENV)
    assert got.returncode == 0, got.stderr
    assert (root / "memory_newtopic.md").read_text() == "the body\n"
    assert "- new one → memory_newtopic.md" in (root / "memory.md").read_text()


def test_add_fact_takes_store_after_the_kind(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "d", {"index.txt": DSH_INDEX, "facts.md": "## ENV\n- a\n"})
    got = run_cli(
        "add", "fact", "ENV", "b", "--evidence", "seen", "--store", str(root), "--dry-run",
        cwd=tmp_path, env=ENV,
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert (root / "facts.md").read_text() == "## ENV\n- a\n"  # a dry run


# --- #12: why a candidate cannot be accepted ------------------------------------------


def test_pending_says_a_target_leads_outside_the_root(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d",
        {
            "index.txt": DSH_INDEX,
            "pending/c1.md": sop_candidate("c1", "../../escape"),
            "pending/c2.md": "---\nid: c2\nentry_type: [unclosed\n---\n- x\n",
        },
    )
    got = run_cli("pending", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    escape = next(ln for ln in got.stdout.splitlines() if ln.startswith("c1"))
    assert "leads outside the store root" in escape
    assert "broken front matter" not in escape
    broken = next(ln for ln in got.stdout.splitlines() if ln.startswith("c2"))
    assert "front matter" in broken  # still named for what it is


def test_a_sop_target_with_a_slash_is_not_called_an_escape(tmp_path: Path) -> None:
    """SPEC §3: a sop is one file sops/<name>.md, so `/` is refused, but it does not
    leave the root: the reason must say what is wrong, everywhere it is shown."""
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "pending/c3.md": sop_candidate("c3", "[bold]sopname[/]")},
    )
    got = run_cli("accept", "c3", "--store", str(root), env=ENV)
    assert got.returncode == 1
    assert "outside the store root" not in got.stderr
    assert "sops/<name>.md" in got.stderr
    # the reader agrees: listed as not acceptable, with the same reason
    store = open_store(root, today=TODAY_DATE)
    assert store.dsh is not None
    assert [c.valid for c in store.dsh.candidates] == [False]
    assert ("pending-bad-frontmatter", "error", "pending/c3.md", 1) in findings(root)
    shown = run_cli("pending", "--store", str(root), env=ENV).stdout
    assert "sops/<name>.md" in shown and "outside the store root" not in shown


def test_a_sop_name_with_two_dots_inside_is_a_bare_name(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d", {"index.txt": DSH_INDEX, "pending/c4.md": sop_candidate("c4", "v1..2")}
    )
    dsh.accept(root, ["c4"])
    assert (root / "sops/v1..2.md").read_text() == "1. step\n"


# --- #16: a topic's description is its first pointer's -------------------------------


def test_topic_title_is_the_first_pointers_description(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "memory.md": "# idx\n\n## A\n- {gardening notes} → memory_garden.md\n"
            "- {garden again} → memory_garden.md\n",
            "memory_garden.md": "roses\n",
        },
    )
    store = open_store(root, today=TODAY_DATE)
    titles = {e.id: e.title for e in iter_entries(store)}
    assert titles["topic:garden"] == "{gardening notes}"


# --- #17: file names with spaces or brackets after the arrow ----------------------------


ODD = "memory_[bold red]boom.md"


def odd_store(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "memory.md": f"# idx\n\n## A\n- {{x}} → {ODD}\n- {{y}} → memory_my notes.md\n"
            "- {z} → 详见 memory_z.md（更多）\n",
            ODD: "boom\n",
            "memory_my notes.md": "notes\n",
            "memory_z.md": "z\n",
        },
    )


def test_pointer_takes_the_whole_file_name_after_the_arrow(tmp_path: Path) -> None:
    root = odd_store(tmp_path)
    store = open_store(root, today=TODAY_DATE)
    assert store.workspace is not None
    targets = [p.target for p in store.workspace.pointers]
    assert targets == [ODD, "memory_my notes.md", "memory_z.md"]
    codes = {(code, file) for code, _level, file, _line in findings(root)}
    assert not {c for c in codes if c[0] in ("pointer-missing", "topic-orphan")}
    assert ("topic-name", ODD) in codes  # still not a good name


def test_archiving_an_odd_topic_moves_its_pointer(tmp_path: Path) -> None:
    root = odd_store(tmp_path)
    workspace.archive_topic(str(root), "[bold red]boom")
    assert ODD not in (root / "memory.md").read_text()
    assert f"- {{x}} → {ODD}" in (root / "archive/memory.md").read_text()


# --- #5: the dsh L0 meta-rules are read-only unless the user insists (SPEC §3) ----------

L0_STORE = {
    "index.txt": DSH_INDEX,
    "facts.md": "# Facts\n",
    "memory_management_sop.md": "# Meta-rules\n- No Execution, No Memory\n",
}


def test_l0_edit_is_refused_unless_insisted(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused
    from memtui.engine.ops.edit import edit_entry

    root = write_tree(tmp_path / "dsh", L0_STORE)
    new_file = write_tree(tmp_path, {"new.md": "# Meta-rules\n- changed\n"}) / "new.md"
    got = run_cli(
        "edit",
        "file:memory_management_sop.md",
        "--text-file",
        str(new_file),
        "--store",
        str(root),
        env=ENV,
    )
    assert got.returncode == 1 and "--insist" in got.stderr
    assert (root / "memory_management_sop.md").read_text() == L0_STORE["memory_management_sop.md"]
    try:
        edit_entry(str(root), "file:memory_management_sop.md", "x\n")
    except Refused as exc:
        assert "L0" in str(exc)
    else:
        raise AssertionError("the engine wrote L0 without insist")
    got = run_cli(
        "edit",
        "file:memory_management_sop.md",
        "--text-file",
        str(new_file),
        "--insist",
        "--store",
        str(root),
        env=ENV,
    )
    assert got.returncode == 0, got.stderr
    assert (root / "memory_management_sop.md").read_text() == "# Meta-rules\n- changed\n"


def test_l0_in_the_app_is_locked_until_ctrl_u(tmp_path: Path) -> None:
    from memtui.ui import editing
    from memtui.ui.screens.edit import EditScreen
    from tests.ui_helpers import HostApp, run, until

    root = write_tree(tmp_path / "dsh", L0_STORE)
    l0 = root / "memory_management_sop.md"

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await until(pilot, lambda: app.store is not None)
        editing.edit_entry(app, "file:memory_management_sop.md")
        await until(pilot, lambda: isinstance(app.screen, EditScreen))
        await pilot.pause()
        screen = app.screen
        assert screen.locked and screen.buffer.read_only
        assert screen.check_action("save", ()) is False
        await pilot.press("x", "ctrl+s")  # nothing typed, nothing saved
        await pilot.pause()
        assert l0.read_text() == L0_STORE["memory_management_sop.md"]
        await pilot.press("ctrl+u")  # the user insists
        assert not screen.buffer.read_only
        screen.buffer.insert("- added\n", screen.buffer.document.end)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, EditScreen))

    run(HostApp(root), body)
    assert l0.read_text() == L0_STORE["memory_management_sop.md"] + "- added\n"


# --- walkthrough 2, P1-1: the unresolved block is its list; the user's text stays ----

OPEN_EVENT = (
    "### [E001] 2026-11-20 · 约定\n**类型**：约定\n**内容**：周末去看海\n"
    "**状态**：待跟进\n**到期日**：2026-12-01\n\n"
    "### [E000] 2026-11-29T21:40 · last_active\n"
)


def refreshed(
    tmp_path: Path, memory_md: str
) -> tuple[str, list[tuple[str, str, str | None, int | None]]]:
    root = write_tree(tmp_path / "c", {"memory/events.md": OPEN_EVENT, "MEMORY.md": memory_md})
    got = run_cli("index", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    return (root / "MEMORY.md").read_text(encoding="utf-8"), findings(root)


def test_refresh_keeps_the_users_text_after_the_list(tmp_path: Path) -> None:
    text, found = refreshed(
        tmp_path, "# MEMORY\n\n【最近未解决事项】\n- [E009] 旧\n\n其他内容保持不变。\n"
    )
    item = "- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n"
    assert text == "# MEMORY\n\n【最近未解决事项】\n" + item + "\n其他内容保持不变。\n"
    assert not [f for f in found if f[0] == "unresolved-stale"]


def test_refresh_keeps_a_paragraph_and_the_next_section(tmp_path: Path) -> None:
    kept = "备注：这一段不是列表 [E005]\n\n## 其他\n保持\n"
    before = "# MEMORY\n\n## 【最近未解决事项】\n- [E009] 旧\n\n" + kept
    text, found = refreshed(tmp_path, before)
    assert kept in text
    assert "- [E001]" in text and "[E009]" not in text
    assert not [f for f in found if f[0] == "unresolved-stale"]  # [E005] in prose is not listed


def test_an_empty_block_gets_its_list_under_the_heading(tmp_path: Path) -> None:
    text, _ = refreshed(tmp_path, "# MEMORY\n\n## 【最近未解决事项】\n\n说明文字\n")
    assert text.startswith("# MEMORY\n\n## 【最近未解决事项】\n- [E001]")
    assert text.endswith("\n\n说明文字\n")


# --- walkthrough 2, P2-1: `e` in the File pane edits the entry holding the line ------------


def test_entry_at_each_line_of_facts_and_events(tmp_path: Path) -> None:
    from memtui.engine.entries import entry_at

    facts = "# Facts\n\n## PYTHON_ENV\n- a\n- b\n\n## NETWORK\n- proxy at 10.0.0.1\n"
    root = write_tree(
        tmp_path / "s",
        {"index.txt": DSH_INDEX, "facts.md": facts, "memory/events.md": OPEN_EVENT},
    )
    store = open_store(root, today=TODAY_DATE)
    got = [entry_at(store, "facts.md", n) for n in range(1, 9)]
    assert got == ["file:facts.md"] * 2 + ["fact:PYTHON_ENV"] * 4 + ["fact:NETWORK"] * 2
    events = [entry_at(store, "memory/events.md", n) for n in range(1, 9)]
    assert events[0] == events[5] == "event:E001"  # its heading and its blank separator
    assert events[6] == "file:memory/events.md"  # the sentinel is not an entry


# --- walkthrough 2, P2-3: an event edit keeps one event and a number of its own ---------

TWO_EVENTS = (
    "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    "### [E002] 2026-11-21 · 用户Todo\n**内容**：买猫粮\n\n"
    "### [E000] 2026-11-29T21:40 · last_active\n"
)


def test_an_event_edit_may_not_take_anothers_number_or_split(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused
    from memtui.engine.ops.edit import edit_entry

    root = write_tree(tmp_path / "c", {"memory/events.md": TWO_EVENTS})
    e001 = "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    for new, why in (
        (e001.replace("[E001]", "[E002]"), "already another event's number"),
        (e001 + "### [E003] 2026-11-22 · 约定\n**内容**：x\n\n", "2 `### ` event headings"),
    ):
        try:
            edit_entry(str(root), "event:E001", new, seen_text=e001)
        except Refused as exc:
            assert why in str(exc)
        else:
            raise AssertionError(f"accepted: {new!r}")
    assert (root / "memory/events.md").read_text(encoding="utf-8") == TWO_EVENTS
    # renumbering onto a free number, and editing the text, are fine
    edit_entry(str(root), "event:E001", e001.replace("[E001]", "[E007]"), seen_text=e001)
    assert "### [E007] 2026-11-20" in (root / "memory/events.md").read_text(encoding="utf-8")


# --- walkthrough 2, P2-2: `show` then `edit` of the same text changes nothing ------------


def test_show_then_edit_unchanged_is_a_no_op(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "c", {"memory/events.md": TWO_EVENTS})
    shown = run_cli("show", "E001", "--store", str(root), env=ENV)
    assert shown.returncode == 0
    body = shown.stdout.split("\n", 1)[1]  # without show's header line
    text_file = write_tree(tmp_path, {"t.md": body}) / "t.md"
    got = run_cli("edit", "E001", "--text-file", str(text_file), "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    assert (root / "memory/events.md").read_text(encoding="utf-8") == TWO_EVENTS


# --- walkthrough 2, P2-5: a rejected candidate can be brought back -----------------------

CANDIDATE = (
    "---\nid: 20261129-0001\nentry_type: fact\ntarget: TOOLS\n"
    'evidence: "ran it: ok"\n---\n- ruff is the linter\n'
)


def test_reject_then_restore_gives_back_the_candidate_byte_for_byte(tmp_path: Path) -> None:
    bare = "- no front matter at all\n"  # the reject made a block for it
    root = write_tree(
        tmp_path / "d",
        {
            "index.txt": DSH_INDEX,
            "facts.md": "# Facts\n",
            "memory_stats.json": '{"pending": 2, "rejected": 0}\n',
            "pending/20261129-0001.md": CANDIDATE,
            "pending/bare.md": bare,
        },
    )
    dsh.reject(str(root), ["20261129-0001", "bare"], "not true")
    assert not (root / "pending").exists() or not list((root / "pending").iterdir())
    for name, text in (("20261129-0001", CANDIDATE), ("bare", bare)):
        got = run_cli("restore", f"pending:{name}", "--store", str(root), env=ENV)
        assert got.returncode == 0, got.stderr
        assert (root / "pending" / f"{name}.md").read_text(encoding="utf-8") == text
        assert not (root / "archive" / "rejected" / f"{name}.md").exists()
    stats = json.loads((root / "memory_stats.json").read_text(encoding="utf-8"))
    assert (stats["pending"], stats["rejected"]) == (2, 0)
    got = run_cli("restore", "pending:20261129-0001", "--store", str(root), env=ENV)
    assert got.returncode == 1 and "no rejected candidate" in got.stderr
    got = run_cli("restore", "pending:../../etc/passwd", "--store", str(root), env=ENV)
    assert got.returncode == 1 and "not a rejected candidate" in got.stderr


# --- walkthrough 2, P2-4: a field twice in user.md is reported -----------------------------


def test_a_user_md_field_twice_is_a_user_duplicate(tmp_path: Path) -> None:
    user = "# 用户\n\n## preferences\n- tea\n\n## Preferences\n- dup\n"
    root = write_tree(
        tmp_path / "ws", {"memory.md": "# idx\n\n## P\n", "user.md": user, "soul.md": "# s\n"}
    )
    assert ("user-duplicate", "warning", "user.md", 6) in findings(root)


def test_any_file_resolves_as_file_path_even_a_topic(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## P\n- {py} → memory_python.md\n", "memory_python.md": "py\n"},
    )
    got = run_cli("show", "file:memory_python.md", "--store", str(root), env=ENV)
    assert got.returncode == 0, got.stderr
    assert got.stdout.endswith("py\n")
    assert run_cli("show", "file:nope.md", "--store", str(root), env=ENV).returncode == 1


# --- walkthrough 2, P3-7: a restored last item takes its archived heading with it ------


def test_restoring_the_last_archived_item_leaves_no_empty_heading(tmp_path: Path) -> None:
    from memtui.engine.ops import companion

    profile = "# 用户档案\n\n## 爱好\n- 骑车\n- 钓鱼\n\n## 工作\n- 后端\n"
    files = {"memory/user_profile.md": profile, "memory/persona.md": "# 人设\n"}  # a store
    root = write_tree(tmp_path / "c", files)
    companion.archive_profile_item(str(root), "工作", "后端")
    companion.archive_profile_item(str(root), "爱好", "钓鱼")
    companion.restore_profile_item(str(root), "工作", "后端")
    archived = (root / "archive/memory/user_profile.md").read_text(encoding="utf-8")
    assert "## 工作" not in archived and "## 爱好\n- 钓鱼\n" in archived
    companion.restore_profile_item(str(root), "爱好", "钓鱼")
    assert "##" not in (root / "archive/memory/user_profile.md").read_text(encoding="utf-8")
    assert "- 钓鱼" in (root / "memory/user_profile.md").read_text(encoding="utf-8")


def test_restoring_topics_empties_their_archived_section_only_when_none_is_left(
    tmp_path: Path,
) -> None:
    index = "# idx\n\n## Projects\n- {a} → memory_a.md\n- {b} → memory_b.md\n"
    root = write_tree(
        tmp_path / "ws", {"memory.md": index, "memory_a.md": "a\n", "memory_b.md": "b\n"}
    )
    workspace.archive_topic(str(root), "a")
    workspace.archive_topic(str(root), "b")
    workspace.restore_topic(str(root), "a")
    archived = (root / "archive/memory.md").read_text(encoding="utf-8")
    assert "## Projects\n" in archived and "memory_b.md" in archived
    workspace.restore_topic(str(root), "b")
    assert "## Projects" not in (root / "archive/memory.md").read_text(encoding="utf-8")
    assert (root / "memory.md").read_text(encoding="utf-8").count("→") == 2


@pytest.mark.parametrize(
    "block",
    [
        "- [E009] 旧\n\n- [E008] 也旧\n",  # a loose list
        "- [E009] 旧，\n  接着上一行\n- [E008] 也旧\n",  # an item wrapped onto the next line
    ],
)
def test_refresh_replaces_a_loose_or_wrapped_list_whole(tmp_path: Path, block: str) -> None:
    text, found = refreshed(tmp_path, f"# MEMORY\n\n## 【最近未解决事项】\n{block}\n后记\n")
    assert "[E009]" not in text and "[E008]" not in text and "接着" not in text
    assert text.endswith("- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n\n后记\n")
    assert not [f for f in found if f[0] == "unresolved-stale"]


def test_prose_mentioning_the_marker_is_not_the_block(tmp_path: Path) -> None:
    before = "# MEMORY\n\n提示：【最近未解决事项】由工具维护\n- keep me\n"
    text, _ = refreshed(tmp_path, before)
    assert text.startswith(before) and "## 【最近未解决事项】\n- [E001]" in text


# --- review of the day's changes ------------------------------------------------------


def test_the_l0_file_is_not_archived_as_a_topic(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused

    root = write_tree(tmp_path / "dsh", L0_STORE)
    try:
        workspace.archive_topic(str(root), "management_sop")
    except Refused as exc:
        assert "L0" in str(exc)
    else:
        raise AssertionError("the L0 file was archived as a topic")
    assert (root / "memory_management_sop.md").exists()


def test_rollback_over_a_file_that_was_absent_when_seen_is_a_conflict(tmp_path: Path) -> None:
    from memtui.engine.ops.edit import edit_entry
    from memtui.engine.ops.history import ABSENT, rollback
    from memtui.engine.write.transaction import Conflict

    root = write_tree(tmp_path / "c", {"memory/events.md": TWO_EVENTS})
    e001 = "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    edit_entry(str(root), "event:E001", e001.replace("看海", "看山"), seen_text=e001)
    events = root / "memory/events.md"
    events.unlink()  # the user looks at the history of a file that is gone…
    events.write_text("### [E001] 2026-11-30 · agent\n", encoding="utf-8")  # …the agent writes
    try:
        rollback(str(root), "memory/events.md", expected=ABSENT)
    except Conflict:
        pass
    else:
        raise AssertionError("rolled back over a file created since")
    assert events.read_text(encoding="utf-8") == "### [E001] 2026-11-30 · agent\n"


def test_a_twice_rejected_id_comes_back_under_its_own_name(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "facts.md": "# Facts\n", "pending/20261129-0001.md": CANDIDATE},
    )
    dsh.reject(str(root), ["20261129-0001"], "once")
    (root / "pending/20261129-0001.md").write_text(CANDIDATE, encoding="utf-8")
    dsh.reject(str(root), ["20261129-0001"], "twice")
    assert (root / "archive/rejected/20261129-0001.1.md").exists()
    dsh.restore(str(root), "pending:20261129-0001.1")
    assert (root / "pending/20261129-0001.md").read_text(encoding="utf-8") == CANDIDATE


def test_a_nested_sop_target_is_judged_by_its_name_on_reopen_too(tmp_path: Path) -> None:
    import os

    cand = CANDIDATE.replace("entry_type: fact\ntarget: TOOLS", "entry_type: sop\ntarget: sub/x")
    root = write_tree(
        tmp_path / "d",
        {"index.txt": DSH_INDEX, "facts.md": "# Facts\n", "pending/c.md": cand, "sops/a.md": "a"},
    )
    outside = write_tree(tmp_path / "out", {"x.md": "secret\n"})
    before = open_store(root, reopen=True)
    (root / "sops/sub").mkdir()
    os.symlink(outside / "x.md", root / "sops/sub/x.md")
    assert open_store(root, previous=before) == open_store(root)


def test_a_bullet_the_user_added_to_the_block_stays(tmp_path: Path) -> None:
    block = "- [E009] 旧\n- 我自己加的备注：别删\n  （第二行）\n"
    text, found = refreshed(tmp_path, f"# MEMORY\n\n【最近未解决事项】\n{block}\n尾\n")
    assert "[E009]" not in text
    assert (
        "- [E001] 约定 · 到期 2026-12-01 · 周末去看海\n- 我自己加的备注：别删\n  （第二行）\n\n尾\n"
        in text
    )
    assert not [f for f in found if f[0] == "unresolved-stale"]


def test_an_event_edit_may_not_take_an_archived_events_number(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused
    from memtui.engine.ops.edit import edit_entry

    archived = "### [E090] 2025-10-01 · 约定\n**内容**：旧事\n"
    root = write_tree(
        tmp_path / "c", {"memory/events.md": TWO_EVENTS, "archive/memory/events.md": archived}
    )
    e001 = "### [E001] 2026-11-20 · 约定\n**内容**：周末去看海\n\n"
    with pytest.raises(Refused, match="or its archive"):
        edit_entry(str(root), "event:E001", e001.replace("[E001]", "[E090]"), seen_text=e001)
    assert (root / "memory/events.md").read_text(encoding="utf-8") == TWO_EVENTS


def test_show_raw_then_edit_keeps_control_bytes(tmp_path: Path) -> None:
    topic = "# python\n\x1b[2J bell \x07 and \u009b31m\n"
    root = write_tree(
        tmp_path / "ws",
        {"memory.md": "# idx\n\n## P\n- {py} → memory_python.md\n", "memory_python.md": topic},
    )
    shown = run_cli("show", "topic:python", "--raw", "--store", str(root), env=ENV)
    assert shown.returncode == 0 and shown.stdout == topic
    text_file = write_tree(tmp_path, {"t.md": shown.stdout}) / "t.md"
    got = run_cli(
        "edit", "topic:python", "--text-file", str(text_file), "--store", str(root), env=ENV
    )
    assert got.returncode == 0, got.stderr
    assert (root / "memory_python.md").read_text(encoding="utf-8") == topic
