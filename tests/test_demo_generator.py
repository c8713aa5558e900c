"""The demo store: deterministic, scaled as documented, and holding exactly the planted findings.

These tests read the files with their own small parsers, so they hold whatever the engine does.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from memtui.demo import write_demo
from memtui.demo.common import Sink
from memtui.layouts.companion.demo import build_companion

TODAY = dt.date(2026, 11, 30)
EVENT_HEADING = re.compile(r"^### \[E(\d+)\] (\S+) · (.+)$", re.MULTILINE)
FIELD = re.compile(r"^\*\*(.+?)\*\*[：:](.*)$")
POINTER = re.compile(r"^- (.+) → (\S+\.md)$")
DSH_L0 = "memory_management_sop.md"  # a dsh file that happens to look like a topic file


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("demo") / "store"
    write_demo(root, size=1, today=TODAY)
    return root


def tree(root: Path) -> dict[str, bytes]:
    """Every file the demo wrote: a repository's .git/ is git's, not the demo's (letta)."""
    files = (p for p in root.rglob("*") if p.is_file())
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in files
        if ".git" not in p.relative_to(root).parts
    }


def text(root: Path, relpath: str) -> str:
    return (root / relpath).read_text(encoding="utf-8")


def events(root: Path) -> list[dict[str, str]]:
    """Each event of memory/events.md as its fields, plus `number` and `date` from the heading."""
    parsed = []
    for block in re.split(r"\n(?=### )", text(root, "memory/events.md")):
        heading = EVENT_HEADING.match(block)
        if not heading or heading[1] == "000":
            continue
        fields = {m[1]: m[2] for line in block.splitlines() if (m := FIELD.match(line))}
        parsed.append({"number": heading[1], "date": heading[2], **fields})
    return parsed


def front_matter(relpath: str, content: str) -> dict[str, object]:
    assert content.startswith("---\n"), relpath
    head, _, body = content[4:].partition("\n---\n")
    assert body.strip(), relpath
    data = yaml.safe_load(head)
    assert isinstance(data, dict), relpath
    return data


def mood_snapshots(root: Path) -> tuple[dict[str, float], list[dict[str, float]]]:
    top, *snapshots = text(root, "memory/mood_state.md").split("\n\n")

    def values(chunk: str) -> dict[str, float]:
        pairs = (line.split(": ", 1) for line in chunk.splitlines() if not line.startswith("#"))
        return {k: float(v) for k, v in pairs if k in ("valence", "energy")}

    return values(top), [values(s) for s in snapshots]


# --- the whole tree -----------------------------------------------------------------------------


def test_same_size_and_day_give_identical_bytes(tmp_path: Path) -> None:
    first = write_demo(tmp_path / "a", size=2, today=TODAY)
    second = write_demo(tmp_path / "b", size=2, today=TODAY)
    assert first == second
    assert tree(tmp_path / "a") == tree(tmp_path / "b")


def test_dates_follow_today(tmp_path: Path) -> None:
    shift = dt.timedelta(days=10)
    write_demo(tmp_path / "now", size=1, today=TODAY)
    write_demo(tmp_path / "later", size=1, today=TODAY + shift)
    now = [dt.date.fromisoformat(e["date"]) for e in events(tmp_path / "now")]
    later = [dt.date.fromisoformat(e["date"]) for e in events(tmp_path / "later")]
    assert later == [d + shift for d in now]


@pytest.mark.parametrize("size", [1, 3])
def test_counts_follow_the_size(tmp_path: Path, size: int) -> None:
    root = tmp_path / "store"
    counts = write_demo(root, size=size, today=TODAY)
    files = tree(root)

    topics = [p for p in files if re.fullmatch(r"memory_[^/]+\.md", p) and p != DSH_L0]
    facts = [line for line in text(root, "facts.md").splitlines() if line.startswith("- ")]
    sections = [line for line in text(root, "facts.md").splitlines() if line.startswith("## ")]
    expected = {
        "events": 40 * size,
        "pending": 20 * size,
        "topics": max(120, 4 * size),
        "sops": 10 * size,
        "facts": 100 * size,
    }
    assert {key: counts[key] for key in expected} == expected
    assert len(events(root)) == counts["events"]
    assert sum(p.startswith("pending/") for p in files) == counts["pending"]
    assert sum(p.startswith("sops/") for p in files) == counts["sops"]
    assert len(topics) == counts["topics"]
    assert len(facts) == counts["facts"]
    assert len(sections) == max(8, size)
    assert counts["files"] == len(files)
    assert counts["bytes"] == sum(len(data) for data in files.values())


