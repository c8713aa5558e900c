"""Every write verb, killed by SIGKILL in the middle of its change, leaves the store
wholly old or wholly new once the next memtui command has settled it.

Each verb runs on a demo store three ways: uncrashed (the new state), killed at a
step of its transaction (MEMTUI_CRASH_AT), and then settled by `memtui index`'s
own recovery. The settled store must equal the old state or the new one, file for
file (JSON books and records compared without their timestamps), with no journal,
temp file or recovery conflict left. The seed layouts' verbs run on the demo's root,
the agents' (Claude's, Hermes', OpenClaw's) on its claude/, hermes/ and openclaw/.
"""

from __future__ import annotations

import re
import shutil
import signal
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.engine.store import open_store
from memtui.engine.write import journal
from tests.verb_calls import STORES, bind, every_write_verb, memtui

SEED_STEPS = ("journaled", "applied:1", "applied:2", "verified")
# Every step of a transaction, each file of a change applied (OpenClaw's move: three).
STEPS = (
    "snapshotted",
    "staged",
    "journaled",
    "applied:1",
    "applied:2",
    "applied:3",
    "verified",
    "audited",
)


TIMES = re.compile(
    rb"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:\d{2}|Z)?"
    rb'|\d{8}T\d{6}Z|"durationMs": \d+'
)
# A Hermes entry's archive id hashes the time it was archived (ops.hermes.archive_entry).
ARCHIVE_IDS = re.compile(rb'"id": ?"[0-9a-f]{8}"')


def state(root: Path) -> dict[str, bytes]:
    """The store's files, with the times a change stamps in them blanked (the crashed
    run and the uncrashed one commit at different seconds). Lock files are left out:
    memtui's, and the per-file ones it takes as Hermes does, created empty."""
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel.startswith(".history") or rel.endswith(".lock"):
            continue
        data = TIMES.sub(b"<time>", path.read_bytes())
        out[rel] = ARCHIVE_IDS.sub(b"<id>", data) if rel.endswith("archived.jsonl") else data
    return out


def differing(a: dict[str, bytes], b: dict[str, bytes]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))


def debris(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*") if ".memtui-" in p.name or p.name.endswith(".part")]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("folder", STORES, ids=lambda f: f or "seed")
def test_every_write_verb_killed_mid_change_is_settled_to_old_or_new(tmp_path: Path, folder):
    demo = tmp_path / "demo"
    write_demo(demo, size=1)
    base = tmp_path / "base"
    shutil.move(demo / folder if folder else demo, base)
    calls = every_write_verb(base, tmp_path)
    # `index` itself may refresh the seed's MEMORY.md and index.txt; elsewhere MEMORY.md
    # is the agent's memory and compared like any file.
    refreshed = ("MEMORY.md", "index.txt") if not folder else ()
    steps = SEED_STEPS if not folder else STEPS
    crashed = 0
    for i, call in enumerate(calls):
        call = bind(call, base)
        before = state(base)
        new = tmp_path / f"new-{i}"
        shutil.copytree(base, new)
        assert memtui(new, *call).returncode == 0, call
        after = state(new)
        for step in steps:
            trial = tmp_path / f"crash-{i}-{step}"
            shutil.copytree(base, trial)
            got = memtui(trial, *call, env={"MEMTUI_CRASH_AT": step})
            if got.returncode != -signal.SIGKILL:
                assert got.returncode == 0, (call, step, got.stderr)
                continue  # the verb's change has no such step (fewer files)
            crashed += 1
            settle = memtui(trial, "index")
            assert settle.returncode == 0, (call, step, settle.stderr)
            now = state(trial)
            for rel in refreshed:
                now.pop(rel, None)
            old = {k: v for k, v in before.items() if k not in refreshed}
            newer = {k: v for k, v in after.items() if k not in refreshed}
            assert now in (old, newer), (call, step, differing(now, old), differing(now, newer))
            assert journal.pending(str(trial)) == [] and debris(trial) == []
            codes = {f.code for f in open_store(trial).findings}
            assert not codes & {"txn-interrupted", "recovery-conflict"}, (call, step)
            shutil.rmtree(trial)
        shutil.rmtree(base)
        shutil.move(new, base)
    assert crashed >= 2 * len(calls)
