"""A crash at any step of a transaction leaves the store wholly old or wholly new (SPEC §0).

Real worker processes (tests/workers/) are killed by SIGKILL at each step with
MEMTUI_CRASH_AT; then the next transaction (or journal.recover under the lock) settles
what was left, and the store must be the old set of files or the new one, byte for
byte, with the history, the audit and no journal or temp file left over.
"""

from __future__ import annotations

import hashlib
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
from memtui.engine.write.dirs import Dirs
from memtui.engine.write.lock import LOCK_NAME, StoreLock
from memtui.engine.write.recovery import recover
from memtui.engine.write.transaction import Transaction
from tests.conftest import write_tree
from tests.helpers import TODAY_DATE, candidate
from tests.workers.seed_agent import run_agent

REPO = Path(__file__).resolve().parents[1]
WORKERS = REPO / "tests" / "workers"
HANG = 120  # seconds; a guard against hangs only
KILLED = -signal.SIGKILL

EVENTS = """\
# 事件记录

### [E001] 2026-11-20 · 约定
**类型**：约定
**内容**：周末一起看电影
**状态**：待跟进
**到期日**：2026-12-01

### [E002] 2026-11-25 · 用户Todo
**类型**：用户Todo
**内容**：提醒交房租
**状态**：待跟进

### [E000] 2026-11-29T21:40 · last_active
"""
CANDIDATE = candidate("20261129-0007", body="- pytest runs from the repo root\n")
OLD = {
    "index.txt": "[RULES] No Execution, No Memory\n# --- auto ---\n[FACTS] PYTHON_ENV\n"
    "[SOPS] old-sop\n# --- end auto ---\n",
    "facts.md": "# Facts\n\n## PYTHON_ENV\n- the venv lives in /opt/app/.venv\n",
    "memory-meta.json": '{\n  "version": 1,\n  "entries": {}\n}\n',
    "memory/events.md": EVENTS,
    "sops/old-sop.md": "# old sop\n\n1. do the old thing\n",
    "pending/20261129-0007.md": CANDIDATE,
}
# The multi-file change: six steps (one of them the agent's own events.md), so applied:1..6.
NEW_FACTS = OLD["facts.md"] + "- pytest runs from the repo root\n"
NEW_META = (
    '{\n  "version": 1,\n  "entries": {\n    "fact:PYTHON_ENV": {"type": "fact", '
    '"acceptedFrom": "pending/20261129-0007.md"}\n  }\n}\n'
)
NEW_EVENTS = EVENTS.replace(
    "**内容**：提醒交房租\n**状态**：待跟进", "**内容**：提醒交房租\n**状态**：已完成"
)
PLAN = [
    {"op": "write", "path": "facts.md", "data": NEW_FACTS},
    {"op": "write", "path": "memory-meta.json", "data": NEW_META},
    {"op": "write", "path": "memory/events.md", "data": NEW_EVENTS},
    {"op": "write", "path": "sops/new-sop.md", "data": "# new sop\n\n1. 新步骤\n"},
    {"op": "move", "src": "pending/20261129-0007.md", "dst": "archive/pending/20261129-0007.md"},
    {"op": "remove", "path": "sops/old-sop.md"},
]
NEW = {
    "index.txt": OLD["index.txt"],
    "facts.md": NEW_FACTS,
    "memory-meta.json": NEW_META,
    "memory/events.md": NEW_EVENTS,
    "sops/new-sop.md": "# new sop\n\n1. 新步骤\n",
    "archive/pending/20261129-0007.md": CANDIDATE,
}
CHANGED_WITH_OLD_BYTES = ["facts.md", "memory-meta.json", "memory/events.md", "sops/old-sop.md"]

BEFORE_JOURNAL = ["locked", "checked", "snapshotted", "staged"]
AFTER_JOURNAL = [
    "journaled",
    *(f"applied:{i}" for i in range(1, len(PLAN) + 1)),
    "applied",
    "verified",
    "audited",
]
STEPS = [*BEFORE_JOURNAL, *AFTER_JOURNAL, "finished"]
RECOVERED_BY_JOURNAL = [s for s in AFTER_JOURNAL if s != "audited"]  # audit line written late


# --- helpers --------------------------------------------------------------------------------


def worker_env(crash_at: str | None = None) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "MEMTUI_WHO": "crash-worker"}
    env.pop("MEMTUI_CRASH_AT", None)
    if crash_at:
        env["MEMTUI_CRASH_AT"] = crash_at
    return env


