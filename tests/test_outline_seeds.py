"""The seed layouts' outlines (engine.outline, layouts/*_outline.py): plain data the
tree draws without knowing a layout. Labels, badges with their levels (thresholds are
engine data, not UI code), entry ids and verbs, lazy children, the files no layout
claims. Real stores written in tmp_path."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pytest

from memtui.engine.model import OutlineItem
from memtui.engine.outline import CHUNK, store_outline, tally
from memtui.engine.store import open_store
from tests.conftest import write_tree
from tests.helpers import TODAY_DATE

SOUL = "# Soul\n\n## 说话风格\n- 简洁\n"
USER = "# User\n\n## 基本\n- 在杭州\n"
TOPIC = "# 课程\n\n- 第一课\n"


def workspace(index_lines: int = 10, **extra: str) -> dict[str, str]:
    pointers = ["## 学习", "- 课程进度 → memory_course.md", "- 旧博客 → memory_gone.md"]
    filler = [f"- 第 {i} 行" for i in range(index_lines - len(pointers) - 1)]
    return {
        "memory.md": "\n".join(["# Memory", *pointers, *filler]) + "\n",
        "soul.md": SOUL,
        "user.md": USER,
        "agent.md": "# Agent\n",
        "memory_course.md": TOPIC,
        "memory_orphan.md": TOPIC,
        **extra,
    }


def outline(root: Path) -> list[OutlineItem]:
    return store_outline(open_store(root, today=TODAY_DATE))


def group(items: Iterable[OutlineItem], key: str) -> OutlineItem:
    return next(i for i in items if (i.key or i.label) == key)


def kids(item: OutlineItem) -> tuple[OutlineItem, ...]:
    assert item.children is not None, f"{item.label} has no children"
    return item.children()


def row(items: Iterable[OutlineItem], label: str) -> OutlineItem:
    return next(i for i in items if i.label == label)


# --- the threshold levels are badges the engine hands over ---------------------------


@pytest.mark.parametrize(
    ("lines", "toml", "badge", "level"),
    [
        (149, "", "149/200 lines", "ok"),
        (150, "", "150/200 lines", "warning"),
        (180, "", "blocked · 180/200", "error"),
        (2038, "", "blocked · 2,038/200", "error"),
        (120, "index_warn_lines = 100\nindex_block_lines = 110\n", "blocked · 120/200", "error"),
    ],
)
def test_the_index_size_badge_carries_its_findings_level(
    tmp_path: Path, lines: int, toml: str, badge: str, level: str
) -> None:
    """Against the hard cap, in the level of the index-size finding (memtui.toml's
    thresholds); blocked says so."""
    extra = {"memtui.toml": f"[thresholds]\n{toml}"} if toml else {}
    ws = kids(group(outline(write_tree(tmp_path, workspace(lines, **extra))), "workspace"))
    memory = row(ws, "memory.md")
    assert memory.badges[-1] == (badge, level)  # last: after the findings


@pytest.mark.parametrize(("lines", "level"), [(4, "ok"), (5, "warning"), (6, "error")])
def test_the_l1_size_badge_follows_memtui_toml(tmp_path: Path, lines: int, level: str) -> None:
    files = {
        "index.txt": "".join(f"[RULES] r{i}\n" for i in range(lines)),
        "facts.md": "# Facts\n\n## GIT\n- a\n",
        "memtui.toml": "[thresholds]\nl1_warn_lines = 5\nl1_max_lines = 5\n",
    }
    dsh = kids(group(outline(write_tree(tmp_path, files)), "dsh"))
    assert row(dsh, "index.txt").badges[0] == (f"{lines}/5 lines", level)


def test_agent_md_over_its_limit_is_a_warning_badge(tmp_path: Path) -> None:
    files = workspace()
    files["agent.md"] = "# Agent\n" + "- x\n" * 100
    files["memtui.toml"] = "[thresholds]\nagent_max_bytes = 100\n"
    ws = kids(group(outline(write_tree(tmp_path, files)), "workspace"))
    assert row(ws, "agent.md").badges[0] == ("408 B/100 B", "warning")


def test_a_profile_category_past_its_limit_is_a_warning_and_x_asks_for_an_item(
    tmp_path: Path,
) -> None:
    items = "".join(f"- 爱好 {i}\n" for i in range(11))
    files = {
        "memory/events.md": "# 事件\n",
        "memory/user_profile.md": f"# 用户画像\n\n## 爱好\n{items}\n## 昵称\n- 小王\n",
    }
    cp = kids(group(outline(write_tree(tmp_path, files)), "companion"))
    profile = row(cp, "user_profile.md")
    assert profile.badges[0] == ("2 categories", "muted")
    hobbies, nickname = kids(profile)
    assert hobbies.badges == (("11/10", "warning"),)
    assert nickname.badges == (("1/10", "ok"), ("★ core", "heat"))
    assert (hobbies.entry_id, hobbies.verbs) == ("profile:爱好", ("edit", "archive-item"))
    assert (hobbies.file, hobbies.line) == ("memory/user_profile.md", 3)


# --- rows, entry ids, verbs ---------------------------------------------------------


def test_workspace_pointers_topics_and_their_findings(tmp_path: Path) -> None:
    ws = kids(group(outline(write_tree(tmp_path, workspace())), "workspace"))
    memory = row(ws, "memory.md")
    assert memory.entry_id == "file:memory.md" and memory.file == "memory.md"
    (section,) = kids(memory)
    assert (section.label, section.line) == ("## 学习", 2)
    assert section.badges[0] == ("→2", "muted")
    course, gone = kids(section)
    assert (course.label, course.line, course.badges) == ("课程进度 → memory_course.md", 3, ())
    assert ("missing", "error") in gone.badges
    topics = row(ws, "topics (2)")
    assert topics.style == "group" and topics.entry_id is None
    course_topic, orphan = kids(topics)
    assert course_topic.badges[0] == ("课程进度", "muted")  # its pointer's description
    assert course_topic.entry_id == "topic:course"
    assert course_topic.verbs == ("edit", "archive")
    assert ("orphan", "warning") in orphan.badges
    assert [s.label for s in kids(row(ws, "soul.md"))] == ["## 说话风格"]


def test_a_tally_is_one_badge_with_a_level_per_word(tmp_path: Path) -> None:
    store = open_store(write_tree(tmp_path, workspace()), today=TODAY_DATE)
    assert tally(store.findings) == (
        f"✖{store.count('error')} ⚠{store.count('warning')}",
        "error warning",
    )
    assert tally(()) is None


def test_dsh_rows_archive_and_restore_by_entry_id(tmp_path: Path) -> None:
    files = {
        "index.txt": "[RULES] x\n",
        "facts.md": "# Facts\n\n## GIT\n- a\n- b\n",
        "sops/deploy.md": "# Deploy the app\n\n1. go\n",
        "pending/20261129-0001.md": "---\nid: 20261129-0001\nentry_type: fact\n"
        "target: GIT\n---\n- c\n",
        "archive/sops/old.md": "# old\n",
        "archive/rejected/20261120-0003.md": "---\nid: 20261120-0003\n---\n",
        "memory-meta.json": "{not json",
    }
    dsh = kids(group(outline(write_tree(tmp_path, files)), "dsh"))
    (git,) = kids(row(dsh, "facts.md"))
    assert (git.label, git.entry_id, git.verbs, git.target) == (
        "GIT",
        "fact:GIT",
        ("edit", "archive"),
        None,
    )
    (sop,) = kids(row(dsh, "sops (1)"))
    assert (sop.label, sop.badges[0], sop.entry_id, sop.target) == (
        "deploy",
        ("Deploy the app", "muted"),
        "sop:deploy",
        "sop:deploy",
    )
    (cand,) = kids(row(dsh, "pending (1)"))
    assert cand.verbs == () and cand.file == "pending/20261129-0001.md"  # the Pending pane's
    archived = {a.label: a for a in kids(row(dsh, "archive (2)"))}
    old = archived["sops/old.md"]
    assert (old.entry_id, old.verbs, old.target) == (
        "file:archive/sops/old.md",
        ("edit", "restore"),
        "sop:old",
    )
    assert archived["rejected/20261120-0003.md"].target == "pending:20261120-0003"
    assert ("invalid JSON", "error") in row(dsh, "memory-meta.json").badges


def test_companion_events_are_counted_not_listed(tmp_path: Path) -> None:
    events = "".join(
        f"### [E{i:03d}] 2026-11-{i:02d} · 约定\n**类型**：约定\n**内容**：x\n**状态**：待跟进\n\n"
        for i in range(1, 4)
    )
    files = {"memory/events.md": "# 事件\n\n" + events}
    cp = kids(group(outline(write_tree(tmp_path, files)), "companion"))
    ev = row(cp, "events.md")
    assert ev.badges[0] == ("3/3 open", "muted")
    assert ev.children is None and ev.entry_id == "file:memory/events.md"


# --- lazy, chunked, and what no layout claims -------------------------------------------


def test_sops_past_a_chunk_are_ranges_built_only_when_opened(tmp_path: Path) -> None:
    n = CHUNK * 2 + 3
    files = {"index.txt": "[RULES] x\n", "facts.md": "# Facts\n"}
    files |= {f"sops/task-{i:04d}.md": f"# task {i}\n" for i in range(n)}
    dsh = kids(group(outline(write_tree(tmp_path, files)), "dsh"))
    ranges = kids(row(dsh, f"sops ({n:,})"))
    assert [r.label for r in ranges] == [
        f"sops 1–{CHUNK}",
        f"sops {CHUNK + 1}–{2 * CHUNK:,}",
        f"sops {2 * CHUNK + 1:,}–{n:,}",
    ]
    assert all(r.style == "muted" and r.children is not None for r in ranges)
    assert [s.label for s in kids(ranges[2])] == [f"task-{i:04d}" for i in range(2 * CHUNK, n)]


def test_files_no_layout_claims_are_other_files_and_the_archive_stands_alone(
    tmp_path: Path,
) -> None:
    files = workspace(**{"notes.txt": "x\n", "archive/memory_old.md": TOPIC})
    top = outline(write_tree(tmp_path, files))
    assert [i.key for i in top] == ["workspace", "archive", "other"]
    (restore,) = kids(group(top, "archive"))
    assert (restore.label, restore.target) == ("memory_old.md", "topic:old")
    assert [o.label for o in kids(group(top, "other"))] == ["notes.txt"]


def test_a_folder_no_layout_knows_has_no_layout_group(tmp_path: Path) -> None:
    assert [i.key for i in outline(write_tree(tmp_path, {"a.txt": "x\n"}))] == ["other"]
