"""Files a layout reads that cannot be read (SPEC §0, §5 `unreadable`), in every layout:
a FIFO, a folder, a link out of the root, bad UTF-8, binary, over the size limit. `check`
names each with the reason in every format (`path-escape` for the link out) and reports
nothing else for it (an index that cannot be read is unknown, not empty: no orphan);
nothing hangs (opening the store never opens a FIFO); `context` names a file the agent loads instead
of leaving it out; a verb aimed at an entry in it says which file and why, and changes
nothing. Through the real CLI, in-process (tests/hostile_calls)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import TODAY, write_tree

from memtui.engine.context import context_of
from memtui.engine.store import open_store
from tests.hostile_calls import reads, refused, run

DELIM = "\n§\n"
LIMIT = 4096
TODAYS = f"memory/{TODAY}.md"
CLAUDE = {
    "MEMORY.md": "- [Stack](project_stack.md) — the stack\n- [Tests](feedback_tests.md) — tests\n",
    "project_stack.md": "---\nname: Stack\ndescription: the stack\ntype: project\n---\nPy 3.12\n",
    "feedback_tests.md": "---\nname: Tests\ndescription: tests\ntype: feedback\n---\nRun pytest\n",
}
HERMES_ADD = {"id": "0a0a0a01", "subsystem": "memory", "action": "add", "summary": "add",
              "origin": "foreground", "created_at": 1764500000.0,
              "payload": {"action": "add", "target": "memory", "content": "Prefers ruff",
                          "old_text": None}}  # fmt: skip
HERMES = {
    "memories/MEMORY.md": DELIM.join(["Project alpha uses uv", "Deploys happen on Friday"]),
    "memories/USER.md": DELIM.join(["Name: Ana", "Prefers short answers"]),
    "config.yaml": "memory:\n  memory_char_limit: 400\n  user_char_limit: 300\n",
    "pending/memory/0a0a0a01.json": json.dumps(HERMES_ADD),
}
AUDIT_ADD = {"id": "ma_add", "status": "pending", "action": "add", "text": "- oolong",
             "rationale": "why", "confidence": 0.7,
             "target": {"surfaceId": "s1", "kind": "agent-memory", "path": "MEMORY.md",
                        "workspaceDir": "/home/someone/.openclaw/workspace"},
             "createdAt": "2026-11-28T06:10:00.000Z",
             "updatedAt": "2026-11-28T06:10:00.000Z"}  # fmt: skip
OPENCLAW = {
    "AGENTS.md": "# AGENTS.md\n\n## Memory\n- read MEMORY.md\n",
    "SOUL.md": "# SOUL.md\n\n## Tone\n- calm\n",
    "MEMORY.md": "# MEMORY.md\n\n## Prefs\n- green tea\n",
    TODAYS: "- tea today\n",
    "memory/audit/suggestions.jsonl": json.dumps(AUDIT_ADD) + "\n",
}
SEEDS = {  # the three seed layouts in one root
    "memory.md": "# Index\n\n## Topics\n- course → memory_course.md\n",
    "memory_course.md": "# Course\n- week 1\n",
    "soul.md": "## name\nAda\n",
    "memory/events.md": "### [E001] 2026-11-20 · 约定\n**类型**：约定\n**内容**：看海\n"
    "**状态**：待跟进\n**到期日**：2026-12-01\n\n### [E000] 2026-11-29T21:40 · last_active\n",
    "memory/persona.md": "persona\n",
    "MEMORY.md": "# MEMORY\n\n【最近未解决事项】\n- [E001] 约定 · 到期 2026-12-01 · 看海\n",
    "index.txt": "[RULES] r\n# --- auto ---\n[FACTS] ENV\n# --- end auto ---\n",
    "facts.md": "# Facts\n\n## ENV\n- uv\n",
    "pending/20261129-0007.md": "---\nid: 20261129-0007\nentry_type: fact\ntarget: ENV\n"
    'evidence: "pytest -q → 41 passed"\n---\n- ruff too\n',
}
STORES = {"claude": CLAUDE, "hermes": HERMES, "openclaw": OPENCLAW, "seeds": SEEDS}

FAULTS = ("fifo", "folder", "link-out", "not-utf8", "binary", "oversized")
# What the reason says, for each fault.
REASON = {
    "fifo": "a FIFO, not a regular file",
    "folder": "a folder, not a file",
    "link-out": "outside the store root",
    "not-utf8": "not valid UTF-8",
    "binary": "binary file",
    "oversized": f"larger than the {LIMIT:,}-byte limit",
}
# Each layout's files it reads by name (a daily note by its date): (layout, file).
KNOWN = [
    ("claude", "MEMORY.md"),
    ("claude", "project_stack.md"),
    ("hermes", "memories/MEMORY.md"),
    ("hermes", "memories/USER.md"),
    ("hermes", "config.yaml"),
    ("openclaw", "MEMORY.md"),
    ("openclaw", "memory/audit/suggestions.jsonl"),
    ("openclaw", TODAYS),
    ("seeds", "facts.md"),
    ("seeds", "memory/events.md"),
    ("seeds", "memory.md"),
    ("seeds", "index.txt"),
    ("seeds", "MEMORY.md"),
]
# The files the agent loads at session start (SPEC §3c): `context` must name them.
LOADED = [
    (layout, rel)
    for layout, rel in KNOWN
    if rel in ("MEMORY.md", "memories/MEMORY.md", "memories/USER.md", TODAYS, "memory.md")
    or rel == "index.txt"
]


def broken(tmp_path: Path, layout: str, rel: str, fault: str) -> Path:
    """The layout's store with `rel` made unreadable by `fault`."""
    return spoil(tmp_path, write_tree(tmp_path / layout, STORES[layout]), rel, fault)