def run_worker(args: list[str], crash_at: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        env=worker_env(crash_at),
        capture_output=True,
        text=True,
        timeout=HANG,
    )


def is_leftover(name: str) -> bool:
    """A temp file of memtui (.x.md.memtui-<txid>.tmp, undo temps) or a journal part."""
    return ".memtui-" in name or name.endswith((".tmp", ".part"))


def content(root: Path) -> dict[str, bytes]:
    """Every file of the store except memtui's bookkeeping (.history/, the lock) and temp
    files (checked on their own by `leftovers`)."""
    out = {}
    for path in root.rglob("*"):
        rel = path.relative_to(root).as_posix()
        if rel == LOCK_NAME or rel.startswith(".history/") or is_leftover(path.name):
            continue
        if path.is_file():
            out[rel] = path.read_bytes()
    return out


def as_bytes(files: dict[str, str]) -> dict[str, bytes]:
    return {rel: text.encode("utf-8") for rel, text in files.items()}


def leftovers(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if is_leftover(p.name))


def audit(root: Path) -> list[dict]:
    path = root / ".history" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def history_holds(root: Path, rel: str, data: bytes) -> bool:
    folder = root / ".history" / rel
    return folder.is_dir() and any(p.read_bytes() == data for p in folder.iterdir())


def codes(root: Path) -> set[str]:
    return {f.code for f in open_store(root).findings}


def recover_with_a_transaction(root: Path) -> None:
    with Transaction(str(root), "recover-check"):
        pass


