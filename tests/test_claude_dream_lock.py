"""Claude Code's auto-dream lock (`.consolidate-lock`, a pid, fresh for an hour:
services/autoDream/consolidationLock.ts): while a live process holds it memtui writes
nothing in the folder and says who holds it; a stale lock (old, or its pid gone) is no
obstacle and is never deleted (Detection.held, asked by the transaction)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memtui.engine import ops
from memtui.engine.ops.common import Refused
from tests.conftest import run_cli, tree_digest, write_tree

FOLDER = {
    "MEMORY.md": "- [Role](user_role.md) — backend engineer\n",
    "user_role.md": "---\nname: Role\ndescription: the role\ntype: user\n---\nBackend.\n",
}


@pytest.fixture
def live_pid():
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    yield child.pid
    child.kill()
    child.wait()


def _files(root: Path) -> dict[str, str]:
    """The folder's files but memtui's own lock (any change attempt creates it)."""
    return {k: v for k, v in tree_digest(root).items() if k != ".memory.lock"}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_live_dream_refuses_every_change_and_names_the_pid(tmp_path: Path, live_pid: int) -> None:
    root = write_tree(tmp_path / "c", {**FOLDER, ".consolidate-lock": str(live_pid)})
    before = _files(root)
    with pytest.raises(Refused, match=rf"auto-dream is consolidating this folder \(pid {live_pid}"):
        ops.archive(str(root), "claude:user_role.md")
    assert _files(root) == before
    edited = tmp_path / "new.md"
    edited.write_text("---\nname: Role\ndescription: d\ntype: user\n---\nNew.\n")
    got = run_cli("edit", "claude:user_role.md", "--text-file", str(edited), "--store", str(root))
    assert got.returncode == 1 and f"pid {live_pid}" in got.stderr and "Traceback" not in got.stderr
    assert _files(root) == before


def test_a_stale_lock_is_no_obstacle_and_stays(tmp_path: Path, live_pid: int) -> None:
    root = write_tree(tmp_path / "dead", {**FOLDER, ".consolidate-lock": f"{_dead_pid()}\n"})
    ops.archive(str(root), "claude:user_role.md")  # its pid is gone
    assert (root / ".consolidate-lock").is_file()
    old = write_tree(tmp_path / "old", {**FOLDER, ".consolidate-lock": str(live_pid)})
    hour_ago = time.time() - 3601
    os.utime(old / ".consolidate-lock", (hour_ago, hour_ago))  # a live pid, but an hour old
    ops.archive(str(old), "claude:user_role.md")
    empty = write_tree(tmp_path / "empty", {**FOLDER, ".consolidate-lock": ""})  # rolled back
    ops.archive(str(empty), "claude:user_role.md")
    assert (empty / ".consolidate-lock").read_text() == ""
