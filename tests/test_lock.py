"""StoreLock against the agents' real lock: `exec 9>"$ROOT/.memory.lock"; flock -x ...` in bash.

Both sides must exclude each other (fcntl.flock on the same file), in both directions.
No timing assertions: order is proven by marker files the holder writes inside its
critical section; waits and timeouts are generous and only there to avoid hangs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest

from memtui.engine.write.lock import LOCK_NAME, LockTimeout, StoreLock
from memtui.engine.write.progress import Progress, reporting
from memtui.engine.write.transaction import Transaction
from tests.conftest import tree_digest, write_tree

pytestmark = [
    pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash to play the agent"),
    pytest.mark.skipif(
        shutil.which("flock") is None,
        reason="needs flock(1) from util-linux: the agents' bash locks with it",
    ),
]

HANG = 30.0  # seconds; only a guard against hanging, never a measured duration

# The agent takes the lock exactly as the seed's bash does, says so, then holds it
# until the test lets go (a file), appends to its log and exits (which unlocks).
HOLDER = r"""
exec 9>"$ROOT/.memory.lock"
flock -x -w 10 9 || { echo "no lock" >&2; exit 1; }
: > "$MARK/held"
n=0  # a deadline of its own (60 s), so no holder outlives a failed test for long
while [ ! -e "$MARK/go" ] && [ $n -lt 6000 ]; do sleep 0.01; n=$((n + 1)); done
echo agent >> "$MARK/log"
flock -u 9
exec 9>&-
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", {"memory/events.md": "# 事件\n"})


@pytest.fixture
def mark(tmp_path: Path) -> Path:
    folder = tmp_path / "marks"  # outside the store, so the store stays untouched
    folder.mkdir()
    return folder


def wait_for(path: Path, proc: subprocess.Popen[str] | None = None) -> None:
    deadline = time.monotonic() + HANG
    while not path.exists():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the agent exited early: {proc.communicate()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"{path} never appeared")
        time.sleep(0.01)


class Agent:
    """A bash process that holds the store lock until released."""

    def __init__(self, root: Path, mark: Path) -> None:
        self.mark = mark
        env = {**os.environ, "ROOT": str(root), "MARK": str(mark)}
        self.proc = subprocess.Popen(
            ["bash", "-c", HOLDER], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        wait_for(mark / "held", self.proc)

    def release(self) -> int:
        (self.mark / "go").touch()
        self.proc.communicate(timeout=HANG)
        return self.proc.returncode

    def kill(self) -> None:
        if self.proc.poll() is None:
            (self.mark / "go").touch()
            try:
                self.proc.wait(timeout=HANG)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def agent(root: Path, mark: Path):
    started: list[Agent] = []

    def start() -> Agent:
        started.append(Agent(root, mark))
        return started[-1]

    yield start
    for one in started:
        one.kill()


def log(mark: Path) -> list[str]:
    path = mark / "log"
    return path.read_text().split() if path.exists() else []


def bash_flock(root: Path, mark: Path, wait: int) -> subprocess.CompletedProcess[str]:
    """The agent's lock attempt with `flock -x -w WAIT`; exit 7 when it times out."""
    script = (
        f'exec 9>"$ROOT/.memory.lock"; flock -x -w {wait} 9 || {{ exec 9>&-; exit 7; }}; '
        'echo agent >> "$MARK/log"; flock -u 9; exec 9>&-'
    )
    env = {**os.environ, "ROOT": str(root), "MARK": str(mark)}
    return subprocess.run(
        ["bash", "-c", script], env=env, capture_output=True, text=True, timeout=HANG
    )


# --- the agent holds the lock -----------------------------------------------------------------


def test_storelock_waits_for_the_agent_then_proceeds(root: Path, mark: Path, agent):
    holder = agent()
    got: list[str] = []

    def memtui() -> None:
        with StoreLock(str(root), wait=HANG):
            got.append("locked")
            with (mark / "log").open("a") as fh:
                fh.write("memtui\n")

    thread = threading.Thread(target=memtui)
    thread.start()
    thread.join(0.3)  # if the lock did not exclude, memtui would be through by now
    assert got == [], "memtui took the lock while the agent's bash held it"
    assert holder.release() == 0
    thread.join(HANG)
    assert not thread.is_alive()
    assert got == ["locked"]
    assert log(mark) == ["agent", "memtui"]  # memtui's critical section came after the agent's


def test_a_wait_is_reported_only_while_the_agent_holds_the_lock(root: Path, mark: Path, agent):
    """write/progress: a free lock reports nothing (no "waiting for the store lock" when
    nobody holds it); a held one reports the wait when the non-blocking attempt fails,
    and its end once memtui has the lock."""
    told: list[Progress] = []
    with reporting(told.append), StoreLock(str(root), wait=HANG):
        pass
    assert told == []

    holder = agent()

    def memtui() -> None:
        with reporting(told.append), StoreLock(str(root), wait=HANG):
            pass

    thread = threading.Thread(target=memtui)
    thread.start()
    deadline = time.monotonic() + HANG
    while not told and time.monotonic() < deadline:  # told while the agent still holds it
        time.sleep(0.01)
    assert told == [Progress(waiting=LOCK_NAME)]
    assert holder.release() == 0
    thread.join(HANG)
    assert told == [Progress(waiting=LOCK_NAME), Progress(waiting=None)]


def test_transaction_waits_for_the_agent_then_commits(root: Path, mark: Path, agent):
    holder = agent()
    errors: list[BaseException] = []

    def memtui() -> None:
        try:
            with Transaction(str(root), "edit", lock_wait=HANG) as tx:
                # the agent has written its log line before memtui got in
                seen = (mark / "log").read_text()
                old = tx.read("memory/events.md")
                tx.write("memory/events.md", old + f"<!-- after: {seen.strip()} -->\n".encode())
                tx.commit()
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)

    thread = threading.Thread(target=memtui)
    thread.start()
    thread.join(0.3)
    assert thread.is_alive(), f"memtui did not wait for the agent's lock: {errors}"
    assert holder.release() == 0
    thread.join(HANG)
    assert not thread.is_alive()
    assert errors == []
    text = (root / "memory/events.md").read_text(encoding="utf-8")
    assert text == "# 事件\n<!-- after: agent -->\n"