def test_every_file_is_utf8_lf_with_a_final_newline(store: Path) -> None:
    for relpath, data in tree(store).items():
        data.decode("utf-8")  # raises if not UTF-8
        assert b"\r" not in data, relpath
        assert data.endswith(b"\n") and not data.endswith(b"\n\n"), relpath


def test_writes_nothing_outside_the_directory(tmp_path: Path) -> None:
    write_demo(tmp_path / "store", size=1, today=TODAY)
    assert [p.name for p in tmp_path.iterdir()] == ["store"]
    assert not (tmp_path / "store" / ".memory.lock").exists()
    assert not (tmp_path / "store" / ".history").exists()


def test_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("mine\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not empty"):
        write_demo(tmp_path, size=1, today=TODAY)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.md"]


def test_accepts_an_existing_empty_directory(tmp_path: Path) -> None:
    assert write_demo(tmp_path, size=1, today=TODAY)["events"] == 40


def test_never_overwrites_a_file(tmp_path: Path) -> None:
    sink = Sink(tmp_path)
    sink.write("a.md", "one")
    with pytest.raises(FileExistsError):
        sink.write("a.md", "two")
    assert (tmp_path / "a.md").read_text("utf-8") == "one\n"


def test_memory_md_is_left_out_when_its_name_is_taken(tmp_path: Path) -> None:
    # What a case-insensitive disk does: MEMORY.md already "exists" as the workspace's memory.md.
    (tmp_path / "MEMORY.md").write_text("# XiaoPaw 记忆索引\n", encoding="utf-8")
    build_companion(Sink(tmp_path), random.Random(1), 1, TODAY)
    assert text(tmp_path, "MEMORY.md") == "# XiaoPaw 记忆索引\n"
    assert (tmp_path / "memory" / "events.md").exists()


@pytest.mark.parametrize("size", [0, -1, True])
def test_refuses_a_bad_size(tmp_path: Path, size: int) -> None:
    with pytest.raises(ValueError):
        write_demo(tmp_path / "store", size=size, today=TODAY)


# --- workspace ----------------------------------------------------------------------------------


def test_memory_index_is_near_its_cap_with_the_planted_findings(store: Path) -> None:
    lines = text(store, "memory.md").splitlines()
    assert 150 <= len(lines) < 180

    pointers = [m.group(2) for line in lines if (m := POINTER.match(line))]
    content = [line for line in lines if line and not line.startswith(("#", "- ", "→ "))]
    topic_files = {p.name for p in store.glob("memory_*.md")} - {DSH_L0}

    assert [f for f in pointers if not (store / f).exists()] == ["memory_blog_migration.md"]
    assert topic_files - set(pointers) == {"memory_draft_ideas.md"}
    assert [n for n in Counter(pointers).values() if n > 1] == [2]
    assert len(content) == 1
    assert [f for f in topic_files if not re.fullmatch(r"memory_[a-z0-9_]+\.md", f)] == [
        "memory_Travel-Plans.md"
    ]
    assert "memory_Travel-Plans.md" in pointers
    assert "→ 详见 user.md（Bootstrap 直接注入，此处不重复）" in lines


def test_workspace_identity_files(store: Path) -> None:
    soul = text(store, "soul.md")
    assert all(f"## {name}" in soul for name in ("名字", "人设", "性格"))
    assert len((store / "agent.md").read_bytes()) < 8 * 1024
    rules = [line for line in text(store, "agent.md").splitlines() if line.startswith("- ")]
    assert rules and all(re.match(r"- \[\d{4}-\d{2}-\d{2}\] ", rule) for rule in rules)


# --- companion ----------------------------------------------------------------------------------


def test_events_hold_exactly_the_planted_problems(store: Path) -> None:
    parsed = events(store)
    numbers = Counter(e["number"] for e in parsed)
    assert [c for c in numbers.values() if c > 1] == [2]
    promises = [e for e in parsed if e["类型"] == "约定"]
    assert sum("到期日" not in e for e in promises) == 1
    stars = [len(e["情绪强度"]) for e in parsed if "情绪强度" in e]
    assert [s for s in stars if not 1 <= s <= 5] == [6]
    assert all("情绪强度" not in e for e in parsed if e["类型"] != "情绪事件")
    for e in parsed:  # no bad dates anywhere
        dt.date.fromisoformat(e["date"])
        if "到期日" in e:
            dt.date.fromisoformat(e["到期日"])


