"""Findings of the companion layout (SPEC §2, §5): every code, its trigger and its near miss.

Stores follow seed 003 ("memory_write"): memory/persona.md, user_profile.md, events.md,
mood_state.md, .mood_state_aux and MEMORY.md. "Today" is pinned to 2026-11-29, and each
test compares the complete list of (code, level, file, line) findings.

Line convention assumed where SPEC §6 only says "1-based or null": an event finding points
at the event's `###` heading, a snapshot finding at the snapshot's `###` heading, a profile
finding at the category heading, a top-value finding at the `valence:`/`energy:` line.
"""

from __future__ import annotations

import pytest

from memtui.engine.store import open_store
from memtui.layouts.companion.parse import unresolved_expected
from tests.helpers import TODAY_DATE, expect, findings, line_of, with_changes

EVENTS = "memory/events.md"
MOOD = "memory/mood_state.md"
PROFILE = "memory/user_profile.md"

PERSONA = """# 小暖

## 基本设定
- 名字：小暖
- 性格：温柔，有点话痨，偶尔毒舌

【在对话中形成的新细节】
• [2026-11-02] 下雨天喜欢泡姜茶
• [2026-11-20] 被纠正：不喝咖啡，只喝茶
"""

PROFILE_MD = """# 用户档案

## 称呼与昵称
- 希望被叫"阿哲"
- 朋友都叫他"哲哥"

## 重要关系
- 女朋友：小雨（在一起三年）
- 妈妈：住在绍兴老家

## 禁忌话题
- 不要提高考失利

## 职业与城市
- 杭州，后端工程师

## 长期偏好
- 喜欢猫
- 每天一杯美式
"""

E001 = """### [E001] 2026-11-02 · 情绪事件
**类型**：情绪事件
**内容**：项目上线失败，被领导当众批评
**情绪强度**：⭐⭐⭐⭐
**用户状态**：很沮丧，说想辞职
**后续**：过两天问问复盘得怎么样
**状态**：已跟进
"""

E002 = """### [E002] 2026-11-10 · 重要事件
**类型**：重要事件
**内容**：和小雨商量好明年春天订婚
**情绪强度**：⭐⭐⭐⭐⭐
**用户状态**：开心又紧张
**后续**：问问准备得怎么样
**状态**：已完成
"""

E003 = """### [E003] 2026-11-20 · 约定
**类型**：约定
**内容**：答应周末一起"看"《星际穿越》重映
**用户状态**：期待
**后续**：周日前提醒他买票
**状态**：待跟进
**到期日**：2026-12-06
"""

E004 = """### [E004] 2026-11-25 · 用户Todo
**类型**：用户Todo
**内容**：给妈妈寄生日礼物
**用户状态**：有点焦虑，怕来不及
**后续**：问礼物寄出没有
**状态**：待跟进
**到期日**：2026-12-03
"""

E005 = """### [E005] 2026-11-28 · 情绪事件
**类型**：情绪事件
**内容**：失眠，担心年终绩效
**情绪强度**：⭐⭐
**用户状态**：疲惫
**后续**：关心一下睡眠
**状态**：待跟进
"""


def sentinel(when: str) -> str:
    return f"### [E000] {when} · last_active\n"


CLEAN_EVENTS = "\n".join(
    [
        "# 事件记录\n",
        E001,
        sentinel("2026-11-02T23:10"),
        E002,
        E003,
        E004,
        sentinel("2026-11-25T22:05"),
        E005,
        sentinel("2026-11-29T21:40"),
    ]
)


def memory_md(*ids: str) -> str:
    lines = {
        "E003": "- [E003] 周末一起看《星际穿越》重映（到期日 2026-12-06）",
        "E004": "- [E004] 给妈妈寄生日礼物（到期日 2026-12-03）",
        "E005": "- [E005] 失眠，担心年终绩效",
    }
    block = "\n".join(lines.get(i, f"- [{i}] 待跟进事项") for i in ids)
    return (
        "# 小暖的长期记忆\n\n"
        "## 【最近未解决事项】\n"
        f"{block}\n\n"
        "## 关于阿哲\n"
        "- 档案见 memory/user_profile.md\n"
    )


