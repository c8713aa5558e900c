"""Companion operations on real files: exact bytes before and after each one.

Only the intended lines may change; CRLF, a BOM and a missing final newline
survive; refusals and dry runs leave every file as it was.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from memtui.engine.identity import fingerprint
from memtui.engine.ops.common import Refused
from memtui.engine.store import open_store
from memtui.engine.textfile import BOM
from memtui.layouts.companion import ops as companion
from tests.conftest import TODAY, tree_digest, write_tree
from tests.helpers import TODAY_DATE, needs_seed_tools
from tests.test_seed_template import TEMPLATE

EVENTS = "memory/events.md"
ARCHIVED = "archive/memory/events.md"
PROFILE = "memory/user_profile.md"

E006 = """\
### [E006] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起去看海，带上相机
**后续**：周五提醒
**状态**：待跟进
**到期日**：2026-12-01
"""
E007 = """\
### [E007] 2026-11-21 · 情绪事件
**类型**：情绪事件
**内容**：工作压力大，睡不好
**情绪强度**：⭐⭐⭐
**用户状态**：疲惫
**状态**：待跟进
"""
SENTINEL = "### [E000] 2026-11-29T21:40 · last_active\n"
EVENTS_MD = f"# 事件记录\n\n{E006}\n{E007}\n{SENTINEL}"

PROFILE_MD = """\
# 用户档案

## 称呼
- 小雨
- 雨哥

## 偏好
- 喜欢猫
- 不吃香菜
- 周末爬山

## 工作
- 程序员
"""


@pytest.fixture
def make(store):
    """store(...) with the lock file the agent's bash has already created."""

    def build(files: dict[str, str | bytes]) -> Path:
        return store({".memory.lock": "", **files})

    return build


def read(root: Path, rel: str) -> str:
    return (root / rel).read_bytes().decode("utf-8")


def crlf_bom(text: str, *, final_newline: bool = True) -> bytes:
    body = text.replace("\n", "\r\n")
    if not final_newline:
        body = body.removesuffix("\r\n")
    return BOM + body.encode("utf-8")


def new_event(number: str, kind: str, *lines: str, day: str = TODAY) -> str:
    return "\n".join([f"### [{number}] {day} · {kind}", f"**类型**：{kind}", *lines]) + "\n"


# --- done / reopen ------------------------------------------------------------


def test_done_changes_only_the_status_value(make):
    root = make({EVENTS: EVENTS_MD})
    receipt = companion.done(str(root), "event:E007")
    done7 = E007.replace("**状态**：待跟进", "**状态**：已完成")
    assert read(root, EVENTS) == f"# 事件记录\n\n{E006}\n{done7}\n{SENTINEL}"
    assert receipt.details["was"] == "待跟进"
    # and back: byte-identical to the start
    companion.reopen(str(root), "E007")
    assert read(root, EVENTS) == EVENTS_MD


def test_done_keeps_crlf_bom_and_no_final_newline(make):
    raw = crlf_bom(f"{E006}\n{E007}", final_newline=False)
    root = make({EVENTS: raw})
    companion.done(str(root), "E007")
    done7 = E007.replace("**状态**：待跟进", "**状态**：已完成")
    assert (root / EVENTS).read_bytes() == crlf_bom(f"{E006}\n{done7}", final_newline=False)


def test_done_adds_a_missing_status_line_after_the_last_field(make):
    e008 = "### [E008] 2026-11-22 · 用户Todo\n**类型**：用户Todo\n**内容**：交房租\n\n记一下\n"
    root = make({EVENTS: f"{E006}\n{e008}\n{SENTINEL}"})
    companion.done(str(root), "E008")
    fixed = e008.replace("**内容**：交房租\n", "**内容**：交房租\n**状态**：已完成\n")
    assert read(root, EVENTS) == f"{E006}\n{fixed}\n{SENTINEL}"


def test_status_line_added_to_a_last_event_without_final_newline(make):
    text = "### [E001] 2026-11-01 · 重要事件\n**类型**：重要事件\n**内容**：搬家"
    root = make({EVENTS: text})
    companion.done(str(root), "E1")
    assert read(root, EVENTS) == text + "\n**状态**：已完成"


