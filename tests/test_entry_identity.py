"""An id names what the user saw (SPEC §6): with a real agent writing between `memtui
list` and the action, the action acts on the entry listed or refuses (exit 1, the
reason on stderr, not a byte changed), never on a neighbour; when nothing moved it
still works. The agent is bash under the seed's flock (tests/workers/bash_agent.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from memtui.engine.identity import fingerprint, split_expect
from memtui.engine.ops.common import Refused
from memtui.engine.textfile import TextFile
from memtui.engine.write.transaction import Conflict
from memtui.layouts.companion import ops as companion
from memtui.layouts.companion.ids import event_ids, pick_event
from memtui.layouts.companion.parse import _events
from tests.conftest import run_cli, tree_digest, write_tree
from tests.helpers import candidate, needs_seed_tools
from tests.workers.bash_agent import (
    EVENTS,
    append,
    delete_first_block,
    insert_at_top,
    needs_bash_flock,
    replace_text,
    unnumbered_event,
)


def event(n: int | None, content: str, day: int = 20) -> str:
    label = f"E{n:03d}" if n is not None else "E"
    return (
        f"### [{label}] 2026-11-{day:02d} · 用户Todo\n**类型**：用户Todo\n"
        f"**内容**：{content}\n**状态**：待跟进\n\n"
    )


SENTINEL = "### [E000] 2026-11-20T20:00 · last_active\n"
EIGHT = "".join(event(n, f"事{n}", n) for n in range(1, 9)) + SENTINEL


def listed(root: Path) -> dict[str, dict]:
    """`memtui list --json`'s events by their content (the last part of the title)."""
    got = run_cli("list", "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    entries = json.loads(got.stdout)["entries"]
    return {e["title"].rsplit(" · ", 1)[-1]: e for e in entries if e["kind"] == "event"}


def block_of(root: Path, content: str) -> str:
    """The event holding `**内容**：content`, from its heading to the next heading."""
    text = (root / EVENTS).read_text("utf-8")
    at = text.index(f"**内容**：{content}\n")
    start = text.rindex("### ", 0, at)
    stop = text.find("### ", at)
    return text[start : stop if stop >= 0 else len(text)]


def is_done(root: Path, content: str) -> bool:
    return "**状态**：已完成" in block_of(root, content)


def refused(root: Path, *argv: str) -> str:
    """Run a write verb that must be refused: exit 1, nothing changed; its stderr."""
    before = tree_digest(root)
    got = run_cli(*argv, "--store", str(root))
    assert got.returncode == 1, (got.returncode, got.stdout, got.stderr)
    assert "nothing was changed" in got.stderr, got.stderr
    assert tree_digest(root) == before, "a refused action changed the store"
    return got.stderr


def done(root: Path, *argv: str) -> None:
    got = run_cli(*argv, "--store", str(root))
    assert got.returncode == 0, got.stderr


# --- the fingerprint and the ids -------------------------------------------------


def test_fingerprint_ignores_only_the_blank_lines_after_an_entry():
    body = "### [E001] 2026-11-01 · 用户Todo\n**内容**：a\n"
    assert fingerprint(body) == fingerprint(body + "\n\n") == fingerprint(body.rstrip("\n"))
    assert fingerprint(body) != fingerprint(body.replace("a", "b"))
    assert re.fullmatch(r"[0-9a-f]{12}", fingerprint(body))


def test_ids_carry_the_fingerprint_only_where_the_label_is_ambiguous():
    text = event(1, "a") + event(2, "b") + event(2, "c") + event(None, "d") + SENTINEL
    events = _events(TextFile(EVENTS, text, False, len(text)))
    fps = [fingerprint(e.text) for e in events]
    assert event_ids(events) == [
        "E001",
        f"E002@{fps[1]}",
        f"E002#2@{fps[2]}",
        f"L16@{fps[3]}",
        None,
    ]


def test_an_id_and_expect_naming_two_fingerprints_is_refused():
    with pytest.raises(Refused, match="carries fingerprint"):
        split_expect("fact:X@0123456789ab", "ba9876543210")
    assert split_expect("fact:X@0123456789AB") == ("fact:X", "0123456789ab")


def test_identical_copies_are_told_apart_by_their_place():
    text = event(None, "same") + event(None, "same") + SENTINEL
    events = _events(TextFile(EVENTS, text, False, len(text)))
    first, second = (companion.parse_event_ref(i) for i in event_ids(events)[:2] if i)
    assert pick_event(events, second, EVENTS) is events[1]
    assert pick_event(events, first, EVENTS) is events[0]


def test_a_unique_number_that_changed_is_refused_in_the_engine(tmp_path):
    root = write_tree(tmp_path, {EVENTS: EIGHT, ".memory.lock": ""})  # the agent's lock file
    shown = fingerprint(event(3, "事3", 3))
    (root / EVENTS).write_text(EIGHT.replace("事3", "事三"), "utf-8")
    before = tree_digest(root)
    with pytest.raises(Conflict, match="E003 changed since it was shown"):
        companion.done(str(root), "E003", expect=shown)
    assert tree_digest(root) == before


# --- events without a number, written by the seed's own bash ---------------------


def seeded_store(tmp_path: Path) -> Path:
    """E001-E008, then two events the seed's template heads `### [E]` (its octal bug)."""
    root = write_tree(tmp_path / "store", {EVENTS: EIGHT})
    unnumbered_event(root, "甲")
    unnumbered_event(root, "乙")
    return root


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    return seeded_store(tmp_path)


@needs_seed_tools
def test_an_unnumbered_event_is_listed_with_its_fingerprint_and_done_by_that_id(seeded):
    shown = listed(seeded)["乙"]
    assert re.fullmatch(rf"event:L\d+@{shown['fingerprint']}", shown["id"])
    done(seeded, "done", shown["id"])
    assert is_done(seeded, "乙") and not is_done(seeded, "甲")


@needs_seed_tools
def test_the_line_alone_is_refused_and_the_refusal_names_the_id(seeded):
    shown = listed(seeded)["乙"]
    line_id = shown["id"].partition("@")[0]
    err = refused(seeded, "done", line_id)
    assert shown["id"] in err and "no number" in err
    done(seeded, "done", line_id, "--expect", shown["fingerprint"])  # nothing moved: works
    assert is_done(seeded, "乙") and not is_done(seeded, "甲")


def _by_id_or_expect(shown: dict, form: str) -> list[str]:
    if form == "id":
        return [shown["id"]]
    return [shown["id"].partition("@")[0], "--expect", shown["fingerprint"]]


@needs_seed_tools
@pytest.mark.parametrize("form", ["id", "expect"])
def test_lines_inserted_above_an_unnumbered_event_refuse_the_action(seeded, form):
    shown = listed(seeded)["乙"]
    insert_at_top(seeded, event(None, "丙", 21))  # three lines above everything
    for verb in ("done", "archive"):
        err = refused(seeded, verb, *_by_id_or_expect(shown, form))
        assert "moved since it was shown" in err
    now = listed(seeded)["乙"]
    assert now["id"] in err  # the refusal says where it is now
    done(seeded, "done", now["id"])
    assert [c for c in ("甲", "乙", "丙") if is_done(seeded, c)] == ["乙"]


@needs_seed_tools
def test_lines_deleted_above_an_unnumbered_event_refuse_the_action(seeded):
    shown = listed(seeded)
    delete_first_block(seeded)  # E001 and its blank line
    for content in ("甲", "乙"):
        refused(seeded, "done", shown[content]["id"])
        refused(seeded, "edit", shown[content]["id"], "--text-file", "/dev/null")
    assert not is_done(seeded, "甲") and not is_done(seeded, "乙")


@needs_seed_tools
def test_an_unnumbered_event_the_agent_changed_is_refused(seeded):
    shown = listed(seeded)["甲"]
    replace_text(seeded, "甲", "甲（改）")
    err = refused(seeded, "done", shown["id"])
    assert "is no longer in" in err or "changed since it was shown" in err


# --- two events sharing a number -----------------------------------------------------


@pytest.fixture
def three(tmp_path: Path) -> Path:
    text = event(1, "一", 1) + event(2, "二", 2) + event(3, "三", 3) + SENTINEL
    return write_tree(tmp_path / "store", {EVENTS: text})


@needs_bash_flock
def test_a_number_the_agent_reuses_makes_the_bare_id_refused(three):
    shown = listed(three)["三"]
    assert shown["id"] == "event:E003"  # unique when listed: the id as ever
    append(three, "\n" + event(3, "代理的三", 4))
    err = refused(three, "done", "E003")
    assert "E003 names 2 events" in err
    # the fingerprint names the one listed: it is done, the agent's is not touched
    done(three, "done", "E003", "--expect", shown["fingerprint"])
    assert is_done(three, "三") and not is_done(three, "代理的三")


@needs_bash_flock
def test_a_duplicate_number_inserted_above_refuses_the_action(three):
    shown = listed(three)["三"]
    insert_at_top(three, event(3, "代理的三", 4))
    err = refused(three, "done", "E003", "--expect", shown["fingerprint"])
    assert "moved since it was shown" in err and "E003#2@" in err
    refused(three, "edit", "E003", "--expect", shown["fingerprint"], "--text-file", "/dev/null")
    assert not is_done(three, "三") and not is_done(three, "代理的三")


# --- every other action takes the fingerprint as shown ------------------------------

STORE = {
    # dsh
    "index.txt": "[RULES] No Execution, No Memory\n",
    "facts.md": "## PYTHON_ENV\n- use the venv\n\n## HOSTS\n- db is 10.0.0.5\n",
    "sops/deploy.md": "# deploy\n\n1. build\n",
    "pending/c-1.md": candidate("c-1", "HOSTS", "- cache is 10.0.0.9\n"),
    # workspace
    "memory.md": "# 索引\n\n## 话题\n- 旅行 → memory_travel.md\n",
    "memory_travel.md": "# 旅行\n- 京都\n",
    # companion
    EVENTS: event(1, "一", 1) + event(2, "二", 2) + SENTINEL,
    "memory/user_profile.md": "## 爱好\n- 爬山\n- 游泳\n",
}

# (the entry's id, the agent's change to it: (file, old text, new text), the action)
ACTIONS = [
    ("event:E002", (EVENTS, "二", "二（改）"), ["archive", "event:E002"]),
    ("event:E002", (EVENTS, "二", "二（改）"), ["done", "E002"]),
    ("event:E002", (EVENTS, "二", "二（改）"), ["edit", "E002", "--text-file", "NEW"]),
    ("fact:HOSTS", ("facts.md", "10.0.0.5", "10.0.0.6"), ["archive", "fact:HOSTS"]),
    ("sop:deploy", ("sops/deploy.md", "build", "build it"), ["archive", "sop:deploy"]),
    ("topic:travel", ("memory_travel.md", "京都", "奈良"), ["archive", "topic:travel"]),
    (
        "profile:爱好",
        ("memory/user_profile.md", "游泳", "读书"),
        ["archive", "profile:爱好", "--item", "爬山"],
    ),
    ("pending:c-1", ("pending/c-1.md", "10.0.0.9", "10.0.0.8"), ["accept", "c-1"]),
    (
        "pending:c-1",
        ("pending/c-1.md", "10.0.0.9", "10.0.0.8"),
        ["reject", "c-1", "--reason", "no"],
    ),
]


def _store(tmp_path: Path, action: list[str]) -> tuple[Path, list[str]]:
    """The store of ACTIONS, and the action with NEW as a file of new text."""
    root = write_tree(tmp_path / "store", STORE)
    new = tmp_path / "new.md"
    new.write_text(event(2, "二（我改的）", 2), "utf-8")
    return root, [str(new) if a == "NEW" else a for a in action]


@needs_bash_flock
@pytest.mark.parametrize(("entry", "change", "action"), ACTIONS, ids=lambda v: str(v))
def test_an_entry_the_agent_changed_since_it_was_shown_is_refused(tmp_path, entry, change, action):
    root, action = _store(tmp_path, action)
    got = run_cli("show", entry, "--json", "--store", str(root))
    assert got.returncode == 0, got.stderr
    shown = json.loads(got.stdout)["fingerprint"]
    rel, old, new = change
    replace_text(root, old, new, rel)
    err = refused(root, *action, "--expect", shown)
    assert "since it was shown" in err or "since you saw it" in err


@pytest.mark.parametrize(("entry", "change", "action"), ACTIONS, ids=lambda v: str(v))
def test_an_entry_as_shown_is_acted_on(tmp_path, entry, change, action):
    root, action = _store(tmp_path, action)
    got = run_cli("show", entry, "--json", "--store", str(root))
    shown = json.loads(got.stdout)["fingerprint"]
    before = tree_digest(root)
    done(root, *action, "--expect", shown)
    assert tree_digest(root) != before


@pytest.mark.parametrize("store", ["", "hermes", "openclaw"])
def test_every_queued_item_is_listed_and_resolved_by_its_queue_id(tmp_path, store):
    from memtui.demo import write_demo
    from memtui.engine import queue
    from memtui.engine.entries import iter_entries, resolve
    from memtui.engine.store import open_store

    write_demo(tmp_path / "demo", size=1)
    opened = open_store(tmp_path / "demo" / store)
    shown = [(i.id, i.file) for i in queue.items(opened)]  # as `memtui pending` names them
    shown += [
        (c.id, c.file)
        for c in (opened.data.get("dsh").candidates if opened.data.get("dsh") else ())
    ]
    assert shown
    listed = {e.id for e in iter_entries(opened)}
    for item_id, file in shown:
        entry = resolve(opened, item_id)
        assert entry.id in listed and entry.file == file