CLEAN_MEMORY = memory_md("E004", "E003", "E005")


def mood_md(top: tuple[str, str], snaps: list[tuple[str, str, str, str]]) -> str:
    """A mood_state.md: current values, then snapshots (time·source, valence, energy, note)."""
    parts = [f"# 情绪状态\nvalence: {top[0]}\nenergy: {top[1]}\n\n## 快照历史（最新在前）\n"]
    for head, valence, energy, note in snaps:
        parts.append(f"### {head}\nvalence: {valence}\nenergy: {energy}\nnote: {note}\n")
    return "\n".join(parts)


CLEAN_SNAPS = [
    ("2026-11-29T21:40 · source=conversation", "0.15", "0.55", "聊得开心"),
    ("2026-11-29T08:00 · source=decay", "0.05", "0.50", "自然衰减"),
    ("2026-11-28T23:30 · source=conversation", "-0.10", "0.40", "失眠焦虑"),
]
CLEAN_MOOD = mood_md(("0.15", "0.55"), CLEAN_SNAPS)
AUX = "last_decay_written_at: 2026-11-29T21:40:12+08:00\nconsecutive_g4c_count: 0\n"


def companion(changes: dict[str, str | None] | None = None) -> dict[str, str]:
    files: dict[str, str] = {
        "memory/persona.md": PERSONA,
        PROFILE: PROFILE_MD,
        EVENTS: CLEAN_EVENTS,
        MOOD: CLEAN_MOOD,
        ".mood_state_aux": AUX,
        "MEMORY.md": CLEAN_MEMORY,
    }
    return with_changes(files, changes)


def event(label: str, date: str, kind: str, status: str, extra: str = "", **fields: str) -> str:
    """One events.md entry in the seed's format."""
    lines = [
        f"### [{label}] {date} · {kind}",
        f"**类型**：{kind}",
        "**内容**：周六一起去西湖边骑车",
    ]
    lines += [f"**{k}**：{v}" for k, v in fields.items()]
    lines += ["**后续**：周五问问天气", f"**状态**：{status}"]
    return "\n".join(lines) + "\n" + extra


def events_with(*extra: str, tail_sentinel: bool = True) -> str:
    """The closed history (E001, E002), then `extra` entries, then the closing sentinel."""
    parts = ["# 事件记录\n", E001, sentinel("2026-11-02T23:10"), E002, *extra]
    if tail_sentinel:
        parts.append(sentinel("2026-11-29T21:40"))
    return "\n".join(parts)


def with_events(text: str, *open_ids: str) -> dict[str, str]:
    """A companion store whose events.md is `text` and whose MEMORY.md lists `open_ids`."""
    return companion({EVENTS: text, "MEMORY.md": memory_md(*open_ids)})


# --- a clean store, and what the model says about it ------------------------


def test_clean_companion_has_no_findings_at_all(store):
    root = store(companion())
    s = open_store(root, today=TODAY_DATE)
    assert s.layouts == ("companion",)
    assert s.findings == ()


def test_clean_companion_events_model(store):
    cp = open_store(store(companion()), today=TODAY_DATE).data.get("companion")
    assert cp is not None
    real = [e for e in cp.events if not e.is_sentinel]
    assert [e.label for e in real] == ["E001", "E002", "E003", "E004", "E005"]
    assert [e.status for e in real] == ["已跟进", "已完成", "待跟进", "待跟进", "待跟进"]
    assert [e.is_open for e in real] == [False, False, True, True, True]
    assert [e.due for e in real] == [None, None, "2026-12-06", "2026-12-03", None]
    assert [e.stars for e in real] == [4, 5, None, None, 2]
    assert [e.type for e in real] == ["情绪事件", "重要事件", "约定", "用户Todo", "情绪事件"]
    assert real[3].content == "给妈妈寄生日礼物"
    assert real[0].span.lineno == line_of(CLEAN_EVENTS, "[E001]")
    assert sum(e.is_sentinel for e in cp.events) == 3
    assert cp.last_active == "2026-11-29T21:40"
    assert cp.unresolved_ids == ("E004", "E003", "E005")
    assert [e.label for e in unresolved_expected(cp.events, 3)] == ["E004", "E003", "E005"]


