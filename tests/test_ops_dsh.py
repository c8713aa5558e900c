"""dsh curation operations (memtui.layouts.dsh.ops) on real files: each changes exactly
what SPEC §3 says and nothing else, byte for byte; refusals and dry runs change nothing."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from pathlib import Path

import pytest

from memtui.demo import write_demo
from memtui.engine import frontmatter
from memtui.engine.ops import undo
from memtui.engine.ops.common import Refused
from memtui.engine.store import open_store
from memtui.engine.write import lock as store_lock
from memtui.engine.write.lock import LockTimeout, StoreLock
from memtui.engine.write.progress import Progress, reporting
from memtui.engine.write.transaction import Conflict, Transaction
from memtui.layouts.dsh import ops as dsh
from memtui.layouts.dsh.meta_json import update_meta
from tests.conftest import tree_digest, write_tree
from tests.helpers import TODAY_DATE, candidate, fact_meta

BOM = b"\xef\xbb\xbf"
FACTS = BOM + (
    b"# Facts\r\n\r\n## PYTHON_ENV\r\n- venv in /opt/app\r\n- pytest -n 4\r\n\r\n"
    b"## HOSTS\r\n- nas is 10.0.0.2\r\n"
)
INDEX = (
    "[RULES] No Execution, No Memory\n# --- auto ---\n[FACTS] PYTHON_ENV · HOSTS\n"
    "[SOPS] deploy\n# --- end auto ---\n[RULES] keep it short\n"
)
SOP = "# deploy\n\n1. build\n2. ship\n"
META = {
    "version": 1,
    "entries": {
        "fact:PYTHON_ENV": fact_meta(
            sourceSession="s-0001",
            sourceSeqs=[1, 2],
            createdAt="2026-01-01T00:00:00+08:00",
            updatedAt="2026-01-02T00:00:00+08:00",
            acceptedFrom="pending/20260101-0001.md",
            supersedes=[],
            agentNote="kept",
        ),
        "sop:deploy": {"type": "sop", "status": "active", "evidence": "ok", "x-custom": [1]},
    },
    "agentTop": {"keep": True},
}
STATS = {"facts": 3, "sops": 1, "pending": 2, "accepted": 7, "rejected": 1, "custom": "keep"}


def sop_candidate(cid: str, name: str, body: str) -> str:
    return candidate(cid, name, body, entry_type="sop")


def base(**extra: str | bytes) -> dict[str, str | bytes]:
    files: dict[str, str | bytes] = {
        ".memory.lock": b"",
        "index.txt": INDEX,
        "facts.md": FACTS,
        "sops/deploy.md": SOP,
        "memory-meta.json": json.dumps(META, ensure_ascii=False, indent=2) + "\n",
        "memory_stats.json": json.dumps(STATS, indent=2) + "\n",
        "pending/20261129-0007.md": candidate("20261129-0007"),
        "pending/20261129-0008.md": candidate("20261129-0008", "NEW_SECTION", "- fresh fact\n"),
    }
    files.update(extra)
    return files


def read(root: Path, rel: str) -> bytes:
    return (root / rel).read_bytes()


def load(root: Path, rel: str) -> dict:
    return json.loads(read(root, rel))


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def audit_lines(root: Path) -> list[dict]:
    path = root / ".history" / "audit.jsonl"
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def changed(before: dict[str, str], after: dict[str, str]) -> set[str]:
    """Files added, removed or changed, outside .history/."""
    keys = (set(before) | set(after)) - {".history"}
    return {k for k in keys if before.get(k) != after.get(k) and not k.startswith(".history/")}


# --- accept ----------------------------------------------------------------------


def test_accept_fact_changes_exactly_what_spec_says(store):
    root = store(base())
    before = tree_digest(root)
    old_meta, old_stats = read(root, "memory-meta.json"), read(root, "memory_stats.json")
    cand = read(root, "pending/20261129-0007.md")

    receipts = dsh.accept(root, ["pending:20261129-0007"])

    assert len(receipts) == 1 and receipts[0].details["accepted"] == ["20261129-0007"]
    # facts.md: the line appended to its section, in CRLF, BOM kept, every other byte same
    assert read(root, "facts.md") == FACTS.replace(
        b"- pytest -n 4\r\n", b"- pytest -n 4\r\n- activate the venv before pytest\r\n"
    )
    # the candidate moved, bytes unchanged
    assert not (root / "pending/20261129-0007.md").exists()
    assert read(root, "archive/pending/20261129-0007.md") == cand
    # provenance: latest fields updated, earlier acceptance and unknown keys kept
    meta = load(root, "memory-meta.json")
    entry = meta["entries"]["fact:PYTHON_ENV"]
    assert entry["acceptedFrom"] == "pending/20261129-0007.md"
    assert entry["evidence"] == "pytest -q → 41 passed" and entry["sourceSeqs"] == [12, 13]
    assert entry["sourceSession"] == "s-1f3a" and entry["agentNote"] == "kept"
    assert [a["from"] for a in entry["accepted"]] == [
        "pending/20260101-0001.md",
        "pending/20261129-0007.md",
    ]
    assert meta["agentTop"] == {"keep": True}
    assert meta["entries"]["sop:deploy"] == META["entries"]["sop:deploy"]
    # the untouched entry's bytes are the old bytes (only the changed entry is rewritten)
    untouched = json.dumps({"sop:deploy": META["entries"]["sop:deploy"]}, indent=2)[2:-2]
    assert untouched.replace("\n", "\n  ").encode() in read(root, "memory-meta.json")
    stats = load(root, "memory_stats.json")
    assert stats == {**STATS, "facts": 4, "pending": 1, "accepted": 8, "archived": 0,
                     "rollbacks": 0, "lastMaintenance": None}  # fmt: skip
    # index.txt was current: not written
    assert read(root, "index.txt") == INDEX.encode()
    after = tree_digest(root)
    assert changed(before, after) == {
        "facts.md",
        "memory-meta.json",
        "memory_stats.json",
        "pending/20261129-0007.md",
        "archive/pending/20261129-0007.md",
    }
    # history holds the old bytes; one audit line for the one transaction
    snaps = {c.path: c.snapshot for c in receipts[0].changes}
    assert read(root, snaps["facts.md"]) == FACTS
    assert read(root, snaps["memory-meta.json"]) == old_meta
    assert read(root, snaps["memory_stats.json"]) == old_stats
    lines = audit_lines(root)
    assert len(lines) == 1 and lines[0]["op"] == "accept"
    assert {f["path"] for f in lines[0]["files"]} >= {"facts.md", "memory-meta.json"}


def test_accept_new_section_and_index_segment(store):
    no_newline = b"## A\n- one"  # a file whose last line has no newline
    root = store(base(**{"facts.md": no_newline, "index.txt": "[RULES] r\n"}))
    dsh.accept(root, ["20261129-0008"])
    assert read(root, "facts.md") == b"## A\n- one\n\n## NEW_SECTION\n- fresh fact"
    # no markers: the segment is appended; [RULES] untouched
    assert read(root, "index.txt") == (
        b"[RULES] r\n# --- auto ---\n[FACTS] A \xc2\xb7 NEW_SECTION\n[SOPS] deploy\n"
        b"# --- end auto ---\n"
    )
    entry = load(root, "memory-meta.json")["entries"]["fact:NEW_SECTION"]
    assert entry == {
        "type": "fact",
        "status": "active",
        "evidence": "pytest -q → 41 passed",
        "sourceSession": "s-1f3a",
        "sourceSeqs": [12, 13],
        "createdAt": "2026-11-29T21:40:00+08:00",
        "updatedAt": entry["updatedAt"],
        "acceptedFrom": "pending/20261129-0008.md",
        "supersedes": [],
    }
    findings = {f.code for f in open_store(root, today=TODAY_DATE).findings}
    assert "index-stale" not in findings


def test_accept_skips_a_fact_already_in_its_section(store):
    body = "- venv in /opt/app\n- brand new\n"
    root = store(base(**{"pending/20261129-0007.md": candidate("20261129-0007", body=body)}))
    (receipt,) = dsh.accept(root, ["20261129-0007"])
    assert read(root, "facts.md").count(b"venv in /opt/app") == 1
    assert b"- brand new\r\n" in read(root, "facts.md")
    assert receipt.details["duplicates_skipped"] == ["PYTHON_ENV: venv in /opt/app"]


def test_accept_sop_creates_then_supersedes_with_history_chain(store):
    new_body = "# deploy v2\n\n1. build\n2. test\n3. ship\n"
    root = store(
        base(
            **{
                "pending/20261129-0009.md": sop_candidate(
                    "20261129-0009", "rollout", "# rollout\n"
                ),
                "pending/20261129-0010.md": sop_candidate("20261129-0010", "deploy", new_body),
            }
        )
    )
    (receipt,) = dsh.accept(root, ["20261129-0009", "20261129-0010"])
    assert read(root, "sops/rollout.md") == b"# rollout\n"
    assert read(root, "sops/deploy.md") == new_body.encode()
    entry = load(root, "memory-meta.json")["entries"]["sop:deploy"]
    (snapshot,) = entry["supersedes"]
    assert snapshot.startswith(".history/sops/deploy.md/")
    assert read(root, snapshot) == SOP.encode()  # the chain names the real snapshot
    assert entry["x-custom"] == [1] and entry["status"] == "active"
    assert load(root, "memory-meta.json")["entries"]["sop:rollout"]["supersedes"] == []
    assert receipt.details["sops_created"] == ["rollout"]
    assert receipt.details["sops_superseded"] == ["deploy"]
    assert b"[SOPS] deploy \xc2\xb7 rollout\n" in read(root, "index.txt")
    assert load(root, "memory_stats.json")["sops"] == 2


def test_two_versions_of_one_sop_in_one_chunk_keep_every_version(store):
    root = store(
        base(
            **{
                "pending/20261129-0009.md": sop_candidate("20261129-0009", "deploy", "v1\n"),
                "pending/20261129-0010.md": sop_candidate("20261129-0010", "deploy", "v2\n"),
            }
        )
    )
    (receipt,) = dsh.accept(root, all_pending=True)
    assert receipt.details["accepted"][-2:] == ["20261129-0009", "20261129-0010"]
    assert read(root, "sops/deploy.md") == b"v2\n"
    chain = load(root, "memory-meta.json")["entries"]["sop:deploy"]["supersedes"]
    assert [read(root, p) for p in chain] == [SOP.encode(), b"v1\n"]  # every version kept
    assert chain[0] < chain[1]  # in the order they were had: the same stamp, then .1, .2
    (change,) = [c for c in receipt.changes if c.path == "sops/deploy.md"]
    assert change.snapshot == chain[0]  # undo puts back the text before the accept


def test_a_new_sop_accepted_three_times_in_one_chunk(store):
    cands = {
        f"pending/20261129-00{n}.md": sop_candidate(f"20261129-00{n}", "fresh", f"v{n - 20}\n")
        for n in (21, 22, 23)
    }
    root = store(base(**cands))
    os.chmod(root / "sops" / "deploy.md", 0o640)  # a new file is as open as its siblings
    (receipt,) = dsh.accept(root, all_pending=True)
    assert read(root, "sops/fresh.md") == b"v3\n"
    entry = load(root, "memory-meta.json")["entries"]["sop:fresh"]
    assert [read(root, p) for p in entry["supersedes"]] == [b"v1\n", b"v2\n"]
    modes = {(root / p).stat().st_mode & 0o777 for p in [*entry["supersedes"], "sops/fresh.md"]}
    assert modes == {0o640}
    assert receipt.details["sops_created"] == ["fresh"]
    undo.undo(root)  # the newest operation: this accept
    assert not (root / "sops" / "fresh.md").exists()


def test_edit_then_accept(store):
    root = store(base())
    dsh.accept(root, ["20261129-0007"], target="deploy-notes", entry_type="sop", body="# notes\n")
    assert read(root, "sops/deploy-notes.md") == b"# notes\n"
    assert read(root, "facts.md") == FACTS
    entry = load(root, "memory-meta.json")["entries"]["sop:deploy-notes"]
    assert entry["editedOnAccept"] == ["body", "entry_type", "target"]
    with pytest.raises(Refused, match="exactly one"):
        dsh.accept(root, ["20261129-0008", "x"], target="X")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (candidate("20261129-0007", evidence=None), "No Execution, No Memory"),
        (candidate("20261129-0007", evidence="  "), "no evidence"),
        ("---\nid: x\nentry_type: [oops\n---\n- a\n", "front matter"),
        ("---\nid: x\nentry_type: fact\n", "front matter"),
        ("- no front matter at all\n", "no front matter"),
        (candidate("20261129-0007", "../../etc/passwd", "x\n", entry_type="sop"), "outside"),
        (candidate("20261129-0007", "a/b", "x\n", entry_type="sop"), "not a bare sop name"),
        (candidate("20261129-0007", entry_type="note"), "entry_type"),
        (candidate("20261129-0007", body="\n\n"), "no fact"),
    ],
)
def test_refused_candidate_changes_nothing(store, text, reason):
    root = store(base(**{"pending/20261129-0007.md": text}))
    before = tree_digest(root)
    with pytest.raises(Refused, match=reason) as caught:
        dsh.accept(root, ["20261129-0007"])
    assert "20261129-0007" in str(caught.value)
    assert tree_digest(root) == before


def test_bulk_accept_reports_refused_and_accepts_the_rest(store):
    root = store(base(**{"pending/20261129-0001.md": candidate("20261129-0001", evidence=None)}))
    (receipt,) = dsh.accept(root, all_pending=True)
    assert receipt.details["accepted"] == ["20261129-0007", "20261129-0008"]
    assert receipt.details["refused"] == [
        {"id": "20261129-0001", "reason": receipt.details["refused"][0]["reason"]}
    ]
    assert "No Execution, No Memory" in receipt.details["refused"][0]["reason"]
    assert sorted(p.name for p in (root / "pending").iterdir()) == ["20261129-0001.md"]
    assert load(root, "memory_stats.json")["pending"] == 1


def test_unknown_id_is_refused(store):
    root = store(base())
    before = tree_digest(root)
    with pytest.raises(Refused, match="not a pending item"):
        dsh.accept(root, ["20990101-0001"])
    with pytest.raises(Refused):
        dsh.accept(root, ["../facts"])
    assert tree_digest(root) == before


def test_accept_dry_run_plans_without_writing(store):
    root = store(base())
    before = tree_digest(root)
    (receipt,) = dsh.accept(root, all_pending=True, dry_run=True)
    assert tree_digest(root) == before
    assert receipt.dry_run and receipt.details["accepted"] == ["20261129-0007", "20261129-0008"]
    by_path = {c.path: c for c in receipt.changes}
    assert by_path["facts.md"].old == FACTS
    assert b"- activate the venv before pytest\r\n" in by_path["facts.md"].new
    assert by_path["archive/pending/20261129-0007.md"].action == "move"
    assert {"memory-meta.json", "memory_stats.json", "index.txt"} <= set(by_path)
    assert not audit_lines(root)


def test_conflict_when_candidate_differs_from_what_the_user_saw(store):
    root = store(base())
    seen = sha(read(root, "pending/20261129-0007.md"))
    (root / "pending/20261129-0007.md").write_text(candidate("20261129-0007", body="- edited\n"))
    before = tree_digest(root)
    with pytest.raises(Conflict, match="changed since you saw it"):
        dsh.accept(root, ["20261129-0007"], expected={"pending/20261129-0007.md": seen})
    with pytest.raises(Conflict):  # all_pending, several chunks: checked before any commit
        dsh.accept(root, all_pending=True, chunk_size=1, expected={"20261129-0007": seen})
    assert tree_digest(root) == before
    now = sha(read(root, "pending/20261129-0007.md"))
    dsh.accept(root, ["20261129-0007"], expected={"pending:20261129-0007": now})
    assert b"- edited\r\n" in read(root, "facts.md")


def test_chunks_are_atomic_transactions_each(store):
    extra = {
        f"pending/20261130-{n:04d}.md": candidate(f"20261130-{n:04d}", f"S{n % 3}", f"- fact {n}\n")
        for n in range(25)
    }
    root = store(base(**extra))
    (root / "pending/20261129-0007.md").unlink()
    (root / "pending/20261129-0008.md").unlink()
    receipts = dsh.accept(root, all_pending=True, chunk_size=10)
    assert [len(r.details["accepted"]) for r in receipts] == [10, 10, 5]
    assert [r.details["chunk"] for r in receipts] == [1, 2, 3]
    assert len(audit_lines(root)) == 3 and len({r.txid for r in receipts}) == 3
    # each chunk wrote each file once: facts.md's snapshots hold the state between chunks
    facts_snaps = [c.snapshot for r in receipts for c in r.changes if c.path == "facts.md"]
    assert [read(root, s).count(b"- fact ") for s in facts_snaps] == [0, 10, 20]
    text = read(root, "facts.md").decode("utf-8-sig")
    assert all(f"- fact {n}\r\n" in text for n in range(25))
    assert load(root, "memory_stats.json")["accepted"] == 7 + 25
    assert not list((root / "pending").iterdir())


def test_a_bulk_accept_reports_each_chunk_done_of_the_total(store):
    """write/progress: the total before the first chunk (a face shows it at once), then
    after each chunk; no lock wait when nobody else holds the lock. Reject alike."""
    extra = {
        f"pending/20261130-{n:04d}.md": candidate(f"20261130-{n:04d}", "S", f"- fact {n}\n")
        for n in range(25)
    }
    root = store(base(**extra))
    (root / "pending/20261129-0007.md").unlink()
    (root / "pending/20261129-0008.md").unlink()
    told: list[Progress] = []
    with reporting(told.append):
        dsh.accept(root, [f"20261130-{n:04d}" for n in range(20)], chunk_size=10)
    assert [(p.done, p.total, p.waiting) for p in told] == [
        (0, 20, None),
        (10, 20, None),
        (20, 20, None),
    ]
    told.clear()
    with reporting(told.append):
        dsh.reject(root, [f"20261130-{n:04d}" for n in range(20, 25)], "no")
    assert [(p.done, p.total) for p in told] == [(0, 5), (5, 5)]


def test_lock_busy_times_out_and_changes_nothing(store, monkeypatch):
    root = store(base())
    before = tree_digest(root)
    monkeypatch.setattr("memtui.layouts.dsh.store.LOCK_WAIT", 0.2)
    with StoreLock(str(root), store_lock.WAIT_SECONDS), pytest.raises(LockTimeout):
        dsh.accept(root, ["20261129-0007"])
    assert tree_digest(root) == before


def test_accept_every_candidate_of_the_demo_store(tmp_path):
    root = tmp_path / "demo"
    write_demo(root, 1, today=TODAY_DATE)
    opened = open_store(root, today=TODAY_DATE)
    acceptable = {
        c.id for c in opened.data.get("dsh").candidates if c.valid and (c.evidence or "").strip()
    }
    refusable = {c.id for c in opened.data.get("dsh").candidates} - acceptable
    assert acceptable and refusable
    receipts = dsh.accept(root, all_pending=True)
    accepted = [i for r in receipts for i in r.details["accepted"]]
    refused = [x["id"] for r in receipts for x in r.details.get("refused", [])]
    assert sorted(accepted) == sorted(acceptable) and sorted(refused) == sorted(refusable)
    after = open_store(root, today=TODAY_DATE)
    assert {c.id for c in after.data.get("dsh").candidates} == refusable
    codes = {f.code for f in after.findings}
    assert "index-stale" not in codes and "json-invalid" not in codes
    facts_text = read(root, "facts.md").decode()
    for cand in opened.data.get("dsh").candidates:
        if cand.id in acceptable and cand.entry_type == "fact":
            assert all(line in facts_text for line in cand.body.strip().splitlines())
    stats = dict(after.data.get("dsh").stats)
    assert stats["facts"] == sum(len(s.fact_lines) for s in after.data.get("dsh").fact_sections)
    assert stats["sops"] == len(after.data.get("dsh").sops)
    assert stats["pending"] == len(after.data.get("dsh").candidates)
    assert stats["factSections"] == len(after.data.get("dsh").fact_sections)
    assert stats["accepted"] == dict(opened.data.get("dsh").stats)["accepted"] + len(accepted)


def test_accept_edge_cases(store, tmp_path):
    root = store(
        base(
            **{
                "archive/pending/20261129-0007.md": "an older candidate with this id\n",
                "pending/odd-name.md": candidate(
                    "20261129-0099", "HOSTS", "- by front matter id\n"
                ),
            }
        )
    )
    (receipt,) = dsh.accept(root, ["20261129-0007", "pending:20261129-0099"])
    assert receipt.details["accepted"] == ["20261129-0007", "odd-name"]
    assert receipt.details["archived_as"] == {"20261129-0007": "archive/pending/20261129-0007.1.md"}
    assert read(root, "archive/pending/20261129-0007.md") == b"an older candidate with this id\n"
    assert b"- by front matter id\r\n" in read(root, "facts.md")
    # no bookkeeping files yet: they are created
    bare = write_tree(
        tmp_path / "bare", {"index.txt": INDEX, "pending/x.md": candidate("x", "NEW", "- one\n")}
    )
    dsh.accept(bare, ["x"])
    assert read(bare, "facts.md") == b"## NEW\n- one\n"
    assert load(bare, "memory-meta.json")["version"] == 1
    assert load(bare, "memory_stats.json")["facts"] == 1
    assert b"[FACTS] NEW\n# --- end auto ---" in read(bare, "index.txt")


# --- reject ----------------------------------------------------------------------


def test_reject_adds_reason_to_front_matter_and_moves(store):
    text = candidate("20261129-0007").replace("\n", "\r\n")
    root = store(base(**{"pending/20261129-0007.md": text}))
    before = tree_digest(root)
    (receipt,) = dsh.reject(root, ["20261129-0007"], 'duplicate of "PYTHON_ENV"')
    moved = read(root, "archive/rejected/20261129-0007.md").decode()
    head, rest = moved.split("created_at: 2026-11-29T21:40:00+08:00\r\n", 1)
    assert text.startswith(head)
    added, tail = rest.split("---\r\n", 1)
    assert added.startswith('reject_reason: "duplicate of \\"PYTHON_ENV\\""\r\nrejected_at: ')
    assert added.count("\r\n") == 2 and "---\r\n" + tail == text.split("+08:00\r\n", 1)[1]
    meta = frontmatter.load(frontmatter.split(moved).yaml_text or "")
    assert meta["reject_reason"] == 'duplicate of "PYTHON_ENV"'
    assert not (root / "pending/20261129-0007.md").exists()
    snapshot = next(c.snapshot for c in receipt.changes if c.action == "remove")
    assert read(root, snapshot) == text.encode()
    stats = load(root, "memory_stats.json")
    assert stats["rejected"] == 2 and stats["pending"] == 1 and stats["custom"] == "keep"
    assert changed(before, tree_digest(root)) == {
        "pending/20261129-0007.md",
        "archive/rejected/20261129-0007.md",
        "memory_stats.json",
    }
    assert len(audit_lines(root)) == 1


def test_reject_refusals_and_name_clash(store, tmp_path):
    root = store(base(**{"archive/rejected/20261129-0007.md": "older\n"}))
    before = tree_digest(root)
    with pytest.raises(Refused, match="reason"):
        dsh.reject(root, ["20261129-0007"], "  ")
    with pytest.raises(Refused, match="not a pending item"):
        dsh.reject(root, ["20990101-0001"], "nope")
    assert tree_digest(root) == before
    dsh.reject(root, ["20261129-0007", "20261129-0008"], "not useful", dry_run=True)
    assert tree_digest(root) == before
    (receipt,) = dsh.reject(root, ["20261129-0007", "20261129-0008"], "not useful")
    assert receipt.details["archived_as"] == {
        "20261129-0007": "archive/rejected/20261129-0007.1.md"
    }
    assert read(root, "archive/rejected/20261129-0008.md").startswith(b"---\nid: 20261129-0008")
    assert read(root, "archive/rejected/20261129-0007.md") == b"older\n"
    # broken YAML can still be rejected; the reason goes in as text
    root3 = write_tree(
        tmp_path / "broken", {"index.txt": INDEX, "pending/y.md": "---\nid: [y\n---\nbody\n"}
    )
    dsh.reject(root3, ["y"], "garbage")
    got = read(root3, "archive/rejected/y.md").decode()
    assert got.startswith('---\nid: [y\nreject_reason: "garbage"\nrejected_at: ')
    # a candidate without front matter gets one
    root2 = write_tree(tmp_path / "plain", {"index.txt": INDEX, "pending/x.md": "just text\n"})
    dsh.reject(root2, ["x"], "noise")
    got = read(root2, "archive/rejected/x.md").decode()
    assert got.startswith('---\nreject_reason: "noise"\nrejected_at: ')
    assert got.endswith("---\njust text\n")


# --- index -----------------------------------------------------------------------


def test_rebuild_index_replaces_only_the_automatic_segment(store, tmp_path):
    stale = INDEX.replace("[SOPS] deploy\n", "[SOPS] deploy · gone\n").replace("\n", "\r\n")
    root = store(base(**{"index.txt": stale}))
    receipt = dsh.rebuild_index(root)
    assert receipt is not None
    assert read(root, "index.txt") == stale.replace(" · gone", "").encode()
    assert receipt.details["index_lines_before"] == receipt.details["index_lines_after"] == 6
    assert dsh.rebuild_index(root) is None  # already current: nothing written
    assert len(audit_lines(root)) == 1
    broken = write_tree(tmp_path / "broken", base(**{"index.txt": "# --- auto ---\n[RULES] x\n"}))
    before = tree_digest(broken)
    with pytest.raises(Refused, match="end auto"):
        dsh.rebuild_index(broken)
    assert tree_digest(broken) == before


def test_rebuild_index_over_the_cap_still_rebuilds_and_says_so(store):
    rules = "".join(f"[RULES] rule {n}\n" for n in range(29))
    root = store(base(**{"index.txt": rules}))
    receipt = dsh.rebuild_index(root)
    assert receipt is not None and "over the 30-line" in receipt.details["warning"]
    assert read(root, "index.txt").startswith(rules.encode())


# --- add, update, archive, restore -------------------------------------------------


def test_add_fact_and_sop_by_hand(store):
    root = store(base())
    before = tree_digest(root)
    with pytest.raises(Refused, match="evidence"):
        dsh.add_fact(root, "HOSTS", "nas has 4 disks", "")
    with pytest.raises(Refused, match="evidence"):
        dsh.add_sop(root, "backup", "# backup\n", " ")
    with pytest.raises(Refused, match="exists"):
        dsh.add_sop(root, "deploy", "# again\n", "ran it")
    with pytest.raises(Refused, match="outside"):
        dsh.add_sop(root, "../../x", "# x\n", "ran it")
    with pytest.raises(Refused, match="not a bare sop name"):  # x.md: inside, but no sop
        dsh.add_sop(root, "../x", "# x\n", "ran it")
    with pytest.raises(Refused, match="already holds"):
        dsh.add_fact(root, "HOSTS", "nas is 10.0.0.2", "ping ok")
    assert tree_digest(root) == before
    dsh.add_fact(root, "HOSTS", "nas has 4 disks", "lsblk")
    assert read(root, "facts.md") == FACTS + b"- nas has 4 disks\r\n"
    dsh.add_sop(root, "backup", "# backup\n", "restic check → ok")
    assert read(root, "sops/backup.md") == b"# backup\n"
    entries = load(root, "memory-meta.json")["entries"]
    assert entries["sop:backup"]["acceptedFrom"] == "manual"
    assert entries["fact:HOSTS"]["evidence"] == "lsblk"
    assert b"[SOPS] backup \xc2\xb7 deploy\n" in read(root, "index.txt")
    stats = load(root, "memory_stats.json")
    assert (stats["facts"], stats["sops"], stats["accepted"]) == (4, 2, 7)
    assert len(audit_lines(root)) == 2


def test_update_sop_supersedes_and_checks_the_version_seen(store):
    root = store(base())
    seen = sha(read(root, "sops/deploy.md"))
    receipt = dsh.update_sop(root, "deploy", "# deploy\n\n1. ship\n", expected=seen)
    assert read(root, "sops/deploy.md") == b"# deploy\n\n1. ship\n"
    (snapshot,) = load(root, "memory-meta.json")["entries"]["sop:deploy"]["supersedes"]
    assert snapshot == next(c.snapshot for c in receipt.changes if c.path == "sops/deploy.md")
    assert read(root, snapshot) == SOP.encode()
    assert {c.path for c in receipt.changes} == {"sops/deploy.md", "memory-meta.json"}
    before = tree_digest(root)
    with pytest.raises(Conflict):
        dsh.update_sop(root, "deploy", "# lost update\n", expected=seen)
    with pytest.raises(Refused, match="does not exist"):
        dsh.update_sop(root, "nope", "# x\n")
    dry = dsh.update_sop(root, "deploy", "# dry\n", dry_run=True)
    assert tree_digest(root) == before
    assert b"<at commit>" in next(c.new for c in dry.changes if c.path == "memory-meta.json")


def test_archive_and_restore_a_fact_section(store):
    root = store(base())
    books = ("facts.md", "index.txt", "memory-meta.json", "memory_stats.json")
    before = {rel: read(root, rel) for rel in books}
    receipt = dsh.archive(root, "fact:PYTHON_ENV")
    assert read(root, "facts.md") == BOM + b"# Facts\r\n\r\n## HOSTS\r\n- nas is 10.0.0.2\r\n"
    block = b"## PYTHON_ENV\r\n- venv in /opt/app\r\n- pytest -n 4\r\n\r\n"
    assert read(root, "archive/facts/PYTHON_ENV.md") == block
    assert b"[FACTS] HOSTS\n" in read(root, "index.txt")
    assert b"[RULES] keep it short\n" in read(root, "index.txt")
    entry = load(root, "memory-meta.json")["entries"]["fact:PYTHON_ENV"]
    assert entry["status"] == "archived" and entry["agentNote"] == "kept"
    assert load(root, "memory_stats.json")["archived"] == 1
    assert receipt.details["archived_to"] == "archive/facts/PYTHON_ENV.md"
    with pytest.raises(Refused, match="no section"):
        dsh.archive(root, "fact:PYTHON_ENV")

    dsh.restore(root, "fact:PYTHON_ENV")  # where it was, its provenance as it was
    assert {rel: read(root, rel) for rel in before} == before
    assert not (root / "archive").exists()
    assert load(root, "memory-meta.json")["entries"]["fact:PYTHON_ENV"]["status"] == "active"
    assert "index-stale" not in {f.code for f in open_store(root, today=TODAY_DATE).findings}


def test_archive_and_restore_a_sop(store):
    root = store(base())
    dsh.archive(root, "sop:deploy")
    assert read(root, "archive/sops/deploy.md") == SOP.encode()
    assert not (root / "sops/deploy.md").exists()
    assert b"[SOPS]" not in read(root, "index.txt")
    (root / "sops/deploy.md").write_text("# the agent wrote a new one\n")
    before = tree_digest(root)
    with pytest.raises(Refused, match="exists again"):
        dsh.restore(root, "sop:deploy")
    assert tree_digest(root) == before
    (root / "sops/deploy.md").unlink()
    dsh.restore(root, "sop:deploy")
    assert read(root, "sops/deploy.md") == SOP.encode()
    assert load(root, "memory-meta.json")["entries"]["sop:deploy"]["status"] == "active"
    with pytest.raises(Refused):
        dsh.archive(root, "topic:x")


# --- maintain --------------------------------------------------------------------


DUPES = (
    "# Facts\n\n## A\n- alpha is 1\n- beta\n- alpha   is 1\n\n## B\n- Beta.\n- alpha is 1\n"
    "- the gpu driver is 550.54 on nas\n- the gpu driver is 550.58 on nas\n"
    "- the nvidia driver on nas needs a reboot after upgrades\n"
    "- the nvidia driver on nas needs reboot after upgrade\n"
)


def test_maintain_dry_run_then_apply(store):
    report = {"time": "old", "merged": 2, "pendingMerged": 1, "agentKey": "kept"}
    root = store(
        base(**{"facts.md": DUPES, "maintenance-report.json": json.dumps(report, indent=2)})
    )
    before = tree_digest(root)
    dry = dsh.maintain(root)
    assert dry.dry_run and tree_digest(root) == before
    assert dry.details["duplicatesFound"] == 2
    near = [sorted(n["facts"]) for n in dry.details["nearDuplicates"]]
    assert ["Beta.", "beta"] in near
    assert [
        "the nvidia driver on nas needs a reboot after upgrades",
        "the nvidia driver on nas needs reboot after upgrade",
    ] in near
    # facts that differ only in a number are reported, marked: one may be out of date
    numbers = [n for n in dry.details["nearDuplicates"] if n["numbersOnly"]]
    assert [sorted(n["facts"]) for n in numbers] == [
        ["the gpu driver is 550.54 on nas", "the gpu driver is 550.58 on nas"]
    ]
    assert len(near) == 3 and dry.details["nearDuplicatesFound"] == 3

    done = dsh.maintain(root, apply=True)
    assert read(root, "facts.md").decode() == DUPES.replace("- alpha   is 1\n", "", 1).replace(
        "- Beta.\n- alpha is 1\n", "- Beta.\n"
    )
    written = load(root, "maintenance-report.json")
    assert written["duplicatesRemoved"] == 2 and written["merged"] == 2
    assert written["agentKey"] == "kept" and written["pendingMerged"] == 0
    assert {"time", "nearDuplicates", "indexLinesBefore", "indexLinesAfter"} <= set(written)
    stats = load(root, "memory_stats.json")
    assert stats["facts"] == 7 and stats["lastMaintenance"] == written["time"]
    assert {c.path for c in done.changes} == {
        "facts.md",
        "index.txt",
        "memory_stats.json",
        "maintenance-report.json",
    }
    assert "fact-duplicate" not in {f.code for f in open_store(root, today=TODAY_DATE).findings}


def test_maintain_on_many_facts(store):
    lines = ["# Facts"]
    for s in range(50):
        lines += ["", f"## S{s}"] + [
            f"- host{s}-{n} listens on port {n * 7 + s}" for n in range(400)
        ]
    lines += ["- host0-0 listens on port 0"]  # one exact duplicate at the end
    root = store(base(**{"facts.md": "\n".join(lines) + "\n"}))
    receipt = dsh.maintain(root, apply=True)
    assert receipt.details["duplicatesFound"] == 1
    assert load(root, "memory_stats.json")["facts"] == 20_000


# --- memory-meta.json written entry by entry ---------------------------------------


def test_meta_keeps_untouched_entries_byte_for_byte(store):
    # an agent's own layout: arrays on one line, CRLF
    text = (
        '{\r\n  "version": 1,\r\n  "entries": {\r\n'
        '    "fact:A": {"type": "fact", "sourceSeqs": [1, 2]},\r\n'
        '    "fact:B": {\r\n      "type": "fact",\r\n      "sourceSeqs": [3, 4]\r\n    }\r\n'
        '  },\r\n  "x": [1, 2]\r\n}\r\n'
    )
    root = store(base(**{"memory-meta.json": text}))

    def change(entries: dict) -> None:
        entries["fact:B"]["status"] = "archived"
        entries["fact:C"] = {"type": "fact"}

    with Transaction(str(root), "test") as tx:
        update_meta(tx, ["fact:B", "fact:C", "fact:A"], change)
        tx.commit()
    got = read(root, "memory-meta.json").decode()
    assert got.startswith('{\r\n  "version": 1,\r\n  "entries": {\r\n    "fact:A": {"type"')
    assert got.endswith(
        '    "fact:C": {\r\n      "type": "fact"\r\n    }\r\n  },\r\n  "x": [1, 2]\r\n}\r\n'
    )
    assert json.loads(got)["entries"]["fact:B"] == {
        "type": "fact",
        "sourceSeqs": [3, 4],
        "status": "archived",
    }


def test_meta_that_does_not_parse_is_never_overwritten(store):
    root = store(base(**{"memory-meta.json": '{"version": 1, "entries": {'}))
    before = tree_digest(root)
    with pytest.raises(Refused, match="does not parse"):
        dsh.accept(root, ["20261129-0007"])
    assert tree_digest(root) == before


def test_meta_written_compactly_falls_back_to_whole_file(store):
    root = store(base(**{"memory-meta.json": json.dumps(META)}))
    dsh.accept(root, ["20261129-0007"])
    meta = load(root, "memory-meta.json")
    assert meta["agentTop"] == {"keep": True}
    assert meta["entries"]["fact:PYTHON_ENV"]["acceptedFrom"] == "pending/20261129-0007.md"


def test_demo_bulk_accept_with_small_chunks_keeps_the_store_consistent(tmp_path):
    root = tmp_path / "demo"
    write_demo(root, 1, today=dt.date(2026, 11, 29))
    receipts = dsh.accept(root, all_pending=True, chunk_size=4)
    assert len(receipts) >= 5
    assert len(audit_lines(root)) == len([r for r in receipts if r.changes])
    after = open_store(root, today=TODAY_DATE)
    assert len(after.data.get("dsh").candidates) == 1
    assert dict(after.data.get("dsh").stats)["pending"] == 1
