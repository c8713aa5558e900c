"""Private stays private: what memtui creates is never more readable than its source.

The store's memory files are 0600 and 0640 under a 0755 root, and the umask is 022
during each test, so a default would leak. Every write verb of every layout runs once
(the seed layouts' on the demo, Claude's, Hermes' and OpenClaw's on its folders); each
file or folder it created must then be closed to others, snapshots keep their file's
exact mode, copies their source's, and a rollback puts back the mode the file had.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.engine import queue
from memtui.engine.store import open_store
from tests.verb_calls import STORES, bind, every_write_verb, memtui


@pytest.fixture(autouse=True)
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def walk(root: Path) -> dict[str, int]:
    """Every path under the root with its mode (links not followed)."""
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder, name)
            out[path.relative_to(root).as_posix()] = path.lstat().st_mode
    return out


def private_demo(tmp_path: Path, folder: str = "") -> Path:
    """The demo's store in `folder` (the seed layouts' at its root, an agent's in
    claude/, hermes/ or openclaw/), every memory file 0600 or 0640, folders 0700 or 0750
    (alternating), the store's root 0755."""
    demo = tmp_path / "store"
    write_demo(demo, size=1)
    root = demo / folder if folder else demo
    for i, (rel, mode) in enumerate(sorted(walk(root).items())):
        path = root / rel
        if stat.S_ISDIR(mode):
            path.chmod(0o750 if i % 2 else 0o700)
        else:
            path.chmod(0o640 if i % 2 else 0o600)
    root.chmod(0o755)
    return root


@pytest.fixture
def private(tmp_path: Path) -> Path:
    return private_demo(tmp_path)


@pytest.mark.parametrize("folder", STORES, ids=lambda f: f or "seed")
def test_every_write_verb_leaves_nothing_readable_by_others(tmp_path: Path, folder: str):
    private = private_demo(tmp_path, folder)
    calls = every_write_verb(private, tmp_path)
    for call in calls:
        call = bind(call, private)
        before = walk(private)
        got = memtui(private, *call)
        assert got.returncode == 0, (call, got.stderr)
        after = walk(private)
        for rel, mode in after.items():
            if rel in before:
                continue
            assert mode & 0o007 == 0, f"{call}: {rel} is {stat.filemode(mode)}"
            parent = private / rel
            parent_mode = (parent.parent).lstat().st_mode & 0o777
            if stat.S_ISDIR(mode):  # never more open than the folder it is created in
                assert mode & 0o777 & ~parent_mode == 0, f"{call}: {rel}"


def test_a_snapshot_keeps_its_files_exact_mode(private: Path):
    for rel, mode in (("memory/events.md", 0o600), ("facts.md", 0o640)):
        (private / rel).chmod(mode)
    event = next(e.label for e in open_store(private).data.get("companion").events if e.is_open)
    assert memtui(private, "done", event).returncode == 0
    assert memtui(private, "add", "fact", "X", "- x", "--evidence", "e → ok").returncode == 0
    for rel, mode in (("memory/events.md", 0o600), ("facts.md", 0o640)):
        [snap] = (private / ".history" / rel).iterdir()
        assert snap.stat().st_mode & 0o777 == mode, rel
        folder_mode = snap.parent.stat().st_mode & 0o777
        assert folder_mode & 0o007 == 0 and folder_mode & ~(mode | (mode & 0o444) >> 2) == 0
    audit = private / ".history" / "audit.jsonl"
    assert audit.stat().st_mode & 0o077 == 0  # the store holds 0600 files


def test_rollback_puts_back_the_mode_the_file_had(private: Path, tmp_path: Path):
    user = private / "user.md"
    user.chmod(0o600)
    body = tmp_path / "b.md"
    body.write_text("# user\n\n## 称呼\n- 小明\n", encoding="utf-8")
    assert memtui(private, "edit", "file:user.md", "--text-file", str(body)).returncode == 0
    user.chmod(0o644)  # someone opened it up since
    assert memtui(private, "rollback", "user.md").returncode == 0
    assert user.stat().st_mode & 0o777 == 0o600


def test_a_new_file_takes_the_mode_of_its_siblings(private: Path, tmp_path: Path):
    for path in (private / "sops").iterdir():
        path.chmod(0o640)
    body = tmp_path / "b.md"
    body.write_text("# sop\n\n1. step\n", encoding="utf-8")
    got = memtui(
        private, "add", "sop", "sibling-mode", "--body-file", str(body), "--evidence", "ok"
    )
    assert got.returncode == 0, got.stderr
    assert (private / "sops" / "sibling-mode.md").stat().st_mode & 0o777 == 0o640


