"""The one write path (SPEC §0): Transaction on real files in tmp_path.

temp file + os.replace, mode kept, history snapshot of the old bytes, audit line,
conflict refusal, paths that must be refused, move, dry run, read-back, the lock file
never replaced, and leftover temp files ignored by open_store.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from memtui.engine.store import open_store
from memtui.engine.write import journal
from memtui.engine.write.lock import LOCK_NAME, StoreLock
from memtui.engine.write.transaction import Conflict, Transaction, WriteError
from tests.conftest import tree_digest, write_tree

EVENTS = """\
# 事件

### [E001] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起看电影
**状态**：待跟进
**到期日**：2026-12-01

### [E000] 2026-11-29T21:40 · last_active
"""

FILES = {
    "memory/events.md": EVENTS,
    "memory/persona.md": "【在对话中形成的新细节】\n• [2026-11-01] 喜欢猫\n",
    "facts.md": "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n",
    "index.txt": "[RULES] No Execution, No Memory\n",
    "pending/20261129-0007.md": "---\nid: 20261129-0007\n---\n- a fact\n",
}
SNAPSHOT_NAME = re.compile(r"^\d{8}T\d{6}Z\.\d+$")


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", FILES)


def audit_lines(root: Path) -> list[dict]:
    path = root / ".history" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def temp_files(root: Path) -> list[str]:
    """Every leftover of a write in progress: memtui temp files, journal parts, undo temps."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if ".memtui-" in p.name or p.name.endswith((".tmp", ".part"))
    )


def snapshots(root: Path, rel: str) -> list[Path]:
    folder = root / ".history" / rel
    return sorted(folder.iterdir()) if folder.is_dir() else []


# --- the write itself -----------------------------------------------------------------------


def test_commit_replaces_through_a_temp_file_and_keeps_the_mode(root: Path):
    target = root / "facts.md"
    target.chmod(0o640)
    inode = target.stat().st_ino
    old = target.read_bytes()
    new = old + b"- pytest -q runs 41 tests\n"
    with Transaction(str(root), "edit") as tx:
        assert tx.read("facts.md") == old
        tx.write("facts.md", new)
        receipt = tx.commit()
    assert target.read_bytes() == new
    assert target.stat().st_ino != inode  # a new file renamed over the old one
    assert target.stat().st_mode & 0o7777 == 0o640
    [change] = receipt.changes
    assert (change.action, change.path, change.before, change.after) == (
        "write",
        "facts.md",
        sha(old),
        sha(new),
    )
    assert (change.old, change.new) == (old, new)
    assert temp_files(root) == []
    assert journal.pending(str(root)) == []


def test_new_file_in_a_new_folder(root: Path):
    with Transaction(str(root), "create") as tx:
        assert tx.read("sops/deploy.md") is None
        tx.write("sops/deploy.md", b"# deploy\n")
        receipt = tx.commit()
    assert (root / "sops" / "deploy.md").read_bytes() == b"# deploy\n"
    assert receipt.changes[0].before is None
    assert receipt.changes[0].snapshot is None  # nothing old to keep
    assert not (root / ".history" / "sops").exists()
    [line] = audit_lines(root)
    assert line["files"][0]["before"] is None
    assert line["files"][0]["after"] == sha(b"# deploy\n")


def test_snapshot_holds_the_old_bytes(root: Path):
    old = (root / "memory/persona.md").read_bytes()
    with Transaction(str(root), "edit") as tx:
        tx.read("memory/persona.md")
        tx.write("memory/persona.md", old + "• [2026-11-29] 怕打雷\n".encode())
        receipt = tx.commit()
    [snap] = snapshots(root, "memory/persona.md")
    assert SNAPSHOT_NAME.match(snap.name), snap.name
    assert snap.read_bytes() == old
    assert receipt.changes[0].snapshot == f".history/memory/persona.md/{snap.name}"


