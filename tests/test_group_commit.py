"""Group commit in the write path and in bulk chunks: fewer fsyncs and fewer chunks,
the same durability (every folder synced before the journal, the commit point)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memtui.engine.write.transaction import Transaction
from memtui.layouts.dsh import ops as dsh
from memtui.layouts.dsh.chunks import Pace, stop
from tests.conftest import write_tree

SOPS = {f"sops/s{i}.md": f"# s{i}\nold text {i}\n" for i in range(4)}


def _fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every fsync, by the path of what was synced, in order."""
    synced: list[str] = []
    real = os.fsync

    def fsync(fd: int) -> None:
        synced.append(os.readlink(f"/proc/self/fd/{fd}"))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name an fd")
def test_new_history_folders_share_one_fsync_of_their_parent_before_the_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = write_tree(tmp_path / "store", {"index.txt": "[RULES] x\n", "facts.md": "# F\n", **SOPS})
    real_root = os.path.realpath(root)
    synced = _fsyncs(monkeypatch)
    with Transaction(str(root), "edit") as tx:
        for rel in SOPS:
            tx.read(rel)
            tx.write(rel, b"new\n")
        tx.commit()
    parent = f"{real_root}/.history/sops"
    assert synced.count(parent) == 1, synced
    for rel in SOPS:  # each new folder still synced once its snapshot is in it
        assert f"{real_root}/.history/{rel}" in synced
    journal = synced.index(f"{real_root}/.history/journal")
    assert synced.index(parent) < journal
    for rel in SOPS:
        assert (root / rel).read_bytes() == b"new\n"
        (snap,) = (root / ".history" / rel).iterdir()
        assert snap.read_text(encoding="utf-8") == SOPS[rel]


# --- chunk pacing ---------------------------------------------------------------------


def test_a_chunk_plans_at_least_as_long_as_its_fixed_commit_cost():
    """A slow disk (a commit whose fixed part alone exceeds the chunk's time) must not
    shrink chunks to one candidate each: planning goes on until it took as long."""
    slow = Pace(fixed=3600.0, per_write=0.0)
    started = time.monotonic()
    assert not stop(1, started, slow, 0, 500, 0.8)
    assert stop(500, started, slow, 0, 500, 0.8)  # the chunk size still caps it


def test_a_chunk_stops_at_its_time_when_the_fixed_cost_is_small():
    quick = Pace(fixed=0.01, per_write=0.0)
    long_ago = time.monotonic() - 60.0
    assert stop(1, long_ago, quick, 0, 500, 0.8)
    assert not stop(0, long_ago, quick, 0, 500, 0.8)  # never an empty chunk


def test_bulk_accept_on_a_slow_commit_takes_more_than_one_candidate_a_chunk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Every chunk's commit is made to look slow (the pace learns a large fixed part);
    the accept still needs few chunks, not one per candidate."""
    files = {"facts.md": "# Facts\n\n## A\n- one\n", "index.txt": "[RULES] x\n"}
    for i in range(12):
        files[f"pending/2026112{i // 10}-{i:04d}.md"] = (
            f"---\nid: 2026112{i // 10}-{i:04d}\nentry_type: fact\ntarget: A\n"
            f'evidence: "seen {i}"\n---\n- fact {i}\n'
        )
    root = write_tree(tmp_path / "store", files)
    learn = Pace.learn
    monkeypatch.setattr(
        Pace, "learn", lambda self, s, w, books=None: learn(self, s + 3600.0, w, 3600.0)
    )
    receipts = dsh.accept(str(root), all_pending=True, chunk_size=5)
    assert [len(r.details["accepted"]) for r in receipts] == [5, 5, 2]
    assert not list((root / "pending").glob("*.md"))
