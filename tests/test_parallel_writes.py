"""A transaction's many snapshots and staged files are written a few at a time
(write.parallel): each is still fsynced before the journal, the commit point; a failure
in any of them changes nothing and leaves no debris; no folder descriptor leaks."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memtui.engine.write import faults, groupsync, parallel
from memtui.engine.write.errors import WriteError
from memtui.engine.write.transaction import Transaction
from tests.conftest import tree_digest, write_tree

COUNT = parallel.SERIAL_BELOW * 2  # enough to take the threaded path
SOPS = {f"sops/s{i:02d}.md": f"# s{i}\nold {i}\n" for i in range(COUNT)}
NEW = {f"sops/n{i:02d}.md": f"# n{i}\n" for i in range(COUNT)}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", {"index.txt": "[RULES] x\n", "facts.md": "# F\n", **SOPS})


@pytest.fixture(autouse=True)
def disarm():
    yield
    faults.arm(None)


@pytest.fixture
def per_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fsync-each path, as where syncfs is missing (groupsync: test_group_sync.py)."""
    monkeypatch.setattr(groupsync, "BATCH", 1 << 30)


def _memory(root: Path) -> dict[str, str]:
    """The store's files, without memtui's bookkeeping and the lock."""
    digest = tree_digest(root)
    return {k: v for k, v in digest.items() if not k.startswith((".history", ".memory.lock"))}


def _change(root: Path) -> None:
    with Transaction(str(root), "edit") as tx:
        for rel in SOPS:
            tx.read(rel)
            tx.write(rel, f"new {rel}\n".encode())
        for rel, text in NEW.items():
            tx.read(rel)
            tx.write(rel, text.encode())
        tx.commit()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name an fd")
@pytest.mark.usefixtures("per_file")
def test_every_file_is_fsynced_before_the_journal(root: Path, monkeypatch: pytest.MonkeyPatch):
    synced: list[str] = []
    threads: set[str] = set()
    real = os.fsync

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        real(fd)
        synced.append(path)  # after the sync returned: a list append is atomic
        threads.add(threading.current_thread().name)

    monkeypatch.setattr(os, "fsync", fsync)
    _change(root)
    journal = synced.index(f"{os.path.realpath(root)}/.history/journal")
    before = synced[:journal]
    staged = [p for p in before if ".memtui-" in p]
    snapshots = [p for p in before if "/.history/sops/" in p and os.path.isfile(p)]
    assert len(staged) == 2 * COUNT and len(snapshots) == COUNT
    assert any(name.startswith("memtui-io") for name in threads)  # the threaded path ran
    for rel in SOPS:
        assert (root / rel).read_bytes() == f"new {rel}\n".encode()
        (snap,) = (root / ".history" / rel).iterdir()
        assert snap.read_text(encoding="utf-8") == SOPS[rel]
    for rel, text in NEW.items():
        assert (root / rel).read_text(encoding="utf-8") == text


@pytest.mark.parametrize("nth", [1, COUNT // 2, COUNT + 3, 3 * COUNT])
def test_a_failed_write_among_many_changes_nothing(root: Path, nth: int):
    before = _memory(root)
    faults.arm(f"ENOSPC:write#{nth}")
    with pytest.raises(WriteError, match="nothing was changed") as failure:
        _change(root)
    faults.arm(None)
    assert "sops/" in str(failure.value)  # names a file it was writing
    assert _memory(root) == before
    assert not [p for p in root.rglob("*") if ".memtui-" in p.name]
    _change(root)  # and the next change goes through
    assert (root / "sops" / "n00.md").exists()


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to count fds")
def test_no_descriptor_is_left_open(root: Path):
    open_before = len(os.listdir("/proc/self/fd"))
    _change(root)
    assert len(os.listdir("/proc/self/fd")) == open_before


def test_a_few_writes_stay_on_the_calling_thread():
    seen: list[str] = []
    parallel.each([1, 2, 3], lambda i: seen.append(threading.current_thread().name), print)
    assert set(seen) == {threading.current_thread().name}


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to count fds")
@pytest.mark.parametrize("nth", [1, COUNT, 2 * COUNT + 1, 3 * COUNT])
@pytest.mark.usefixtures("per_file")
def test_a_failed_fsync_among_many_changes_nothing_and_closes_everything(
    root: Path, nth: int, monkeypatch: pytest.MonkeyPatch
):
    """Files are written first and fsynced after (files.Unsynced): an fsync that fails
    (EIO from the disk) still fails the change before its commit point, names what it
    was syncing, and leaves neither the file's descriptor nor its bytes behind."""
    before = _memory(root)
    open_before = len(os.listdir("/proc/self/fd"))
    real, calls = os.fsync, [0]
    lock = threading.Lock()

    def fsync(fd: int) -> None:
        with lock:
            calls[0] += 1
            failing = calls[0] == nth
        if failing:
            raise OSError(5, os.strerror(5))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(WriteError, match="nothing was changed") as failure:
        _change(root)
    monkeypatch.setattr(os, "fsync", real)
    assert "sops" in str(failure.value) or ".history" in str(failure.value)
    assert _memory(root) == before
    assert not [p for p in root.rglob("*") if ".memtui-" in p.name]
    assert len(os.listdir("/proc/self/fd")) == open_before
    _change(root)
    assert (root / "sops" / "n00.md").exists()