def test_two_snapshots_of_one_file_do_not_overwrite_each_other(root: Path):
    versions = [(root / "facts.md").read_bytes()]
    for n in range(3):
        with Transaction(str(root), "edit") as tx:
            tx.read("facts.md")
            versions.append(versions[-1] + f"- fact {n}\n".encode())
            tx.write("facts.md", versions[-1])
            tx.commit()
    kept = snapshots(root, "facts.md")
    assert len(kept) == 3
    assert all(SNAPSHOT_NAME.match(p.name) for p in kept)
    assert sorted(p.read_bytes() for p in kept) == sorted(versions[:3])


def test_remove_keeps_a_snapshot(root: Path):
    old = (root / "facts.md").read_bytes()
    with Transaction(str(root), "remove") as tx:
        tx.read("facts.md")
        tx.remove("facts.md")
        receipt = tx.commit()
    assert not (root / "facts.md").exists()
    [snap] = snapshots(root, "facts.md")
    assert snap.read_bytes() == old
    assert receipt.changes[0].after is None


def test_audit_line(root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("MEMTUI_WHO", raising=False)
    old_events = (root / "memory/events.md").read_bytes()
    new_events = old_events.replace("待跟进".encode(), "已完成".encode())
    with Transaction(str(root), "done", details={"event": "E001"}) as tx:
        tx.read("memory/events.md")
        tx.write("memory/events.md", new_events)
        tx.read("pending/20261129-0007.md")
        tx.move("pending/20261129-0007.md", "archive/pending/20261129-0007.md")
        receipt = tx.commit()
    [line] = audit_lines(root)
    assert {"time", "op", "who", "txid", "files"} <= set(line)
    assert line["op"] == "done"
    assert line["txid"] == receipt.txid
    assert "@" in line["who"]  # user@host by default
    assert re.match(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}", line["time"])
    events, move = line["files"]
    assert events["path"] == "memory/events.md"
    assert (events["before"], events["after"]) == (sha(old_events), sha(new_events))
    assert events["snapshot"] == receipt.changes[0].snapshot
    assert move["path"] == "archive/pending/20261129-0007.md"
    assert move["source"] == "pending/20261129-0007.md"
    assert move["before"] == move["after"]  # a move keeps the bytes


def test_memtui_who_names_the_writer(root: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MEMTUI_WHO", "小林 (reviewer)")
    with Transaction(str(root), "edit") as tx:
        tx.write("facts.md", tx.read("facts.md") + b"- x\n")
        tx.commit()
    assert [line["who"] for line in audit_lines(root)] == ["小林 (reviewer)"]


def test_read_back_and_next_read_see_the_new_bytes(root: Path):
    new = "# Facts\n\n## PYTHON_ENV\n- 中文 ✓\r\n".encode()
    with Transaction(str(root), "edit") as tx:
        tx.read("facts.md")
        tx.write("facts.md", new)
        receipt = tx.commit()
    assert receipt.changes[0].new == new
    assert (root / "facts.md").read_bytes() == new
    with Transaction(str(root), "check") as tx:
        assert tx.read("facts.md") == new


def test_nothing_planned_writes_nothing(root: Path):
    before = tree_digest(root)
    with Transaction(str(root), "noop") as tx:
        tx.read("facts.md")
        receipt = tx.commit()
    assert receipt.changes == ()
    assert audit_lines(root) == []
    assert {k: v for k, v in tree_digest(root).items() if k != LOCK_NAME} == before


def test_an_exception_before_commit_writes_nothing_and_frees_the_lock(root: Path):
    before = tree_digest(root)
    with pytest.raises(RuntimeError), Transaction(str(root), "edit") as tx:
        tx.write("facts.md", tx.read("facts.md") + b"- x\n")
        raise RuntimeError("the user pressed cancel")
    assert {k: v for k, v in tree_digest(root).items() if k != LOCK_NAME} == before
    with StoreLock(str(root), wait=0):  # free again at once
        pass


# --- conflicts ------------------------------------------------------------------------------


def _unchanged_except(root: Path, before: dict[str, str], rel: str) -> None:
    after = tree_digest(root)
    after.pop(LOCK_NAME, None)
    before = dict(before)
    before.pop(LOCK_NAME, None)
    assert {k: v for k, v in after.items() if k != rel} == {
        k: v for k, v in before.items() if k != rel
    }


def test_conflict_when_a_writer_ignoring_the_lock_appends_meanwhile(root: Path):
    events = root / "memory/events.md"
    with Transaction(str(root), "done") as tx:
        old = tx.read("memory/events.md")
        tx.write("memory/events.md", old.replace("待跟进".encode(), "已完成".encode()))
        with events.open("ab") as fh:  # e.g. an editor, which takes no lock
            fh.write("\n### [E000] 2026-11-29T22:00 · last_active\n".encode())
        appended = events.read_bytes()
        before = tree_digest(root)
        with pytest.raises(Conflict) as caught:
            tx.commit()
    message = str(caught.value)
    assert "memory/events.md" in message
    assert "appended" in message
    assert events.read_bytes() == appended  # the other writer's bytes are kept
    assert tree_digest(root) == before  # no snapshot, no audit, no temp
    assert not (root / ".history").exists()
    assert temp_files(root) == []


def test_conflict_on_the_version_the_user_saw(root: Path):
    """The UI reads without the lock; it commits with expect= the hash it showed."""
    facts = root / "facts.md"
    seen = sha(facts.read_bytes())
    facts.write_bytes(facts.read_bytes() + b"- the agent added this\n")
    before = tree_digest(root)
    with Transaction(str(root), "edit") as tx:
        tx.write("facts.md", b"# Facts\n", expect=seen)
        tx.read("index.txt")
        tx.write("index.txt", b"[RULES] changed\n")
        with pytest.raises(Conflict):
            tx.commit()
    _unchanged_except(root, before, LOCK_NAME)
    assert audit_lines(root) == []
    assert temp_files(root) == []


def test_conflict_when_a_file_was_created_or_removed_meanwhile(root: Path):
    with Transaction(str(root), "create") as tx:
        tx.read("sops/new.md")
        tx.write("sops/new.md", b"mine\n")
        (root / "sops").mkdir()
        (root / "sops/new.md").write_bytes(b"the agent's\n")
        with pytest.raises(Conflict):
            tx.commit()
    assert (root / "sops/new.md").read_bytes() == b"the agent's\n"
    with Transaction(str(root), "edit") as tx:
        tx.read("index.txt")
        tx.write("index.txt", b"x\n")
        (root / "index.txt").unlink()
        with pytest.raises(Conflict):
            tx.commit()
    assert not (root / "index.txt").exists()
    assert audit_lines(root) == []
    assert temp_files(root) == []


# --- paths that must be refused -------------------------------------------------------------


def _read_write_remove_refused(tx: Transaction, rel: str) -> None:
    """Reading, writing and removing `rel` in `tx` are each refused."""
    with pytest.raises(WriteError):
        tx.read(rel)
    with pytest.raises(WriteError):
        tx.write(rel, b"x", expect=None)
    with pytest.raises(WriteError):
        tx.remove(rel, expect=None)


@pytest.mark.parametrize(
    "rel",
    [
        "../outside.md",
        "memory/../../outside.md",
        "/etc/passwd",
        ".memory.lock",
        "./.memory.lock",
        "memory/../.memory.lock",
        ".history",
        "",
        ".",
    ],
)
def test_refused_paths(root: Path, rel: str):
    before = tree_digest(root)
    with Transaction(str(root), "edit") as tx:
        _read_write_remove_refused(tx, rel)
        with pytest.raises(WriteError):
            tx.move("facts.md", rel, expect=sha((root / "facts.md").read_bytes()))
    _unchanged_except(root, before, LOCK_NAME)
    assert not (root.parent / "outside.md").exists()


@pytest.mark.parametrize(
    "rel",
    [".history/audit.jsonl", ".history/facts.md/20261129T214000Z.1", ".history/journal/x.json"],
)
def test_nothing_inside_history_is_written_through_a_transaction(root: Path, rel: str):
    """.history/ is memtui's own bookkeeping (SPEC §0: history is never pruned silently;
    the audit is append-only): a transaction must not write, replace or remove in it."""
    with Transaction(str(root), "edit") as tx:
        tx.write("facts.md", tx.read("facts.md") + b"- x\n")
        tx.commit()
    snap = root / ".history/facts.md" / "20261129T214000Z.1"
    snap.write_bytes(b"an old version\n")
    audit_before = (root / ".history/audit.jsonl").read_bytes()
    with Transaction(str(root), "prune") as tx:
        with pytest.raises(WriteError):
            tx.remove(rel, expect=None)
        with pytest.raises(WriteError):
            tx.write(rel, b"", expect=None)
        with pytest.raises(WriteError):
            tx.move(rel, "archive/moved-out.md", expect=None)
        tx.commit()
    assert snap.read_bytes() == b"an old version\n"
    assert (root / ".history/audit.jsonl").read_bytes() == audit_before


def test_absolute_path_inside_the_root_is_refused(root: Path):
    with Transaction(str(root), "edit") as tx, pytest.raises(WriteError):
        tx.write(str(root / "facts.md"), b"x", expect=sha((root / "facts.md").read_bytes()))
    assert (root / "facts.md").read_text(encoding="utf-8") == FILES["facts.md"]


def test_symlinks_are_not_written_through(root: Path, tmp_path: Path):
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"not memtui's\n")
    (root / "memory/link-out.md").symlink_to(outside)
    (root / "memory/link-in.md").symlink_to(root / "facts.md")
    (root / "linkdir").symlink_to(tmp_path, target_is_directory=True)
    before = tree_digest(root)
    with Transaction(str(root), "edit") as tx:
        for rel in ("memory/link-out.md", "memory/link-in.md", "linkdir/outside.md"):
            _read_write_remove_refused(tx, rel)
        with pytest.raises(WriteError):
            tx.write("linkdir/new.md", b"x", expect=None)
    _unchanged_except(root, before, LOCK_NAME)
    assert outside.read_bytes() == b"not memtui's\n"
    assert not (tmp_path / "new.md").exists()


@pytest.mark.parametrize("source", ["../outside.md", "memory/link-out.md", "linkdir/outside.md"])
def test_move_source_outside_the_root_is_refused(root: Path, tmp_path: Path, source: str):
    """A move must not read or take a file from outside the root (SPEC §0, inside the root),
    even when the caller passes the expected hash instead of calling tx.read."""
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"not memtui's\n")
    (root / "memory/link-out.md").symlink_to(outside)
    (root / "linkdir").symlink_to(tmp_path, target_is_directory=True)
    with Transaction(str(root), "move") as tx, pytest.raises(WriteError):
        tx.move(source, "archive/stolen.md", expect=sha(b"not memtui's\n"))
        tx.commit()
    assert outside.read_bytes() == b"not memtui's\n"
    assert not (root / "archive/stolen.md").exists()