def test_clean_companion_mood_profile_persona_model(store):
    cp = open_store(store(companion()), today=TODAY_DATE).data.get("companion")
    mood = cp.mood
    assert (mood.valence, mood.energy) == (0.15, 0.55)
    assert [(s.time, s.source, s.valence, s.energy, s.note) for s in mood.snapshots] == [
        ("2026-11-29T21:40", "conversation", 0.15, 0.55, "聊得开心"),
        ("2026-11-29T08:00", "decay", 0.05, 0.50, "自然衰减"),
        ("2026-11-28T23:30", "conversation", -0.10, 0.40, "失眠焦虑"),
    ]
    assert mood.snapshots[1].line == line_of(CLEAN_MOOD, "source=decay")
    assert mood.last_decay == "2026-11-29T21:40:12+08:00"
    assert mood.g4c_count == 0
    assert mood.healing_guard_on is False
    assert [(c.name, c.core, len(c.items)) for c in cp.profile] == [
        ("称呼与昵称", True, 2),
        ("重要关系", True, 2),
        ("禁忌话题", True, 1),
        ("职业与城市", False, 1),
        ("长期偏好", False, 2),
    ]
    assert cp.profile[1].items == ("女朋友：小雨（在一起三年）", "妈妈：住在绍兴老家")
    assert cp.persona_details == (
        "[2026-11-02] 下雨天喜欢泡姜茶",
        "[2026-11-20] 被纠正：不喝咖啡，只喝茶",
    )


@pytest.mark.parametrize(("count", "on"), [("0", False), ("1", False), ("2", True), ("3", True)])
def test_g4c_guard_from_aux(store, count, on):
    aux = f"last_decay_written_at: 2026-11-29T08:00:00+08:00\nconsecutive_g4c_count: {count}\n"
    root = store(companion({".mood_state_aux": aux}))
    mood = open_store(root, today=TODAY_DATE).data.get("companion").mood
    assert mood.g4c_count == int(count)
    assert mood.healing_guard_on is on
    # the newest step is +0.10 valence: forbidden while the guard is on
    assert findings(root) == (expect(("mood-guard", "warning", MOOD, 7)) if on else [])


def test_guard_on_and_valence_not_rising_is_fine(store):
    aux = "last_decay_written_at: 2026-11-29T08:00:00+08:00\nconsecutive_g4c_count: 2\n"
    snaps = [("2026-11-29T21:40 · source=conversation", "0.05", "0.55", "平稳"), *CLEAN_SNAPS[1:]]
    root = store(companion({".mood_state_aux": aux, MOOD: mood_md(("0.05", "0.55"), snaps)}))
    assert open_store(root, today=TODAY_DATE).data.get("companion").mood.healing_guard_on
    assert findings(root) == []


def test_ascii_colon_fields_are_accepted(store):
    old = "**状态**：待跟进\n**到期日**：2026-12-03"
    text = CLEAN_EVENTS.replace(old, "**状态**: 待跟进\n**到期日**: 2026-12-03")
    assert text != CLEAN_EVENTS
    root = store(companion({EVENTS: text}))
    cp = open_store(root, today=TODAY_DATE).data.get("companion")
    e004 = next(e for e in cp.events if e.label == "E004")
    assert (e004.status, e004.is_open, e004.due) == ("待跟进", True, "2026-12-03")
    assert findings(root) == []


# --- detection ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "detected"),
    [
        ([EVENTS], True),
        (["memory/persona.md"], True),
        ([MOOD], True),
        ([PROFILE], False),
        (["MEMORY.md"], False),
        (["events.md", "persona.md", "mood_state.md"], False),  # at the root, not in memory/
    ],
)
def test_companion_detection(store, names, detected):
    clean = companion()
    files = {name: clean.get(name, clean.get(f"memory/{name}", "# x\n")) for name in names}
    root = store(files)
    s = open_store(root, today=TODAY_DATE)
    assert ("companion" in s.layouts) is detected
    assert (s.data.get("companion") is not None) is detected


# --- events ------------------------------------------------------------------