def test_short_wait_times_out_and_writes_nothing(root: Path, mark: Path, agent):
    holder = agent()
    before = tree_digest(root)
    with pytest.raises(LockTimeout) as caught:
        StoreLock(str(root), wait=0.2).acquire()
    assert LOCK_NAME in str(caught.value)
    with pytest.raises(LockTimeout) as caught, Transaction(str(root), "edit", lock_wait=0.2) as tx:
        tx.write("memory/events.md", b"lost?\n", expect=None)
        tx.commit()
    assert LOCK_NAME in str(caught.value)
    assert "nothing was changed" in str(caught.value)
    assert tree_digest(root) == before
    assert holder.release() == 0
    assert log(mark) == ["agent"]
    with StoreLock(str(root), wait=HANG):  # free again once the agent is done
        pass


# --- memtui holds the lock ------------------------------------------------------------------


def test_agent_cannot_lock_while_memtui_holds_it(root: Path, mark: Path):
    with StoreLock(str(root)):
        blocked = bash_flock(root, mark, wait=1)
        assert blocked.returncode == 7, blocked.stderr
        assert log(mark) == []
    free = bash_flock(root, mark, wait=10)
    assert free.returncode == 0, free.stderr
    assert log(mark) == ["agent"]


def test_agent_cannot_lock_during_a_transaction(root: Path, mark: Path):
    with Transaction(str(root), "edit") as tx:
        old = tx.read("memory/events.md")
        blocked = bash_flock(root, mark, wait=1)
        tx.write("memory/events.md", old + b"memtui\n")
        tx.commit()
        assert blocked.returncode == 7, blocked.stderr
    assert log(mark) == []
    assert bash_flock(root, mark, wait=10).returncode == 0
    assert log(mark) == ["agent"]


def test_both_sides_share_one_lock_file(root: Path, mark: Path, agent):
    """bash's `exec 9>` truncates but keeps the inode; memtui neither replaces nor deletes it."""
    agent().release()
    lock = root / LOCK_NAME
    inode = lock.stat().st_ino
    for _ in range(3):
        with StoreLock(str(root)):
            pass
        assert bash_flock(root, mark, wait=10).returncode == 0
    assert lock.stat().st_ino == inode


def test_storelock_is_released_on_exit(root: Path, mark: Path):
    lock = StoreLock(str(root))
    with lock:
        pass
    assert bash_flock(root, mark, wait=10).returncode == 0
    lock.release()  # a second release is harmless
    with StoreLock(str(root), wait=0):
        pass


def test_a_transaction_also_holds_an_agents_per_file_lock(root: Path, mark: Path):
    """Hermes takes flock on memories/MEMORY.md.lock around each write: memtui holds the
    same lock for the whole transaction, so the agent waits, then proceeds."""
    (root / "memories").mkdir()
    (root / "memories" / "MEMORY.md").write_text("a fact")
    with Transaction(str(root), "edit") as tx:
        tx.lock("memories/MEMORY.md.lock")
        got = subprocess.run(
            ["flock", "-x", "-w", "0.2", str(root / "memories" / "MEMORY.md.lock"), "true"],
            timeout=30,
        )
        assert got.returncode == 1  # held by memtui
        tx.read("memories/MEMORY.md")
        tx.write("memories/MEMORY.md", "a fact\n§\nanother".encode())
        tx.commit()
    got = subprocess.run(
        ["flock", "-x", "-w", "5", str(root / "memories" / "MEMORY.md.lock"), "true"], timeout=30
    )
    assert got.returncode == 0  # released with the transaction