# --- move -----------------------------------------------------------------------------------


def test_move_keeps_the_bytes_and_needs_no_snapshot(root: Path):
    src = root / "pending/20261129-0007.md"
    data, inode = src.read_bytes(), src.stat().st_ino
    with Transaction(str(root), "accept") as tx:
        tx.read("pending/20261129-0007.md")
        tx.move("pending/20261129-0007.md", "archive/pending/20261129-0007.md")
        receipt = tx.commit()
    dst = root / "archive/pending/20261129-0007.md"
    assert not src.exists()
    assert dst.read_bytes() == data
    assert dst.stat().st_ino == inode  # renamed, not copied
    assert receipt.changes[0].source == "pending/20261129-0007.md"


def test_move_refuses_an_existing_destination(root: Path):
    dst = root / "archive/pending/20261129-0007.md"
    dst.parent.mkdir(parents=True)
    dst.write_bytes(b"an older archived copy\n")
    before = tree_digest(root)
    with Transaction(str(root), "accept") as tx:
        tx.read("pending/20261129-0007.md")
        tx.move("pending/20261129-0007.md", "archive/pending/20261129-0007.md")
        with pytest.raises(Conflict) as caught:
            tx.commit()
    assert "already exists" in str(caught.value)
    _unchanged_except(root, before, LOCK_NAME)
    assert dst.read_bytes() == b"an older archived copy\n"
    assert audit_lines(root) == []


