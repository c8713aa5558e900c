"""OpenClaw's Memory Audit queue (`memory/audit/suggestions.jsonl`) applied and rejected
through memtui: each outcome appends the status record OpenClaw's own code appends,
a source changed since staging becomes `conflict` and is never overwritten, and no
other byte of the workspace changes.

OpenClaw's rules, re-stated from openclaw/openclaw
extensions/memory-core/src/memory-audit.ts:
- hashText: sha256 hex of the text, first 16 digits; readRangeHash: the range's lines
  (split on /\\r?\\n/) joined by "\\n", trimmed, hashed;
- appendSuggestion: `JSON.stringify(record) + "\\n"` appended to the log;
- appendStatus: `{...suggestion, status, updatedAt: now, appliedAt|rejectedAt: now,
  conflict}` with now = `new Date().toISOString()`;
- appendToTarget: the file's trailing whitespace becomes "\\n\\n", then text.trim(), "\\n";
- replaceSourceRange: conflict "source file missing", "source range no longer exists",
  "source range changed since recommendation was staged".
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from memtui.engine import queue
from memtui.engine.ops.common import Refused
from memtui.engine.store import open_store
from memtui.engine.write.transaction import Conflict
from tests.conftest import run_cli, tree_digest, write_tree

LOG = "memory/audit/suggestions.jsonl"
WS = "/home/someone/.openclaw/workspace"  # where OpenClaw ran, as its records say
ISO_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\Z")
MEMORY = (
    "# MEMORY.md\r\n\r\n## Prefs\r\n- 喜欢绿茶 🍵\r\n- dark mode\r\n\r\n"
    "## Work\r\n- rust\r\n\r\n\r\n"
)


def hash_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def range_hash(text: str, start: int, end: int) -> str:
    return hash_text("\n".join(re.split(r"\r?\n", text)[start - 1 : end]).strip())


def stringify(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def surface(kind: str, path: str) -> dict[str, str]:
    return {"surfaceId": hash_text(kind + path), "kind": kind, "path": path, "workspaceDir": WS}


def record(rid: str, action: str, text: str, start: int = 0, end: int = 0, **kw: Any) -> dict:
    target = kw.pop("target", surface("agent-memory", "MEMORY.md"))
    rec: dict[str, Any] = {"id": rid, "status": "pending", "action": action, "text": text,
                           "rationale": "why", "confidence": 0.7}  # fmt: skip
    if start:
        src = kw.pop("source", MEMORY)
        rec["source"] = {**target, "startLine": start, "endLine": end,
                         "hash": kw.pop("hash", range_hash(src, start, end))}  # fmt: skip
    rec.update(target=target, createdAt="2026-11-28T06:10:00.000Z")
    rec["updatedAt"] = "2026-11-28T06:10:00.000Z"
    return rec


def workspace(tmp_path: Path, *records: dict) -> Path:
    return write_tree(
        tmp_path / "ws",
        {
            "AGENTS.md": "# AGENTS.md\n",
            "MEMORY.md": MEMORY,
            "USER.md": "# USER.md\n\n- Lin\n",
            "memory/2026-11-28.md": "- tea\n",
            LOG: "".join(stringify(r) + "\n" for r in records),
        },
    )


def memory_files(root: Path) -> dict[str, str]:
    return {
        k: v
        for k, v in tree_digest(root).items()
        if not k.startswith(".history") and k != ".memory.lock"
    }


def appended(root: Path, before: bytes) -> dict[str, Any]:
    """The one line the log gained (the log's earlier bytes unchanged), as stored."""
    after = (root / LOG).read_bytes()
    assert after.startswith(before)
    line = after[len(before) :].decode("utf-8")
    assert line.endswith("\n") and line.count("\n") == 1
    got = json.loads(line)
    assert line == stringify(got) + "\n"  # JSON.stringify's form, non-ASCII as is
    return got


def status_of(rec: dict, status: str, got: dict, **extra: str) -> dict:
    """appendStatus as OpenClaw writes it, with the times the record carries."""
    assert ISO_MS.match(got["updatedAt"])
    stamp = {"applied": "appliedAt", "rejected": "rejectedAt"}.get(status)
    more = {stamp: got["updatedAt"]} if stamp else {}
    return {**rec, "status": status, "updatedAt": got["updatedAt"], **more, **extra}


def approve(root: Path, rid: str) -> None:
    queue.approve(str(root), [f"openclaw-audit:{rid}"])


def test_add_appends_the_text_and_an_applied_record(tmp_path: Path) -> None:
    rec = record("ma_add", "add", "  - 喜欢安静 😀  ")
    root = workspace(tmp_path, rec)
    log, others = (root / LOG).read_bytes(), memory_files(root)
    approve(root, "ma_add")
    # after the old bytes (their blank lines and CRLF kept), ended in CRLF as they are
    assert (root / "MEMORY.md").read_bytes() == (MEMORY + "- 喜欢安静 😀\r\n").encode("utf-8")
    got = appended(root, log)
    assert list(got) == [*rec, "appliedAt"] and got == status_of(rec, "applied", got)
    changed = {k for k, v in memory_files(root).items() if others.get(k) != v}
    assert changed == {"MEMORY.md", LOG}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("# M\r\n\r\n- rust\r\n", "# M\r\n\r\n- rust\r\n\r\n- 喜欢安静\r\n- 早睡\r\n"),
        ("# M\r\n\r\n- rust", "# M\r\n\r\n- rust\r\n\r\n- 喜欢安静\r\n- 早睡\r\n"),
        ("# M\n\n- rust  \n\n\n", "# M\n\n- rust  \n\n\n- 喜欢安静\n- 早睡\n"),
        ("\n", "\n- 喜欢安静\n- 早睡\n"),
    ],
    ids=["crlf", "crlf-no-final-newline", "lf-blank-lines-kept", "blank"],
)
def test_an_add_keeps_the_old_bytes_and_the_files_line_ending(
    tmp_path: Path, before: str, after: str
) -> None:
    """OpenClaw's appendToTarget trims the file's end and writes LF; memtui keeps the old
    bytes as they are and ends the new lines as the file ends its own."""
    root = workspace(tmp_path, record("ma_add", "add", " - 喜欢安静\r\n- 早睡\n"))
    (root / "MEMORY.md").write_bytes(before.encode("utf-8"))
    approve(root, "ma_add")
    assert (root / "MEMORY.md").read_bytes() == after.encode("utf-8")