def test_open_promises_are_both_overdue_and_upcoming(store: Path) -> None:
    open_due = [
        dt.date.fromisoformat(e["到期日"])
        for e in events(store)
        if e["状态"] == "待跟进" and "到期日" in e
    ]
    assert sum(d < TODAY for d in open_due) >= 2
    assert sum(d >= TODAY for d in open_due) >= 2


def test_sentinels_interleave_and_close_the_file(store: Path) -> None:
    content = text(store, "memory/events.md")
    sentinels = re.findall(r"^### \[E000\] (\S+) · last_active$", content, re.MULTILINE)
    assert len(sentinels) >= 3
    assert sentinels == sorted(sentinels)
    assert content.endswith(f"\n\n### [E000] {sentinels[-1]} · last_active\n")
    assert content.startswith("# 事件记录\n\n### [E001] ")


def test_unresolved_block_is_stale(store: Path) -> None:
    listed = re.findall(r"^- \[(E\d+)\] ", text(store, "MEMORY.md"), re.MULTILINE)
    open_ids = {f"E{e['number']}" for e in events(store) if e["状态"] == "待跟进"}
    assert listed and open_ids
    assert not set(listed) & open_ids


def test_mood_has_one_step_too_large(store: Path) -> None:
    top, snapshots = mood_snapshots(store)
    assert len(snapshots) == 10
    assert top == snapshots[0]
    assert all(-1 <= s["valence"] <= 1 and 0 <= s["energy"] <= 1 for s in snapshots)
    pairs = list(itertools.pairwise(snapshots))
    too_big = [
        (a, b)
        for a, b in pairs
        if abs(a["valence"] - b["valence"]) > 0.30 + 1e-9
        or abs(a["energy"] - b["energy"]) > 0.20 + 1e-9
    ]
    assert len(too_big) == 1
    aux = text(store, ".mood_state_aux").splitlines()
    assert aux[0].startswith("last_decay_written_at: ")
    dt.datetime.fromisoformat(aux[0].split(": ", 1)[1])
    assert aux[1] == "consecutive_g4c_count: 1"


def test_one_profile_category_is_over_ten(store: Path) -> None:
    sizes: Counter[str] = Counter()
    category = ""
    for line in text(store, "memory/user_profile.md").splitlines():
        if line.startswith("## "):
            category = line[3:]
        elif line.startswith("- "):
            sizes[category] += 1
    assert [c for c, n in sizes.items() if n > 10] == ["爱好"]
    assert {"称呼", "重要关系", "禁忌话题"} <= set(sizes)


def test_persona_has_dated_details(store: Path) -> None:
    persona = text(store, "memory/persona.md")
    block = persona.split("【在对话中形成的新细节】", 1)[1]
    details = [line for line in block.splitlines() if line.strip()]
    assert details and all(re.match(r"• \[\d{4}-\d{2}-\d{2}\] ", d) for d in details)


# --- dsh ----------------------------------------------------------------------------------------


def test_l1_index_is_near_its_cap_and_one_sop_stale(store: Path) -> None:
    lines = text(store, "index.txt").splitlines()
    assert 25 <= len(lines) <= 30
    auto = lines[lines.index("# --- auto ---") + 1 : lines.index("# --- end auto ---")]
    facts_line, sops_line = auto
    sections = [line[3:] for line in text(store, "facts.md").splitlines() if line[:3] == "## "]
    assert facts_line == "[FACTS] " + " · ".join(sections)
    listed = sops_line.removeprefix("[SOPS] ").split(" · ")
    existing = sorted(p.stem for p in (store / "sops").iterdir())
    assert listed == sorted(listed)
    assert len(set(existing) - set(listed)) == 1 and set(listed) <= set(existing)


def test_one_exact_duplicate_fact(store: Path) -> None:
    facts = [line for line in text(store, "facts.md").splitlines() if line.startswith("- ")]
    assert sum(n - 1 for n in Counter(facts).values()) == 1


def test_pending_front_matter_parses_and_one_lacks_evidence(store: Path) -> None:
    sections = {line[3:] for line in text(store, "facts.md").splitlines() if line[:3] == "## "}
    candidates = {
        p.stem: front_matter(p.name, p.read_text("utf-8")) for p in (store / "pending").iterdir()
    }
    for cid, data in candidates.items():
        assert data["id"] == cid and re.fullmatch(r"\d{8}-\d{4}", cid)
        assert data["entry_type"] in ("fact", "sop")
        assert isinstance(data["source_seqs"], list)
        assert isinstance(data["created_at"], dt.datetime)
        assert data["created_at"].utcoffset() == dt.timedelta(hours=8)
    assert sum("evidence" not in data for data in candidates.values()) == 1
    fact_targets = {d["target"] for d in candidates.values() if d["entry_type"] == "fact"}
    assert len(fact_targets - sections) == 1  # the one new section