def test_event_duplicate_id_reports_the_second(store):
    first = event("E003", "2026-11-20", "重要事件", "已完成")
    second = event("E003", "2026-11-24", "情绪事件", "已跟进", 情绪强度="⭐⭐⭐")
    text = events_with(first, second)
    root = store(with_events(text))
    assert findings(root) == [("event-duplicate-id", "error", EVENTS, line_of(text, "[E003]", 2))]


def test_many_sentinels_are_not_duplicates(store):
    text = events_with(
        sentinel("2026-11-20T22:00"), event("E003", "2026-11-21", "重要事件", "已完成")
    )
    root = store(with_events(text))
    assert text.count("[E000]") == 3
    assert findings(root) == []


@pytest.mark.parametrize(
    "heading",
    ["### [E] 2026-11-01 · 约定", "### 2026-11-01 · 约定", "### [Ex] 2026-11-01 · 约定"],
)
def test_event_missing_id(store, heading):
    body = "**类型**：约定\n**内容**：一起去看展\n**状态**：已完成\n**到期日**：2026-11-15\n"
    text = events_with(f"{heading}\n{body}")
    root = store(with_events(text))
    assert findings(root) == [("event-missing-id", "error", EVENTS, line_of(text, heading))]


def test_event_bad_date_in_heading(store):
    entry = event("E003", "2026-02-30", "重要事件", "已完成")
    text = events_with(entry)
    root = store(with_events(text))
    assert findings(root) == [("event-bad-date", "error", EVENTS, line_of(text, "[E003]"))]


@pytest.mark.parametrize("due", ["2026-02-30", "2026-13-01", "下周五"])
def test_event_bad_due_date(store, due):
    entry = event("E003", "2026-11-20", "约定", "已完成", 到期日=due)
    text = events_with(entry)
    root = store(with_events(text))
    assert findings(root) == [("event-bad-date", "error", EVENTS, line_of(text, "[E003]"))]


def test_good_dates_leap_day_and_weekday_suffix(store):
    entry = event("E003", "2028-02-29", "约定", "已完成", 到期日="2026-03-01（周日）")
    text = events_with(entry)
    root = store(with_events(text))
    assert findings(root) == []


@pytest.mark.parametrize(
    ("stars", "count", "bad"),
    [
        ("⭐", 1, False),
        ("⭐⭐⭐⭐⭐", 5, False),
        ("无", 0, True),
        ("⭐⭐⭐⭐⭐⭐", 6, True),
    ],
)
def test_event_stars(store, stars, count, bad):
    entry = event("E003", "2026-11-24", "情绪事件", "已跟进", 情绪强度=stars)
    text = events_with(entry)
    root = store(with_events(text))
    e003 = next(
        e
        for e in open_store(root, today=TODAY_DATE).data.get("companion").events
        if e.label == "E003"
    )
    assert e003.stars == count
    want = [("event-stars", "error", EVENTS, line_of(text, "[E003]"))] if bad else []
    assert findings(root) == want


@pytest.mark.parametrize("with_type_field", [True, False])
def test_promise_without_due_date(store, with_type_field):
    entry = event("E003", "2026-11-24", "约定", "待跟进")
    if not with_type_field:
        entry = entry.replace("**类型**：约定\n", "")
    text = events_with(entry)
    root = store(with_events(text, "E003"))
    assert findings(root) == [("promise-no-due", "warning", EVENTS, line_of(text, "[E003]"))]


def test_todo_without_due_date_is_fine(store):
    text = events_with(event("E003", "2026-11-24", "用户Todo", "待跟进"))
    root = store(with_events(text, "E003"))
    assert findings(root) == []


@pytest.mark.parametrize(
    ("due", "status", "overdue"),
    [
        ("2026-11-28", "待跟进", True),  # due yesterday, still open
        ("2026-11-29", "待跟进", False),  # due today: not yet overdue
        ("2026-11-28", "已完成", False),  # due yesterday, but done
        ("2026-11-28", "已跟进", False),
        ("2026-10-01", "待跟进", True),
    ],
)
def test_event_overdue(store, due, status, overdue):
    text = events_with(event("E003", "2026-11-20", "约定", status, 到期日=due))
    root = store(with_events(text, *(["E003"] if status == "待跟进" else [])))
    want = [("event-overdue", "warning", EVENTS, line_of(text, "[E003]"))] if overdue else []
    assert findings(root) == want