def test_duplicate_ids_hash_two_picks_the_second(make):
    dup = E007.replace("工作压力大，睡不好", "第二个 E007")
    root = make({EVENTS: f"{E007}\n{dup}\n{SENTINEL}"})
    # a shared number names an event with its fingerprint as shown (SPEC §6)
    companion.done(str(root), "E007#2", expect=fingerprint(dup))
    assert read(root, EVENTS) == f"{E007}\n{dup.replace('待跟进', '已完成')}\n{SENTINEL}"


def test_status_with_ascii_colon_and_spaces_keeps_its_shape(make):
    e = "### [E003] 2026-11-02 · 用户Todo\n**状态** : 待跟进  \n"
    root = make({EVENTS: e})
    companion.done(str(root), "E003")
    assert read(root, EVENTS) == "### [E003] 2026-11-02 · 用户Todo\n**状态** : 已完成  \n"


def test_done_on_a_done_event_writes_nothing(make):
    root = make(
        {
            EVENTS: EVENTS_MD.replace(
                "**状态**：待跟进\n\n### [E000]", "**状态**：已完成\n\n### [E000]"
            )
        }
    )
    before = tree_digest(root)
    receipt = companion.done(str(root), "E007")
    assert receipt.changes == ()
    assert tree_digest(root) == before


@pytest.mark.parametrize(
    ("ref", "why"),
    [("E000", "sentinel"), ("event:E000", "sentinel"), ("E099", "no event"), ("x7", "not an")],
)
def test_status_refusals_change_nothing(make, ref, why):
    root = make({EVENTS: EVENTS_MD})
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        companion.done(str(root), ref)
    assert tree_digest(root) == before


def test_done_dry_run_writes_nothing_and_shows_the_change(make):
    root = make({EVENTS: EVENTS_MD})
    before = tree_digest(root)
    receipt = companion.done(str(root), "E006", dry_run=True)
    assert tree_digest(root) == before
    assert receipt.dry_run
    (change,) = receipt.changes
    assert change.path == EVENTS
    assert change.old == EVENTS_MD.encode()
    assert change.new == EVENTS_MD.replace(E006, E006.replace("待跟进", "已完成")).encode()


def test_history_snapshot_and_audit_line(make):
    root = make({EVENTS: EVENTS_MD})
    receipt = companion.done(str(root), "E006")
    (change,) = receipt.changes
    assert change.snapshot and (root / change.snapshot).read_bytes() == EVENTS_MD.encode()
    assert change.snapshot.startswith(".history/memory/events.md/")
    audit = (root / ".history/audit.jsonl").read_text(encoding="utf-8").splitlines()
    record = json.loads(audit[-1])
    assert record["op"] == "event-status"
    assert record["files"][0]["path"] == EVENTS
    assert record["details"]["event"] == "event:E006"


# --- add_event ------------------------------------------------------------------


def test_add_event_appends_the_seed_format(make):
    root = make({EVENTS: EVENTS_MD})
    receipt = companion.add_event(
        str(root), "情绪事件", "面试没过，很失落", stars=4, user_state="低落", follow_up="明天问问"
    )
    block = new_event(
        "E008",
        "情绪事件",
        "**内容**：面试没过，很失落",
        "**情绪强度**：⭐⭐⭐⭐",
        "**用户状态**：低落",
        "**后续**：明天问问",
        "**状态**：待跟进",
    )
    assert read(root, EVENTS) == EVENTS_MD + "\n" + block
    assert receipt.details["event"] == "event:E008"


def test_add_promise_carries_its_due_date_and_given_day(make):
    root = make({EVENTS: EVENTS_MD})
    companion.add_event(str(root), "约定", "一起看电影", due="2026-12-24", day="2026-11-28")
    block = new_event(
        "E008",
        "约定",
        "**内容**：一起看电影",
        "**状态**：待跟进",
        "**到期日**：2026-12-24",
        day="2026-11-28",
    )
    assert read(root, EVENTS) == EVENTS_MD + "\n" + block


def test_numbering_counts_in_decimal_past_e007_and_e999(make):
    root = make({EVENTS: EVENTS_MD})
    for _ in range(3):
        companion.add_event(str(root), "用户Todo", "买菜")
    heads = [ln[:10] for ln in read(root, EVENTS).splitlines() if ln.startswith("### [E")]
    assert heads == ["### [E006]", "### [E007]", "### [E000]"] + [
        f"### [E{n:03d}]" for n in (8, 9, 10)
    ]


