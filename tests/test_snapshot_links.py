"""A snapshot of a file that the change replaces or removes is a second name of that
file (files.link_new), not a copy, whenever that keeps exactly the old bytes: the same
bytes, the same mode, the same owner, and no other name that could write to it later.
Otherwise, or where the file system has no links, it is a copy as before."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from memtui.engine.ops.undo import undo
from memtui.engine.write import faults, files
from memtui.engine.write.operation import operation
from memtui.engine.write.transaction import Transaction, WriteError
from tests.conftest import write_tree

FILES = {  # a dsh store
    "index.txt": "[RULES] No Execution, No Memory\n",
    "facts.md": "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n",
    "pending/20261129-0007.md": "---\nid: 20261129-0007\n---\n- a fact\n",
}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", FILES)


@pytest.fixture(autouse=True)
def disarm():
    yield
    faults.arm(None)


def snapshot_of(root: Path, rel: str) -> Path:
    [snap] = sorted((root / ".history" / rel).iterdir())
    return snap


def test_a_removed_file_is_kept_as_it_was_by_a_second_name(root: Path):
    target = root / "pending/20261129-0007.md"
    target.chmod(0o640)
    before = os.stat(target)
    old = target.read_bytes()
    with Transaction(str(root), "reject") as tx:
        tx.read("pending/20261129-0007.md")
        tx.remove("pending/20261129-0007.md")
        tx.commit()
    assert not target.exists()
    snap = os.stat(snapshot_of(root, "pending/20261129-0007.md"))
    assert (snap.st_ino, snap.st_dev) == (before.st_ino, before.st_dev)  # the file itself
    assert snap.st_nlink == 1  # the only name left
    assert snap.st_mode & 0o7777 == 0o640
    assert snapshot_of(root, "pending/20261129-0007.md").read_bytes() == old


def test_a_replaced_file_keeps_its_old_bytes_and_the_new_one_is_another_file(root: Path):
    target = root / "facts.md"
    inode = target.stat().st_ino
    old = target.read_bytes()
    with Transaction(str(root), "edit") as tx:
        tx.read("facts.md")
        tx.write("facts.md", old + b"- pytest -q runs 41 tests\n")
        tx.commit()
    snap = snapshot_of(root, "facts.md")
    assert snap.stat().st_ino == inode
    assert target.stat().st_ino != inode
    assert snap.read_bytes() == old
    assert target.read_bytes() == old + b"- pytest -q runs 41 tests\n"
    # an undo reads the snapshot back by its hash, as for a copy
    undo(root)
    assert target.read_bytes() == old


def test_a_file_with_another_name_is_copied(root: Path, tmp_path: Path):
    """A second link elsewhere could write into the snapshot after the change."""
    target = root / "facts.md"
    os.link(target, tmp_path / "elsewhere.md")
    with Transaction(str(root), "remove") as tx:
        tx.read("facts.md")
        tx.remove("facts.md")
        tx.commit()
    snap = snapshot_of(root, "facts.md")
    assert snap.stat().st_ino != (tmp_path / "elsewhere.md").stat().st_ino
    assert snap.read_bytes() == (tmp_path / "elsewhere.md").read_bytes()
    (tmp_path / "elsewhere.md").write_bytes(b"written through the other name\n")
    assert snap.read_bytes() == FILES["facts.md"].encode()


def test_a_file_system_without_links_gets_a_copy(root: Path, monkeypatch: pytest.MonkeyPatch):
    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(files.os, "link", no_links)
    inode = (root / "facts.md").stat().st_ino
    with Transaction(str(root), "remove") as tx:
        tx.read("facts.md")
        tx.remove("facts.md")
        tx.commit()
    snap = snapshot_of(root, "facts.md")
    assert snap.stat().st_ino != inode
    assert snap.read_bytes() == FILES["facts.md"].encode()


def test_a_file_written_between_the_read_and_the_snapshot_is_not_linked(
    root: Path, monkeypatch: pytest.MonkeyPatch
):
    """The link names whatever the path holds at that moment: it is kept only if that is
    the bytes read. Here a writer ignoring the lock replaced the file just before it."""
    target = root / "facts.md"
    real_link = os.link

    def swapped_first(src: str, dst: str, **kwargs: object) -> None:
        same_size = FILES["facts.md"].upper().encode()  # only its bytes tell it apart
        (root / "facts.md.new").write_bytes(same_size)
        os.replace(root / "facts.md.new", target)
        real_link(src, dst, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(files.os, "link", swapped_first)
    with Transaction(str(root), "edit") as tx:
        tx.read("facts.md")
        tx.write("facts.md", b"# Facts\n- memtui's version\n")
        tx.commit()
    snap = snapshot_of(root, "facts.md")
    assert snap.read_bytes() == FILES["facts.md"].encode()  # the bytes read, copied
    assert snap.stat().st_ino != target.stat().st_ino


def test_a_change_that_fails_after_its_snapshots_leaves_no_second_name(root: Path):
    """Staging the new bytes fails (a full disk): the file was never replaced, so a
    snapshot that is the file itself would follow what an agent writes into it next."""
    target = root / "facts.md"
    faults.arm("ENOSPC:write#2")  # 1: the snapshot's link, 2: the journal's note
    with pytest.raises(WriteError), Transaction(str(root), "edit") as tx:
        tx.read("facts.md")
        tx.write("facts.md", b"# Facts\n- new\n")
        tx.commit()
    assert target.read_bytes() == FILES["facts.md"].encode()
    assert target.stat().st_nlink == 1
    assert not any(p.is_file() for p in (root / ".history" / "facts.md").rglob("*"))


def test_a_bulk_action_sees_a_new_sibling_from_an_earlier_chunk(root: Path):
    """Chunks of one operation stat only the files the chunk before did not see: a more
    private file that appears between them still narrows the next new file's mode."""
    (root / "pending/20261129-0007.md").chmod(0o644)
    with operation():
        with Transaction(str(root), "add") as tx:
            tx.read("pending/a.md")
            tx.write("pending/a.md", b"- a\n")
            tx.commit()
        assert (root / "pending/a.md").stat().st_mode & 0o777 == 0o644 & ~_umask()
        (root / "pending/private.md").write_bytes(b"- kept private\n")
        (root / "pending/private.md").chmod(0o600)
        with Transaction(str(root), "add") as tx:
            tx.read("pending/b.md")
            tx.write("pending/b.md", b"- b\n")
            tx.commit()
    assert (root / "pending/b.md").stat().st_mode & 0o777 == 0o600


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
