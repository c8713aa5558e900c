"""Findings of the workspace layout (SPEC §1, §5): every code, its trigger and its near miss.

Each test builds a realistic store (seed 000, "memory-save") in tmp_path, opens it with a
pinned "today" and compares the complete list of (code, level, file, line) findings, so a
test also fails on a false positive next to the finding it is about.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.engine.store import open_store
from tests.conftest import write_tree
from tests.helpers import TODAY_DATE, expect, findings, line_of, with_changes

SOUL = """# XiaoPaw 的自我设定

## 名字
XiaoPaw

## 人设
一只温柔又靠谱的橘猫助理，住在用户的电脑里。

## 性格
- 好奇，喜欢追问细节
- 耐心，不催促
"""

USER = """# 用户档案

## 偏好
- 回复控制在 200 字以内
- 先给结论，再讲理由

## 习惯
- 每天早上 8 点看日程
- 周五晚上复盘本周

## 背景
- 在杭州做后端开发，主要写 Go 和 Python

## 禁忌
- 不要提前一家公司的事
"""

AGENT = """# Agent 行为规范

## 回复风格
- [2026-10-02] 先给结论，再给理由
- [2026-11-15] 代码块必须标注语言

## 工具使用
- [2026-11-20] 改文件前先完整读一遍，用 str_replace 精准更新
"""

INDEX = """# XiaoPaw 记忆索引

## 用户偏好
→ 详见 user.md（Bootstrap 直接注入，此处不重复）

## 工作项目
- 极客时间课程进度与规划 → memory_course.md
- 投资组合记录 → memory_investment.md