def test_numbering_goes_past_e999(make):
    root = make({EVENTS: EVENTS_MD.replace("[E007]", "[E999]")})
    first = companion.add_event(str(root), "用户Todo", "a")
    second = companion.add_event(str(root), "用户Todo", "b")
    assert (first.details["event"], second.details["event"]) == ("event:E1000", "event:E1001")
    assert "### [E1001] " in read(root, EVENTS)


def test_numbering_takes_the_largest_number_not_the_last(make):
    text = f"{E007.replace('[E007]', '[E012]')}\n{E006}\n### [E] 2026-11-29 · TYPE\n\n{SENTINEL}"
    root = make({EVENTS: text})
    receipt = companion.add_event(str(root), "重要事件", "升职")
    assert receipt.details["event"] == "event:E013"


def test_add_event_keeps_crlf_bom_and_no_final_newline(make):
    root = make({EVENTS: crlf_bom(f"{E006}\n{E007}", final_newline=False)})
    companion.add_event(str(root), "用户Todo", "交水费")
    block = new_event("E008", "用户Todo", "**内容**：交水费", "**状态**：待跟进")
    expected = crlf_bom(f"{E006}\n{E007}\n{block}", final_newline=False)
    assert (root / EVENTS).read_bytes() == expected


def test_add_event_creates_events_md(make):
    root = make({"memory/persona.md": "# 人设\n"})
    companion.add_event(str(root), "重要事件", "第一次见面")
    assert read(root, EVENTS) == new_event(
        "E001", "重要事件", "**内容**：第一次见面", "**状态**：待跟进"
    )


@pytest.mark.parametrize(
    ("kwargs", "why"),
    [
        ({"type": "闲聊", "content": "x"}, "not one of"),
        ({"type": "约定", "content": "x"}, "due date"),
        ({"type": "约定", "content": "x", "due": "2026-02-30"}, "not a real date"),
        ({"type": "用户Todo", "content": "x", "day": "2026-13-01"}, "not a real date"),
        ({"type": "情绪事件", "content": "x", "stars": 6}, "1-5"),
        ({"type": "情绪事件", "content": "x", "stars": 0}, "1-5"),
        ({"type": "重要事件", "content": "x", "stars": 3}, "only for"),
        ({"type": "重要事件", "content": "两行\n内容"}, "one line"),
        ({"type": "重要事件", "content": "  "}, "empty"),
    ],
)
def test_add_event_refusals_change_nothing(make, kwargs, why):
    root = make({EVENTS: EVENTS_MD})
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        companion.add_event(str(root), **kwargs)
    assert tree_digest(root) == before


def test_add_event_dry_run(make):
    root = make({EVENTS: EVENTS_MD})
    before = tree_digest(root)
    receipt = companion.add_event(str(root), "用户Todo", "交水费", dry_run=True)
    assert tree_digest(root) == before
    (change,) = receipt.changes
    block = new_event("E008", "用户Todo", "**内容**：交水费", "**状态**：待跟进")
    assert (change.old, change.new) == (EVENTS_MD.encode(), (EVENTS_MD + "\n" + block).encode())


@needs_seed_tools
@pytest.mark.parametrize(
    ("last", "ours", "agents"), [("E006", "E007", "E008"), ("E099", "E100", "E101")]
)
def test_the_agents_bash_numbers_after_memtui(make, tmp_path, last, ours, agents):
    """The seed's own template, run for real after add_event: the agent's next
    number follows memtui's. (Its octal bug would strike on 008/009, so the
    cases stay where bash's arithmetic is right.)"""
    root = make({EVENTS: EVENTS_MD.replace("[E006]", "[E001]").replace("[E007]", f"[{last}]")})
    receipt = companion.add_event(str(root), "用户Todo", "memtui 写的")
    assert receipt.details["event"] == f"event:{ours}"
    script = tmp_path / "memory_write.sh"
    script.write_text(TEMPLATE + "\n", encoding="utf-8")
    env = {**os.environ, "WORKSPACE_DIR": str(root), "LC_ALL": "C.UTF-8"}
    done = subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and done.stderr == ""
    heads = [
        ln.split("]")[0] + "]" for ln in read(root, EVENTS).splitlines() if ln.startswith("### [E")
    ]
    assert heads[-3:] == [f"### [{ours}]", f"### [{agents}]", "### [E000]"]
    store = open_store(root, today=TODAY_DATE)
    assert not [f for f in store.findings if f.code in ("event-duplicate-id", "event-missing-id")]