def test_edit_replaces_only_its_range(tmp_path: Path) -> None:
    """memtui keeps every byte outside the range (CRLF and the trailing blank lines),
    where OpenClaw's own rewrite would turn the file to LF and trim its end."""
    rec = record("ma_edit", "edit", "- 喜欢咖啡 ☕\n- light mode", 4, 5)
    root = workspace(tmp_path, rec)
    log = (root / LOG).read_bytes()
    approve(root, "ma_edit")
    want = MEMORY.replace("- 喜欢绿茶 🍵\r\n- dark mode", "- 喜欢咖啡 ☕\r\n- light mode")
    assert (root / "MEMORY.md").read_bytes() == want.encode("utf-8")
    got = appended(root, log)
    assert got == status_of(rec, "applied", got)


def test_delete_and_move(tmp_path: Path) -> None:
    move = record("ma_move", "move", "- rust", 8, 8, target=surface("user-profile", "USER.md"))
    move["source"] = {**surface("agent-memory", "MEMORY.md"), "startLine": 8, "endLine": 8,
                      "hash": range_hash(MEMORY, 8, 8)}  # fmt: skip
    delete = record("ma_del", "delete", "", 5, 5)
    root = workspace(tmp_path, move, delete)
    approve(root, "ma_move")  # the later range first: a removal shifts what follows it
    approve(root, "ma_del")
    want = MEMORY.replace("- dark mode\r\n", "").replace("- rust\r\n", "")
    assert (root / "MEMORY.md").read_bytes() == want.encode("utf-8")
    assert (root / "USER.md").read_text(encoding="utf-8") == "# USER.md\n\n- Lin\n\n- rust\n"
    states = [json.loads(x)["status"] for x in (root / LOG).read_text().splitlines()]
    assert states == ["pending", "pending", "applied", "applied"]


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"MEMORY.md": MEMORY.replace("dark", "light")}, "source range changed since "
         "recommendation was staged"),
        ({"MEMORY.md": "# MEMORY.md\n"}, "source range no longer exists"),
        ({"MEMORY.md": None}, "source file missing"),
    ],
)  # fmt: skip
def test_a_changed_source_becomes_conflict_never_an_overwrite(
    tmp_path: Path, change: dict[str, str | None], reason: str
) -> None:
    rec = record("ma_edit", "edit", "- overwritten?", 4, 5)
    root = workspace(tmp_path, rec)
    for rel, text in change.items():  # the agent wrote after the suggestion was staged
        if text is None:
            (root / rel).unlink()
        else:
            (root / rel).write_text(text, encoding="utf-8")
    log, others = (root / LOG).read_bytes(), memory_files(root)
    with pytest.raises(Refused, match="conflict"):
        approve(root, "ma_edit")
    got = appended(root, log)
    assert got == status_of(rec, "conflict", got, conflict=reason)
    assert {k for k, v in memory_files(root).items() if others.get(k) != v} == {LOG}


