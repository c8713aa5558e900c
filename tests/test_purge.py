"""`memtui purge FILE --secret N` (engine.ops.purge): a secret out of the file and out of
every snapshot memtui keeps of it, in real stores of four layouts. After it no file
under the store holds the value's bytes (grep), the audit log says a purge happened
(file, kind, how many snapshots) without the value, undo of every other change still
works while the purged change's own undo is refused with the reason, and a purge
without a confirm (no terminal, no --yes) writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memtui.engine import open_store
from memtui.engine.fixes import plan
from memtui.engine.oplog import operations
from memtui.engine.ops import edit_entry
from memtui.engine.ops.common import Refused
from memtui.engine.ops.purge import held, purge
from memtui.engine.ops.undo import undo
from memtui.engine.write.errors import WriteError
from tests.conftest import tree_digest
from tests.planted_stores import AWS, GH, HERMES_QUEUED, STORES, finding_at, grep, make, memory
from tests.verb_calls import memtui


def redact(root: Path, layout: str) -> None:
    rel, line = STORES[layout][1]
    plan(open_store(str(root)), finding_at(root, "secret", rel, line)).run(False)


@pytest.mark.parametrize("layout", sorted(STORES))
def test_purge_takes_a_redacted_secret_out_of_every_snapshot(tmp_path: Path, layout: str) -> None:
    root = make(tmp_path, layout)
    rel = STORES[layout][1][0]
    redact(root, layout)  # the file is clean; its snapshot still holds the token
    assert grep(root, GH) != []
    listed = held(str(root), rel)
    assert [(h.line, h.snapshots) for h in listed] == [(None, 1)] * len(listed)
    live = (root / rel).read_bytes()

    for secret in listed:  # workspace's line held an AWS key too
        done = purge(str(root), rel, 1)  # the next is 1 once the first is purged
        assert (done.kind, done.live, done.snapshots) == (secret.kind, False, 1)
        assert grep(root, secret.value) in ([], [str(root / HERMES_QUEUED)])
    assert held(str(root), rel) == []
    assert (root / rel).read_bytes() == live
    purged = operations(str(root))[-1]
    assert purged.op == "purge"
    assert purged.details == [{"file": rel, "kind": listed[-1].kind, "snapshots": 1}]
    with pytest.raises(Refused, match="cannot be undone"):
        undo(str(root))
    with pytest.raises(Refused, match="purge"):
        undo(str(root), operations(str(root))[0].opid)  # the redact itself
    assert (root / rel).read_bytes() == live


def test_other_changes_of_the_file_still_undo_after_a_purge(tmp_path: Path) -> None:
    root = make(tmp_path, "claude")
    rel = "deploy.md"
    original = (root / rel).read_bytes()
    first = original.decode().replace("then tag.", "then tag and push.")
    edit_entry(str(root), "claude:deploy.md", first)  # snapshot 1 holds the token
    redact(root, "claude")  # snapshot 2 holds it
    third = (root / rel).read_text(encoding="utf-8") + "A later note.\r\n"
    edit_entry(str(root), "claude:deploy.md", third)  # snapshot 3 is clean
    ops = operations(str(root))

    done = purge(str(root), rel, 1)
    assert (done.live, done.snapshots) == (False, 2)
    assert grep(root, GH) == []

    undo(str(root), ops[2].opid)  # the later edit: back to the redacted text
    assert (root / rel).read_bytes().endswith(b"then tag and push.\r\n")
    with pytest.raises(Refused, match="purge"):
        undo(str(root), ops[1].opid)  # the redact: nothing holds the token any more
    undo(str(root), ops[0].opid)  # the first edit: its snapshot, purged, goes back
    assert (root / rel).read_bytes() == original.replace(GH.encode(), b"[REDACTED:GitHub token]")
    assert grep(root, GH) == []


def test_purge_of_a_secret_still_in_the_file_redacts_it_and_its_history(tmp_path: Path) -> None:
    root = make(tmp_path, "hermes")
    note = tmp_path / "note.txt"
    note.write_text("Name is Robert", encoding="utf-8")
    assert memtui(root, "edit", "hermes:user#1", "--text-file", str(note)).returncode == 0
    listed = held(str(root), HERMES_QUEUED)
    assert [(h.number, h.kind, h.line, h.snapshots) for h in listed] == [(1, "GitHub token", 1, 0)]

    got = memtui(root, "purge", HERMES_QUEUED, "--secret", "1", "--yes")
    assert got.returncode == 0, got.stderr
    assert GH not in got.stdout + got.stderr
    record = json.loads((root / HERMES_QUEUED).read_text(encoding="utf-8"))
    assert record["payload"]["content"] == "the deploy key is [REDACTED:GitHub token]"
    assert [p for p in grep(root, GH) if "MEMORY.md" not in p] == []  # that file's is its own
    assert memtui(root, "undo").returncode == 1  # the purge: cannot be undone
    assert memtui(root, "undo", operations(str(root))[0].opid).returncode == 0  # the edit


def test_the_listing_is_numbered_and_masked(tmp_path: Path) -> None:
    root = make(tmp_path, "workspace")
    redact(root, "workspace")
    (root / "memory_deploy.md").write_text(
        "# Deploy\n\nkey sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe-AbCdEf\n"
    )
    got = memtui(root, "purge", "memory_deploy.md")
    assert got.returncode == 0, got.stderr
    rows = got.stdout.splitlines()
    assert [r.split()[0] for r in rows] == ["1", "2", "3"]
    assert "Anthropic API key  line 3, in 0 snapshot(s): key ********" in rows[0]
    assert "GitHub token  only in its history, in 1 snapshot(s)" in rows[1]
    assert "AWS access key  only in its history" in rows[2]
    assert "sk-ant" not in got.stdout and GH not in got.stdout
    listed = json.loads(memtui(root, "purge", "memory_deploy.md", "--json").stdout)
    assert [s["kind"] for s in listed["secrets"]][:2] == ["Anthropic API key", "GitHub token"]


def test_purge_without_a_confirm_writes_nothing(tmp_path: Path) -> None:
    root = make(tmp_path, "cline")
    redact(root, "cline")
    before = tree_digest(root)
    got = memtui(root, "purge", "memory-bank/techContext.md", "--secret", "1", stdin="y\n")
    assert got.returncode == 1
    assert "cannot be undone" in got.stderr and "--yes" in got.stderr
    assert tree_digest(root) == before
    dry = memtui(root, "purge", "memory-bank/techContext.md", "--secret", "1", "--dry-run")
    assert dry.returncode == 0 and "would purge" in dry.stdout
    assert tree_digest(root) == before
    wrong = memtui(root, "purge", "memory-bank/techContext.md", "--secret", "9", "--yes")
    assert wrong.returncode == 1 and "no secret 9" in wrong.stderr
    assert tree_digest(root) == before
    assert memory(root)  # the store is still whole


def test_fix_choose_purge_asks_for_yes_then_purges(tmp_path: Path) -> None:
    root = make(tmp_path, "claude")
    before = tree_digest(root)
    asked = memtui(root, "fix", "deploy.md:6", "--choose", "purge", "--apply")
    assert asked.returncode == 1 and "cannot be undone" in asked.stderr
    assert "--yes" in asked.stderr and GH not in asked.stdout + asked.stderr
    assert tree_digest(root) == before
    dry = memtui(root, "fix", "deploy.md:6", "--choose", "purge")
    assert dry.returncode == 0 and "********" in dry.stdout and GH not in dry.stdout
    done = memtui(root, "fix", "deploy.md:6", "--choose", "purge", "--apply", "--yes")
    assert done.returncode == 0, done.stderr
    assert grep(root, GH) == []
    assert memtui(root, "undo").returncode == 1


def test_a_line_of_two_secrets_is_purged_of_both_in_every_file(tmp_path: Path) -> None:
    root = make(tmp_path, "workspace")  # memory_deploy.md:3 holds a GitHub token and an AWS key
    fix = plan(open_store(str(root)), finding_at(root, "secret", "memory_deploy.md", 3), ("purge",))
    fix.run(False)
    assert grep(root, GH) == [] and grep(root, AWS) == []  # the snapshot and the audit too
    assert held(str(root), "memory_deploy.md") == []


def test_purge_takes_it_out_of_the_agents_own_copies_too(tmp_path: Path) -> None:
    root = make(tmp_path, "hermes")
    (root / HERMES_QUEUED).unlink()  # the token only in MEMORY.md and Hermes' drift backup
    memory_md = root / "memories/MEMORY.md"
    backup = root / "memories/MEMORY.md.bak.1796000000"
    backup.write_bytes(memory_md.read_bytes())
    listed = held(str(root), "memories/MEMORY.md")
    assert [(h.kind, h.line, h.snapshots) for h in listed] == [("GitHub token", 3, 1)]

    done = purge(str(root), "memories/MEMORY.md", 1)
    assert (done.live, done.snapshots) == (True, 1)
    assert grep(root, GH) == []
    assert backup.read_bytes() == memory_md.read_bytes()
    assert b"[REDACTED:GitHub token]" in backup.read_bytes()


def test_a_purge_stopped_halfway_says_so_and_purging_again_finishes(tmp_path: Path) -> None:
    from memtui.engine.write import faults

    root = make(tmp_path, "claude")
    edit_entry(
        str(root), "claude:deploy.md", (root / "deploy.md").read_text(encoding="utf-8") + "x\r\n"
    )
    redact(root, "claude")  # two snapshots hold the token
    faults.arm("ENOSPC:write#3")  # its audit line, the audit rewritten, then the first snapshot
    try:
        with pytest.raises(WriteError, match=r"stopped halfway.*purge it again"):
            purge(str(root), "deploy.md", 1)
    finally:
        faults.arm(None)
    assert [h.snapshots for h in held(str(root), "deploy.md")] == [2]
    purge(str(root), "deploy.md", 1)
    assert grep(root, GH) == []
    assert not [p for p in (root / ".history").rglob("*") if p.name.endswith(".purging")]
    undo(str(root), operations(str(root))[0].opid)  # the edit: its snapshot is whole


def test_the_files_own_secrets_are_numbered_as_check_numbers_them(tmp_path: Path) -> None:
    root = make(tmp_path, "workspace")
    text = f"# Deploy\n\nkey {GH}\nagain {GH}\nand AKIAIOSFODNN7EXAMPLG\n"
    (root / "memory_deploy.md").write_text(text, encoding="utf-8")
    checked = [f.line for f in open_store(str(root)).findings if f.code == "secret"]
    assert [h.line for h in held(str(root), "memory_deploy.md")] == checked == [3, 4, 5]
    purge(str(root), "memory_deploy.md", 2)  # the token: both its places go
    assert [h.kind for h in held(str(root), "memory_deploy.md")] == ["AWS access key"]
