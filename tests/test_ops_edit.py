"""edit_entry on real files: one entry's text replaced, everything else kept.

The entry is found again in the file's current bytes under the lock, so lines
the agent appended meanwhile survive; an entry that itself changed since it
was read is a Conflict.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine.entries import entry_text, resolve
from memtui.engine.identity import fingerprint
from memtui.engine.ops.common import Refused
from memtui.engine.ops.edit import edit_entry
from memtui.engine.store import open_store
from memtui.engine.textfile import BOM
from memtui.engine.write.transaction import Conflict
from tests.conftest import tree_digest, write_tree
from tests.helpers import (
    CANDIDATE,
    E006,
    E007,
    EVENTS,
    EVENTS_MD,
    SENTINEL,
    TODAY_DATE,
    TWO_EVENTS,
)

AGENT_APPEND = (
    "\n### [E008] 2026-11-29 · TYPE\n**类型**：TYPE\n**内容**：CONTENT\n**后续**：FOLLOWUP\n"
    "**状态**：待跟进\n\n### [E000] 2026-11-29T22:10 · last_active\n"
)
PROFILE_MD = "# 档案\n\n## 称呼\n- 小雨\n\n## 偏好\n- 喜欢猫\n- 不吃香菜\n"
SOUL_MD = "# Soul\n\n## 名字\nXiaoPaw\n\n## 性格\n温柔\n"
INDEX_MD = "# 索引\n\n## 工作项目\n- 课程 → memory_course.md\n"
FACTS_MD = "## PYTHON_ENV\n- venv in /opt/app/.venv\n\n## HOSTS\n- db01 is the primary\n"


@pytest.fixture
def make(store):
    def build(files: dict[str, str | bytes] | None = None) -> Path:
        base = {
            ".memory.lock": "",
            EVENTS: EVENTS_MD,
            "memory/user_profile.md": PROFILE_MD,
            "soul.md": SOUL_MD,
            "memory.md": INDEX_MD,
            "memory_course.md": "# 课程\n",
        }
        return store({**base, **(files or {})})

    return build


def read(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def seen(root: Path, ref: str) -> str:
    """What a UI or the CLI shows before an edit: the entry's text from open_store."""
    store = open_store(root, today=TODAY_DATE)
    text = entry_text(store, resolve(store, ref))
    assert text is not None
    return text


# --- the edit itself ----------------------------------------------------------


def test_edit_event_changes_only_its_lines(make):
    root = make()
    old = seen(root, "E007")
    assert old == E007
    new = old.replace("工作压力大", "工作压力大，已经好转")
    receipt = edit_entry(str(root), "event:E007", new, seen_text=old)
    assert read(root, EVENTS) == E006 + new + SENTINEL
    assert receipt.details["file"] == EVENTS
    (change,) = receipt.changes
    assert (root / change.snapshot).read_bytes() == EVENTS_MD.encode()
    record = json.loads((root / ".history/audit.jsonl").read_text().splitlines()[-1])
    assert record["op"] == "edit" and record["details"]["entry"] == "event:E007"


def test_new_text_gets_the_old_ending_so_entries_do_not_merge(make):
    root = make()
    edit_entry(str(root), "E006", "### [E006] 2026-11-20 · 约定\n**内容**：改了")
    # its line ending and the blank line before the next event are kept
    assert (
        read(root, EVENTS) == "### [E006] 2026-11-20 · 约定\n**内容**：改了\n\n" + E007 + SENTINEL
    )


def test_agent_appended_meanwhile_both_are_kept(make):
    root = make()
    old = seen(root, "E006")
    with (root / EVENTS).open("a", encoding="utf-8") as fh:  # the agent, after we read
        fh.write(AGENT_APPEND)
    new = old.replace("周末一起去看海", "周六一起去看海")
    edit_entry(str(root), "E006", new, seen_text=old)
    assert read(root, EVENTS) == new + E007 + SENTINEL + AGENT_APPEND


def test_entry_changed_meanwhile_is_a_conflict(make):
    root = make()
    old = seen(root, "E007")
    agent = EVENTS_MD.replace("**状态**：待跟进\n\n### [E000]", "**状态**：已跟进\n\n### [E000]")
    (root / EVENTS).write_text(agent, encoding="utf-8")
    before = tree_digest(root)
    with pytest.raises(Conflict, match=r"line 5 of the entry was '\*\*状态\*\*：待跟进'"):
        edit_entry(str(root), "E007", old.replace("工作压力大", "x"), seen_text=old)
    assert tree_digest(root) == before


def test_entry_gone_meanwhile_is_a_conflict(make):
    root = make()
    old = seen(root, "E007")
    (root / EVENTS).write_text(E006 + SENTINEL, encoding="utf-8")
    with pytest.raises(Conflict, match="no longer"):
        edit_entry(str(root), "E007", old, seen_text=old)


def test_crlf_bom_entry_keeps_crlf_and_bom(make):
    raw = BOM + PROFILE_MD.replace("\n", "\r\n").encode()
    root = make({"memory/user_profile.md": raw})
    old = seen(root, "profile:偏好")
    assert old == "## 偏好\r\n- 喜欢猫\r\n- 不吃香菜\r\n"
    edit_entry(str(root), "profile:偏好", "## 偏好\n- 喜欢猫\n- 香菜可以了\n", seen_text=old)
    expected = PROFILE_MD.replace("不吃香菜", "香菜可以了").replace("\n", "\r\n")
    assert (root / "memory/user_profile.md").read_bytes() == BOM + expected.encode()