def test_sentinel_missing(store):
    text = "\n".join(["# 事件记录\n", E001, E002])
    root = store(with_events(text))
    assert findings(root) == [("sentinel-missing", "info", EVENTS, None)]
    assert open_store(root, today=TODAY_DATE).data.get("companion").last_active is None


def test_one_sentinel_is_enough(store):
    text = "\n".join(["# 事件记录\n", E001, E002, sentinel("2026-11-28T20:15")])
    root = store(with_events(text))
    assert findings(root) == []
    assert (
        open_store(root, today=TODAY_DATE).data.get("companion").last_active == "2026-11-28T20:15"
    )


def test_last_sentinel_is_the_last_active_time(store):
    cp = open_store(store(companion()), today=TODAY_DATE).data.get("companion")
    assert cp.last_active == "2026-11-29T21:40"


# --- unresolved-stale ---------------------------------------------------------


def test_unresolved_block_right(store):
    assert findings(store(companion({"MEMORY.md": memory_md("E004", "E003", "E005")}))) == []


@pytest.mark.parametrize(
    "ids",
    [
        ("E003", "E004", "E005"),  # wrong order: E004 is due first
        ("E004", "E005", "E003"),  # undated before dated
        ("E004", "E003"),  # one missing
        ("E004", "E003", "E002"),  # a resolved event listed
        ("E004", "E003", "E005", "E001"),  # more than 3
        ("E004", "E003", "E000"),  # a sentinel listed
        (),  # an empty block
    ],
)
def test_unresolved_block_stale(store, ids):
    text = memory_md(*ids)
    root = store(companion({"MEMORY.md": text}))
    assert findings(root) == [
        ("unresolved-stale", "warning", "MEMORY.md", line_of(text, "【最近未解决事项】"))
    ]


def test_unresolved_block_missing(store):
    text = "# 小暖的长期记忆\n\n## 关于阿哲\n- 档案见 memory/user_profile.md\n"
    root = store(companion({"MEMORY.md": text}))
    assert findings(root) == [("unresolved-stale", "warning", "MEMORY.md", None)]
    assert open_store(root, today=TODAY_DATE).data.get("companion").unresolved_ids is None


def test_no_block_needed_when_nothing_is_open(store):
    text = "# 小暖的长期记忆\n\n## 关于阿哲\n- 档案见 memory/user_profile.md\n"
    root = store(with_events(events_with()) | {"MEMORY.md": text})
    assert findings(root) == []


def test_unresolved_at_most_three_nearest_due_first(store):
    # Five open events: E007 overdue, E004 and E003 dated, E005/E006 undated.
    extra = [
        event("E003", "2026-11-20", "约定", "待跟进", 到期日="2026-12-06"),
        event("E004", "2026-11-25", "用户Todo", "待跟进", 到期日="2026-12-03"),
        event("E005", "2026-11-26", "用户Todo", "待跟进"),
        event("E006", "2026-11-27", "用户Todo", "待跟进"),
        event("E007", "2026-11-10", "约定", "待跟进", 到期日="2026-11-20"),
    ]
    text = events_with(*extra)
    overdue = ("event-overdue", "warning", EVENTS, line_of(text, "[E007]"))
    root = store(with_events(text, "E007", "E004", "E003"))
    assert findings(root) == [overdue]
    cp = open_store(root, today=TODAY_DATE).data.get("companion")
    assert [e.label for e in unresolved_expected(cp.events, 3)] == ["E007", "E004", "E003"]
    root2 = store(with_events(text, "E004", "E003", "E006"))
    assert findings(root2) == expect(
        overdue,
        ("unresolved-stale", "warning", "MEMORY.md", line_of(memory_md(), "【最近未解决事项】")),
    )


def test_unresolved_undated_newest_number_first(store):
    extra = [
        event("E003", "2026-11-25", "用户Todo", "待跟进", 到期日="2026-12-03"),
        event("E004", "2026-11-26", "用户Todo", "待跟进"),
        event("E005", "2026-11-27", "情绪事件", "待跟进", 情绪强度="⭐⭐"),
        sentinel("2026-11-27T23:00"),
        event("E006", "2026-11-28", "重要事件", "已完成"),
    ]
    text = events_with(*extra)
    assert findings(store(with_events(text, "E003", "E005", "E004"))) == []
    cp = open_store(store(with_events(text, "E003", "E004", "E005")), today=TODAY_DATE).data.get(
        "companion"
    )
    assert [e.label for e in unresolved_expected(cp.events, 3)] == ["E003", "E005", "E004"]