def spoil(tmp_path: Path, root: Path, rel: str, fault: str) -> Path:
    """`rel` of the store at root made unreadable by `fault`."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    if fault == "fifo":
        os.mkfifo(path)
    elif fault == "folder":
        path.mkdir()
    elif fault == "link-out":
        outside = write_tree(tmp_path / "outside", {"secret.md": "- outside\n"})
        path.symlink_to(outside / "secret.md")
    elif fault == "not-utf8":
        path.write_bytes("- Caf\xe9\n".encode("latin-1"))
    elif fault == "binary":
        path.write_bytes(b"- tea\x00\x01\n")
    else:
        (root / "memtui.toml").write_text(f"[thresholds]\nmax_file_bytes = {LIMIT}\n")
        path.write_text("- tea\n" * (LIMIT // 6 + 1), encoding="utf-8")
    return root


def found(out: str) -> set[tuple[str, str | None]]:
    return {(f["code"], f["file"]) for f in json.loads(out)["findings"]}


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize(("layout", "rel"), KNOWN)
def test_a_file_that_cannot_be_read_is_reported_with_why_and_nothing_else(
    tmp_path, capsys, layout, rel, fault
):
    intact = write_tree(tmp_path / "intact", STORES[layout])
    before = found(run(capsys, intact, "check", "--json")[1])
    root = broken(tmp_path, layout, rel, fault)
    forms = (("check",), ("check", "--format", "github"), ("check", "--format", "sarif"))
    got = reads(capsys, root, ("check", "--json"), *forms)
    code, out, _ = got["check --json"]
    code_for = "path-escape" if fault == "link-out" else "unreadable"
    assert code == 1
    new = found(out) - before  # no orphan, no stale block: what it holds is unknown
    escapes = {f for f in new if f[0] == "path-escape"} if fault == "link-out" else set()
    assert new - escapes == {(code_for, rel)} - escapes and (code_for, rel) in new
    [finding] = [
        f for f in json.loads(out)["findings"] if (f["code"], f["file"]) == (code_for, rel)
    ]
    assert REASON[fault] in finding["message"] and finding["level"] == "error"
    for form in forms:  # every format names it
        out = got[" ".join(form)][1]
        assert code_for in out and rel in out, form


# A link out as memory.md or index.txt is no workspace or dsh store (path-escape says so).
SEEN_LOADED = [
    (layout, rel, fault)
    for layout, rel in LOADED
    for fault in FAULTS
    if not (fault == "link-out" and rel in ("memory.md", "index.txt"))
]


@pytest.mark.parametrize(("layout", "rel", "fault"), SEEN_LOADED)
def test_context_names_a_loaded_file_it_could_not_read(tmp_path, capsys, layout, rel, fault):
    root = broken(tmp_path, layout, rel, fault)
    got = reads(capsys, root, ("context", "--json"), ("context",))
    code, out, _ = got["context --json"]
    assert code == 0
    files = {f["file"]: f for lay in json.loads(out)["layouts"] for f in lay["files"]}
    assert rel in files, sorted(files)
    assert REASON[fault].split(" (")[0] in files[rel]["unreadable"]
    assert files[rel]["text"] == "" and files[rel]["loaded"]["lines"] == 0
    text = got["context"][1]
    assert f"{rel} (not readable: " in text and REASON[fault] in text


@pytest.mark.parametrize(("layout", "rel"), KNOWN)
def test_a_fifo_is_reported_from_its_stat_never_opened(tmp_path, monkeypatch, layout, rel):
    """A read would wait for a writer (or let a waiting one go): the reason comes from
    the listing and a stat. Spied on os.open, as every read of the engine goes."""
    root = broken(tmp_path, layout, rel, "fifo")
    opened: list[str] = []
    real_open = os.open

    def spy(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.fspath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    store = open_store(root)
    context_of(store)
    assert store.unreadable[rel] == "a FIFO, not a regular file"
    assert [f.code for f in store.findings if f.file == rel] == ["unreadable"]
    assert not [p for p in opened if p == rel or p.endswith("/" + rel)], opened


# --- refusals: the file, and why ------------------------------------------------------------

# (layout, file made unreadable, verb and id); `archive first` verbs restore what a
# healthy store archived, into the broken file.
AIMED = [
    ("claude", "MEMORY.md", ("show", "claude-index:project_stack.md")),
    ("claude", "MEMORY.md", ("edit", "claude-index:project_stack.md")),
    ("claude", "MEMORY.md", ("archive", "claude:project_stack.md")),
    ("claude", "MEMORY.md", ("restore", "claude:feedback_tests.md")),
    ("claude", "project_stack.md", ("show", "claude:project_stack.md")),
    ("claude", "project_stack.md", ("edit", "claude:project_stack.md")),
    ("hermes", "memories/MEMORY.md", ("show", "hermes:memory#2")),
    ("hermes", "memories/MEMORY.md", ("edit", "hermes:memory#2")),
    ("hermes", "memories/MEMORY.md", ("archive", "hermes:memory#2")),
    ("hermes", "memories/MEMORY.md", ("accept", "hermes-pending:0a0a0a01")),
    ("hermes", "memories/USER.md", ("restore", "hermes:user#1")),
    ("openclaw", "MEMORY.md", ("show", "openclaw:MEMORY.md#Prefs")),
    ("openclaw", "MEMORY.md", ("edit", "openclaw:MEMORY.md#Prefs")),
    ("openclaw", "MEMORY.md", ("accept", "openclaw-audit:ma_add")),
    ("openclaw", TODAYS, ("show", f"openclaw-daily:{TODAY}.md")),
    ("seeds", "memory/events.md", ("show", "event:E001")),
    ("seeds", "memory/events.md", ("edit", "event:E001")),
    ("seeds", "memory/events.md", ("archive", "event:E001")),
    ("seeds", "memory/events.md", ("done", "E001")),
    ("seeds", "facts.md", ("show", "fact:ENV")),
    ("seeds", "facts.md", ("edit", "fact:ENV")),
    ("seeds", "facts.md", ("archive", "fact:ENV")),
    ("seeds", "facts.md", ("accept", "20261129-0007")),
    ("seeds", "memory_course.md", ("show", "topic:course")),
    ("seeds", "memory_course.md", ("edit", "topic:course")),
    ("seeds", "memory.md", ("restore", "topic:course")),
]
WORDS = {"fifo": "FIFO", "folder": "folder", "link-out": "link", "not-utf8": "UTF-8",
         "binary": "binary", "oversized": "limit"}  # fmt: skip


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize(("layout", "rel", "argv"), AIMED, ids=lambda v: str(v))
def test_a_verb_aimed_into_a_file_that_cannot_be_read_names_it_and_why(
    tmp_path, capsys, layout, rel, argv, fault
):
    root = write_tree(tmp_path / layout, STORES[layout])
    if argv[0] == "restore":  # archived while its file could still be read
        code, _, err = run(capsys, root, "archive", argv[1])
        assert code == 0, err
        if layout == "hermes":
            line = (root / "memories/archived.jsonl").read_text(encoding="utf-8").split("\n")[0]
            argv = ("restore", f"hermes-archived:{json.loads(line)['id']}")
    spoil(tmp_path, root, rel, fault)
    new = tmp_path / "new.txt"
    new.write_text("- changed\n", encoding="utf-8")
    extra = ("--text-file", str(new)) if argv[0] == "edit" else ()
    err = refused(capsys, root, *argv, *extra)
    assert rel in err and WORDS[fault] in err, err
    assert "no entry" not in err, err
