"""Quick fixes for findings (engine/fixes.py, `memtui fix`), on copies of the demo store.

Every fix: its dry run changes nothing; applied, the files hold exactly the bytes the
dry run planned and the finding is gone; `memtui undo` puts every file back. A fix
is refused, with nothing written, when its file changed since the check; a full
profile category never offers its core items.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memtui.engine import open_store
from memtui.engine.fixes import codes, find_finding, plan
from memtui.engine.ops.common import Refused
from memtui.engine.ops.undo import undo
from memtui.engine.write.operation import operation
from tests.conftest import memory_digest as memory
from tests.helpers import demo_template, fresh_copy
from tests.verb_calls import memtui

MOOD = "memory/mood_state.md"
PROFILE = "memory/user_profile.md"
EXTRA_SNAPSHOT = (
    "\n### 2026-11-01T08:00 · source=conversation\nvalence: 0.10\nenergy: 0.50\nnote: 最早的一次\n"
)
HOBBIES = "爱好"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = demo_template(tmp_path_factory, "fixes")
    with (root / MOOD).open("a", encoding="utf-8") as f:
        f.write(EXTRA_SNAPSHOT)  # an eleventh snapshot, the oldest
    return root


@pytest.fixture
def root(tmp_path: Path, template: Path) -> Path:
    return fresh_copy(template, tmp_path)


CASES = {  # code -> what is chosen
    "topic-orphan": (),
    "pointer-missing": (),
    "topic-name": (),
    "index-content": (),
    "mood-snapshots": (),
    "profile-category-full": ("周末偶尔去西溪湿地骑车", "打《塞尔达》"),
}


def test_every_built_in_fix_has_a_case_here() -> None:
    # the engine's own fixes, over every layout, are tested with their rules, on stores the
    # demo does not make: secret, entry-injection (test_redact, test_remove_planted), cut-correction
    # (test_cut_correction)
    assert set(codes()) == set(CASES) | {"secret", "entry-injection", "cut-correction"}


@pytest.mark.parametrize("code", sorted(CASES))
def test_dry_run_changes_nothing_apply_writes_the_plan_and_undo_puts_it_back(
    root: Path, code: str
) -> None:
    before = memory(root)
    store = open_store(str(root))
    finding = find_finding(store, code)
    fix = plan(store, finding, CASES[code])

    dry = fix.run(True)
    assert dry.dry_run and dry.changes
    assert memory(root) == before

    with operation():
        done = fix.run(False)
    for planned, made in zip(dry.changes, done.changes, strict=True):
        assert (planned.action, planned.path, planned.source) == (
            made.action,
            made.path,
            made.source,
        )
        if made.action == "write":
            assert (root / made.path).read_bytes() == planned.new
    after = open_store(str(root))
    assert not any(f.code == code and f.file == finding.file for f in after.findings), code

    undo(str(root))
    assert memory(root) == before


def test_pointer_missing_can_create_the_file_instead(root: Path) -> None:
    store = open_store(str(root))
    finding = find_finding(store, "pointer-missing")
    fix = plan(store, finding, ("create",))
    fix.run(False)
    made = root / "memory_blog_migration.md"
    assert made.read_text(encoding="utf-8") == "# 旧版博客迁移记录\n"
    assert not any(f.code == "pointer-missing" for f in open_store(str(root)).findings)


def test_a_topic_rename_moves_the_file_and_its_pointer_together(root: Path) -> None:
    store = open_store(str(root))
    plan(store, find_finding(store, "topic-name"), ()).run(False)
    assert not (root / "memory_Travel-Plans.md").exists()
    assert (root / "memory_travel_plans.md").exists()
    index = (root / "memory.md").read_text(encoding="utf-8")
    assert "→ memory_travel_plans.md" in index and "Travel-Plans" not in index


def test_mood_trim_archives_the_oldest_snapshot(root: Path) -> None:
    store = open_store(str(root))
    plan(store, find_finding(store, "mood-snapshots"), ()).run(False)
    mood = (root / MOOD).read_text(encoding="utf-8")
    archived = (root / "archive" / MOOD).read_text(encoding="utf-8")
    assert mood.count("\n### ") == 10 and "最早的一次" not in mood
    assert archived.strip() == EXTRA_SNAPSHOT.strip()


def test_a_full_category_never_offers_core_items(root: Path) -> None:
    text = (root / PROFILE).read_text(encoding="utf-8")
    core_item = "- 称呼他老王的场合：跑步群"
    (root / PROFILE).write_text(
        text.replace("- 跑步（周三晚上固定）", core_item + "\n- 跑步（周三晚上固定）"),
        encoding="utf-8",
    )
    store = open_store(str(root))
    finding = find_finding(store, "profile-category-full")
    fix = plan(store, finding)
    assert fix.needs_choice and "跑步（周三晚上固定）" in fix.choices
    assert not any("称呼" in c for c in fix.choices)
    with pytest.raises(Refused, match="not an item offered"):
        plan(store, finding, (core_item,))
    with pytest.raises(Refused, match="choose which"):
        fix.run(True)


def test_a_core_category_offers_nothing(root: Path) -> None:
    text = (root / PROFILE).read_text(encoding="utf-8")
    more = "".join(f"- 朋友{n}\n" for n in range(10))
    (root / PROFILE).write_text(
        text.replace("## 重要关系\n", "## 重要关系\n" + more), encoding="utf-8"
    )
    store = open_store(str(root))
    full = [
        f for f in store.findings if f.code == "profile-category-full" and "重要关系" in f.message
    ]
    assert full
    with pytest.raises(Refused, match="protected core category"):
        plan(store, full[0])


def test_a_fix_is_refused_when_its_file_changed_since_the_check(root: Path) -> None:
    store = open_store(str(root))
    fix = plan(store, find_finding(store, "pointer-missing"), ())
    with (root / "memory.md").open("a", encoding="utf-8") as f:
        f.write("- 代理刚写的 → memory_oss_faq.md\n")  # the agent writes the index meanwhile
    now = memory(root)
    with pytest.raises(Refused, match="changed since it was checked"):
        fix.run(False)
    assert memory(root) == now


def test_findings_are_named_by_number_file_line_file_or_code(root: Path) -> None:
    store = open_store(str(root))
    numbered = {n: f for n, f in enumerate(store.findings, 1)}
    n, orphan = next((n, f) for n, f in numbered.items() if f.code == "topic-orphan")
    assert find_finding(store, str(n)) is orphan
    assert find_finding(store, "topic-orphan") is orphan
    assert find_finding(store, orphan.file) is orphan
    dangling = find_finding(store, "pointer-missing")
    assert find_finding(store, f"memory.md:{dangling.line}") is dangling
    with pytest.raises(Refused, match="no finding"):
        find_finding(store, "memory.md:9999")
    with pytest.raises(Refused, match="there is no finding"):
        find_finding(store, str(len(store.findings) + 1))


def test_a_finding_without_a_fix_is_refused_naming_the_codes_that_have_one(root: Path) -> None:
    store = open_store(str(root))
    with pytest.raises(Refused, match=r"no quick fix for event-stars.*topic-orphan"):
        plan(store, find_finding(store, "event-stars"))


# --- a fix obeys the rules of the verb it stands for -------------------------------------

BLOCKED = "memory.md has 180 lines (blocked at 180): run memory governance before anything is added"


def block_the_index(root: Path) -> None:
    """memory.md padded with blank lines to its block (180 lines): nothing may add to it."""
    index = root / "memory.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "\n" * (180 - text.count("\n")), encoding="utf-8")


def test_an_orphans_pointer_is_refused_on_a_blocked_index_as_add_topic_is(root: Path) -> None:
    block_the_index(root)
    before = memory(root)
    body = root.parent / "body.md"
    body.write_text("# x\n", encoding="utf-8")
    add = ["add", "topic", "x", "--section", "S", "--description", "d", "--body-file", str(body)]
    added = memtui(root, *add)
    assert added.returncode == 1 and BLOCKED in added.stderr
    for call in (("fix", "topic-orphan"), ("fix", "topic-orphan", "--apply")):
        got = memtui(root, *call)  # the dry run says so too
        assert got.returncode == 1 and BLOCKED in got.stderr, call
    store = open_store(str(root))
    with pytest.raises(Refused, match=re.escape(BLOCKED)):
        plan(store, find_finding(store, "topic-orphan")).run(True)
    assert memory(root) == before


def test_index_content_moves_out_of_a_blocked_index_without_growing_it(root: Path) -> None:
    block_the_index(root)
    store = open_store(str(root))
    fix = plan(store, find_finding(store, "index-content"))
    fix.run(False)
    index = (root / "memory.md").read_text(encoding="utf-8")
    assert index.count("\n") == 180 - len(fix.covers) + 1  # each line out, one pointer in
    assert "- Notes moved out of the index → memory_index_notes.md" in index
    assert not any(f.code == "index-content" for f in open_store(str(root)).findings)


def test_a_new_topic_file_follows_add_topics_rules(root: Path) -> None:
    index = root / "memory.md"
    index.write_text(
        index.read_text(encoding="utf-8") + "- 大写 → memory_Upper.md\n", encoding="utf-8"
    )
    store = open_store(str(root))
    upper = next(f for f in store.findings if f.code == "pointer-missing" and "Upper" in f.message)
    with pytest.raises(Refused, match="topic name 'Upper': use lower-case"):
        plan(store, upper, ("create",)).run(True)
    assert (root / "index.txt").exists()  # dsh's too: memory_management_sop.md is its L0
    with pytest.raises(Refused, match="L0 meta-rules"):  # renamed onto the dsh L0 file
        plan(store, find_finding(store, "topic-name"), ("management_sop",))


# --- every finding of a code, in one operation ----------------------------------------------

MORE_ORPHANS = {"memory_orphan_one.md": "# 孤儿一\n", "memory_orphan_two.md": "# 孤儿二\n"}
MORE_DANGLING = "- 丢失甲 → memory_lost_one.md\n- 丢失乙 → memory_lost_two.md\n"


@pytest.fixture
def many(root: Path) -> Path:
    """The demo with three orphan topics and three dangling pointers."""
    for name, text in MORE_ORPHANS.items():
        (root / name).write_text(text, encoding="utf-8")
    index = root / "memory.md"
    index.write_text(index.read_text(encoding="utf-8") + MORE_DANGLING, encoding="utf-8")
    return root


@pytest.mark.parametrize("code", ["topic-orphan", "pointer-missing"])
def test_fix_code_fixes_every_finding_of_it_in_one_operation(many: Path, code: str) -> None:
    before = memory(many)
    found = [f for f in open_store(str(many)).findings if f.code == code]
    assert len(found) == 3
    dry = memtui(many, "fix", code)
    assert dry.returncode == 0, dry.stderr
    for f in found:  # the dry run lists each
        assert f"{code} at {f.file if f.line is None else f'{f.file}:{f.line}'}:" in dry.stdout
    assert memory(many) == before
    done = memtui(many, "fix", code, "--apply")
    assert done.returncode == 0, done.stderr
    assert not any(f.code == code for f in open_store(str(many)).findings)
    assert len(memtui(many, "log").stdout.splitlines()) == 1  # one operation
    assert memtui(many, "undo").returncode == 0
    assert memory(many) == before


def test_one_finding_is_still_fixed_alone(many: Path) -> None:
    done = memtui(many, "fix", "memory_orphan_two.md", "--apply")
    assert done.returncode == 0, done.stderr
    left = {f.file for f in open_store(str(many)).findings if f.code == "topic-orphan"}
    assert left == {"memory_draft_ideas.md", "memory_orphan_one.md"}


def test_of_several_fixes_one_refused_is_named_and_the_others_apply(many: Path) -> None:
    index = many / "memory.md"
    index.write_text(index.read_text(encoding="utf-8") + "- 坏名 → memory_Bad.md\n", "utf-8")
    got = memtui(many, "fix", "pointer-missing", "--choose", "create", "--apply")
    assert got.returncode == 1
    assert "refused pointer-missing at memory.md:" in got.stderr and "'Bad'" in got.stderr
    assert (many / "memory_lost_one.md").exists() and (many / "memory_lost_two.md").exists()
    assert not (many / "memory_Bad.md").exists()


# --- the command line ------------------------------------------------------------------


def test_cli_lists_the_fixable_findings_with_their_check_numbers(root: Path) -> None:
    got = memtui(root, "fix")
    assert got.returncode == 0
    store = open_store(str(root))
    n = next(n for n, f in enumerate(store.findings, 1) if f.code == "topic-orphan")
    assert f"{n:>4}  topic-orphan" in got.stdout
    assert "event-stars" not in got.stdout


def test_cli_dry_run_prints_the_diff_and_apply_then_undo(root: Path) -> None:
    before = memory(root)
    dry = memtui(root, "fix", "topic-orphan")
    assert dry.returncode == 0, dry.stderr
    assert "+- 随手记的点子（未整理） → memory_draft_ideas.md" in dry.stdout
    assert memory(root) == before
    done = memtui(root, "fix", "topic-orphan", "--apply")
    assert done.returncode == 0, done.stderr
    assert "memory_draft_ideas.md" in (root / "memory.md").read_text(encoding="utf-8")
    assert memtui(root, "undo").returncode == 0
    assert memory(root) == before


def test_cli_asks_for_a_choice_and_refuses_what_it_cannot_fix(root: Path) -> None:
    before = memory(root)
    asked = memtui(root, "fix", "profile-category-full", "--apply")
    assert asked.returncode == 2
    assert "--choose 跑步（周三晚上固定）" in asked.stdout and "--choose" in asked.stderr
    none = memtui(root, "fix", "event-stars", "--apply")
    assert none.returncode == 1 and "no quick fix" in none.stderr
    missing = memtui(root, "fix", "memory.md:9999")
    assert missing.returncode == 1 and "no finding" in missing.stderr
    assert memory(root) == before
    chose = memtui(root, "fix", "profile-category-full", "--choose", "打《塞尔达》", "--apply")
    assert chose.returncode == 0, chose.stderr
    assert "打《塞尔达》" in (root / "archive" / PROFILE).read_text(encoding="utf-8")


def test_a_claude_folder_gets_no_workspace_fix_and_nothing_is_written(tmp_path: Path) -> None:
    # Claude's pointer-missing, index-content and topic-orphan share the workspace's codes;
    # the workspace's fixes rewrite memory.md, which a Claude folder does not have
    root = tmp_path / "memory"
    root.mkdir()
    (root / "MEMORY.md").write_text(
        "- [Gone](gone.md) — a memory that was deleted\nloose text in the index\n",
        encoding="utf-8",
    )
    (root / "orphan.md").write_text(
        "---\nname: orphan\ndescription: no index line\ntype: user\n---\nbody\n",
        encoding="utf-8",
    )
    store = open_store(root)
    found = {f.code for f in store.findings}
    assert {"pointer-missing", "index-content", "topic-orphan"} <= found
    before = memory(root)
    listed = memtui(root, "fix")
    assert listed.returncode == 0 and "no finding has a quick fix" in listed.stdout
    for number in range(1, len(store.findings) + 1):
        tried = memtui(root, "fix", str(number), "--apply")
        assert tried.returncode == 1 and "no quick fix" in tried.stderr
    assert memory(root) == before and not (root / "memory.md").exists()