# --- refresh_unresolved ------------------------------------------------------------

SUMMARY_MD = """\
# MEMORY

## 【最近未解决事项】
- [E001] 旧的一条

## 其他
- 不要动这一行
"""


def test_refresh_rewrites_only_the_block(make):
    root = make({EVENTS: EVENTS_MD, "MEMORY.md": SUMMARY_MD})
    receipt = companion.refresh_unresolved(str(root))
    assert receipt is not None
    assert read(root, "MEMORY.md") == SUMMARY_MD.replace(
        "- [E001] 旧的一条\n",
        "- [E006] 约定 · 到期 2026-12-01 · 周末一起去看海，带上相机\n"
        "- [E007] 情绪事件 · 工作压力大，睡不好\n",
    )
    assert receipt.details["unresolved"] == ["event:E006", "event:E007"]
    codes = {f.code for f in open_store(root, today=TODAY_DATE).findings}
    assert "unresolved-stale" not in codes
    before = tree_digest(root)
    assert companion.refresh_unresolved(str(root)) is None  # already current
    assert tree_digest(root) == before


def test_refresh_keeps_at_most_three_nearest_due_first_and_trims(make):
    long = "这是一段很长的内容" * 8
    events = (
        EVENTS_MD
        + "\n"
        + new_event(
            "E008", "约定", f"**内容**：{long}", "**状态**：待跟进", "**到期日**：2026-11-30"
        )
        + "\n"
        + new_event(
            "E009", "约定", "**内容**：晚到期", "**状态**：待跟进", "**到期日**：2027-01-01"
        )
    )
    root = make({EVENTS: events, "MEMORY.md": "## 【最近未解决事项】\n"})
    companion.refresh_unresolved(str(root))
    assert read(root, "MEMORY.md") == (
        "## 【最近未解决事项】\n"
        f"- [E008] 约定 · 到期 2026-11-30 · {long[:40]}…\n"
        "- [E006] 约定 · 到期 2026-12-01 · 周末一起去看海，带上相机\n"
        "- [E009] 约定 · 到期 2027-01-01 · 晚到期\n"
    )


def test_refresh_block_at_end_without_final_newline_crlf_bom(make):
    summary = crlf_bom("# M\n\n【最近未解决事项】\n- [E001] x", final_newline=False)
    root = make({EVENTS: EVENTS_MD, "MEMORY.md": summary})
    companion.refresh_unresolved(str(root))
    expected = crlf_bom(
        "# M\n\n【最近未解决事项】\n"
        "- [E006] 约定 · 到期 2026-12-01 · 周末一起去看海，带上相机\n"
        "- [E007] 情绪事件 · 工作压力大，睡不好",
        final_newline=False,
    )
    assert (root / "MEMORY.md").read_bytes() == expected


def test_refresh_empties_the_block_when_nothing_is_open(make):
    closed = EVENTS_MD.replace("待跟进", "已完成")
    root = make({EVENTS: closed, "MEMORY.md": SUMMARY_MD})
    companion.refresh_unresolved(str(root))
    assert read(root, "MEMORY.md") == SUMMARY_MD.replace("- [E001] 旧的一条\n", "")


def test_refresh_appends_a_missing_block_and_creates_memory_md(make):
    root = make({EVENTS: EVENTS_MD, "MEMORY.md": "# MEMORY\n- 其他内容\n"})
    companion.refresh_unresolved(str(root))
    items = (
        "- [E006] 约定 · 到期 2026-12-01 · 周末一起去看海，带上相机\n"
        "- [E007] 情绪事件 · 工作压力大，睡不好\n"
    )
    assert read(root, "MEMORY.md") == f"# MEMORY\n- 其他内容\n\n## 【最近未解决事项】\n{items}"

    (root / "MEMORY.md").unlink()
    companion.refresh_unresolved(str(root))
    assert read(root, "MEMORY.md") == f"## 【最近未解决事项】\n{items}"


