"""Group commit (write.groupsync): a large batch of new files and folders is made durable
by one syncfs per file system, after every one of them is written and before the
journal; a failed syncfs changes nothing; small batches keep an fsync each."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from memtui.engine.write import groupsync
from memtui.engine.write.errors import WriteError
from memtui.engine.write.transaction import Transaction
from tests.conftest import tree_digest, write_tree

COUNT = groupsync.BATCH * 2
SOPS = {f"sops/s{i:02d}.md": f"# s{i}\nold {i}\n" for i in range(COUNT)}
NEW = {f"sops/n{i:02d}.md": f"# n{i}\n" for i in range(COUNT)}

needs_syncfs = pytest.mark.skipif(groupsync._syncfs() is None, reason="no syncfs here")


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", {"index.txt": "[RULES] x\n", **SOPS})


def _memory(root: Path) -> dict[str, str]:
    digest = tree_digest(root)
    return {k: v for k, v in digest.items() if not k.startswith((".history", ".memory.lock"))}


def _change(root: Path) -> None:
    with Transaction(str(root), "edit") as tx:
        for rel in [*SOPS, *NEW]:
            tx.read(rel)
            tx.write(rel, f"new {rel}\n".encode())
        tx.commit()


def _on_disk(root: Path) -> tuple[set[str], set[str]]:
    """(staged temp files, snapshot files) present now."""
    staged = {p.name for p in (root / "sops").iterdir() if ".memtui-" in p.name}
    history = root / ".history" / "sops"
    snaps = {str(p) for p in history.rglob("*") if p.is_file()} if history.exists() else set()
    return staged, snaps


@needs_syncfs
def test_one_syncfs_per_phase_covers_every_file_before_the_journal(
    root: Path, monkeypatch: pytest.MonkeyPatch
):
    real = groupsync._syncfs()
    assert real is not None
    events: list[tuple[str, object]] = []

    def syncfs(fd: int) -> int:
        events.append(("syncfs", _on_disk(root)))
        return real(fd)

    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    monkeypatch.setattr(groupsync, "_syncfs", lambda: syncfs)
    monkeypatch.setattr(os, "fsync", fsync)
    _change(root)
    journal = events.index(("fsync", f"{os.path.realpath(root)}/.history/journal"))
    synced = [what for kind, what in events[:journal] if kind == "syncfs"]
    assert len(synced) == 2  # the snapshots, then the staged files: one call each
    _, snapshots = synced[0]
    staged, _ = synced[1]
    assert len(snapshots) == COUNT and len(staged) == 2 * COUNT
    assert not any(kind == "syncfs" for kind, _ in events[journal:])
    for rel in [*SOPS, *NEW]:
        assert (root / rel).read_text(encoding="utf-8") == f"new {rel}\n"


@needs_syncfs
@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to count fds")
@pytest.mark.parametrize("nth", [1, 2])
def test_a_failed_syncfs_changes_nothing_and_closes_everything(
    root: Path, nth: int, monkeypatch: pytest.MonkeyPatch
):
    before = _memory(root)
    open_before = len(os.listdir("/proc/self/fd"))
    real, calls = groupsync._syncfs(), [0]
    assert real is not None

    def syncfs(fd: int) -> int:
        calls[0] += 1
        return 5 if calls[0] == nth else real(fd)  # EIO: a writeback error

    monkeypatch.setattr(groupsync, "_syncfs", lambda: syncfs)
    with pytest.raises(WriteError, match="nothing was changed") as failure:
        _change(root)
    assert "sops" in str(failure.value)
    assert _memory(root) == before
    assert not [p for p in root.rglob("*") if ".memtui-" in p.name]
    assert len(os.listdir("/proc/self/fd")) == open_before
    monkeypatch.undo()
    _change(root)
    assert (root / "sops" / "n00.md").read_text(encoding="utf-8") == "new sops/n00.md\n"


@needs_syncfs
@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="needs a second file system")
def test_each_file_system_gets_its_own_syncfs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    here = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(9)]
    shm = Path("/dev/shm") / f"memtui-test-{os.getpid()}-{threading.get_ident()}"
    shm.mkdir()
    try:
        there = [os.open(shm / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(9)]
        if os.fstat(here[0]).st_dev == os.fstat(there[0]).st_dev:
            pytest.skip("/dev/shm is on the same file system here")
        called: list[int] = []
        real = groupsync._syncfs()
        assert real is not None
        monkeypatch.setattr(groupsync, "_syncfs", lambda: lambda fd: called.append(fd) or real(fd))
        assert groupsync.sync(here + there, lambda fd: None)
        assert called == [here[0], there[0]]
        for fd in here + there:
            os.close(fd)
    finally:
        for p in shm.iterdir():
            p.unlink()
        shm.rmdir()


def test_a_small_batch_is_left_to_fsync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(groupsync, "_syncfs", lambda: pytest.fail("syncfs on a small batch"))
    fds = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(3)]
    try:
        assert not groupsync.sync(fds, lambda fd: None)
    finally:
        for fd in fds:
            os.close(fd)


def test_no_syncfs_means_fsync_each(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(groupsync, "_syncfs", lambda: None)
    fds = [os.open(tmp_path / f"f{i}", os.O_WRONLY | os.O_CREAT) for i in range(COUNT)]
    try:
        assert not groupsync.sync(fds, lambda fd: None)
    finally:
        for fd in fds:
            os.close(fd)


@pytest.mark.parametrize(
    ("release", "known"),
    [
        ("6.18.44-fc-v669", (6, 18)),
        ("5.8.0-63-generic", (5, 8)),
        ("4.19.0", (4, 19)),
        ("x", (0, 0)),
    ],
)
def test_the_kernel_release_is_read(monkeypatch: pytest.MonkeyPatch, release: str, known):
    monkeypatch.setattr(os, "uname", lambda: os.uname_result(("Linux", "h", release, "", "")))
    assert groupsync._kernel() == known
