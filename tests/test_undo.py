"""The operation log and undo (SPEC §3d), through the command line on the demo store.

Accept three candidates, undo: every file is byte for byte as before (apart from
.history/) and the candidates are back in the queue; undo again re-applies them; an
undo after the agent wrote one of those files is refused and changes nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import demo_template, fresh_copy
from tests.verb_calls import memtui


def memory(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file() and ".history" not in p.parts and p.name != ".memory.lock"
    }


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = demo_template(tmp_path_factory, "undo")
    return root


@pytest.fixture
def root(tmp_path: Path, template: Path) -> Path:
    return fresh_copy(template, tmp_path)


def acceptable(root: Path, n: int) -> list[str]:
    got = memtui(root, "pending", "--json")
    rows = json.loads(got.stdout)["pending"]
    return [r["id"] for r in rows if r.get("evidence")][:n]


def test_undo_puts_back_a_three_candidate_accept_and_undo_again_reapplies(root: Path):
    before = memory(root)
    ids = acceptable(root, 3)
    assert len(ids) == 3
    assert memtui(root, "accept", *ids).returncode == 0
    accepted = memory(root)
    assert accepted != before

    log = json.loads(memtui(root, "log", "--json").stdout)["operations"]
    assert log[0]["op"] == "accept" and len(log[0]["files"]) >= 5

    got = memtui(root, "undo")
    assert got.returncode == 0, got.stderr
    assert memory(root) == before
    assert acceptable(root, 3) == ids  # back in the queue

    got = memtui(root, "undo")  # the last operation is now the undo: undo it
    assert got.returncode == 0, got.stderr
    assert memory(root) == accepted


def test_undo_is_refused_when_the_agent_wrote_a_file_since(root: Path):
    ids = acceptable(root, 2)
    assert memtui(root, "accept", *ids).returncode == 0
    subprocess.run(
        ["bash", "-c", 'exec 9>.memory.lock; flock -x -w 10 9; echo "- agent" >> facts.md'],
        cwd=root,
        check=True,
        timeout=30,
    )
    now = memory(root)
    got = memtui(root, "undo")
    assert got.returncode == 1
    assert "facts.md changed since operation" in got.stderr
    assert memory(root) == now


def test_undo_of_a_named_operation_and_of_nothing(root: Path):
    assert memtui(root, "undo").returncode == 1  # the log is empty
    event_ids = json.loads(memtui(root, "events", "--open", "--json").stdout)
    first = event_ids["events"][0]["id"] if "events" in event_ids else None
    assert first
    before = memory(root)
    assert memtui(root, "done", first).returncode == 0
    [op] = json.loads(memtui(root, "log", "--json").stdout)["operations"]
    got = memtui(root, "undo", op["id"][:20], "--dry-run")
    assert got.returncode == 0 and memory(root) != before  # a dry run changes nothing
    assert memtui(root, "undo", op["id"]).returncode == 0
    assert memory(root) == before
    assert memtui(root, "undo", "no-such-op").returncode == 1


def test_undo_restores_the_mode_a_file_had(root: Path):
    events = root / "memory" / "events.md"
    events.chmod(0o600)
    got = json.loads(memtui(root, "events", "--open", "--json").stdout)
    assert memtui(root, "done", got["events"][0]["id"]).returncode == 0
    os.chmod(events, 0o644)
    assert memtui(root, "undo").returncode == 0
    assert events.stat().st_mode & 0o777 == 0o600


BULK = ["topic:billing_retro", "topic:course_plan", "fact:GIT", "sop:deploy-minio", "event:E030"]


def test_a_bulk_archive_is_one_operation_that_names_every_entry_and_undoes_whole(root: Path):
    """As the index tree archives its selection: one transaction per entry, one operation."""
    from memtui.engine import ops
    from memtui.engine.write.operation import operation

    before = memory(root)
    with operation():
        for entry in BULK:
            ops.archive(str(root), entry)
    [op] = json.loads(memtui(root, "log", "--json").stdout)["operations"]
    assert op["entries"] == BULK and op["entry_count"] == len(BULK)
    assert op["details"]["to"][0] == "archive/memory_billing_retro.md"  # each one's, in turn
    [line] = memtui(root, "log").stdout.splitlines()
    assert f"{len(BULK)} entries: {', '.join(BULK)}" in line, line
    assert memtui(root, "undo").returncode == 0
    assert memory(root) == before


def test_a_bulk_accept_in_chunks_and_a_queue_approval_name_every_item(root: Path):
    from memtui.layouts.dsh import ops as dsh

    ids = acceptable(root, 5)
    dsh.accept(str(root), ids, chunk_size=2)  # three chunks, one operation
    [op] = json.loads(memtui(root, "log", "--json").stdout)["operations"]
    assert op["entries"] == ids  # pending:<id>, as `pending` lists them
    assert op["details"]["accepted"] == [i.removeprefix("pending:") for i in ids]
    assert all(i in memtui(root, "log").stdout for i in ids)
    hermes = root / "hermes"
    queued = ["hermes-pending:3f1a9c02", "hermes-pending:7b22e410"]
    assert memtui(hermes, "accept", *queued).returncode == 0
    [op] = json.loads(memtui(hermes, "log", "--json").stdout)["operations"]
    assert op["entries"] == queued