## 重要决策（近6个月）
- 技术选型与架构决策 → memory_tech_decisions.md
"""

TOPICS = {
    "memory_course.md": "# 极客时间课程\n\n- 第 16 课 SkillLoaderTool 已录完\n- 第 17 课下周开录\n",
    "memory_investment.md": "# 投资组合\n\n- 沪深300 指数基金，每月定投 2000 元\n",
    "memory_tech_decisions.md": "# 技术决策\n\n- [2026-09-10] 消息队列选 NATS，放弃 Kafka\n",
}


def workspace(changes: dict[str, str | None] | None = None) -> dict[str, str]:
    """A clean workspace store; `changes` maps a file name to new text, or None to remove it."""
    files: dict[str, str] = {
        "soul.md": SOUL,
        "user.md": USER,
        "agent.md": AGENT,
        "memory.md": INDEX,
        **TOPICS,
    }
    return with_changes(files, changes)


def index_of(n: int) -> str:
    """A memory.md of exactly n lines (trailing newline): the clean index padded with
    empty section headings and blank lines, as a long-lived index looks between governance."""
    lines = INDEX.rstrip("\n").split("\n")
    k = 0
    while len(lines) < n:
        lines.append("" if len(lines) % 2 else f"## 归档分组 {k}")
        k += 1
    assert len(lines) == n
    return "\n".join(lines) + "\n"


# --- a clean store, and what the model says about it ------------------------


def test_clean_workspace_has_no_findings_at_all(store):
    root = store(workspace())
    s = open_store(root, today=TODAY_DATE)
    assert s.layouts == ("workspace",)
    assert s.findings == ()


def test_clean_workspace_model_values(store):
    root = store(workspace())
    ws = open_store(root, today=TODAY_DATE).data.get("workspace")
    assert ws is not None
    assert ws.index_file == "memory.md"
    assert ws.index_lines == INDEX.count("\n") == 11
    assert [(p.target, p.line) for p in ws.pointers] == [
        ("user.md", 4),
        ("memory_course.md", 7),
        ("memory_investment.md", 8),
        ("memory_tech_decisions.md", 11),
    ]
    assert ws.pointers[1].description == "极客时间课程进度与规划"
    assert sorted(ws.topics) == sorted(TOPICS)
    assert [s.name for s in ws.index_sections] == ["用户偏好", "工作项目", "重要决策（近6个月）"]
    assert [s.name for s in ws.soul_sections] == ["名字", "人设", "性格"]
    assert [s.name for s in ws.user_sections] == ["偏好", "习惯", "背景", "禁忌"]
    assert ws.user_sections[0].items == ("回复控制在 200 字以内", "先给结论，再讲理由")
    assert ws.user_sections[0].item_lines == (4, 5)
    assert ws.agent_sections[1].items == (
        "[2026-11-20] 改文件前先完整读一遍，用 str_replace 精准更新",
    )
    assert ws.agent_bytes == len(AGENT.encode("utf-8"))


# --- detection ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "detected"),
    [
        (["memory.md", "soul.md"], True),
        (["memory.md", "user.md"], True),
        (["memory.md", "agent.md"], True),
        (["memory.md", "memory_course.md"], True),
        (["memory.md"], False),  # an index alone is not enough
        (["soul.md", "user.md", "agent.md", "memory_course.md"], False),  # no index
        (["memory.md", "notes.md", "README.md"], False),
    ],
)
def test_workspace_detection(store, names, detected):
    files = {name: workspace().get(name, "# notes\n") for name in names}
    root = store(files)
    s = open_store(root, today=TODAY_DATE)
    assert ("workspace" in s.layouts) is detected
    assert (s.data.get("workspace") is not None) is detected


# --- index-size --------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "level"),
    [(149, None), (150, "warning"), (179, "warning"), (180, "error"), (200, "error")],
)
def test_index_size_boundaries(store, lines, level):
    root = store(workspace({"memory.md": index_of(lines)}))
    got = findings(root)
    assert got == ([] if level is None else [("index-size", level, "memory.md", None)])
    assert open_store(root, today=TODAY_DATE).data.get("workspace").index_lines == lines


def test_index_size_counts_a_last_line_without_newline(store):
    root = store(workspace({"memory.md": index_of(149) + "## 最后一组"}))
    assert findings(root) == [("index-size", "warning", "memory.md", None)]


# --- pointers ----------------------------------------------------------------


def test_pointer_missing(store):
    index = INDEX + "\n## 生活\n- 2026 年旅行计划 → memory_travel.md\n"
    root = store(workspace({"memory.md": index}))
    assert findings(root) == [
        ("pointer-missing", "error", "memory.md", line_of(index, "memory_travel.md"))
    ]


def test_see_also_line_is_a_pointer_and_can_be_missing(store):
    # soul.md keeps the layout detected; the 详见 line names user.md, which is gone.
    root = store(workspace({"user.md": None}))
    assert findings(root) == [("pointer-missing", "error", "memory.md", line_of(INDEX, "详见"))]


def test_pointer_duplicate_reports_the_second_pointer(store):
    index = INDEX.replace(
        "- 技术选型与架构决策 → memory_tech_decisions.md",
        "- 技术选型与架构决策 → memory_tech_decisions.md\n- 课程里的架构案例 → memory_course.md",
    )
    root = store(workspace({"memory.md": index}))
    assert findings(root) == [
        ("pointer-duplicate", "warning", "memory.md", line_of(index, "课程里的架构案例"))
    ]


def test_one_pointer_per_file_is_not_a_duplicate(store):
    index = INDEX + "- 课程销售数据 → memory_course_sales.md\n"
    sales = "# 销售\n- 首周 1200 份\n"
    root = store(workspace({"memory.md": index, "memory_course_sales.md": sales}))
    assert findings(root) == []


# --- index-content -----------------------------------------------------------


def test_index_content_lines(store):
    index = INDEX.replace(
        "- 投资组合记录 → memory_investment.md",
        "- 投资组合记录 → memory_investment.md\n"
        "课程已经录到第 16 课，下周开始第 17 课\n"
        "- 沪深300 每月定投 2000 元\n"
        "- 看板 → 见 Notion 里的项目页",
    )
    root = store(workspace({"memory.md": index}))
    assert findings(root) == expect(
        ("index-content", "warning", "memory.md", line_of(index, "第 17 课")),
        ("index-content", "warning", "memory.md", line_of(index, "定投")),
        ("index-content", "warning", "memory.md", line_of(index, "Notion")),
    )


def test_headings_blank_lines_and_pointers_are_not_content(store):
    index = (
        "# XiaoPaw 记忆索引\n\n\n## 用户偏好\n→ 详见 user.md（Bootstrap 直接注入）\n"
        "### 子分组\n- 课程 → memory_course.md（第 16 课起）\n"
        "* 投资 → memory_investment.md\n- 决策 → memory_tech_decisions.md\n\n"
    )
    root = store(workspace({"memory.md": index}))
    assert findings(root) == []


# --- topic files ---------------------------------------------------------------


def test_topic_orphan(store):
    root = store(workspace({"memory_travel.md": "# 旅行\n- 12 月去京都\n"}))
    assert findings(root) == [("topic-orphan", "warning", "memory_travel.md", None)]


@pytest.mark.parametrize(
    "name",
    [
        "memory_Travel.md",
        "memory-x.md",
        "memory_travel-plans.md",
        "memory_旅行.md",
        "Memory_travel.md",
    ],
)
def test_topic_name_with_a_pointer(store, name):
    index = INDEX + f"\n## 生活\n- 旅行计划 → {name}\n"
    root = store(workspace({"memory.md": index, name: "# 旅行\n- 京都\n"}))
    assert findings(root) == [("topic-name", "warning", name, None)]


def test_empty_topic_name_is_a_bad_name(store):
    # `memory_.md` is pointed to like a topic, but its <name> is empty: not memory_[a-z0-9_]+.md
    index = INDEX + "\n## 杂项\n- 临时笔记 → memory_.md\n"
    root = store(workspace({"memory.md": index, "memory_.md": "# 临时\n- 待整理\n"}))
    assert findings(root) == [("topic-name", "warning", "memory_.md", None)]


def test_topic_name_without_a_pointer_is_also_an_orphan(store):
    root = store(workspace({"memory_Travel.md": "# 旅行\n- 京都\n"}))
    assert findings(root) == expect(
        ("topic-name", "warning", "memory_Travel.md", None),
        ("topic-orphan", "warning", "memory_Travel.md", None),
    )


def test_good_topic_names(store):
    index = INDEX + "\n## 生活\n- 旅行 → memory_travel_2026.md\n- 读书 → memory_books.md\n"
    root = store(
        workspace(
            {
                "memory.md": index,
                "memory_travel_2026.md": "# 旅行\n- 京都\n",
                "memory_books.md": "# 读书\n- 《置身事内》\n",
            }
        )
    )
    assert findings(root) == []


# --- agent-size ------------------------------------------------------------------


def agent_of(size: int) -> str:
    """An agent.md of exactly `size` bytes: the clean rules plus dated rules, ASCII-padded."""
    text = AGENT
    n = 0
    while len(text.encode("utf-8")) + 60 < size:
        text += f"- [2026-11-{n % 28 + 1:02d}] 第 {n} 条规范：回复前先确认上下文\n"
        n += 1
    pad = size - len(text.encode("utf-8")) - 1
    text += "x" * pad + "\n"
    assert len(text.encode("utf-8")) == size
    return text


@pytest.mark.parametrize(("size", "warns"), [(8192, False), (8193, True)])
def test_agent_size_threshold(store, size, warns):
    root = store(workspace({"agent.md": agent_of(size)}))
    assert findings(root) == ([("agent-size", "warning", "agent.md", None)] if warns else [])
    assert open_store(root, today=TODAY_DATE).data.get("workspace").agent_bytes == size


# --- memtui.toml -----------------------------------------------------------------


def test_toml_index_warn_lines(store):
    files = workspace({"memory.md": index_of(12)})
    files["memtui.toml"] = "[thresholds]\nindex_warn_lines = 10\n"
    root = store(files)
    assert findings(root) == [("index-size", "warning", "memory.md", None)]


def test_toml_index_block_lines(store):
    files = workspace({"memory.md": index_of(12)})
    files["memtui.toml"] = "[thresholds]\nindex_warn_lines = 10\nindex_block_lines = 12\n"
    root = store(files)
    assert findings(root) == [("index-size", "error", "memory.md", None)]


def test_toml_index_warn_lines_near_miss(store):
    files = workspace({"memory.md": index_of(12)})
    files["memtui.toml"] = "[thresholds]\nindex_warn_lines = 13\n"
    root = store(files)
    assert findings(root) == []


def test_toml_agent_max_bytes(store):
    files = workspace()
    files["memtui.toml"] = "[thresholds]\nagent_max_bytes = 100\n"
    root = store(files)
    assert findings(root) == [("agent-size", "warning", "agent.md", None)]


def test_a_user_md_field_twice_is_a_user_duplicate(tmp_path: Path) -> None:
    user = "# 用户\n\n## preferences\n- tea\n\n## Preferences\n- dup\n"
    root = write_tree(
        tmp_path / "ws", {"memory.md": "# idx\n\n## P\n", "user.md": user, "soul.md": "# s\n"}
    )
    assert ("user-duplicate", "warning", "user.md", 6) in findings(root)
