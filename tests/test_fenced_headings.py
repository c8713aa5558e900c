"""A `## X` (or `### [E009]`, or `- item`) line inside a fenced code block is content,
in every layout: never a section, an event, an item or a pointer. Fences follow
CommonMark (``` or ~~~, up to three spaces in, closed by at least as many of the same
character); a fence never closed hides nothing and is reported."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_cli, tree_digest

from memtui.engine import open_store
from memtui.engine.markdown import fences
from memtui.layouts.dsh import ops as dsh
from tests.helpers import ENV, INDEX_TXT, TODAY_DATE, candidate

FACTS = """\
# Facts

## PYTHON_ENV
- the venv lives in /opt/app/.venv
```bash
## NOT_A_SECTION
- not a fact: a comment in a script
```

## HOSTS
- db runs on 10.0.0.5
~~~~ text
## ALSO_CODE
~~~
still code: a shorter fence does not close it
~~~~
"""

EVENTS = """\
### [E001] 2026-11-20 · 约定
**类型**：约定
**内容**：the script to run
   ```
### [E009] 2026-11-21 · 约定
**状态**：已完成
   ```
**状态**：待跟进
**到期日**：2026-12-01

### [E000] 2026-11-29T21:40 · last_active
"""


def codes(root: Path) -> list[tuple[str, str | None, int | None]]:
    return sorted((f.code, f.file, f.line) for f in open_store(root, TODAY_DATE).findings)


def test_fenced_headings_and_items_are_not_facts(store):
    root = store({"index.txt": INDEX_TXT, "facts.md": FACTS})
    found = {
        s.name: [text for _, text in s.facts]
        for s in open_store(root).data.get("dsh").fact_sections
    }
    assert found == {
        "PYTHON_ENV": ["the venv lives in /opt/app/.venv"],
        "HOSTS": ["db runs on 10.0.0.5"],
    }
    result = run_cli("list", "--store", str(root), env=ENV)
    assert "fact:NOT_A_SECTION" not in result.stdout and "fact:ALSO_CODE" not in result.stdout


def test_accept_into_a_section_named_only_in_code_creates_it(store):
    """The writer sees the sections the reader sees: `## NOT_A_SECTION` in the code
    block is not where the fact goes."""
    cid = "20261129-0007"
    root = store(
        {
            "index.txt": INDEX_TXT,
            "facts.md": FACTS,
            f"pending/{cid}.md": candidate(cid, target="NOT_A_SECTION", body="- a real fact\n"),
        }
    )
    dsh.accept(root, [cid])
    text = (root / "facts.md").read_text()
    assert text.startswith(FACTS)  # the code block is untouched
    assert text[len(FACTS) :].lstrip("\n") == "## NOT_A_SECTION\n- a real fact\n"
    assert [s.name for s in open_store(root).data.get("dsh").fact_sections][-1] == "NOT_A_SECTION"


def test_fenced_event_heading_is_the_event_content(store):
    root = store({"memory/events.md": EVENTS})
    events = open_store(root, TODAY_DATE).data.get("companion").events
    assert [(e.label, e.status, e.due) for e in events] == [
        ("E001", "待跟进", "2026-12-01"),
        ("E000", None, None),
    ]
    assert "### [E009]" in events[0].text
    assert not [c for c in codes(root) if c[0].startswith("event-")]


def test_an_agent_closing_its_fence_later_is_read_like_a_fresh_open(store):
    """The reload that reuses the events before the last one must not keep a heading
    that the appended closing fence has turned into code."""
    opened = "### [E001] 2026-11-20 · 约定\n**内容**：\n```\n### [E002] 2026-11-21 · 约定\n"
    root = store({"memory/events.md": opened})
    first = open_store(root, TODAY_DATE, reopen=True)
    assert [e.label for e in first.data.get("companion").events] == ["E001", "E002"]
    assert ("fence-unclosed", "memory/events.md", 3) in codes(root)
    with open(root / "memory/events.md", "a", encoding="utf-8") as fh:
        fh.write("```\n**状态**：待跟进\n")
    again = open_store(root, TODAY_DATE, previous=first)
    fresh = open_store(root, TODAY_DATE)
    assert [e.label for e in again.data.get("companion").events] == ["E001"]
    assert again.data.get("companion").events == fresh.data.get("companion").events


def test_profile_persona_and_memory_md_ignore_fenced_lines(store):
    root = store(
        {
            "memory/events.md": EVENTS,
            "memory/user_profile.md": "## 爱好\n- 看海\n```\n## 禁忌\n- 不是条目\n```\n",
            "memory/persona.md": "# 人设\n【在对话中形成的新细节】\n• [2026-11-20] 喜欢猫\n"
            "```\n# 不是标题\n• [2026-11-21] 代码里的\n```\n• [2026-11-22] 会做饭\n",
            "MEMORY.md": "# MEMORY\n```\n## 【最近未解决事项】\n- [E005] 示例\n```\n"
            "## 【最近未解决事项】\n- [E001] 约定 · 到期 2026-12-01\n",
        }
    )
    comp = open_store(root, TODAY_DATE).data.get("companion")
    assert [(p.name, p.items) for p in comp.profile] == [("爱好", ("看海",))]
    assert comp.persona_details == ("[2026-11-20] 喜欢猫", "[2026-11-22] 会做饭")
    assert comp.unresolved_ids == ("E001",)
    assert "unresolved-stale" not in [c[0] for c in codes(root)]


def test_workspace_sections_and_index_treat_fenced_lines_as_content(store):
    index = (
        "# 记忆索引\n\n## 学习\n- 课程进度 → memory_course.md\n"
        "```\n## 示例\n- 格式 → memory_example.md\n```\n"
    )
    root = store(
        {
            "memory.md": index,
            "memory_course.md": "# 课程\n",
            "user.md": "# 用户\n## 称呼\n- 老王\n```md\n## 称呼\n- 老王\n```\n",
        }
    )
    ws = open_store(root, TODAY_DATE).data.get("workspace")
    assert [s.name for s in ws.index_sections] == ["学习"]
    assert [p.target for p in ws.pointers] == ["memory_course.md"]
    assert [s.name for s in ws.user_sections] == ["称呼"]
    found = codes(root)
    assert [c for c in found if c[0] == "index-content"] == [
        ("index-content", "memory.md", n) for n in (5, 6, 7, 8)
    ]
    assert not [c for c in found if c[0] in ("pointer-missing", "user-duplicate")]


def test_sop_title_skips_a_comment_in_a_code_block(store):
    root = store(
        {
            "index.txt": INDEX_TXT,
            "facts.md": "## HOSTS\n- db\n",
            "sops/deploy.md": "```bash\n# pull first\ngit pull\n```\n# Deploy the app\n",
        }
    )
    assert [s.title for s in open_store(root).data.get("dsh").sops] == ["Deploy the app"]


@pytest.mark.parametrize(
    ("text", "blocks", "unclosed"),
    [
        ("a\n```\n## x\n```\nb\n", [(2, 4)], None),
        ("```\n## x\n", [], 1),  # never closed: hides nothing, reported
        ("``` a`b\n## x\n```\n", [], 3),  # a backtick in the info: line 1 opens nothing
        ("    ```\n## x\n    ```\n", [], None),  # four spaces in: no fence
        ("   ~~~\n```\n~~~\n", [(1, 3)], None),  # the other character is content
        ("```\n``` x\n```\n", [(1, 3)], None),  # text after it: no closing fence
        ("````\n```\n````\n", [(1, 3)], None),  # a shorter one does not close it
    ],
)
def test_fences_follow_commonmark(text, blocks, unclosed):
    found = fences(text)
    lines = [
        (text.count("\n", 0, s) + 1, text.count("\n", 0, e) + 1)
        for s, e in zip(found.starts, found.ends, strict=True)
    ]
    assert (lines, found.unclosed) == (blocks, unclosed)


def test_check_reports_an_unclosed_fence_and_changes_nothing(store):
    root = store({"index.txt": INDEX_TXT, "facts.md": "## A\n- x\n```\n## B\n- y\n"})
    before = tree_digest(root)
    result = run_cli("check", "--store", str(root), env=ENV)
    assert "facts.md:3  fence-unclosed" in result.stdout
    assert [s.name for s in open_store(root).data.get("dsh").fact_sections] == ["A", "B"]
    assert tree_digest(root) == before


def test_index_rewrites_the_unresolved_block_not_its_example_in_code(store):
    example = "# MEMORY\n```\n## 【最近未解决事项】\n- [E005] 示例\n```\n"
    root = store(
        {
            "memory/events.md": EVENTS,
            "MEMORY.md": example + "## 【最近未解决事项】\n- [E009] 旧的\n",
        }
    )
    result = run_cli("index", "--store", str(root), env=ENV)
    assert result.returncode == 0, result.stderr
    text = (root / "MEMORY.md").read_text()
    assert text.startswith(example)  # the code block is untouched
    block = text[len(example) :]
    assert block.startswith("## 【最近未解决事项】\n- [E001] 约定 · 到期 2026-12-01")
    assert "E009" not in block
    assert "unresolved-stale" not in [c[0] for c in codes(root)]


def test_archiving_a_topic_leaves_an_example_pointer_in_code(store):
    example = "```\n## 示例\n- 课程进度 → memory_course.md\n```\n"
    root = store(
        {
            "memory.md": f"# 记忆索引\n\n{example}\n## 学习\n- 课程进度 → memory_course.md\n",
            "memory_course.md": "# 课程\n",
            "user.md": "# 用户\n",
        }
    )
    result = run_cli("archive", "topic:course", "--store", str(root), env=ENV)
    assert result.returncode == 0, result.stderr
    index = (root / "memory.md").read_text()
    assert example in index  # the example is not a pointer: it stays
    assert index.count("memory_course.md") == 1
    assert (root / "archive/memory_course.md").exists()