def test_reject_appends_a_rejected_record_and_nothing_else(tmp_path: Path) -> None:
    rec = record("ma_rej", "delete", "", 5, 5)
    root = workspace(tmp_path, rec)
    log, others = (root / LOG).read_bytes(), memory_files(root)
    queue.reject(str(root), ["openclaw-audit:ma_rej"], "keep it")
    got = appended(root, log)
    assert list(got) == [*rec, "rejectedAt"] and got == status_of(rec, "rejected", got)
    assert {k for k, v in memory_files(root).items() if others.get(k) != v} == {LOG}


def test_only_pending_suggestions_are_queued_and_a_settled_one_is_refused(
    tmp_path: Path,
) -> None:
    rec = record("ma_done", "add", "- once")
    applied = {**rec, "status": "applied", "updatedAt": "2026-11-28T07:00:00.000Z"}
    stale = record("ma_stale", "edit", "- x", 4, 4, hash="0" * 16)
    root = workspace(tmp_path, rec, applied, stale)
    items = {i.id: i for i in queue.items(open_store(root))}
    assert set(items) == {"openclaw-audit:ma_stale"}
    assert "conflict" in (items["openclaw-audit:ma_stale"].problem or "")
    before = memory_files(root)
    with pytest.raises(Refused, match="applied"):
        approve(root, "ma_done")
    with pytest.raises(Refused, match="applied"):
        queue.reject(str(root), ["openclaw-audit:ma_done"], "no")
    assert memory_files(root) == before


@pytest.mark.parametrize("path", ["../outside.md", "/tmp/outside.md", "memory/../../o.md"])
def test_a_target_outside_the_workspace_is_reported_and_refused(tmp_path: Path, path: str) -> None:
    out = record("ma_out", "add", "- escape", target=surface("agent-memory", path))
    root = workspace(tmp_path, out)
    found = {(f.code, f.file, f.line) for f in open_store(root).findings}
    assert ("path-escape", LOG, 1) in found
    before = memory_files(root)
    with pytest.raises(Refused, match="not a Markdown file inside"):
        approve(root, "ma_out")
    assert memory_files(root) == before
    assert not (tmp_path / "outside.md").exists()


def test_the_preview_shows_the_diff_and_writes_nothing(tmp_path: Path) -> None:
    root = workspace(tmp_path, record("ma_edit", "edit", "- 喜欢咖啡", 4, 4))
    before = memory_files(root)
    got = queue.preview(str(root), "openclaw-audit:ma_edit")
    assert got.error is None
    assert "-- 喜欢绿茶 🍵" in got.diff and "+- 喜欢咖啡" in got.diff
    (gauge,) = got.gauges  # MEMORY.md against the 20,000 characters OpenClaw injects
    assert (gauge.file, gauge.limit) == ("MEMORY.md", 20_000)
    assert gauge.before - gauge.after == len("- 喜欢绿茶 🍵") + 1 - len("- 喜欢咖啡")  # 🍵: 2 units
    assert memory_files(root) == before


