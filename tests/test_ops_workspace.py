"""Workspace operations on real files: topic files and their memory.md pointers.

Exact bytes before and after; the index's 150/180-line levels; refusals and
dry runs leave every file as it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine.ops.common import Refused
from memtui.engine.store import open_store
from memtui.engine.textfile import BOM
from memtui.layouts.workspace import ops as workspace
from tests.conftest import tree_digest, write_tree
from tests.helpers import TODAY_DATE

INDEX_MD = """\
# XiaoPaw 记忆索引

## 用户偏好
→ 详见 user.md（Bootstrap 直接注入，此处不重复）

## 工作项目
- 极客时间课程进度与规划 → memory_course.md
- 投资组合记录 → memory_investment.md

## 重要决策（近6个月）
- 技术选型与架构决策 → memory_tech_decisions.md
"""
COURSE = "# 课程\n\n- 第16课：SkillLoaderTool\n"
INVEST = "# 投资\r\n- 指数基金定投\r\n"  # CRLF: moved byte for byte
DECISIONS = "# 决策\n- 选 Python"


@pytest.fixture
def make(store):
    def build(files: dict[str, str | bytes] | None = None) -> Path:
        base = {
            ".memory.lock": "",
            "memory.md": INDEX_MD,
            "user.md": "# 用户\n",
            "memory_course.md": COURSE,
            "memory_investment.md": INVEST,
            "memory_tech_decisions.md": DECISIONS,
        }
        return store({**base, **(files or {})})

    return build


def read(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def padded_index(lines: int) -> str:
    """INDEX_MD grown to `lines` lines with pointers in a filler section."""
    have = INDEX_MD.count("\n")
    filler = [f"- 旧主题 {n} → memory_old_{n}.md" for n in range(lines - have - 2)]
    return INDEX_MD + "\n## 归档候选\n" + "".join(f + "\n" for f in filler)


# --- archive / restore -----------------------------------------------------------


def test_archive_topic_moves_file_and_pointer(make):
    root = make()
    receipt = workspace.archive_topic(str(root), "investment")
    assert not (root / "memory_investment.md").exists()
    assert (root / "archive/memory_investment.md").read_bytes() == INVEST.encode()
    assert read(root, "memory.md") == INDEX_MD.replace(
        "- 投资组合记录 → memory_investment.md\n", ""
    )
    assert read(root, "archive/memory.md") == "## 工作项目\n- 投资组合记录 → memory_investment.md\n"
    assert {c.action for c in receipt.changes} == {"move", "write"}
    audit = (root / ".history/audit.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(audit[-1])["op"] == "archive-topic"
    assert (root / ".history/memory.md").is_dir()


def test_restore_puts_the_pointer_back_where_it_was(make):
    root = make()
    workspace.archive_topic(str(root), "course")
    workspace.archive_topic(str(root), "tech_decisions")
    assert read(root, "archive/memory.md") == (
        "## 工作项目\n- 极客时间课程进度与规划 → memory_course.md\n\n"
        "## 重要决策（近6个月）\n- 技术选型与架构决策 → memory_tech_decisions.md\n"
    )
    workspace.restore_topic(str(root), "course")
    assert read(root, "memory.md") == INDEX_MD.replace(
        "- 技术选型与架构决策 → memory_tech_decisions.md\n", ""
    )  # above 投资组合记录 again, not at the end of its section
    assert (root / "memory_course.md").read_bytes() == COURSE.encode()
    workspace.restore_topic(str(root), "tech_decisions")
    assert read(root, "memory.md") == INDEX_MD
    assert not (root / "archive").exists()  # the archive made it all: nothing is left
    assert (root / "memory_tech_decisions.md").read_bytes() == DECISIONS.encode()
    store = open_store(root, today=TODAY_DATE)
    assert not [f for f in store.findings if f.code.startswith(("pointer", "topic"))]


def test_an_archive_made_before_places_were_kept_restores_at_the_end_of_its_section(make):
    archived = "## 工作项目\n- 极客时间课程进度与规划 → memory_course.md\n"
    root = make({"archive/memory.md": archived, "archive/memory_course.md": COURSE})
    (root / "memory_course.md").unlink()
    (root / "memory.md").write_text(
        INDEX_MD.replace("- 极客时间课程进度与规划 → memory_course.md\n", ""), encoding="utf-8"
    )
    workspace.restore_topic(str(root), "course")
    assert read(root, "memory.md") == INDEX_MD.replace(
        "- 极客时间课程进度与规划 → memory_course.md\n- 投资组合记录 → memory_investment.md\n",
        "- 投资组合记录 → memory_investment.md\n- 极客时间课程进度与规划 → memory_course.md\n",
    )
    assert read(root, "archive/memory.md") == ""  # as before: memtui did not make it here


def test_archive_and_restore_round_trip_is_byte_identical(make):
    """The last pointer of the last section, in a CRLF + BOM index without a final newline."""
    index = BOM + INDEX_MD.replace("\n", "\r\n").removesuffix("\r\n").encode()
    root = make({"memory.md": index})
    workspace.archive_topic(str(root), "tech_decisions")
    expected = INDEX_MD.replace("\n- 技术选型与架构决策 → memory_tech_decisions.md\n", "")
    assert (root / "memory.md").read_bytes() == BOM + expected.replace("\n", "\r\n").encode()
    workspace.restore_topic(str(root), "tech_decisions")
    assert (root / "memory.md").read_bytes() == index


def test_restore_is_refused_while_the_index_is_blocked(make):
    root = make(
        {
            "archive/memory_old.md": "# 旧\n",
            "archive/memory.md": "## 工作项目\n- 旧 → memory_old.md\n",
        }
    )
    (root / "memory.md").write_text(padded_index(180), encoding="utf-8")
    before = tree_digest(root)
    with pytest.raises(Refused, match="180 lines"):
        workspace.restore_topic(str(root), "old")
    assert tree_digest(root) == before


@pytest.mark.parametrize(
    ("call", "name", "why"),
    [
        (workspace.archive_topic, "nothing", "no topic"),
        (workspace.archive_topic, "../user", "not a topic name"),
        (workspace.restore_topic, "course", "no archived topic"),
    ],
)
def test_archive_restore_refusals(make, call, name, why):
    root = make()
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        call(str(root), name)
    assert tree_digest(root) == before


def test_restore_refuses_to_overwrite_a_live_topic(make):
    root = make({"archive/memory_course.md": "# 旧课程\n"})
    before = tree_digest(root)
    with pytest.raises(Refused, match="already exists"):
        workspace.restore_topic(str(root), "course")
    assert tree_digest(root) == before


def test_archive_topic_dry_run(make):
    root = make()
    before = tree_digest(root)
    receipt = workspace.archive_topic(str(root), "course", dry_run=True)
    assert tree_digest(root) == before
    changes = {c.path: c for c in receipt.changes}
    assert changes["archive/memory_course.md"].source == "memory_course.md"
    assert changes["memory.md"].old == INDEX_MD.encode()
    assert (
        changes["memory.md"].new
        == INDEX_MD.replace("- 极客时间课程进度与规划 → memory_course.md\n", "").encode()
    )


# --- add_topic -------------------------------------------------------------------


def test_add_topic_writes_file_and_pointer_at_end_of_section(make):
    root = make()
    receipt = workspace.add_topic(str(root), "reading", "读书笔记", "工作项目", "# 读书\n- 三体")
    assert read(root, "memory_reading.md") == "# 读书\n- 三体\n"
    assert read(root, "memory.md") == INDEX_MD.replace(
        "- 投资组合记录 → memory_investment.md\n",
        "- 投资组合记录 → memory_investment.md\n- 读书笔记 → memory_reading.md\n",
    )
    assert "warning" not in receipt.details
    assert {c.path for c in receipt.changes} == {"memory_reading.md", "memory.md"}


def test_add_topic_creates_a_missing_section(make):
    root = make()
    workspace.add_topic(str(root), "health", "体检记录", "健康", "- 2026 体检正常\n")
    assert read(root, "memory.md") == INDEX_MD + "\n## 健康\n- 体检记录 → memory_health.md\n"


def test_add_topic_keeps_crlf_bom_and_no_final_newline(make):
    index = BOM + INDEX_MD.replace("\n", "\r\n").removesuffix("\r\n").encode()
    root = make({"memory.md": index})
    workspace.add_topic(str(root), "plan", "年度计划", "重要决策（近6个月）", "x\n")
    expected = INDEX_MD + "- 年度计划 → memory_plan.md"
    assert (root / "memory.md").read_bytes() == BOM + expected.replace("\n", "\r\n").encode()


def test_add_topic_warns_from_150_lines(make):
    root = make()
    (root / "memory.md").write_text(padded_index(150), encoding="utf-8")
    receipt = workspace.add_topic(str(root), "plan", "年度计划", "工作项目", "x\n")
    assert "governance" in receipt.details["warning"]
    assert "- 年度计划 → memory_plan.md\n\n## 重要决策" in read(root, "memory.md")


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("Bad-Name", "d", "s", "x"), "lower-case"),
        (("course", "d", "s", "x"), "already exists"),
        (("ok", "a → b", "s", "x"), "must not contain"),
        (("ok", "d", "s", "   "), "body is empty"),
        (("ok", "two\nlines", "s", "x"), "one line"),
    ],
)
def test_add_topic_refusals(make, args, why):
    root = make()
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        workspace.add_topic(str(root), *args)
    assert tree_digest(root) == before


def test_add_topic_is_refused_at_180_lines(make):
    root = make()
    (root / "memory.md").write_text(padded_index(180), encoding="utf-8")
    before = tree_digest(root)
    with pytest.raises(Refused, match="blocked at 180"):
        workspace.add_topic(str(root), "plan", "年度计划", "工作项目", "x\n")
    assert tree_digest(root) == before


def test_add_topic_dry_run(make):
    root = make()
    before = tree_digest(root)
    receipt = workspace.add_topic(str(root), "plan", "年度计划", "工作项目", "x", dry_run=True)
    assert tree_digest(root) == before
    changes = {c.path: c for c in receipt.changes}
    assert (changes["memory_plan.md"].old, changes["memory_plan.md"].new) == (None, b"x\n")
    assert changes["memory.md"].new.decode().count("memory_plan.md") == 1


def test_restoring_topics_empties_their_archived_section_only_when_none_is_left(
    tmp_path: Path,
) -> None:
    index = "# idx\n\n## Projects\n- {a} → memory_a.md\n- {b} → memory_b.md\n"
    older = "## Old\n- {o} → memory_o.md\n"  # archived before: the file stays
    files = {"memory.md": index, "memory_a.md": "a\n", "memory_b.md": "b\n"}
    root = write_tree(tmp_path / "ws", {**files, "archive/memory.md": older})
    workspace.archive_topic(str(root), "a")
    workspace.archive_topic(str(root), "b")
    workspace.restore_topic(str(root), "a")
    archived = (root / "archive/memory.md").read_text(encoding="utf-8")
    assert "## Projects\n" in archived and "memory_b.md" in archived
    workspace.restore_topic(str(root), "b")
    assert (root / "archive/memory.md").read_text(encoding="utf-8") == older
    assert (root / "memory.md").read_text(encoding="utf-8") == index