def test_unresolved_limit_from_toml(store):
    files = companion({"MEMORY.md": memory_md("E004", "E003")})
    files["memtui.toml"] = "[thresholds]\nunresolved_max = 2\n"
    assert findings(store(files)) == []


# --- profile -------------------------------------------------------------------


def profile_with(category: str, n: int) -> str:
    items = "".join(f"- 喜欢的第 {i} 家店：湖滨路 {i} 号\n" for i in range(1, n + 1))
    return PROFILE_MD + f"\n## {category}\n{items}"


@pytest.mark.parametrize(("n", "full"), [(10, False), (11, True)])
def test_profile_category_full(store, n, full):
    text = profile_with("美食偏好", n)
    root = store(companion({PROFILE: text}))
    want = [("profile-category-full", "warning", PROFILE, line_of(text, "## 美食偏好"))]
    assert findings(root) == (want if full else [])
    cat = open_store(root, today=TODAY_DATE).data.get("companion").profile[-1]
    assert (cat.name, len(cat.items), cat.core) == ("美食偏好", n, False)


@pytest.mark.parametrize(("cap", "full"), [(5, False), (4, True)])
def test_profile_category_max_from_toml(store, cap, full):
    text = profile_with("美食偏好", 5)
    files = companion({PROFILE: text})
    files["memtui.toml"] = f"[thresholds]\nprofile_category_max = {cap}\n"
    want = [("profile-category-full", "warning", PROFILE, line_of(text, "## 美食偏好"))]
    assert findings(store(files)) == (want if full else [])


def test_profile_core_category_full_still_reported(store):
    text = PROFILE_MD.replace(
        "- 妈妈：住在绍兴老家\n",
        "- 妈妈：住在绍兴老家\n" + "".join(f"- 大学室友 {i}\n" for i in range(1, 10)),
    )
    root = store(companion({PROFILE: text}))
    assert findings(root) == [
        ("profile-category-full", "warning", PROFILE, line_of(text, "## 重要关系"))
    ]
    assert open_store(root, today=TODAY_DATE).data.get("companion").profile[1].core is True


# --- mood ------------------------------------------------------------------------


def snaps_from(values: list[tuple[str, str]]) -> list[tuple[str, str, str, str]]:
    out = []
    for i, (valence, energy) in enumerate(values):
        day = 29 - i // 2
        hour = "21:40" if i % 2 == 0 else "08:00"
        source = "conversation" if i % 2 == 0 else "decay"
        out.append((f"2026-11-{day:02d}T{hour} · source={source}", valence, energy, "日常"))
    return out


def test_mood_in_range_extremes(store):
    snaps = snaps_from([("1.0", "1.0"), ("0.8", "0.9")])
    text = mood_md(("1.0", "1.0"), snaps)
    assert findings(store(companion({MOOD: text}))) == []
    snaps = snaps_from([("-1.0", "0.0"), ("-0.8", "0.1")])
    text = mood_md(("-1.0", "0.0"), snaps)
    assert findings(store(companion({MOOD: text}))) == []


@pytest.mark.parametrize(
    ("valence", "energy"),
    [
        ("1.01", "0.5"),
        ("-1.01", "0.5"),
        ("abc", "0.5"),
        ("0.1", "-0.01"),
        ("0.1", "1.2"),
        ("0.1", "abc"),
    ],
)
def test_mood_range(store, valence, energy):
    # The bad value sits in the current values and in the newest snapshot alike.
    snaps = [("2026-11-29T21:40 · source=conversation", valence, energy, "状态异常")]
    text = mood_md((valence, energy), snaps)
    root = store(companion({MOOD: text}))
    key = "valence" if valence not in ("0.1",) else "energy"
    assert findings(root) == expect(
        ("mood-range", "error", MOOD, line_of(text, f"{key}:")),
        ("mood-range", "error", MOOD, line_of(text, "### 2026-11-29T21:40")),
    )


