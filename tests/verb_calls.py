"""One call of every write verb of the CLI on a store, for tests that run them all."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from memtui.engine.store import open_store
from tests.helpers import ENV


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
    """One call of every write verb on this store."""
    store = open_store(root)
    assert store.dsh and store.companion and store.workspace
    acceptable = next(c.id for c in store.dsh.candidates if c.evidence)
    rejectable = next(c.id for c in store.dsh.candidates if c.id != acceptable)
    event = next(e.label for e in store.companion.events if e.is_open and e.number)
    section = store.dsh.fact_sections[0].name
    sop = store.dsh.sops[0].name
    topic = store.workspace.topics[0]
    topic_id = topic.removeprefix("memory_").removesuffix(".md")
    body = tmp_path / "body.md"
    body.write_text("# a new note\n\n- written by the test\n", encoding="utf-8")
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
        ["edit", "file:user.md", "--text-file", str(body)],
        ["index"],
        ["maintain", "--apply"],
        ["add", "fact", section, "- a fact added by the test", "--evidence", "echo ok → ok"],
        ["add", "sop", "test-sop", "--body-file", str(body), "--evidence", "make → ok"],
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
            str(body),
        ],
        ["rollback", "user.md"],
    ]