def test_the_journal_of_an_interrupted_change_is_as_private_as_its_files(private: Path):
    import signal

    (private / "memory" / "events.md").chmod(0o640)
    event = next(e.label for e in open_store(private).data.get("companion").events if e.is_open)
    env_crash = {"MEMTUI_CRASH_AT": "journaled"}
    got = memtui(private, "done", event, env=env_crash)
    assert got.returncode == -signal.SIGKILL
    journal = private / ".history" / "journal"
    [record] = journal.glob("*.json")
    for path in (journal, record, *journal.glob("*.prepare")):
        assert path.stat().st_mode & 0o007 == 0, path
    temps = list((private / "memory").glob(".events.md.memtui-*.tmp"))
    assert [t.stat().st_mode & 0o777 for t in temps] == [0o640]


def test_archived_and_rejected_copies_keep_their_sources_mode(private: Path):
    store = open_store(private)
    cand = store.data.get("dsh").candidates[0]
    (private / cand.file).chmod(0o600)
    assert memtui(private, "reject", cand.id, "--reason", "no").returncode == 0
    [rejected] = (private / "archive" / "rejected").glob(f"{cand.id}*")
    assert rejected.stat().st_mode & 0o777 == 0o600
    section = store.data.get("dsh").fact_sections[0].name
    (private / "facts.md").chmod(0o640)
    assert memtui(private, "archive", f"fact:{section}").returncode == 0
    composed = next((private / "archive" / "facts").iterdir())
    assert composed.stat().st_mode & 0o777 & ~0o640 == 0


def _snapshots(root: Path, rel: str) -> list[int]:
    return [p.stat().st_mode & 0o777 for p in (root / ".history" / rel).iterdir()]


def test_hermes_copies_keep_their_sources_mode(tmp_path: Path):
    root = private_demo(tmp_path, "hermes")
    (root / "memories" / "MEMORY.md").chmod(0o600)
    (root / "memories" / "USER.md").chmod(0o640)
    record = next(
        i for i in queue.items(open_store(root)) if i.approvable and i.target.endswith("USER.md")
    )
    (root / record.file).chmod(0o640)
    assert memtui(root, "accept", record.id).returncode == 0
    assert _snapshots(root, record.file) == [0o640]  # the approved record, kept
    assert _snapshots(root, "memories/USER.md") == [0o640]
    assert memtui(root, "archive", "hermes:memory#1").returncode == 0
    assert _snapshots(root, "memories/MEMORY.md") == [0o600]
    archived = root / "memories" / "archived.jsonl"
    assert archived.stat().st_mode & 0o777 & ~0o600 == 0  # no more open than MEMORY.md
    lock = root / "memories" / "MEMORY.md.lock"  # Hermes' own lock, made as Hermes would
    assert lock.stat().st_mode & 0o077 == 0


def test_claude_archive_and_add_keep_their_sources_mode(tmp_path: Path):
    root = private_demo(tmp_path, "claude")
    memories = sorted(root.glob("*.md"))
    for path in memories:
        path.chmod(0o640)
    name = memories[1].name if memories[0].name == "MEMORY.md" else memories[0].name
    (root / name).chmod(0o600)
    assert memtui(root, "archive", f"claude:{name}").returncode == 0
    assert (root / ".archive" / f"{name}.archived").stat().st_mode & 0o777 == 0o600
    lines = root / ".archive" / "index-lines.jsonl"  # MEMORY.md's lines, kept
    assert lines.stat().st_mode & 0o777 & ~0o600 == 0  # the change read a 0600 file
    assert _snapshots(root, "MEMORY.md") == [0o640]
    assert (root / ".archive").stat().st_mode & 0o777 & ~0o755 == 0
    body = tmp_path / "b.md"
    body.write_text("A new memory.\n", encoding="utf-8")
    got = memtui(
        root, "add", "memory", "new_one.md", "--type", "user", "--description", "d",
        "--body-file", str(body),
    )  # fmt: skip
    assert got.returncode == 0, got.stderr
    assert (root / "new_one.md").stat().st_mode & 0o777 == 0o640  # its siblings'


def test_openclaw_audit_keeps_the_modes_of_the_log_and_the_memory(tmp_path: Path):
    root = private_demo(tmp_path, "openclaw")
    log = root / "memory" / "audit" / "suggestions.jsonl"
    log.chmod(0o600)
    (root / "MEMORY.md").chmod(0o640)
    add = next(i for i in queue.items(open_store(root)) if i.approvable and i.action == "add")
    assert memtui(root, "accept", add.id).returncode == 0
    assert log.stat().st_mode & 0o777 == 0o600
    assert (root / "MEMORY.md").stat().st_mode & 0o777 == 0o640
    assert _snapshots(root, "memory/audit/suggestions.jsonl") == [0o600]
    assert _snapshots(root, "MEMORY.md") == [0o640]