def test_refresh_refuses_when_memory_md_is_the_workspace_index(make):
    """A case-insensitive file system makes MEMORY.md and memory.md one file (a
    hard link stands in for that here). With a workspace beside it, that file is
    the index and the block is not written into it; without one, it is just MEMORY.md."""
    index = "# 索引\n## 工作\n- 课程 → memory_course.md\n"
    root = make({EVENTS: EVENTS_MD, "memory.md": index, "memory_course.md": "# 课程\n"})
    os.link(root / "memory.md", root / "MEMORY.md")
    before = tree_digest(root)
    with pytest.raises(Refused, match="same file"):
        companion.refresh_unresolved(str(root))
    assert tree_digest(root) == before

    (root / "memory_course.md").unlink()
    assert companion.refresh_unresolved(str(root)) is not None
    assert read(root, "MEMORY.md").startswith(index + "\n## 【最近未解决事项】\n- [E006] ")


# --- archive / restore events ---------------------------------------------------


def test_archive_and_restore_an_event(make):
    root = make({EVENTS: EVENTS_MD})
    companion.archive_event(str(root), "event:E006")
    assert read(root, EVENTS) == f"# 事件记录\n\n{E007}\n{SENTINEL}"
    assert read(root, ARCHIVED) == E006
    companion.archive_event(str(root), "E007")
    assert read(root, EVENTS) == f"# 事件记录\n\n{SENTINEL}"
    assert read(root, ARCHIVED) == f"{E006}\n{E007}"

    companion.restore_event(str(root), "E006")  # where it was, not at the end
    assert read(root, EVENTS) == f"# 事件记录\n\n{E006}\n{SENTINEL}"
    assert read(root, ARCHIVED) == E007
    companion.restore_event(str(root), "E007")
    assert read(root, EVENTS) == EVENTS_MD
    assert not (root / "archive").exists()  # the archive made its files: they go again


def test_archive_the_last_event_of_a_file_without_final_newline(make):
    root = make({EVENTS: crlf_bom(f"{E006}\n{E007}", final_newline=False)})
    companion.archive_event(str(root), "E007")
    assert (root / EVENTS).read_bytes() == crlf_bom(E006, final_newline=False)
    assert read(root, ARCHIVED) == E007.replace("\n", "\r\n")  # a new file: the source's EOL


def test_restore_refuses_a_number_in_use(make):
    root = make({EVENTS: EVENTS_MD, ARCHIVED: E007})
    before = tree_digest(root)
    with pytest.raises(Refused, match="already has an event E007"):
        companion.restore_event(str(root), "E007")
    with pytest.raises(Refused, match="no event E005"):
        companion.restore_event(str(root), "E005")
    assert tree_digest(root) == before


def test_archive_event_dry_run(make):
    root = make({EVENTS: EVENTS_MD})
    before = tree_digest(root)
    receipt = companion.archive_event(str(root), "E006", dry_run=True)
    assert tree_digest(root) == before
    changes = {c.path: c for c in receipt.changes}
    assert changes[ARCHIVED].old is None and changes[ARCHIVED].new == E006.encode()
    assert changes[EVENTS].new == f"# 事件记录\n\n{E007}\n{SENTINEL}".encode()


# --- profile items -----------------------------------------------------------------


def test_archive_and_restore_a_profile_item(make):
    root = make({PROFILE: PROFILE_MD})
    companion.archive_profile_item(str(root), "偏好", "不吃香菜")
    assert read(root, PROFILE) == PROFILE_MD.replace("- 不吃香菜\n", "")
    assert read(root, "archive/" + PROFILE) == "## 偏好\n- 不吃香菜\n"

    # a core item, because the user asks for exactly this one
    companion.archive_profile_item(str(root), "称呼", "雨哥")
    companion.archive_profile_item(str(root), "偏好", "- 喜欢猫")
    assert read(root, "archive/" + PROFILE) == "## 偏好\n- 不吃香菜\n- 喜欢猫\n\n## 称呼\n- 雨哥\n"

    companion.restore_profile_item(str(root), "偏好", "不吃香菜")  # before 周末爬山 again
    assert read(root, PROFILE) == (
        "# 用户档案\n\n## 称呼\n- 小雨\n\n## 偏好\n- 不吃香菜\n- 周末爬山\n\n## 工作\n- 程序员\n"
    )
    assert read(root, "archive/" + PROFILE) == "## 偏好\n- 喜欢猫\n\n## 称呼\n- 雨哥\n"
    companion.restore_profile_item(str(root), "称呼", "雨哥")
    companion.restore_profile_item(str(root), "偏好", "喜欢猫")
    assert read(root, PROFILE) == PROFILE_MD
    assert not (root / "archive").exists()


