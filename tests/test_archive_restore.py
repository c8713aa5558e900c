"""Archive, then restore, in the seed layouts: the entry goes back where it was, and
every file under the root is byte for byte as before (memtui's .history/ and lock
aside): the place is kept in archive/.memtui/places.jsonl, and an archive file or
folder the archive made goes again with the restore.

Hypothesis builds stores of each layout (line endings, a BOM, a missing final
newline, blank-line runs, other archived entries, stale bookkeeping) and archives and
restores any archivable entry; the issue's cases run on the demo store; archives made
before places were kept restore as they did.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memtui.engine import ops
from memtui.engine.ops.places_book import BOOK
from memtui.engine.textfile import BOM
from memtui.layouts.dsh.parse import expected_auto
from tests.conftest import write_tree
from tests.helpers import demo_template, fresh_copy

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
EOLS = ("\n", "\r\n")


def everything(root: Path) -> dict[str, bytes | None]:
    """Every file (its bytes) and folder (None) under root, memtui's own aside."""
    out: dict[str, bytes | None] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".history"]
        for name in dirnames:
            out[os.path.relpath(os.path.join(dirpath, name), root)] = None
        for name in filenames:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            if rel != ".memory.lock":
                out[rel] = Path(path).read_bytes()
    return out


def text_file(lines: list[str], eol: str, final: bool, bom: bool = False) -> bytes:
    text = eol.join(lines) + (eol if final and lines else "")
    return (BOM if bom else b"") + text.encode("utf-8")


