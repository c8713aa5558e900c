"""Faults a user or the agent can cause on the write path: a full or read-only disk, a
FIFO or a folder where a file should be, `.history` as a file. Each is refused with a
message that names the file and says whether anything changed; nothing hangs, nothing
is half-done, no "internal error".

The disk faults come from the fault-injection seam (MEMTUI_FAULT / faults.arm), so the
suite needs no root and no real full disk.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memtui.engine.write import faults, journal
from memtui.engine.write.errors import WriteError
from memtui.layouts.companion import ops as companion
from memtui.layouts.dsh import ops as dsh
from tests.conftest import write_tree
from tests.helpers import ACCEPT_CID, ACCEPT_STORE, ENV, EVENTS, EVENTS_MD, candidate

CID = ACCEPT_CID
STORE = {**ACCEPT_STORE, EVENTS: EVENTS_MD}


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", STORE)


@pytest.fixture(autouse=True)
def disarm():
    yield
    faults.arm(None)


def memory(root: Path) -> dict[str, bytes]:
    """The store's own files: everything but memtui's bookkeeping and the lock."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file()
        and not p.relative_to(root).as_posix().startswith(".history")
        and p.name != ".memory.lock"
    }


def leftovers(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*") if ".memtui-" in p.name or p.name.endswith(".part")]


def accept(root: Path) -> None:
    [receipt] = dsh.accept(str(root), [CID])
    assert receipt is not None


def count_calls(root: Path, kind: str) -> int:
    """How many I/O calls of `kind` one accept makes, on a copy of the store."""
    copy = root.parent / "count"
    shutil.copytree(root, copy)
    faults.arm(f"ENOSPC:{kind}#1000000")  # armed far off: counts, never fires
    accept(copy)
    return faults.seen(kind)


@pytest.mark.parametrize("code", ["ENOSPC", "EROFS", "EIO"])
@pytest.mark.parametrize("kind", ["write", "mkdir", "replace"])
def test_every_nth_io_call_failing_leaves_old_or_new_and_says_which(
    root: Path, code: str, kind: str
):
    before = memory(root)
    calls = count_calls(root, kind)
    assert calls >= 1
    for nth in range(1, calls + 1):
        trial = root.parent / f"{code}-{kind}-{nth}"
        shutil.copytree(root, trial)
        faults.arm(f"{code}:{kind}#{nth}")
        try:
            accept(trial)
            failure = None
        except WriteError as exc:
            failure = str(exc)
        finally:
            faults.arm(None)
        if failure is None or "the change was made" in failure:
            assert accepted(trial), (nth, failure)  # wholly done
        else:
            assert "internal" not in failure
            assert os.strerror(getattr(errno, code)).lower() in failure.lower() or (
                "disk is full" in failure or "read-only" in failure
            ), failure
            if "nothing was changed" in failure:
                assert memory(trial) == before, (nth, failure)
            else:  # interrupted after the commit point: the next change settles it
                assert "next memtui command" in failure, failure
                assert journal.pending(str(trial))
        # whatever happened, the next change leaves one consistent store and no debris
        companion.done(str(trial), "E006")
        assert journal.pending(str(trial)) == []
        assert leftovers(trial) == []
        now = memory(trial)
        del now[EVENTS]
        assert accepted(trial) or now == {k: v for k, v in before.items() if k != EVENTS}


def accepted(root: Path) -> bool:
    """The whole accept is there: fact once, candidate archived, books counted."""
    facts = (root / "facts.md").read_text()
    meta = json.loads((root / "memory-meta.json").read_text())
    stats = json.loads((root / "memory_stats.json").read_text())
    return (
        facts.count("- pytest runs from the repo root") == 1
        and not (root / "pending" / f"{CID}.md").exists()
        and (root / "archive" / "pending" / f"{CID}.md").exists()
        and "fact:PYTHON_ENV" in meta["entries"]
        and stats["accepted"] == 1
    )


def test_a_full_disk_from_the_cli_is_a_message_and_exit_1(root: Path):
    before = memory(root)
    env = {**os.environ, **ENV, "MEMTUI_FAULT": "ENOSPC:write#2"}
    got = subprocess.run(
        [sys.executable, "-m", "memtui", "--store", str(root), "done", "E006"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert got.returncode == 1
    assert "disk is full" in got.stderr and "nothing was changed" in got.stderr
    assert "internal error" not in got.stderr and "Traceback" not in got.stderr
    assert memory(root) == before


def test_read_only_file_system_for_the_lock(root: Path):
    faults.arm("EROFS:lock")
    with pytest.raises(WriteError, match=r"read-only.*nothing was changed"):
        companion.done(str(root), "E006")


@pytest.mark.timeout(60)
def test_a_fifo_where_a_store_file_should_be_is_refused_at_once(root: Path):
    (root / "facts.md").unlink()
    os.mkfifo(root / "facts.md")
    before = memory_without_fifo(root)
    with pytest.raises(WriteError, match=r"facts\.md is not readable: a FIFO, not a regular file"):
        accept(root)
    assert memory_without_fifo(root) == before
    assert_lock_free(root)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("rel", [".memory.lock", ".history/audit.jsonl"])
def test_a_fifo_for_memtuis_own_files_is_refused_before_anything_changes(root: Path, rel: str):
    (root / rel).parent.mkdir(exist_ok=True)
    os.mkfifo(root / rel)
    before = memory(root)
    with pytest.raises(WriteError, match="nothing was changed"):
        companion.done(str(root), "E006")
    assert memory(root) == before
    assert journal.pending(str(root)) == []


def test_history_as_a_file_is_refused(root: Path):
    (root / ".history").write_text("not a folder\n")
    before = memory(root)
    with pytest.raises(WriteError, match=r"\.history.*(file where memtui expects a folder)"):
        companion.done(str(root), "E006")
    assert memory(root) == before
    assert (root / ".history").read_text() == "not a folder\n"


def test_a_folder_where_a_file_should_be_is_refused(root: Path):
    (root / "memory_stats.json").unlink()
    (root / "memory_stats.json").mkdir()
    before = memory(root)
    with pytest.raises(WriteError, match=r"memory_stats\.json is not readable: a folder"):
        accept(root)
    assert memory(root) == before


def test_a_write_over_the_size_limit_is_refused(root: Path):
    (root / "memtui.toml").write_text("[thresholds]\nmax_file_bytes = 600\n")
    before = memory(root)
    with pytest.raises(WriteError, match="over the 600-byte limit"):
        companion.add_event(str(root), "用户Todo", "x" * 400)
    assert memory(root) == before


def memory_without_fifo(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".history" not in p.parts and p.name != ".memory.lock"
    }


def assert_lock_free(root: Path) -> None:
    """The agent's own `flock -w 1` gets the lock: memtui is not holding it."""
    if shutil.which("flock") is None:
        return
    got = subprocess.run(
        ["bash", "-c", f'exec 9>"{root}/.memory.lock"; flock -x -w 1 9'], timeout=30
    )
    assert got.returncode == 0


def test_audit_lines_stay_small_for_a_bulk_accept(root: Path):
    ids = [f"202611{n:02d}-0001" for n in range(1, 31)]
    write_tree(root, {f"pending/{cid}.md": candidate(cid) for cid in ids})
    dsh.accept(str(root), all_pending=True)
    last = json.loads((root / ".history" / "audit.jsonl").read_text().splitlines()[-1])
    listed = [v for v in last["details"].values() if isinstance(v, dict) and "count" in v]
    assert listed and all(len(v["first"]) == journal.AUDIT_LIST_MAX for v in listed)
    assert all(v["count"] > journal.AUDIT_LIST_MAX for v in listed)


def test_the_engine_creates_nothing_in_a_folder_that_is_no_store(tmp_path: Path):
    from memtui.engine.write.transaction import Transaction

    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n")
    refusal = r"holds no memory store.*nothing was created"
    with pytest.raises(WriteError, match=refusal), Transaction(str(folder), "add") as tx:
        tx.read("facts.md")
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]