def test_one_file_changed_twice_or_unread_is_refused(root: Path):
    with Transaction(str(root), "edit") as tx:
        with pytest.raises(WriteError):
            tx.write("facts.md", b"never read\n")
        tx.read("facts.md")
        tx.write("facts.md", b"once\n")
        with pytest.raises(WriteError):
            tx.write("facts.md", b"twice\n")
        tx.read("pending/20261129-0007.md")
        with pytest.raises(WriteError):
            tx.move("pending/20261129-0007.md", "facts.md")


# --- dry run --------------------------------------------------------------------------------


def test_dry_run_writes_nothing_and_needs_no_lock(root: Path):
    before = tree_digest(root)
    with StoreLock(str(root)):  # another writer holds the lock all along
        locked = tree_digest(root)
        with Transaction(str(root), "edit", dry_run=True, lock_wait=0) as tx:
            old = tx.read("facts.md")
            tx.write("facts.md", old + b"- new\n")
            tx.read("pending/20261129-0007.md")
            tx.move("pending/20261129-0007.md", "archive/pending/20261129-0007.md")
            tx.read("index.txt")
            tx.remove("index.txt")
            receipt = tx.commit()
        assert tree_digest(root) == locked
    assert receipt.dry_run is True
    assert [c.action for c in receipt.changes] == ["write", "move", "remove"]
    assert receipt.changes[0].new == old + b"- new\n"
    assert receipt.changes[0].after == sha(old + b"- new\n")
    assert {k: v for k, v in tree_digest(root).items() if k != LOCK_NAME} == before
    assert not (root / ".history").exists()