def test_mood_range_in_an_older_snapshot(store):
    snaps = snaps_from([("0.15", "0.25"), ("0.10", "0.10"), ("0.05", "-0.01")])
    text = mood_md(("0.15", "0.25"), snaps)
    root = store(companion({MOOD: text}))
    assert findings(root) == [("mood-range", "error", MOOD, line_of(text, "###", 3))]


@pytest.mark.parametrize(
    ("older", "newer", "warns"),
    [
        ("-0.15", "0.15", False),  # Δ exactly 0.30
        ("-0.16", "0.15", True),  # Δ 0.31
        ("0.45", "0.15", False),  # Δ -0.30
        ("0.46", "0.15", True),  # Δ -0.31
    ],
)
def test_mood_step_valence(store, older, newer, warns):
    snaps = snaps_from([(newer, "0.55"), (older, "0.55")])
    text = mood_md((newer, "0.55"), snaps)
    root = store(companion({MOOD: text}))
    want = [("mood-step", "warning", MOOD, line_of(text, "###", 1))] if warns else []
    assert findings(root) == want


@pytest.mark.parametrize(
    ("older", "newer", "warns"),
    [
        ("0.35", "0.55", False),
        ("0.34", "0.55", True),
        ("0.75", "0.55", False),
        ("0.76", "0.55", True),
    ],
)
def test_mood_step_energy(store, older, newer, warns):
    snaps = snaps_from([("0.15", newer), ("0.15", older)])
    text = mood_md(("0.15", newer), snaps)
    root = store(companion({MOOD: text}))
    want = [("mood-step", "warning", MOOD, line_of(text, "###", 1))] if warns else []
    assert findings(root) == want


@pytest.mark.parametrize(
    ("bounds", "warns"),
    [
        ("mood_step_valence = 0.50\nmood_step_energy = 0.40\n", False),  # both steps within
        ("mood_step_valence = 0.50\nmood_step_energy = 0.20\n", True),  # energy's over
        ("mood_step_valence = 0.30\nmood_step_energy = 0.40\n", True),  # valence's over
    ],
)
def test_mood_step_bounds_from_toml(store, bounds, warns):
    """A step of Δvalence 0.40 and Δenergy 0.30: over the SPEC's bounds (0.30, 0.20),
    within the ones memtui.toml raises."""
    snaps = snaps_from([("0.15", "0.55"), ("-0.25", "0.25")])
    text = mood_md(("0.15", "0.55"), snaps)
    files = companion({MOOD: text})
    files["memtui.toml"] = "[thresholds]\n" + bounds
    want = [("mood-step", "warning", MOOD, line_of(text, "###", 1))] if warns else []
    assert findings(store(files)) == want


@pytest.mark.parametrize(("n", "warns"), [(10, False), (11, True)])
def test_mood_snapshots(store, n, warns):
    values = [(f"{0.05 * (i % 3):.2f}", f"{0.5 + 0.05 * (i % 2):.2f}") for i in range(n)]
    snaps = snaps_from(values)
    text = mood_md(values[0], snaps)
    root = store(companion({MOOD: text}))
    want = [("mood-snapshots", "warning", MOOD, line_of(text, "###", 11))] if warns else []
    assert findings(root) == want
    assert len(open_store(root, today=TODAY_DATE).data.get("companion").mood.snapshots) == n


def test_mood_top_mismatch(store):
    text = mood_md(("0.20", "0.55"), CLEAN_SNAPS)
    root = store(companion({MOOD: text}))
    assert findings(root) == [("mood-top-mismatch", "warning", MOOD, line_of(text, "valence:"))]


def test_mood_top_equal_in_other_spelling(store):
    text = mood_md(("0.150", ".55"), CLEAN_SNAPS)
    assert findings(store(companion({MOOD: text}))) == []


def test_mood_snapshot_limit_from_toml(store):
    files = companion()
    files["memtui.toml"] = "[thresholds]\nmood_max_snapshots = 2\n"
    assert findings(store(files)) == [
        ("mood-snapshots", "warning", MOOD, line_of(CLEAN_MOOD, "###", 3))
    ]
