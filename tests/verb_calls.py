"""One call of every write verb of the CLI on a store, for tests that run them all: the
seed layouts' verbs on the demo store, and those of each agent's layout on the demo's
claude/, hermes/ and openclaw/ folders (STORES)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memtui.engine import queue
from memtui.engine.entries import entry_text, iter_entries, resolve
from memtui.engine.store import Store, open_store
from tests.helpers import ENV

# The demo's stores that every write verb runs on: the seed layouts' at the root, and
# one per agent layout in its folder (memtui demo).
STORES = ("", "claude", "hermes", "openclaw")

# Stands for the id of the Hermes entry archived last, known only once it is archived
# (the archive stamps its time into the id): `bind` a call before running it.
ARCHIVED_LAST = "hermes-archived:<archived last>"


def memtui(
    root: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "memtui", "--store", str(root), *args],
        env={**os.environ, **ENV, **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def every_write_verb(root: Path, tmp_path: Path) -> list[list[str]]:
    """One call of every write verb of each layout this store holds, in an order where
    each applies after the ones before it."""
    store = open_store(root)
    calls = []
    if {"workspace", "companion", "dsh"} & set(store.layouts):
        calls += _seed(store, tmp_path)
    if "claude" in store.layouts:
        calls += _claude(store, tmp_path)
    if "hermes" in store.layouts:
        calls += _hermes(store, tmp_path)
    if "openclaw" in store.layouts:
        calls += _openclaw(store, tmp_path)
    assert calls, f"no write verb for the layouts {store.layouts}"
    return calls


def bind(call: list[str], root: Path) -> list[str]:
    """The call with ARCHIVED_LAST replaced by the id it stands for in the store now
    (left as it is when nothing is archived: the call is then refused, no such entry)."""
    if ARCHIVED_LAST not in call:
        return call
    archived = [e.id for e in iter_entries(open_store(root)) if e.kind == "hermes-archived"]
    return [archived[-1] if archived and a == ARCHIVED_LAST else a for a in call]


def _text_file(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def _seed(store: Store, tmp_path: Path) -> list[list[str]]:
    assert store.data.get("dsh") and store.data.get("companion") and store.data.get("workspace")
    acceptable = next(c.id for c in store.data.get("dsh").candidates if c.evidence)
    rejectable = next(c.id for c in store.data.get("dsh").candidates if c.id != acceptable)
    event = next(e.label for e in store.data.get("companion").events if e.is_open and e.number)
    section = store.data.get("dsh").fact_sections[0].name
    sop = store.data.get("dsh").sops[0].name
    topic = store.data.get("workspace").topics[0]
    topic_id = topic.removeprefix("memory_").removesuffix(".md")
    body = _text_file(tmp_path, "body.md", "# a new note\n\n- written by the test\n")
    return [
        ["accept", acceptable],
        ["reject", rejectable, "--reason", "not needed"],
        ["done", event],
        ["reopen", event],
        ["archive", f"fact:{section}"],
        ["restore", f"fact:{section}"],
        ["archive", f"sop:{sop}"],
        ["restore", f"sop:{sop}"],
        ["archive", f"topic:{topic_id}"],
        ["restore", f"topic:{topic_id}"],
        ["archive", f"event:{event}"],
        ["restore", f"event:{event}"],
        ["edit", "file:user.md", "--text-file", body],
        ["index"],
        ["maintain", "--apply"],
        ["add", "fact", section, "- a fact added by the test", "--evidence", "echo ok → ok"],
        ["add", "sop", "test-sop", "--body-file", body, "--evidence", "make → ok"],
        ["add", "event", "用户Todo", "记得测试权限"],
        [
            "add",
            "topic",
            "perm_test",
            "--section",
            "Notes",
            "--description",
            "perm test",
            "--body-file",
            body,
        ],
        ["rollback", "user.md"],
    ]


def _claude(store: Store, tmp_path: Path) -> list[list[str]]:
    """Edit a memory and its index line, add one and undo that, archive and restore one
    (file and index line move together), roll MEMORY.md back."""
    memory, other = [e for e in iter_entries(store) if e.kind == "claude" and "/" not in e.file][:2]
    text = entry_text(store, memory).rstrip("\n") + "\n- edited by the test\n"
    line = f"- [{other.file}]({other.file}) — a hook the test wrote"
    body = _text_file(tmp_path, "claude-body.md", "Written by the test.\n")
    add = ["add", "memory", "test_added.md", "--type", "user", "--description", "t"]
    return [
        ["edit", memory.id, "--text-file", _text_file(tmp_path, "claude-memory.md", text)],
        ["edit", f"claude-index:{other.file}", "--text-file", _text_file(tmp_path, "i.md", line)],
        [*add, "--body-file", body],
        ["undo"],  # the add: the new memory and its MEMORY.md line taken out again
        ["archive", other.id],
        ["restore", other.id],
        ["rollback", "MEMORY.md"],
    ]


def _hermes(store: Store, tmp_path: Path) -> list[list[str]]:
    """Approve a staged add, replace, remove and batch (each takes its record out of
    pending/ and writes the memory file), undo the batch, reject one; edit, add, archive
    and restore an entry; roll MEMORY.md back."""
    items = [i for i in queue.items(store) if i.layout == "hermes" and not i.read_only]
    by_action = {i.action: i.id for i in items if i.approvable}
    refused = next(i.id for i in items if not i.approvable)
    entry = _text_file(tmp_path, "hermes-entry.md", "The test edited this entry.")
    return [
        *(["accept", by_action[a]] for a in ("add", "replace", "remove", "batch")),
        ["undo"],  # the batch: its record back in pending/, MEMORY.md as it was
        ["reject", refused, "--reason", "not needed"],
        ["edit", "hermes:memory#2", "--text-file", entry],
        ["add", "hermes", "user", "Added by the test"],
        ["archive", "hermes:memory#3"],
        ["restore", ARCHIVED_LAST],
        ["rollback", "memories/MEMORY.md"],
    ]


def _openclaw(store: Store, tmp_path: Path) -> list[list[str]]:
    """Apply an audit edit, move, delete and add (the memory files and the log's status
    record), undo the move, reject one; edit a bootstrap file whole and a MEMORY.md
    section; roll SOUL.md back."""
    items = [i for i in queue.items(store) if i.layout == "openclaw"]
    by_action = {i.action: i.id for i in reversed(items) if i.approvable}
    rejectable = next(i.id for i in items if i.id not in by_action.values())
    soul = entry_text(store, resolve(store, "openclaw:SOUL.md")) + "\n- edited by the test\n"
    section = next(e for e in iter_entries(store) if e.id.startswith("openclaw:MEMORY.md#"))
    part = entry_text(store, section).rstrip("\n") + "\n- added by the test\n"
    return [
        *(["accept", by_action[a]] for a in ("edit", "move")),
        ["undo"],  # the move: both files and the log's status record as they were
        *(["accept", by_action[a]] for a in ("delete", "add")),
        ["reject", rejectable, "--reason", "not needed"],
        ["edit", "openclaw:SOUL.md", "--text-file", _text_file(tmp_path, "soul.md", soul)],
        ["edit", section.id, "--text-file", _text_file(tmp_path, "section.md", part)],
        ["rollback", "SOUL.md"],
    ]