def test_restore_profile_item_creates_its_category(make):
    root = make({PROFILE: "## 工作\n- 程序员", "archive/" + PROFILE: "## 宠物\n- 一只橘猫\n"})
    companion.restore_profile_item(str(root), "宠物", "一只橘猫")
    assert read(root, PROFILE) == "## 工作\n- 程序员\n\n## 宠物\n- 一只橘猫"
    assert read(root, "archive/" + PROFILE) == ""  # no empty category left behind


def test_profile_item_refusals(make):
    root = make({PROFILE: PROFILE_MD, "archive/" + PROFILE: "## 偏好\n- 喜欢猫\n"})
    before = tree_digest(root)
    with pytest.raises(Refused, match="no item"):
        companion.archive_profile_item(str(root), "偏好", "喜欢狗")
    with pytest.raises(Refused, match="no category"):
        companion.archive_profile_item(str(root), "宠物", "喜欢猫")
    with pytest.raises(Refused, match="already has"):
        companion.restore_profile_item(str(root), "偏好", "喜欢猫")
    assert tree_digest(root) == before


def test_restoring_into_a_full_category_warns(make):
    full = "## 偏好\n" + "".join(f"- 爱好 {n}\n" for n in range(10))
    root = make({PROFILE: full, "archive/" + PROFILE: "## 偏好\n- 钓鱼\n"})
    receipt = companion.restore_profile_item(str(root), "偏好", "钓鱼")
    assert "11 items" in receipt.details["warning"]
    assert read(root, PROFILE) == full + "- 钓鱼\n"


# --- every op keeps the file's own format ------------------------------------------

FORMATS = [
    pytest.param(eol, bom, final, id=f"{name}-{bom=}-{final=}")
    for name, eol in (("lf", "\n"), ("crlf", "\r\n"))
    for bom in (False, True)
    for final in (True, False)
]


def shaped(text: str, eol: str, bom: bool, final: bool) -> bytes:
    body = text.replace("\n", eol)
    if not final:
        body = body.removesuffix(eol)
    return (BOM if bom else b"") + body.encode("utf-8")


@pytest.mark.parametrize(("eol", "bom", "final"), FORMATS)
def test_ops_keep_eol_bom_and_final_newline(make, eol, bom, final):
    root = make({EVENTS: shaped(EVENTS_MD, eol, bom, final)})
    companion.done(str(root), "E007")
    after_done = EVENTS_MD.replace(
        "**状态**：待跟进\n\n### [E000]", "**状态**：已完成\n\n### [E000]"
    )
    assert (root / EVENTS).read_bytes() == shaped(after_done, eol, bom, final)

    companion.add_event(str(root), "用户Todo", "交水费")
    block = new_event("E008", "用户Todo", "**内容**：交水费", "**状态**：待跟进")
    after_add = after_done + "\n" + block
    assert (root / EVENTS).read_bytes() == shaped(after_add, eol, bom, final)

    companion.archive_event(str(root), "E008")
    assert (root / EVENTS).read_bytes() == shaped(after_done, eol, bom, final)
    assert (root / ARCHIVED).read_bytes() == shaped(block, eol, False, True)


def test_restoring_the_last_archived_item_leaves_no_empty_heading(tmp_path: Path) -> None:
    from memtui.layouts.companion import ops as companion

    profile = "# 用户档案\n\n## 爱好\n- 骑车\n- 钓鱼\n\n## 工作\n- 后端\n"
    files = {"memory/user_profile.md": profile, "memory/persona.md": "# 人设\n"}  # a store
    root = write_tree(tmp_path / "c", files)
    companion.archive_profile_item(str(root), "工作", "后端")
    companion.archive_profile_item(str(root), "爱好", "钓鱼")
    companion.restore_profile_item(str(root), "工作", "后端")
    archived = (root / "archive/memory/user_profile.md").read_text(encoding="utf-8")
    assert "## 工作" not in archived and "## 爱好\n- 钓鱼\n" in archived
    companion.restore_profile_item(str(root), "爱好", "钓鱼")
    assert not (root / "archive/memory/user_profile.md").exists()  # the archive made it
    assert (root / "memory/user_profile.md").read_text(encoding="utf-8") == profile
