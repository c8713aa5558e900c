"""Recovery after a crash never replaces bytes that no memtui transaction wrote.

An accept is killed (SIGKILL through MEMTUI_CRASH_AT) after some of its files were
applied; then the agent, under the real `flock` on .memory.lock, appends to one file
and rewrites another; then any memtui write verb settles the interrupted accept. The
agent's bytes must survive, in the file and in .history/, and the conflict is reported.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from memtui.engine.store import open_store
from memtui.engine.write import journal
from tests.conftest import write_tree
from tests.helpers import ACCEPT_CID, ACCEPT_STORE, ENV

pytestmark = pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1)")

CID = ACCEPT_CID
STORE = ACCEPT_STORE
AGENT_LINE = b"- the agent learned this after the crash\n"
AGENT_STATS = b'{"facts": 2, "accepted": 0, "agent": "rewrote me"}\n'


def memtui(root: Path, *args: str, crash_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **ENV, "MEMTUI_WHO": "tester"}
    env.pop("MEMTUI_CRASH_AT", None)
    if crash_at:
        env["MEMTUI_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "memtui", "--store", str(root), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def agent(root: Path, script: str, **values: bytes) -> None:
    """A bash agent holding the store lock exactly as the seed's agents take it; `values`
    reach the script as environment variables."""
    body = f'exec 9>"{root}/.memory.lock"; flock -x -w 10 9 || exit 9; {script}'
    env = {**os.environ, **{k: v.decode() for k, v in values.items()}}
    subprocess.run(["bash", "-c", body], check=True, timeout=30, cwd=root, env=env)


def crashed_accept(tmp_path: Path, step: str) -> tuple[Path, dict]:
    root = write_tree(tmp_path / "store", STORE)
    got = memtui(root, "accept", CID, crash_at=step)
    assert got.returncode == -signal.SIGKILL, got.stderr
    [txid] = journal.pending(str(root))
    record = json.loads((root / journal.JOURNAL / f"{txid}.json").read_text())
    return root, record


def applied_paths(record: dict, step: str) -> list[str]:
    n = int(step.split(":")[1])
    return [c["path"] for c in record["changes"][:n]]


def test_agent_append_and_rewrite_after_a_crash_survive_recovery(tmp_path: Path):
    """The issue's repro: applied:2, then the agent appends to facts.md and rewrites
    memory_stats.json, then any write verb."""
    root, record = crashed_accept(tmp_path, "applied:2")
    assert "facts.md" in applied_paths(record, "applied:2")
    assert "memory_stats.json" not in applied_paths(record, "applied:2")
    facts_after_crash = (root / "facts.md").read_bytes()
    assert b"pytest runs from the repo root" in facts_after_crash

    script = 'printf "%s" "$LINE" >> facts.md && printf "%s" "$STATS" > memory_stats.json'
    agent(root, script, LINE=AGENT_LINE, STATS=AGENT_STATS)
    facts_by_agent = (root / "facts.md").read_bytes()
    assert facts_by_agent == facts_after_crash + AGENT_LINE

    got = memtui(root, "index")
    assert got.returncode == 0, got.stderr
    assert "interrupted" in got.stderr and "memory_stats.json" in got.stderr

    # the agent's bytes are all there, in the files as it left them
    assert (root / "facts.md").read_bytes() == facts_by_agent
    assert (root / "memory_stats.json").read_bytes() == AGENT_STATS
    # and in .history, beside the version memtui meant
    history = root / ".history" / "memory_stats.json"
    assert AGENT_STATS in [p.read_bytes() for p in history.iterdir()]
    meant = root / ".history" / "unapplied" / record["txid"] / "memory_stats.json"
    assert json.loads(meant.read_bytes())["accepted"] == 1
    # the rest of the accept was finished: the candidate is archived, nothing is pending
    assert not (root / "pending" / f"{CID}.md").exists()
    assert (root / "archive" / "pending" / f"{CID}.md").exists()
    assert journal.pending(str(root)) == []
    line = next(
        json.loads(x)
        for x in (root / ".history/audit.jsonl").read_text().splitlines()
        if json.loads(x)["txid"] == record["txid"]
    )
    assert line["recovered"].startswith("completed") and "memory_stats.json" in line["conflicts"][0]
    # and it stays visible until the user has looked
    found = [f for f in open_store(root).findings if f.code == "recovery-conflict"]
    assert len(found) == 1 and found[0].file == "memory_stats.json"


def test_agent_rewrote_an_applied_file_so_nothing_of_ours_is_undone_over_it(tmp_path: Path):
    """applied:2, then the agent rewrites facts.md wholesale (not an append): undoing the
    accept would replace the agent's bytes with the snapshot, so facts.md is left alone
    and only the files holding exactly memtui's bytes are put back."""
    root, _ = crashed_accept(tmp_path, "applied:2")
    agent(root, "printf '# Facts\\n\\n## REWRITTEN\\n- by the agent\\n' > facts.md")
    rewritten = (root / "facts.md").read_bytes()

    got = memtui(root, "index")
    assert got.returncode == 0, got.stderr

    assert (root / "facts.md").read_bytes() == rewritten
    assert (root / "pending" / f"{CID}.md").exists()  # the move, exactly ours, was undone
    assert not (root / "archive" / "pending" / f"{CID}.md").exists()
    assert (root / "memory-meta.json").read_bytes() == STORE["memory-meta.json"].encode()
    assert "facts.md was written since" in got.stderr
    assert journal.pending(str(root)) == []


@pytest.mark.parametrize("step", ["journaled", "applied:1", "applied:3", "applied", "verified"])
def test_with_no_agent_write_recovery_finishes_the_accept(tmp_path: Path, step: str):
    root, _ = crashed_accept(tmp_path, step)
    got = memtui(root, "index")
    assert got.returncode == 0, got.stderr
    assert not (root / "pending" / f"{CID}.md").exists()
    facts = (root / "facts.md").read_text()
    assert facts.count("pytest runs from the repo root") == 1
    assert json.loads((root / "memory_stats.json").read_text())["accepted"] == 1
    assert not (root / ".history" / "unapplied").exists()
    assert not [f for f in open_store(root).findings if f.code == "recovery-conflict"]


def test_a_journal_that_cannot_be_read_is_a_message_not_a_crash(tmp_path: Path):
    root = write_tree(tmp_path / "store", STORE)
    folder = root / journal.JOURNAL
    folder.mkdir(parents=True)
    (folder / "20261129T000000-deadbeef.json").write_text("[" * 100_000 + "]" * 100_000)
    before = (root / "facts.md").read_bytes()
    got = memtui(root, "index")
    assert got.returncode == 1
    assert "cannot be read" in got.stderr and "internal error" not in got.stderr
    assert (root / "facts.md").read_bytes() == before