def crash_multi_file(root: Path, tmp_path: Path, crash_at: str) -> str | None:
    """Run the six-step transaction in a worker killed at `crash_at`; returns its txid."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN, ensure_ascii=False), encoding="utf-8")
    got = run_worker([str(WORKERS / "txn_worker.py"), str(root), str(plan)], crash_at)
    assert got.returncode == KILLED, (crash_at, got.returncode, got.stderr)
    assert "committed" not in got.stdout
    return got.stdout.split()[0] if got.stdout.strip() else None


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", OLD)


# --- the worker itself ----------------------------------------------------------------------


def test_worker_without_a_crash_makes_the_whole_change(root: Path, tmp_path: Path):
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(PLAN, ensure_ascii=False), encoding="utf-8")
    got = run_worker([str(WORKERS / "txn_worker.py"), str(root), str(plan)], None)
    assert got.returncode == 0, got.stderr
    assert content(root) == as_bytes(NEW)
    [line] = audit(root)
    assert "recovered" not in line


# --- a crash at every step ------------------------------------------------------------------


@pytest.mark.parametrize("step", STEPS)
def test_crash_at_every_step_leaves_old_or_new(root: Path, tmp_path: Path, step: str):
    old, new = as_bytes(OLD), as_bytes(NEW)
    txid = crash_multi_file(root, tmp_path, step)

    # right after the crash: no file is torn, each is its old or its new version
    now = content(root)
    for rel in set(now) | set(old) | set(new):
        assert now.get(rel) in (old.get(rel), new.get(rel)), (step, rel)
    journal_left = journal.pending(str(root))
    assert ("txn-interrupted" in codes(root)) == bool(journal_left)
    assert bool(journal_left) == (step in AFTER_JOURNAL)  # the journal is the commit point

    recover_with_a_transaction(root)

    now = content(root)
    assert now in (old, new), f"after {step}: neither wholly old nor wholly new"
    landed = now == new
    assert landed == (step in AFTER_JOURNAL or step == "finished")
    assert journal.pending(str(root)) == []
    assert leftovers(root) == [], f"after {step} and recovery"
    assert "txn-interrupted" not in codes(root)

    lines = [line for line in audit(root) if line["txid"] == txid]
    if landed:
        for rel in CHANGED_WITH_OLD_BYTES:
            assert history_holds(root, rel, old[rel]), (step, rel)
        assert len(lines) == 1, (step, lines)
        assert ("recovered" in lines[0]) == (step in RECOVERED_BY_JOURNAL)
        if step in RECOVERED_BY_JOURNAL:
            assert lines[0]["recovered"].startswith("completed")
        assert {f["path"] for f in lines[0]["files"]} == {
            "facts.md",
            "memory-meta.json",
            "memory/events.md",
            "sops/new-sop.md",
            "archive/pending/20261129-0007.md",
            "sops/old-sop.md",
        }
    else:
        assert lines == []
    assert [line for line in audit(root) if line["txid"] != txid] == []  # recovery adds none


@pytest.mark.parametrize("step", ["journaled", "applied:3", "verified"])
def test_recover_under_the_lock_directly(root: Path, tmp_path: Path, step: str):
    crash_multi_file(root, tmp_path, step)
    dirs = Dirs(str(root))
    with StoreLock(str(root)):
        done = recover(dirs)
    dirs.close()
    assert len(done) == 1 and "completed" in done[0]
    assert content(root) == as_bytes(NEW)
    assert journal.pending(str(root)) == []
    assert leftovers(root) == []


def test_opening_the_store_after_a_crash_changes_nothing(root: Path, tmp_path: Path):
    crash_multi_file(root, tmp_path, "applied:3")
    before = content(root)
    journal_before = journal.pending(str(root))
    assert "txn-interrupted" in codes(root)
    assert content(root) == before
    assert journal.pending(str(root)) == journal_before


def test_a_second_crash_during_recovery_is_still_settled(root: Path, tmp_path: Path):
    """Killed at applied:2, then killed again while the next transaction finishes it."""
    crash_multi_file(root, tmp_path, "applied:2")
    # The next writer recovers inside Transaction.__enter__; kill it in that recovery.
    plan = tmp_path / "empty.json"
    plan.write_text("[]", encoding="utf-8")
    got = run_worker([str(WORKERS / "txn_worker.py"), str(root), str(plan)], "applied:4")
    assert got.returncode == KILLED, got.stderr
    recover_with_a_transaction(root)
    assert content(root) == as_bytes(NEW)
    assert journal.pending(str(root)) == []
    assert leftovers(root) == []


# --- the agent writes between the crash and the recovery -----------------------------------


def agent_block(root: Path, content_tag: str) -> bytes:
    """Run the real seed agent once against events.md; return exactly what it appended."""
    events = root / "memory/events.md"
    before = events.read_bytes()
    assert run_agent(str(root), 1, content_tag) == []
    after = events.read_bytes()
    assert after.startswith(before)
    block = after[len(before) :]
    assert f"**内容**：{content_tag}-1".encode() in block
    return block


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1) for the agent")
def test_agent_wrote_a_not_yet_applied_file_so_recovery_undoes(root: Path, tmp_path: Path):
    """Crash after applied:2 (events.md, step 3, still old); the agent appends an event;
    recovery must undo steps 1-2 and keep the agent's event."""
    txid = crash_multi_file(root, tmp_path, "applied:2")
    old = as_bytes(OLD)
    block = agent_block(root, "agent-after-crash")

    recover_with_a_transaction(root)

    expected = dict(old)
    expected["memory/events.md"] = old["memory/events.md"] + block
    assert content(root) == expected
    assert journal.pending(str(root)) == []
    assert leftovers(root) == []
    [line] = [line for line in audit(root) if line["txid"] == txid]
    assert line["recovered"].startswith("undone")
    for rel in ("facts.md", "memory-meta.json"):  # the pre-images stay in .history
        assert history_holds(root, rel, old[rel])
    assert not codes(root) & {"txn-interrupted", "event-duplicate-id", "event-missing-id"}


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1) for the agent")
def test_agent_wrote_an_already_applied_file_and_its_event_survives(root: Path, tmp_path: Path):
    """Crash after applied:3 (events.md already new); the agent appends an event to it;
    whatever recovery decides, the agent's event must not be lost (SPEC §0: never lose a
    byte; §4: nothing either side writes is lost), and the store stays consistent."""
    crash_multi_file(root, tmp_path, "applied:3")
    old, new = as_bytes(OLD), as_bytes(NEW)
    assert (root / "memory/events.md").read_bytes() == new["memory/events.md"]
    block = agent_block(root, "agent-after-crash")

    recover_with_a_transaction(root)

    now = content(root)
    events = now.pop("memory/events.md")
    assert events.count(block) == 1, "the agent's event was lost by the recovery"
    if events == new["memory/events.md"] + block:
        assert now == {k: v for k, v in new.items() if k != "memory/events.md"}
    else:
        assert events == old["memory/events.md"] + block
        assert now == {k: v for k, v in old.items() if k != "memory/events.md"}
    assert journal.pending(str(root)) == []
    assert leftovers(root) == []