def test_sops_have_steps_and_some_front_matter(store: Path) -> None:
    sops = {p.name: p.read_text("utf-8") for p in (store / "sops").iterdir()}
    with_front = [front_matter(n, t) for n, t in sops.items() if t.startswith("---\n")]
    assert 0 < len(with_front) < len(sops)
    assert all(isinstance(d["title"], str) and isinstance(d["tags"], list) for d in with_front)
    assert all(re.search(r"^1\. ", t, re.MULTILINE) for t in sops.values())
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*\.md", n) for n in sops)


def test_archive_holds_each_kind(store: Path) -> None:
    for folder in ("sops", "facts", "rejected", "pending"):
        assert list((store / "archive" / folder).iterdir()), folder
    for path in (store / "archive" / "rejected").iterdir():
        assert front_matter(path.name, path.read_text("utf-8"))["reject_reason"]


def test_json_files_parse_and_cover_every_entry(store: Path) -> None:
    loaded = {
        name: json.loads(text(store, name))
        for name in (
            "memory-meta.json",
            "memory_stats.json",
            "maintenance-report.json",
            "file_access_stats.json",
        )
    }
    entries = loaded["memory-meta.json"]["entries"]
    sections = [line[3:] for line in text(store, "facts.md").splitlines() if line[:3] == "## "]
    sops = [p.stem for p in (store / "sops").iterdir()]
    active = {key for key, entry in entries.items() if entry["status"] == "active"}
    assert active == {f"fact:{s}" for s in sections} | {f"sop:{s}" for s in sops}
    assert {e["status"] for e in entries.values()} == {"active", "archived"}
    stats = loaded["memory_stats.json"]
    assert (stats["sops"], stats["pending"]) == (10, 20)
    assert all(set(v) == {"reads", "lastRead"} for v in loaded["file_access_stats.json"].values())


# --- what other tests rely on (tests/demo_facts.py) ----------------------------------------------


def test_the_demo_facts_other_tests_rely_on(tmp_path: Path) -> None:
    from memtui.engine.store import open_store
    from tests import demo_facts as demo
    from tests.helpers import TODAY_DATE

    root = tmp_path / "store"
    write_demo(root, size=1, today=TODAY_DATE)
    store = open_store(root, today=TODAY_DATE)
    assert store.data.get("companion") is not None and store.data.get("dsh") is not None
    events = [e for e in store.data.get("companion").events if not e.is_sentinel]
    newest_first = sorted(events, key=lambda e: (e.date, e.number), reverse=True)
    labels = [e.label for e in newest_first]
    assert len(events) == demo.EVENTS
    assert sum(e.is_open for e in events) == demo.OPEN
    today = TODAY_DATE.isoformat()
    overdue = [e.label for e in newest_first if e.is_open and e.due and e.due < today]
    assert tuple(overdue) == demo.OVERDUE
    assert labels[:3] == [demo.NEWEST, demo.SECOND_NEWEST, demo.THIRD_NEWEST]
    assert newest_first[0].is_open and not newest_first[2].is_open
    assert max(e.number for e in events) == int(demo.NEWEST[1:]) and labels[-1] == demo.OLDEST
    assert next(e for e in events if e.label == demo.STARS_EVENT).stars == demo.STARS
    assert str(store.data.get("companion").last_active).startswith(demo.LAST_ACTIVE)

    assert text(root, "memory.md").count("\n") == demo.INDEX_LINES
    assert store.data.get("dsh").index_lines == demo.L1_LINES
    assert store.data.get("dsh").heat.get("index.txt") == demo.L1_HEAT
    assert len(store.data.get("dsh").sops) == demo.SOPS

    ids = [c.id for c in store.data.get("dsh").candidates]
    assert len(ids) == demo.CANDIDATES and ids[:3] == [demo.FIRST, demo.SECOND, demo.THIRD]
    assert [c.id for c in store.data.get("dsh").candidates if not c.evidence] == [demo.NO_EVIDENCE]
    assert store.data.get("dsh").candidates[0].body.strip().split("\n")[0] == demo.FIRST_BODY

    counts = (store.count("error"), store.count("warning"), store.count("info"))
    assert counts == (demo.ERRORS, demo.WARNINGS, demo.INFOS)
    relations = next(c for c in store.data.get("companion").profile if c.name == demo.RELATIONS)
    assert relations.items[2] == demo.FATHER