def test_whole_file_without_final_newline_stays_so(make):
    root = make({"memory_course.md": "# 课程\n- 第1课"})
    edit_entry(str(root), "topic:course", "# 课程\n- 第1课\n- 第2课\n", seen_text="# 课程\n- 第1课")
    assert read(root, "memory_course.md") == "# 课程\n- 第1课\n- 第2课"


def test_duplicate_event_hash_two(make):
    dup = E007.replace("工作压力大", "第二个")
    root = make({EVENTS: E007 + dup + SENTINEL})
    old = seen(root, f"event:E007#2@{fingerprint(dup)}")  # a shared number: with its fingerprint
    assert old == dup
    edit_entry(str(root), "event:E007#2", dup.replace("第二个", "改第二个"), seen_text=old)
    assert read(root, EVENTS) == E007 + dup.replace("第二个", "改第二个") + SENTINEL


def test_fact_section_sop_and_pending_by_front_matter_id(make):
    root = make(
        {
            "index.txt": "[RULES] x\n",
            "facts.md": FACTS_MD,
            "sops/deploy.md": "# Deploy\n1. build\n",
            "pending/cand-a.md": CANDIDATE,
        }
    )
    edit_entry(str(root), "fact:PYTHON_ENV", "## PYTHON_ENV\n- venv in /srv/.venv\n\n")
    assert read(root, "facts.md") == FACTS_MD.replace("/opt/app/.venv", "/srv/.venv")
    edit_entry(str(root), "sop:deploy", "# Deploy\n1. build\n2. ship\n")
    assert read(root, "sops/deploy.md") == "# Deploy\n1. build\n2. ship\n"
    new = CANDIDATE.replace("activate the venv", "source the venv")
    edit_entry(str(root), "pending:20261129-0007", new, seen_text=seen(root, "20261129-0007"))
    assert read(root, "pending/cand-a.md") == new


def test_soul_fields_change_but_sections_do_not(make):
    root = make()
    edit_entry(str(root), "file:soul.md", SOUL_MD.replace("XiaoPaw", "小爪"))
    assert read(root, "soul.md") == SOUL_MD.replace("XiaoPaw", "小爪")
    before = tree_digest(root)
    with pytest.raises(Refused, match="section may not be added"):
        edit_entry(str(root), "file:soul.md", read(root, "soul.md") + "\n## 爱好\n画画\n")
    with pytest.raises(Refused, match="section may not be added"):
        edit_entry(str(root), "file:soul.md", "# Soul\n\n## 名字\n小爪\n")
    assert tree_digest(root) == before


def test_memory_md_may_not_grow_at_180_lines_but_may_shrink(make):
    big = INDEX_MD + "".join(f"- 主题 {n} → memory_t{n}.md\n" for n in range(176))
    root = make({"memory.md": big})
    assert big.count("\n") == 180
    before = tree_digest(root)
    with pytest.raises(Refused, match="blocked at 180"):
        edit_entry(str(root), "file:memory.md", big + "- 新 → memory_new.md\n")
    assert tree_digest(root) == before
    smaller = big.replace("- 主题 3 → memory_t3.md\n", "")
    edit_entry(str(root), "file:memory.md", smaller)
    assert read(root, "memory.md") == smaller


def test_json_must_parse(make):
    meta = '{\n  "version": 1,\n  "entries": {}\n}\n'
    root = make({"memory-meta.json": meta})
    before = tree_digest(root)
    with pytest.raises(Refused, match="not valid JSON"):
        edit_entry(str(root), "file:memory-meta.json", '{"version": 1,')
    assert tree_digest(root) == before
    edit_entry(str(root), "file:memory-meta.json", meta.replace("1", "2"))
    assert read(root, "memory-meta.json") == meta.replace("1", "2")


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        ("E099", "no event E099"),
        ("E000", "sentinel"),
        ("profile:宠物", "no section"),
        ("topic:nothing", "no entry topic:nothing"),
        ("sop:deploy", "no entry sop:deploy"),
        ("file:../outside.md", "outside the store root"),
        ("file:/etc/passwd", "outside the store root"),
        ("file:.history/audit.jsonl", "history"),
        ("file:.memory.lock", "bookkeeping"),
        ("file:notes/x.md", "not a file of this store"),
        ("file:bad.md", "not valid UTF-8"),
        ("file:memory/missing.md", "does not exist"),
        ("nonsense:x", "not an entry id"),
    ],
)
def test_refusals_change_nothing(make, ref, why):
    root = make({"bad.md": b"\xff\xfe not utf-8", "notes/x.md": "x\n", ".history/audit.jsonl": ""})
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        edit_entry(str(root), ref, "new text\n")
    assert tree_digest(root) == before


def test_event_text_must_start_with_its_heading(make):
    root = make()
    before = tree_digest(root)
    with pytest.raises(Refused, match="heading"):
        edit_entry(str(root), "E007", "**内容**：没有标题\n")
    with pytest.raises(Refused, match="heading"):
        edit_entry(str(root), "profile:偏好", "- 只有条目\n")
    assert tree_digest(root) == before


def test_dry_run_returns_the_planned_change(make):
    root = make()
    before = tree_digest(root)
    new = E007.replace("工作压力大", "好多了")
    receipt = edit_entry(str(root), "E007", new, seen_text=E007, dry_run=True)
    assert tree_digest(root) == before
    assert receipt.dry_run
    (change,) = receipt.changes
    assert change.old == EVENTS_MD.encode()
    assert change.new == (E006 + new + SENTINEL).encode()


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