def test_the_command_line_lists_applies_and_rejects_by_id(tmp_path: Path) -> None:
    add = record("ma_add", "add", "- 喜欢安静")
    stale = record("ma_stale", "edit", "- x", 4, 4, hash="0" * 16)
    gone = record("ma_gone", "delete", "", 5, 5)
    root = workspace(tmp_path, add, stale, gone)
    listed = run_cli("pending", "--json", "--store", str(root))
    assert listed.returncode == 0, listed.stderr
    queued = {i["id"]: i for i in json.loads(listed.stdout)["queue"]}
    assert set(queued) == {f"openclaw-audit:{r}" for r in ("ma_add", "ma_stale", "ma_gone")}
    assert queued["openclaw-audit:ma_stale"]["problem"]
    got = run_cli(
        "accept", "openclaw-audit:ma_add", "openclaw-audit:ma_stale", "--store", str(root)
    )
    assert got.returncode == 1 and "Traceback" not in got.stderr
    assert "ma_stale" in got.stderr and "conflict" in got.stderr
    got = run_cli("reject", "openclaw-audit:ma_gone", "--reason", "keep", "--store", str(root))
    assert got.returncode == 0, got.stderr
    states = {}
    for raw in (root / LOG).read_text(encoding="utf-8").splitlines():
        rec = json.loads(raw)
        states[rec["id"]] = rec["status"]
    assert states == {"ma_add": "applied", "ma_stale": "conflict", "ma_gone": "rejected"}
    assert (root / "MEMORY.md").read_text(encoding="utf-8").endswith("\n\n- 喜欢安静\n")


def test_a_dry_run_writes_nothing_and_an_undo_puts_every_byte_back(tmp_path: Path) -> None:
    move = record("ma_move", "move", "- rust", 8, 8, target=surface("user-profile", "USER.md"))
    move["source"] = {**surface("agent-memory", "MEMORY.md"), "startLine": 8, "endLine": 8,
                      "hash": range_hash(MEMORY, 8, 8)}  # fmt: skip
    root = workspace(tmp_path, move)
    before = memory_files(root)
    for verb in (["accept", "openclaw-audit:ma_move"], ["reject", "openclaw-audit:ma_move",
                 "--reason", "no"]):  # fmt: skip
        got = run_cli(*verb, "--dry-run", "--store", str(root))
        assert got.returncode == 0, got.stderr
        assert memory_files(root) == before
    got = run_cli("accept", "openclaw-audit:ma_move", "--store", str(root))
    assert got.returncode == 0, got.stderr
    assert memory_files(root) != before
    got = run_cli("undo", "--store", str(root))
    assert got.returncode == 0, got.stderr
    assert memory_files(root) == before  # MEMORY.md, USER.md and the log, in one operation


def test_an_item_settled_by_openclaw_since_it_was_shown_is_not_applied_again(
    tmp_path: Path,
) -> None:
    rec = record("ma_add", "add", "- once")
    root = workspace(tmp_path, rec)
    (shown,) = queue.items(open_store(root))
    applied = {**rec, "status": "applied", "updatedAt": "2026-11-28T07:00:00.000Z"}
    with (root / LOG).open("a", encoding="utf-8") as log:  # the Gateway applied it meanwhile
        log.write(stringify(applied) + "\n")
    before = memory_files(root)
    with pytest.raises(Conflict, match="changed since it was shown"):
        queue.approve(str(root), [shown.id], expected={shown.id: shown.fingerprint})
    assert memory_files(root) == before


def test_pending_suggestions_are_listed_and_shown_by_the_id_pending_gives(tmp_path: Path) -> None:
    add = record("ma_add", "add", "- 喜欢安静")
    done = {**record("ma_done", "add", "- once"), "status": "applied"}
    root = workspace(tmp_path, add, done)
    (root / LOG).write_bytes((root / LOG).read_bytes().replace(b"\n", b"\r\n"))  # CRLF log
    listed = run_cli("list", "--json", "--store", str(root))
    assert listed.returncode == 0, listed.stderr
    ids = {e["id"]: e for e in json.loads(listed.stdout)["entries"]}
    assert "openclaw-audit:ma_done" not in ids  # settled: no queue item
    entry = ids["openclaw-audit:ma_add"]
    assert (entry["file"], entry["line"]) == (LOG, 1)
    (item,) = queue.items(open_store(root))
    assert entry["fingerprint"] == item.fingerprint  # one id, one fingerprint, either verb
    shown = run_cli("show", f"openclaw-audit:ma_add@{item.fingerprint}", "--store", str(root))
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:] == [stringify(add)]  # the record's line, no CR