# --- bulk accept of the demo store, killed in the middle of a chunk -------------------------


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict]]:
    """The demo store (size 5: 100 candidates) once, and what every candidate holds."""
    from memtui.demo import write_demo

    root = tmp_path_factory.mktemp("demo") / "store"
    write_demo(root, size=5, today=TODAY_DATE)  # the suite's pinned today, not the real one
    store = open_store(root)
    assert store.data.get("dsh") is not None
    candidates = {
        c.id: {
            "file": c.file,
            "type": c.entry_type,
            "target": c.target,
            "body": c.body,
            "evidence": c.evidence,
            "bytes": (root / c.file).read_bytes(),
        }
        for c in store.data.get("dsh").candidates
    }
    assert len(candidates) == 100
    return root, candidates


def section_of_each_line(facts: str) -> list[tuple[str | None, str]]:
    section = None
    out = []
    for line in facts.split("\n"):
        if line.startswith("## "):
            section = line[3:].strip()
        out.append((section, line))
    return out


def check_bulk_store(root: Path, original: dict[str, bytes], candidates: dict[str, dict]) -> int:
    """Each candidate accepted exactly once or still pending; returns how many were accepted."""
    facts = (root / "facts.md").read_text(encoding="utf-8")
    lines = section_of_each_line(facts)
    accepted_sops: dict[str, list[str]] = {}
    accepted = 0
    for cid, c in candidates.items():
        pending = root / "pending" / f"{cid}.md"
        archived = root / "archive" / "pending" / f"{cid}.md"
        assert pending.exists() != archived.exists(), f"{cid}: pending={pending.exists()}"
        body_lines = [line for line in c["body"].strip("\n").split("\n") if line.strip()]
        if pending.exists():
            assert pending.read_bytes() == c["bytes"], cid
            if c["type"] == "fact":
                for line in body_lines:
                    assert (c["target"], line) not in lines, f"{cid} pending but in facts.md"
            continue
        accepted += 1
        assert c["evidence"], f"{cid} was accepted without evidence"
        assert c["body"].strip() in archived.read_text(encoding="utf-8"), cid
        if c["type"] == "fact":
            for line in body_lines:
                assert [s for s, text in lines if text == line] == [c["target"]], (cid, line)
        else:
            accepted_sops.setdefault(c["target"], []).append(c["body"].strip())
    for target, bodies in accepted_sops.items():
        sop = (root / "sops" / f"{target}.md").read_text(encoding="utf-8")
        assert [sop.count(body) for body in bodies].count(1) >= 1, target  # the latest one

    # every file parses; nothing half-written
    for name in ("memory-meta.json", "memory_stats.json"):
        json.loads((root / name).read_text(encoding="utf-8"))
    bad = {"unreadable", "json-invalid", "pending-bad-frontmatter", "txn-interrupted"}
    assert [f for f in open_store(root).findings if f.code in bad] == []

    # .history holds every pre-image: each original file that changed, and every version an
    # audited change replaced
    now = content(root)
    for rel, data in original.items():
        if rel.startswith("pending/") or now.get(rel) == data:
            continue
        assert history_holds(root, rel, data), rel
    for line in audit(root):
        for f in line["files"]:
            if f["action"] != "move" and f["before"] is not None:
                snap = root / f["snapshot"]
                assert hashlib.sha256(snap.read_bytes()).hexdigest() == f["before"], f
    assert journal.pending(str(root)) == []
    assert leftovers(root) == []
    return accepted


BULK_STEPS = ["journaled#2", "applied:3#4", "applied#5", "verified#7", "audited#9", "finished#3"]


@pytest.mark.parametrize("step", BULK_STEPS)
def test_bulk_accept_crash_in_a_chunk(demo, tmp_path: Path, step: str):
    source, candidates = demo
    root = tmp_path / "store"
    shutil.copytree(source, root, symlinks=True)
    original = content(root)

    got = run_worker([str(WORKERS / "bulk_accept.py"), str(root), "10"], step)
    assert got.returncode == KILLED, (step, got.returncode, got.stderr[-3000:])

    recover_with_a_transaction(root)
    accepted = check_bulk_store(root, original, candidates)
    assert 0 < accepted < len(candidates)

    # and a second run accepts the rest, none of them twice
    got = run_worker([str(WORKERS / "bulk_accept.py"), str(root), "10"], None)
    assert got.returncode == 0, got.stderr[-3000:]
    accepted = check_bulk_store(root, original, candidates)
    assert accepted == sum(1 for c in candidates.values() if c["evidence"])
