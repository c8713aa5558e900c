"""A folder holding no known layout is not a store: every verb exits 2 naming what it
looked for (SPEC §1-§3), and nothing is created there, not even `.memory.lock`."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import memory_digest, run_cli, tree_digest

from tests.helpers import ENV

LOOKED_FOR = ("memory.md", "memory/events.md", "index.txt", "facts.md", "sops/", "pending/")

VERBS = [
    ("check",),
    ("check", "--json"),
    ("list",),
    ("show", "file:notes.md"),
    ("search", "hello"),
    ("events",),
    ("pending",),
    ("index",),
    ("maintain", "--apply"),
    ("accept", "20261129-0007"),
    ("reject", "20261129-0007", "--reason", "no"),
    ("edit", "file:notes.md", "--text-file", "/dev/null"),
    ("archive", "fact:X"),
    ("done", "E001"),
    ("rollback", "notes.md"),
    ("history", "notes.md"),
    ("add", "fact", "SECTION", "a fact", "--evidence", "seen"),
]


def paths(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")}


def assert_not_a_store(result, root: Path) -> None:
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert "holds no memory store" in result.stderr and "internal error" not in result.stderr
    for name in LOOKED_FOR:
        assert name in result.stderr
    assert "memtui demo" in result.stderr


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """Markdown that is no layout: a notes.md, a lone facts.md (no index.txt), a
    memory.md with nothing beside it."""
    root = tmp_path / "notes"
    (root / "memory").mkdir(parents=True)
    (root / "notes.md").write_text("# hello\n")
    (root / "facts.md").write_text("## X\n- a fact\n")
    (root / "memory.md").write_text("# index\n")
    (root / "memory" / "diary.md").write_text("hello\n")
    return root


@pytest.mark.parametrize("argv", VERBS, ids=" ".join)
def test_every_verb_refuses_a_folder_with_no_layout(folder, argv):
    before, listed = tree_digest(folder), paths(folder)
    result = run_cli(*argv, "--store", str(folder), env=ENV)
    assert_not_a_store(result, folder)
    assert tree_digest(folder) == before and paths(folder) == listed
    assert not (folder / ".memory.lock").exists()


def test_opening_the_app_on_a_folder_with_no_layout(folder):
    before = paths(folder)
    result = run_cli(str(folder), env=ENV)  # `memtui PATH` (no terminal: the summary)
    assert_not_a_store(result, folder)
    assert paths(folder) == before


def test_default_store_home_without_a_layout(tmp_path):
    """Neither this folder nor ~/.dsh/memory holds a store."""
    home = tmp_path / "home"
    (home / ".dsh" / "memory").mkdir(parents=True)
    cwd = tmp_path / "here"
    cwd.mkdir()
    result = run_cli("check", cwd=cwd, env={**ENV, "HOME": str(home)})
    assert_not_a_store(result, home / ".dsh" / "memory")
    assert str(home / ".dsh" / "memory") in result.stderr
    assert paths(home) == {".dsh", ".dsh/memory"}


def test_demo_still_writes_a_new_store_that_the_verbs_open(tmp_path):
    target = tmp_path / "demo"
    made = run_cli("demo", "--dir", str(target), "--no-ui", env=ENV)
    assert made.returncode == 0, made.stderr
    checked = run_cli("check", "--json", "--store", str(target), env=ENV)
    assert checked.returncode in (0, 1) and '"workspace"' in checked.stdout


@pytest.mark.parametrize(
    "marker",
    ["memory/events.md", "memory/persona.md", "memory/mood_state.md"],
)
def test_one_detection_file_is_enough(tmp_path, marker):
    root = tmp_path / "s"
    (root / marker).parent.mkdir(parents=True)
    (root / marker).write_text("")
    result = run_cli("list", "--store", str(root), env=ENV)
    assert result.returncode == 0, result.stderr


def test_a_workspace_whose_last_topic_is_archived_stays_a_store(tmp_path):
    root = tmp_path / "ws"
    root.mkdir()
    (root / "memory.md").write_text("# 索引\n\n- 账单 → memory_bill.md\n", encoding="utf-8")
    (root / "memory_bill.md").write_text("# 账单\n", encoding="utf-8")
    before = memory_digest(root)
    assert run_cli("archive", "topic:bill", "--store", str(root)).returncode == 0
    listed = run_cli("log", "--store", str(root))
    assert listed.returncode == 0 and "archive-topic" in listed.stdout
    assert run_cli("restore", "topic:bill", "--store", str(root)).returncode == 0
    assert memory_digest(root) == before


@pytest.mark.parametrize(
    "codex_file", ["memory_summary.md", "raw_memories.md", "rollout_summaries/deploy.md"]
)
def test_a_codex_memories_folder_is_not_taken_for_claudes(tmp_path, codex_file):
    """Codex keeps a MEMORY.md too, beside its summary and raw memories: a link in it to
    a rollout summary must not make the folder a Claude memory folder."""
    from memtui.engine.detection import layouts_at

    (tmp_path / "MEMORY.md").write_text("- [deploy](rollout_summaries/deploy.md)\n")
    assert "claude" in layouts_at(str(tmp_path))
    (tmp_path / codex_file).parent.mkdir(exist_ok=True)
    (tmp_path / codex_file).write_text("# Summary\n")
    assert "claude" not in layouts_at(str(tmp_path))