def round_trip(files: dict[str, str | bytes], entry: str, **shown: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = write_tree(Path(tmp) / "store", files)
        before = everything(root)
        ops.archive(str(root), entry, **shown)
        assert everything(root) != before
        ops.restore(str(root), entry, **shown)
        assert everything(root) == before


Call = tuple[str, dict[str, str]]  # an entry id and its options


def round_trips(
    files: dict[str, str | bytes], calls: list[Call], order: list[int], exact: bool = True
) -> None:
    """Several archived one after the other, restored in `order`; every file as it was
    (not `exact`: blank lines aside)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = write_tree(Path(tmp) / "store", files)
        before = everything(root)
        for entry, shown in calls:
            ops.archive(str(root), entry, **shown)
        for i in order:
            entry, shown = calls[i]
            ops.restore(str(root), entry, **shown)
        after = everything(root)
        if not exact:
            before, after = unblank(before), unblank(after)
        assert after == before


def unblank(tree: dict[str, bytes | None]) -> dict[str, bytes | None]:
    """Markdown files without their blank lines."""
    return {
        rel: b"\n".join(x for x in data.splitlines() if x.strip())
        if rel.endswith(".md") and data
        else data
        for rel, data in tree.items()
    }


# --- workspace -----------------------------------------------------------------

TOPICS = ("course", "billing_retro", "docker_notes", "tax_plan")
OTHER_LINES = {"note": "待迁移的一行", "see": "→ 详见 user.md（…）", "blank": ""}
blank_run = st.integers(0, 2).map(lambda n: [""] * n)


Store = tuple[dict[str, str | bytes], list[Call]]  # its files, and what may be archived


@st.composite
def workspace_store(draw: st.DrawFn) -> Store:
    eol, final, bom = draw(st.sampled_from(EOLS)), draw(st.booleans()), draw(st.booleans())
    lines = ["# XiaoPaw 记忆索引", *draw(blank_run)] if draw(st.booleans()) else []
    pointed = []
    for section in draw(st.lists(st.sampled_from(["用户偏好", "工作项目", "技术栈"]), unique=True)):
        lines.append(f"## {section}")
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.sampled_from(["pointer", "pointer", "note", "see", "blank"]))
            if kind == "pointer":  # a topic may have two
                name = draw(st.sampled_from(TOPICS))
                pointed.append(name)
                lines.append(f"- {name} 的记录 → memory_{name}.md")
            else:
                lines.append(OTHER_LINES[kind])
        lines += draw(blank_run)
    names = sorted(set(pointed) | set(draw(st.lists(st.sampled_from(TOPICS), max_size=2))))
    if not names:
        names = ["course"]
    files: dict[str, str | bytes] = {
        "memory.md": text_file(lines, eol, final, bom),
        "user.md": "# 用户\n",
        **{f"memory_{n}.md": f"# {n}{eol}- 一行{eol}" for n in names},
    }
    if draw(st.booleans()):  # an earlier archive
        files["archive/memory.md"] = "## 工作项目\n- 旧的 → memory_old.md\n"
        files["archive/memory_old.md"] = "# old\n"
    return files, [(f"topic:{n}", {}) for n in names]


# --- companion -----------------------------------------------------------------


@st.composite
def companion_store(draw: st.DrawFn) -> Store:
    eol, final = draw(st.sampled_from(EOLS)), draw(st.booleans())
    numbers = draw(st.lists(st.integers(1, 40), unique=True, min_size=1, max_size=6))
    lines = ["# 事件记录", *draw(blank_run)] if draw(st.booleans()) else []
    for n in numbers:
        lines += [f"### [E{n:03d}] 2026-11-{n % 28 + 1:02d} · 用户Todo", "**类型**：用户Todo"]
        lines += [f"**内容**：第 {n} 件事", "**状态**：待跟进", *draw(blank_run)]
        if draw(st.booleans()):
            lines += [f"### [E000] 2026-11-{n % 28 + 1:02d}T21:00 · last_active", *draw(blank_run)]
    categories = {"称呼": ["老王", "王哥"], "工作": ["后端工程师", "负责计费重构", "周二例会"]}
    profile = ["# 用户档案", ""]
    for name, items in categories.items():
        profile += [f"## {name}", *(f"- {i}" for i in items), *draw(blank_run)]
    files: dict[str, str | bytes] = {
        "memory/events.md": text_file(lines, eol, final),
        "memory/user_profile.md": text_file(profile, eol, draw(st.booleans())),
    }
    if draw(st.booleans()):  # archived before: the archive files and folder exist
        files["archive/memory/events.md"] = "### [E099] 2026-01-01 · 用户Todo\n**状态**：已完成\n"
    items = [(f"profile:{c}", {"item": i}) for c, items in categories.items() for i in items]
    return files, [(f"event:E{n:03d}", {}) for n in numbers] + items


# --- dsh -----------------------------------------------------------------------

SECTIONS = ("PYTHON_ENV", "GIT", "DOCKER", "GPU")


@st.composite
def dsh_store(draw: st.DrawFn) -> Store:
    eol, final = draw(st.sampled_from(EOLS)), draw(st.booleans())
    names = draw(st.lists(st.sampled_from(SECTIONS), min_size=1, max_size=5))  # repeats too
    lines = ["# Facts", *draw(blank_run)] if draw(st.booleans()) else []
    for i, name in enumerate(names):
        lines += [f"## {name}", *(f"- {name.lower()} fact {i}.{j}" for j in range(1 + i % 3))]
        lines += draw(blank_run)
    sops = draw(st.lists(st.sampled_from(["deploy-minio", "rotate-nginx", "fix-gpu"]), unique=True))
    shown = list(dict.fromkeys(names))
    auto = expected_auto(shown, sops if draw(st.booleans()) else sops[1:])  # maybe stale
    index = ["# L1", "[RULES] No Execution, No Memory", "# --- auto ---", *auto]
    index.append("# --- end auto ---")
    keys = [f"fact:{n}" for n in shown] + [f"sop:{n}" for n in sops]
    meta = {
        k: {"type": k.split(":")[0], "status": "active", "evidence": "pytest -q → 41 passed"}
        for k in draw(st.lists(st.sampled_from(keys), unique=True))
        if keys
    }
    facts = sum(1 + i % 3 for i in range(len(names)))
    stats = {"facts": facts, "sops": len(sops), "pending": 0, "accepted": 2, "archived": 1}
    stats.update(rejected=0, rollbacks=0, lastMaintenance=None)
    if draw(st.booleans()):  # maybe missing keys
        stats = dict(list(stats.items())[: draw(st.integers(1, len(stats)))])
    files: dict[str, str | bytes] = {
        "facts.md": text_file(lines, eol, final),
        "index.txt": text_file(index, eol, True),
        "memory-meta.json": json.dumps(
            {"version": 1, "entries": meta}, ensure_ascii=False, indent=2
        )
        + "\n",
        "memory_stats.json": json.dumps(stats, indent=2) + "\n",
        **{f"sops/{n}.md": f"# {n}{eol}1. run it{eol}" for n in sops},
    }
    if draw(st.booleans()):
        files["archive/sops/old.md"] = "# old\n"
    return files, [(k, {}) for k in keys]


# --- the properties ------------------------------------------------------------


@SETTINGS
@given(st.one_of(workspace_store(), companion_store(), dsh_store()), st.data())
def test_any_entry_archived_then_restored_leaves_every_file_as_it_was(store, data):
    files, calls = store
    entry, shown = data.draw(st.sampled_from(calls))
    round_trip(files, entry, **shown)


ANY = st.one_of(workspace_store(), companion_store(), dsh_store())


def some(calls: list[Call], data: st.DataObject) -> list[Call]:
    most = min(3, len(calls))
    return data.draw(st.lists(st.sampled_from(calls), min_size=most, max_size=most, unique_by=str))


@settings(SETTINGS, max_examples=30)
@given(ANY, st.data())
def test_entries_archived_one_after_another_and_restored_backwards_leave_every_file(store, data):
    """(Restored in another order they come back in their order too, where their
    neighbours tell them apart: test_..._in_any_order on the demo store.)"""
    files, calls = store
    picked = some(calls, data)
    round_trips(files, picked, list(reversed(range(len(picked)))))


# --- the cases, on the demo store --------------------------------------


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_template(tmp_path_factory, "places")


@pytest.fixture
def demo(tmp_path: Path, template: Path) -> Path:
    return fresh_copy(template, tmp_path)


def line_of(root: Path, rel: str, start: str) -> int:
    lines = (root / rel).read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


@pytest.mark.parametrize(
    ("entry", "rel", "start", "line"),
    [
        ("topic:billing_retro", "memory.md", "- 计费服务重构复盘 →", 12),
        ("fact:GIT", "facts.md", "## GIT", 13),
        ("event:E030", "memory/events.md", "### [E030]", 241),
    ],
)
def test_an_entry_goes_back_to_its_line_and_no_archive_file_is_left(demo, entry, rel, start, line):
    before = everything(demo)
    assert line_of(demo, rel, start) == line
    ops.archive(str(demo), entry)
    ops.restore(str(demo), entry)
    assert line_of(demo, rel, start) == line  # was 17, the end of facts.md, after E036
    assert everything(demo) == before  # archive/memory.md, archive/memory/ and the book gone


GROUPS = {
    "topics": ("topic:mobile_app_faq", "topic:mobile_app_checklist", "topic:billing_retro"),
    "events": ("event:E029", "event:E030", "event:E031"),
    "facts": ("fact:PYTHON_ENV", "fact:GIT", "fact:DOCKER"),
}
FILE = {"topics": "memory.md", "events": "memory/events.md", "facts": "facts.md"}


@pytest.mark.parametrize("order", [(0, 1, 2), (1, 2, 0)])
@pytest.mark.parametrize("group", sorted(GROUPS))
def test_neighbours_archived_one_after_another_come_back_in_their_order_in_any_order(
    demo, group, order
):
    """Each one's place was recorded without those archived before it: putting one back
    tells the others beside it (places.Book.relink)."""
    rel = FILE[group]
    before = (demo / rel).read_bytes()
    for entry in GROUPS[group]:
        ops.archive(str(demo), entry)
    for i in order:
        ops.restore(str(demo), GROUPS[group][i])
    assert (demo / rel).read_bytes() == before


def test_the_place_is_found_after_the_agent_wrote_elsewhere_in_the_file(demo):
    ops.archive(str(demo), "topic:billing_retro")
    ops.archive(str(demo), "event:E030")
    index = (demo / "memory.md").read_text(encoding="utf-8")
    index = "<!-- 由 XiaoPaw 维护 -->\n" + index.replace(
        "- 移动端 App 问题清单 → memory_mobile_app_issues.md\n",
        "- 移动端 App 问题清单 → memory_mobile_app_issues.md\n- 新主题 → memory_new.md\n",
    )
    (demo / "memory.md").write_text(index, encoding="utf-8")
    with (demo / "memory/events.md").open("a", encoding="utf-8") as fh:
        fh.write("\n### [E037] 2026-11-30 · 用户Todo\n**状态**：待跟进\n")
    ops.restore(str(demo), "topic:billing_retro")
    ops.restore(str(demo), "event:E030")
    lines = (demo / "memory.md").read_text(encoding="utf-8").split("\n")
    at = lines.index("- 计费服务重构复盘 → memory_billing_retro.md")
    assert lines[at - 1 : at + 2] == [
        "- 移动端 App 检查清单 → memory_mobile_app_checklist.md",
        "- 计费服务重构复盘 → memory_billing_retro.md",
        "- 数据管道进度 → memory_data_pipeline_progress.md",
    ]
    events = (demo / "memory/events.md").read_text(encoding="utf-8")
    assert events.index("[E029]") < events.index("[E030]") < events.index("[E031]")


def test_with_both_neighbours_gone_it_goes_to_the_end_of_its_section(demo):
    ops.archive(str(demo), "topic:billing_retro")
    index = (demo / "memory.md").read_text(encoding="utf-8")
    for gone in ("- 移动端 App 检查清单 → memory_mobile_app_checklist.md\n",
                 "- 数据管道进度 → memory_data_pipeline_progress.md\n"):  # fmt: skip
        index = index.replace(gone, "")
    (demo / "memory.md").write_text(index, encoding="utf-8")
    ops.restore(str(demo), "topic:billing_retro")
    section = (demo / "memory.md").read_text(encoding="utf-8").split("\n\n## ")[2]
    assert section.startswith("工作项目\n")
    assert section.rstrip("\n").endswith("\n- 计费服务重构复盘 → memory_billing_retro.md")


def test_archives_made_before_places_were_kept_restore_as_they_did(demo):
    events = (demo / "memory/events.md").read_text(encoding="utf-8")
    e030 = events[events.index("### [E030]") : events.index("### [E031]")]
    (demo / "memory/events.md").write_text(events.replace(e030, ""), encoding="utf-8")
    (demo / "archive/memory").mkdir()
    (demo / "archive/memory/events.md").write_text(e030.rstrip("\n") + "\n", encoding="utf-8")
    facts = (demo / "facts.md").read_text(encoding="utf-8")
    git = facts[facts.index("## GIT") : facts.index("## DOCKER")]
    (demo / "facts.md").write_text(facts.replace(git, ""), encoding="utf-8")
    (demo / "archive/facts/GIT.md").write_text(git, encoding="utf-8")
    ops.restore(str(demo), "event:E030")
    ops.restore(str(demo), "fact:GIT")
    events = (demo / "memory/events.md").read_text(encoding="utf-8")
    assert events.rstrip("\n").endswith(e030.rstrip("\n"))  # at the end, as before
    assert (demo / "archive/memory/events.md").read_text(encoding="utf-8") == ""
    facts = (demo / "facts.md").read_text(encoding="utf-8")
    assert facts.rstrip("\n").endswith(git.rstrip("\n"))
    assert not (demo / BOOK).exists()


def test_an_agent_s_own_json_layout_survives_archive_and_restore(tmp_path):
    """memory-meta.json as an agent lays it out (arrays on one line), without an entry
    for the section: the archive adds one, the restore takes it out again."""
    meta = {f"fact:S{i}": {"type": "fact", "sourceSeqs": [i, i + 1]} for i in range(3)}
    text = json.dumps({"version": 1, "entries": meta}, indent=2)
    text = text.replace("[\n        ", "[").replace(",\n        ", ", ").replace("\n      ]", "]")
    files = {
        "facts.md": "# Facts\n\n## GIT\n- one\n\n## S0\n- two\n",
        "index.txt": "# L1\n# --- auto ---\n[FACTS] GIT · S0\n# --- end auto ---\n",
        "memory-meta.json": text + "\n",
    }
    assert '"sourceSeqs": [0, 1]' in text
    round_trip(files, "fact:GIT")