def test_dry_run_still_reports_a_conflict(root: Path):
    seen = sha((root / "facts.md").read_bytes())
    (root / "facts.md").write_bytes(b"changed by the agent\n")
    with Transaction(str(root), "edit", dry_run=True) as tx:
        tx.write("facts.md", b"x\n", expect=seen)
        with pytest.raises(Conflict):
            tx.commit()


# --- the lock file and leftovers --------------------------------------------------------------


def test_the_lock_file_is_never_deleted_or_replaced(root: Path):
    lock = root / LOCK_NAME
    lock.write_bytes(b"")
    inode = lock.stat().st_ino
    for n in range(25):
        with Transaction(str(root), "edit") as tx:
            tx.write("facts.md", tx.read("facts.md") + f"- {n}\n".encode())
            if n % 5 == 0:
                tx.read(f"sops/s{n}.md")
                tx.write(f"sops/s{n}.md", b"x\n")
            tx.commit()
        assert lock.stat().st_ino == inode
    with Transaction(str(root), "dry", dry_run=True) as tx:
        tx.commit()
    with pytest.raises(RuntimeError), Transaction(str(root), "fail"):
        raise RuntimeError
    assert lock.stat().st_ino == inode
    assert lock.read_bytes() == b""
    assert len(audit_lines(root)) == 25


def test_leftover_temp_files_are_not_memory(root: Path):
    leftovers = [
        ".facts.md.memtui-20261129T214000-deadbeef.tmp",
        "memory/.events.md.memtui-20261129T214000-deadbeef.tmp",
        "pending/.20261129-0008.md.memtui-20261129T214000-0badf00d.tmp",
    ]
    for rel in leftovers:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(b"\xff\xfe half written \x00")
    store = open_store(root)
    assert not set(leftovers) & set(store.files)
    assert not any(".memtui-" in rel for rel in store.files)
    assert {"memory/events.md", "facts.md", "pending/20261129-0007.md"} <= set(store.files)
    assert not [f for f in store.findings if f.file in leftovers]
    assert not [f for f in store.findings if f.code == "unreadable"]
    # and a transaction works beside them
    with Transaction(str(root), "edit") as tx:
        tx.write("facts.md", tx.read("facts.md") + b"- ok\n")
        tx.commit()
    assert (root / "facts.md").read_bytes().endswith(b"- ok\n")
