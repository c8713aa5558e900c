"""The mutating verbs of the command line (SPEC §6, README "Curating a store"), through the
real `python -m memtui` in a subprocess, on real demo stores in tmp_path.

Every run is checked for a Python traceback. "Nothing changed" means the tree digest is equal,
apart from `.memory.lock`: taking the lock creates that (empty) file and it must never be
deleted (SPEC §0), so a refused write may leave it behind."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from memtui.demo import write_demo
from tests import demo_facts as facts
from tests.conftest import run_cli, tree_digest
from tests.helpers import ENV, findings

LOCK = ".memory.lock"
NO_EVIDENCE = "has no evidence"


# --- helpers ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo store per module; each test works on its own copy."""
    root = tmp_path_factory.mktemp("template") / "s"
    write_demo(root, size=1, today=dt.date(2026, 11, 29))
    return root


@pytest.fixture
def root(demo_template: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "s"
    shutil.copytree(demo_template, dest, symlinks=True)
    return dest


def cli(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`memtui --store ROOT ARGS…`; never a traceback, whatever the outcome."""
    result = run_cli("--store", str(root), *args, env={**ENV, **(env or {})})
    assert "Traceback" not in result.stdout, result.stdout
    assert "Traceback" not in result.stderr, result.stderr
    return result


def digest(root: Path) -> dict[str, str]:
    return {k: v for k, v in tree_digest(root).items() if k != LOCK}


def read(root: Path, rel: str) -> str:
    return (root / rel).read_text(encoding="utf-8")


def candidate(root: Path, cid: str) -> tuple[dict[str, str], list[str]]:
    """(front-matter key -> raw value, non-blank body lines) of pending/<cid>.md."""
    text = read(root, f"pending/{cid}.md")
    _, head, body = text.split("---\n", 2)
    meta = {}
    for raw in head.splitlines():
        key, sep, value = raw.partition(":")
        if sep and not raw.startswith(" "):
            meta[key.strip()] = value.strip().strip('"')
    return meta, [x for x in body.splitlines() if x.strip()]


EDITED = facts.OLDEST  # any event
OPEN_EVENT = facts.OVERDUE[-1]  # an open event (状态 待跟进)


def candidates(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "pending").glob("*.md"))


def fact_candidate(root: Path) -> str:
    """The first candidate that is a fact with evidence."""
    for cid in candidates(root):
        meta, _ = candidate(root, cid)
        if meta.get("entry_type") == "fact" and meta.get("evidence"):
            return cid
    raise AssertionError("the demo store has no fact candidate with evidence")


def unevidenced(root: Path) -> str:
    found = [c for c in candidates(root) if "evidence" not in candidate(root, c)[0]]
    assert len(found) == 1, found  # the demo has exactly one
    return found[0]


def sections(facts_text: str) -> dict[str, list[str]]:
    """`## SECTION` -> its non-blank lines, from facts.md text."""
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in facts_text.splitlines():
        if raw.startswith("## "):
            current = out.setdefault(raw[3:].strip(), [])
        elif current is not None and raw.strip():
            current.append(raw)
    return out


def event_block(events_text: str, number: str) -> str:
    """The exact text of `### [E…]` up to the next heading (its trailing blank line included)."""
    start = events_text.index(f"### [{number}]")
    end = events_text.find("\n### ", start)
    return events_text[start : end + 1]


def meta_status(root: Path, key: str) -> str:
    return json.loads(read(root, "memory-meta.json"))["entries"][key]["status"]


def audit(root: Path) -> list[dict]:
    path = root / ".history" / "audit.jsonl"
    if not path.exists():
        return []
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def check_codes(root: Path) -> set[str]:
    result = cli(root, "check", "--json")
    assert result.returncode in (0, 1), result.stderr
    return {f["code"] for f in json.loads(result.stdout)["findings"]}


def errors(root: Path) -> list[tuple]:
    return [f for f in findings(root) if f[1] == "error"]


# --- accept ----------------------------------------------------------------------------


def test_accept_one_candidate_json(root):
    cid = fact_candidate(root)
    meta, body = candidate(root, cid)
    raw = (root / f"pending/{cid}.md").read_bytes()
    audit_before = audit(root)

    result = cli(root, "accept", cid, "--json")

    assert result.returncode == 0, result.stderr
    assert not (root / f"pending/{cid}.md").exists()
    assert (root / f"archive/pending/{cid}.md").read_bytes() == raw
    section = sections(read(root, "facts.md"))[meta["target"]]
    for fact in body:
        assert fact in section
    records = audit(root)
    assert len(records) == len(audit_before) + 1
    assert records[-1]["op"] == "accept"
    assert "facts.md" in {f["path"] for f in records[-1]["files"]}

    data = json.loads(result.stdout)
    assert set(data) >= {"receipts"}
    assert data["dry_run"] is False
    changes = [c for r in data["receipts"] for c in r["changes"]]
    paths = {c["path"] for c in changes}
    assert {"facts.md", "memory-meta.json", f"archive/pending/{cid}.md"} <= paths
    moved = next(c for c in changes if c["path"] == f"archive/pending/{cid}.md")
    assert moved["action"] == "move"
    assert moved["source"] == f"pending/{cid}.md"


def test_accept_dry_run_prints_a_diff_and_changes_nothing(root):
    cid = fact_candidate(root)
    _, body = candidate(root, cid)
    before = tree_digest(root)

    result = cli(root, "accept", cid, "--dry-run")

    assert result.returncode == 0, result.stderr
    added = [x for x in result.stdout.splitlines() if x.startswith("+") and not x.startswith("+++")]
    assert added
    for fact in body:
        assert "+" + fact in added
    assert "--- a/facts.md" in result.stdout
    assert tree_digest(root) == before  # not even the lock file or .history/


def test_accept_without_evidence_is_refused_and_changes_nothing(root):
    cid = unevidenced(root)
    before = digest(root)

    result = cli(root, "accept", cid)

    assert result.returncode == 1
    assert "evidence" in result.stderr
    assert cid in result.stderr
    assert result.stdout == ""
    assert digest(root) == before


def test_accept_all_accepts_the_rest_and_reports_the_refused_one(root):
    refused = unevidenced(root)
    raw = (root / f"pending/{refused}.md").read_bytes()
    others = [c for c in candidates(root) if c != refused]

    result = cli(root, "accept", "--all")

    assert result.returncode == 1, result.stderr  # one was refused: the others stay done
    assert candidates(root) == [refused]
    assert (root / f"pending/{refused}.md").read_bytes() == raw
    for cid in others:
        assert (root / f"archive/pending/{cid}.md").exists()
        assert cid in result.stdout  # what was applied is listed
    assert refused in result.stderr and refused not in result.stdout
    assert NO_EVIDENCE in result.stderr


def test_edit_then_accept_lands_under_the_new_target(root, tmp_path):
    fact_id = fact_candidate(root)
    meta, old_body = candidate(root, fact_id)
    body_file = tmp_path / "body.md"
    body_file.write_text("- 手工改过的事实：nas 的备份窗口是 02:00\n", encoding="utf-8")

    result = cli(root, "accept", fact_id, "--target", "HANDPICKED", "--body-file", str(body_file))

    assert result.returncode == 0, result.stderr
    found = sections(read(root, "facts.md"))
    assert found["HANDPICKED"] == ["- 手工改过的事实：nas 的备份窗口是 02:00"]
    for fact in old_body:  # the unedited body went nowhere
        assert fact not in found.get(meta["target"], [])
    assert (root / f"archive/pending/{fact_id}.md").exists()

    # the same candidate kind turned into a sop
    sop_id = fact_candidate(root)
    sop_file = tmp_path / "sop.md"
    sop_file.write_text("# 检查备份\n\n1. 看 restic snapshots\n", encoding="utf-8")
    result = cli(
        root,
        "accept",
        sop_id,
        "--type",
        "sop",
        "--target",
        "check-backup",
        "--body-file",
        str(sop_file),
    )

    assert result.returncode == 0, result.stderr
    assert read(root, "sops/check-backup.md") == "# 检查备份\n\n1. 看 restic snapshots\n"
    assert meta_status(root, "sop:check-backup") == "active"
    assert not (root / f"pending/{sop_id}.md").exists()


@pytest.mark.parametrize(
    "argv",
    [
        ["accept"],  # neither ids nor --all
        ["accept", "--all", "--body-file", "F"],  # an edited body applies to one candidate
        ["reject", facts.FIRST],  # no --reason
        ["add", "fact", "GIT", "a fact with no proof"],  # no --evidence
    ],
    ids=["accept-no-ids", "accept-all-with-body-file", "reject-no-reason", "add-fact-no-evidence"],
)
def test_wrong_calls_exit_2_and_change_nothing(root, argv):
    before = digest(root)

    result = cli(root, *argv)

    assert result.returncode == 2
    assert result.stderr.strip()
    assert digest(root) == before


# --- reject ----------------------------------------------------------------------------


def test_reject_with_reason(root):
    cid = fact_candidate(root)
    old = read(root, f"pending/{cid}.md")

    result = cli(root, "reject", cid, "--reason", "重复了：已有同样的事实")

    assert result.returncode == 0, result.stderr
    assert not (root / f"pending/{cid}.md").exists()
    rejected = read(root, f"archive/rejected/{cid}.md")
    head = rejected.split("---\n")[1]
    assert re.search(r"^reject_reason: .*重复了：已有同样的事实", head, re.M)
    assert rejected.split("---\n", 2)[2] == old.split("---\n", 2)[2]  # body kept as it was
    assert audit(root)[-1]["op"] == "reject"


# --- edit ------------------------------------------------------------------------------


def test_edit_event_from_a_text_file_changes_only_its_lines(root, tmp_path):
    old = read(root, "memory/events.md")
    block = event_block(old, EDITED)
    new_block = re.sub(r"\*\*内容\*\*：.*", "**内容**：改成每小时一次快照", block)
    assert new_block != block
    text_file = tmp_path / "e005.md"
    text_file.write_text(new_block, encoding="utf-8")
    others = {k: v for k, v in digest(root).items() if k != "memory/events.md"}

    result = cli(root, "edit", f"event:{EDITED}", "--text-file", str(text_file))

    assert result.returncode == 0, result.stderr
    assert read(root, "memory/events.md") == old.replace(block, new_block, 1)
    after = digest(root)
    for rel, sha in others.items():
        assert after[rel] == sha, rel
    assert audit(root)[-1]["op"] == "edit"


def _editor(tmp_path: Path, name: str, body: str) -> dict[str, str]:
    script = tmp_path / name
    script.write_text("import pathlib, sys\n" + body, encoding="utf-8")
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"
    return {"EDITOR": command, "VISUAL": command}


def test_edit_in_editor(root, tmp_path):
    old = read(root, "memory/events.md")
    block = event_block(old, EDITED)
    content = re.search(r"\*\*内容\*\*：(.*)", block).group(1)
    env = _editor(
        tmp_path,
        "rewrite.py",
        "p = pathlib.Path(sys.argv[1])\n"
        "t = p.read_text(encoding='utf-8')\n"
        f"p.write_text(t.replace({content!r}, '编辑器里改的内容'), encoding='utf-8')\n",
    )

    result = cli(root, "edit", f"event:{EDITED}", env=env)

    assert result.returncode == 0, result.stderr
    assert read(root, "memory/events.md") == old.replace(
        block, block.replace(content, "编辑器里改的内容"), 1
    )


def test_edit_in_editor_without_a_change_writes_nothing(root, tmp_path):
    env = _editor(tmp_path, "noop.py", "pass\n")
    before = digest(root)

    result = cli(root, "edit", f"event:{EDITED}", env=env)

    assert result.returncode == 0, result.stderr
    assert "no change" in result.stdout
    assert digest(root) == before


def test_edit_with_a_failing_editor_writes_nothing(root, tmp_path):
    env = _editor(
        tmp_path,
        "fail.py",
        "pathlib.Path(sys.argv[1]).write_text('half-typed', encoding='utf-8')\nsys.exit(1)\n",
    )
    before = digest(root)

    result = cli(root, "edit", f"event:{EDITED}", env=env)

    assert result.returncode == 1
    assert "editor" in result.stderr
    assert digest(root) == before


# --- done / reopen ---------------------------------------------------------------------


def test_done_and_reopen_flip_the_state(root):
    old = read(root, "memory/events.md")
    block = event_block(old, OPEN_EVENT)
    assert "**状态**：待跟进" in block

    result = cli(root, "done", OPEN_EVENT)
    assert result.returncode == 0, result.stderr
    done = read(root, "memory/events.md")
    assert done == old.replace(block, block.replace("**状态**：待跟进", "**状态**：已完成"), 1)

    result = cli(root, "reopen", f"event:{OPEN_EVENT}")
    assert result.returncode == 0, result.stderr
    assert read(root, "memory/events.md") == old

    before = digest(root)
    result = cli(root, "reopen", "E000")
    assert result.returncode == 1
    assert "E000" in result.stderr
    assert digest(root) == before


# --- archive / restore -----------------------------------------------------------------


def test_archive_and_restore_a_fact_section(root):
    old = read(root, "facts.md")
    found = sections(old)
    name = list(found)[len(found) // 2]  # one in the middle
    block = [f"## {name}", *found[name]]

    result = cli(root, "archive", f"fact:{name}")
    assert result.returncode == 0, result.stderr
    assert name not in sections(read(root, "facts.md"))
    assert (root / f"archive/facts/{name}.md").exists()
    assert meta_status(root, f"fact:{name}") == "archived"
    assert name not in read(root, "index.txt").split("# --- auto ---")[1]

    result = cli(root, "restore", f"fact:{name}")
    assert result.returncode == 0, result.stderr
    new = read(root, "facts.md")
    assert sections(new)[name] == found[name]
    lines = new.splitlines()
    at = lines.index(block[0])
    assert lines[at : at + len(block)] == block  # the section is back whole, in one piece
    assert sorted(x for x in lines if x.strip()) == sorted(x for x in old.splitlines() if x.strip())
    assert not (root / f"archive/facts/{name}.md").exists()
    assert meta_status(root, f"fact:{name}") == "active"
    assert name in read(root, "index.txt").split("# --- auto ---")[1]


def test_archive_and_restore_a_sop(root):
    name = sorted(p.stem for p in (root / "sops").glob("*.md"))[0]
    raw = (root / f"sops/{name}.md").read_bytes()

    result = cli(root, "archive", f"sop:{name}")
    assert result.returncode == 0, result.stderr
    assert not (root / f"sops/{name}.md").exists()
    assert (root / f"archive/sops/{name}.md").read_bytes() == raw
    assert meta_status(root, f"sop:{name}") == "archived"

    result = cli(root, "restore", f"sop:{name}")
    assert result.returncode == 0, result.stderr
    assert (root / f"sops/{name}.md").read_bytes() == raw
    assert not (root / f"archive/sops/{name}.md").exists()
    assert meta_status(root, f"sop:{name}") == "active"


def test_archive_and_restore_a_topic_with_its_pointer(root):
    index = read(root, "memory.md")
    pointers = re.findall(r"^- .+ → (memory_([a-z0-9_]+)\.md)$", index, re.M)
    counts = {f: sum(1 for g, _ in pointers if g == f) for f, _ in pointers}
    file, name = next((f, n) for f, n in pointers if counts[f] == 1 and (root / f).exists())
    pointer = next(x for x in index.splitlines() if x.endswith(f"→ {file}"))
    raw = (root / file).read_bytes()

    result = cli(root, "archive", f"topic:{name}")
    assert result.returncode == 0, result.stderr
    assert pointer not in read(root, "memory.md").splitlines()
    assert not (root / file).exists()
    assert (root / "archive" / file).read_bytes() == raw

    result = cli(root, "restore", f"topic:{name}")
    assert result.returncode == 0, result.stderr
    assert read(root, "memory.md").splitlines().count(pointer) == 1
    assert (root / file).read_bytes() == raw
    assert not (root / "archive" / file).exists()


# --- history / diff / rollback ---------------------------------------------------------


def test_history_diff_and_rollback_which_can_itself_be_rolled_back(root):
    rel = "memory/events.md"
    original = (root / rel).read_bytes()

    result = cli(root, "rollback", rel)
    assert result.returncode == 1
    assert "no history" in result.stderr
    assert (root / rel).read_bytes() == original

    assert cli(root, "done", OPEN_EVENT).returncode == 0
    changed = (root / rel).read_bytes()
    assert changed != original

    result = cli(root, "history", rel, "--json")
    assert result.returncode == 0, result.stderr
    snaps = json.loads(result.stdout)["snapshots"]
    assert len(snaps) == 1
    assert (root / snaps[0]["path"]).read_bytes() == original

    result = cli(root, "diff", rel)
    assert result.returncode == 0, result.stderr
    assert "-**状态**：待跟进" in result.stdout.splitlines()
    assert "+**状态**：已完成" in result.stdout.splitlines()

    result = cli(root, "rollback", rel)
    assert result.returncode == 0, result.stderr
    assert (root / rel).read_bytes() == original
    assert audit(root)[-1]["op"] == "rollback"

    result = cli(root, "rollback", rel)
    assert result.returncode == 0, result.stderr
    assert (root / rel).read_bytes() == changed


def test_diff_against_a_named_snapshot_and_rollback_to_it(root, tmp_path):
    """Two edits make two snapshots: diff FILE SNAPSHOT compares now with the one named,
    rollback --to puts that one back (the newest is the default, so the older is the test)."""
    rel = "user.md"
    original = (root / rel).read_bytes()
    for text in ("- first edit\n", "- second edit\n"):
        (tmp_path / "body.md").write_text(text, encoding="utf-8")
        result = cli(root, "edit", f"file:{rel}", "--text-file", str(tmp_path / "body.md"))
        assert result.returncode == 0, result.stderr
    snaps = json.loads(cli(root, "history", rel, "--json").stdout)["snapshots"]
    newest, oldest = snaps[0]["name"], snaps[-1]["name"]  # newest first
    assert len(snaps) == 2 and (root / snaps[-1]["path"]).read_bytes() == original

    result = cli(root, "diff", rel, oldest)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "+- second edit" in lines and "-- first edit" not in lines
    assert any(line.startswith("-") and line[1:] in original.decode() for line in lines[2:])
    # the newest snapshot holds the first edit: a diff from it to now
    assert cli(root, "diff", rel, newest).stdout.splitlines()[3:] == [
        "-- first edit",
        "+- second edit",
    ]

    before = digest(root)
    result = cli(root, "rollback", rel, "--to", "20000101T000000Z.1")  # no such snapshot
    assert result.returncode != 0 and digest(root) == before

    result = cli(root, "rollback", rel, "--to", oldest)
    assert result.returncode == 0, result.stderr
    assert (root / rel).read_bytes() == original
    assert audit(root)[-1]["op"] == "rollback"


# --- index / maintain ------------------------------------------------------------------


def test_index_clears_the_stale_findings_and_is_then_a_no_op(root):
    codes = {f[0] for f in findings(root)}
    assert {"index-stale", "unresolved-stale"} <= codes  # what the demo store ships with

    result = cli(root, "index")
    assert result.returncode == 0, result.stderr
    after = check_codes(root)
    assert "index-stale" not in after
    assert "unresolved-stale" not in after

    before = digest(root)
    result = cli(root, "index")
    assert result.returncode == 0, result.stderr
    assert "nothing to change" in result.stdout
    assert digest(root) == before


def test_index_is_one_operation_refused_whole_when_a_file_it_reads_cannot_be_read(root):
    """The dsh segment and the companion block are rebuilt in one transaction: MEMORY.md
    a FIFO refuses both before anything is written (index.txt stays stale, no audit
    line); readable again, one operation writes both."""
    memory = (root / "MEMORY.md").read_bytes()
    (root / "MEMORY.md").unlink()
    os.mkfifo(root / "MEMORY.md")
    before, log = digest(root), cli(root, "log", "--json").stdout

    result = cli(root, "index")
    assert result.returncode == 1
    assert digest(root) == before and cli(root, "log", "--json").stdout == log
    assert "MEMORY.md is not readable: a FIFO, not a regular file" in result.stderr
    assert "nothing was changed" in result.stderr
    assert "index-stale" in check_codes(root)

    (root / "MEMORY.md").unlink()
    (root / "MEMORY.md").write_bytes(memory)
    assert cli(root, "index").returncode == 0
    newest = json.loads(cli(root, "log", "--json").stdout)["operations"][0]
    assert {f["path"] for f in newest["files"]} == {"index.txt", "MEMORY.md"}


def test_maintain_is_a_dry_run_unless_apply(root):
    dups = [f for f in findings(root) if f[0] == "fact-duplicate"]
    assert len(dups) == 1
    line_no = dups[0][3]
    fact = read(root, "facts.md").splitlines()[line_no - 1]
    assert read(root, "facts.md").splitlines().count(fact) == 2
    before = tree_digest(root)

    result = cli(root, "maintain")
    assert result.returncode == 0, result.stderr
    assert fact.removeprefix("- ") in result.stdout
    assert "duplicate" in result.stdout
    assert tree_digest(root) == before

    result = cli(root, "maintain", "--apply")
    assert result.returncode == 0, result.stderr
    assert read(root, "facts.md").splitlines().count(fact) == 1
    assert "fact-duplicate" not in {f[0] for f in findings(root)}
    assert list((root / ".history" / "facts.md").iterdir())  # the old text is kept


# --- add -------------------------------------------------------------------------------


def test_add_fact_with_evidence(root):
    result = cli(root, "add", "fact", "GIT", "forgejo 镜像在 nas:3000", "--evidence", "curl → 200")

    assert result.returncode == 0, result.stderr
    assert "- forgejo 镜像在 nas:3000" in sections(read(root, "facts.md"))["GIT"]
    assert audit(root)[-1]["op"] == "add-fact"


def test_add_sop_writes_it_and_lists_it_in_the_index(root, tmp_path):
    body = tmp_path / "sop.md"
    body.write_text("# 清理 Docker 镜像\n\n1. docker image prune -a\n", encoding="utf-8")
    others = {k: v for k, v in digest(root).items() if not k.startswith((".history", "sops/"))}

    result = cli(root, "add", "sop", "prune-docker", "--body-file", str(body), "--evidence", "ok")

    assert result.returncode == 0, result.stderr
    assert (root / "sops" / "prune-docker.md").read_bytes() == body.read_bytes()
    assert "prune-docker" in read(root, "index.txt")  # the automatic [SOPS] line
    assert meta_status(root, "sop:prune-docker") == "active"
    assert audit(root)[-1]["op"] == "add-sop"
    changed = {k for k, v in others.items() if digest(root).get(k) != v}
    assert changed <= {"index.txt", "memory-meta.json", "memory_stats.json", ".memory.lock"}
    again = cli(root, "add", "sop", "prune-docker", "--body-file", str(body), "--evidence", "ok")
    assert again.returncode == 1 and "exists already" in again.stderr


def test_add_topic_writes_the_file_and_its_pointer(root, tmp_path):
    body = tmp_path / "topic.md"
    body.write_text("# 阳台种菜\n\n- 番茄三月播种\n", encoding="utf-8")
    old_index = read(root, "memory.md")

    result = cli(
        root, "add", "topic", "balcony_garden", "--section", "生活",
        "--description", "阳台种菜笔记", "--body-file", str(body),
    )  # fmt: skip

    assert result.returncode == 0, result.stderr
    assert (root / "memory_balcony_garden.md").read_bytes() == body.read_bytes()
    new_index = read(root, "memory.md")
    added = [line for line in new_index.splitlines() if line not in old_index.splitlines()]
    assert "- 阳台种菜笔记 → memory_balcony_garden.md" in added
    assert audit(root)[-1]["op"] == "add-topic"
    assert not [f for f in findings(root) if f[2] == "memory_balcony_garden.md"]  # no orphan


def test_add_event_takes_the_next_number(root):
    old = read(root, "memory/events.md")
    last = max(int(n) for n in re.findall(r"^### \[E(\d+)\]", old, re.M))
    number = f"E{last + 1:03d}"
    errors_before = errors(root)

    result = cli(root, "add", "event", "约定", "陪他去看跨年烟花", "--due", "2026-12-24")

    assert result.returncode == 0, result.stderr
    new = read(root, "memory/events.md")
    assert new.startswith(old)
    block = event_block(new + "\n### ", number)
    assert "**内容**：陪他去看跨年烟花" in block
    assert "**到期日**：2026-12-24" in block
    assert "**状态**：待跟进" in block
    assert errors(root) == errors_before


def test_add_promise_without_due_date_is_refused(root):
    before = digest(root)

    result = cli(root, "add", "event", "约定", "没有日期的约定")

    assert result.returncode == 1
    assert "到期日" in result.stderr or "due" in result.stderr
    assert digest(root) == before


# --- the lock --------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("flock") is None, reason="needs flock(1)")
def test_a_write_waits_for_the_agents_lock_then_gives_up(root):
    holder = subprocess.Popen(
        # holds the lock until the test kills it, however slow the CLI's 10 s wait runs
        ["bash", "-c", 'exec 9>"$ROOT/.memory.lock"; flock -x 9; echo locked; exec sleep 600'],
        env={**os.environ, "ROOT": str(root)},
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        before = tree_digest(root)

        result = cli(root, "done", OPEN_EVENT)

        assert result.returncode == 1
        assert ".memory.lock" in result.stderr
        assert "10 s" in result.stderr
        assert tree_digest(root) == before
    finally:
        holder.kill()
        holder.wait()
    assert (root / LOCK).exists()  # never deleted or replaced


# --- paths outside the root ------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["edit", "file:../outside.md", "--text-file", "{text}"],
        ["edit", "file:link.md", "--text-file", "{text}"],
        ["rollback", "../x"],
        ["history", "/etc/passwd"],
        ["diff", "../outside.md"],
    ],
    ids=["edit-dotdot", "edit-symlink", "rollback-dotdot", "history-absolute", "diff-dotdot"],
)
def test_paths_outside_the_root_are_refused(root, tmp_path, argv):
    (tmp_path / "outside.md").write_text("outside\n", encoding="utf-8")
    (tmp_path / "x").write_text("x\n", encoding="utf-8")
    (root / "link.md").symlink_to(tmp_path / "outside.md")
    text = tmp_path / "text.md"
    text.write_text("overwritten\n", encoding="utf-8")
    before = {k: v for k, v in tree_digest(tmp_path).items() if not k.endswith(LOCK)}

    result = cli(root, *(a.replace("{text}", str(text)) for a in argv))

    assert result.returncode in (1, 2)
    assert result.stderr.startswith("memtui: ")
    assert result.stdout == ""
    assert {k: v for k, v in tree_digest(tmp_path).items() if not k.endswith(LOCK)} == before


def test_a_fact_section_name_cannot_steer_archive_out_of_archive_facts(root):
    """A section name is text, not a path: archiving `fact:../../sops/sneaky` must not write
    sops/sneaky.md (a live sop nobody accepted, with no evidence) nor anything else outside
    archive/facts/. Either `add fact` refuses such a name or the archive stays in its folder."""
    section = "../../sops/sneaky"
    before = set(digest(root))

    result = cli(root, "add", "fact", section, "a fact", "--evidence", "e")
    if result.returncode == 0:
        result = cli(root, "archive", f"fact:{section}")

    assert result.returncode in (0, 1)
    assert not (root / "sops" / "sneaky.md").exists()
    created = set(digest(root)) - before
    assert all(rel.startswith(("archive/facts/", ".history/")) for rel in created), created


def test_restore_of_a_fact_section_named_like_a_path_touches_no_other_file(root):
    """`restore fact:../../soul` must not take the workspace's soul.md (archive/facts/../../soul.md)
    out of the store and splice it into facts.md: there is no archived section of that name."""
    before = digest(root)

    result = cli(root, "restore", "fact:../../soul")

    assert result.returncode in (1, 2)
    assert result.stderr.startswith("memtui: ")
    assert digest(root) == before


def test_accept_all_with_the_pending_filters_takes_only_matching_candidates(root):
    pending = sorted(p.name for p in (root / "pending").glob("*.md"))
    sops = [n for n in pending if "entry_type: sop" in read(root, f"pending/{n}")]
    assert sops and len(sops) < len(pending)

    result = cli(root, "accept", "--all", "--type", "sop", "--json")

    assert result.returncode == 0, result.stderr
    left = sorted(p.name for p in (root / "pending").glob("*.md"))
    for name in sops:  # every sop went, but one the engine must refuse (no evidence)
        if name in left:
            assert "evidence:" not in read(root, f"pending/{name}")
        else:
            assert (root / "archive/pending" / name).exists()
    assert [n for n in pending if n not in sops] == [n for n in left if n not in sops]
    none = cli(root, "accept", "--all", "--target", "NO_SUCH_SECTION")
    assert none.returncode == 1 and "no pending candidate" in none.stderr
