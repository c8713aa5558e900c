"""`memtui stores` on a HOME full of traps a hostile agent (or a careless one) can lay:
project folders named with terminal escapes, bidi controls and newlines, HERMES_HOME
pointing at a device, a FIFO or the filesystem's root, a profile that links back to its
home, a store whose files are FIFOs or lead to /dev/zero. The list comes back whole, in
text and JSON, with no raw control character, no traceback, no hang, nothing written.
(Loops, unreadable folders and names that are not UTF-8: tests/test_stores.py.)"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import tree_digest, write_tree

from tests.hostile_calls import assert_sane, cli
from tests.test_stores import CLAUDE, temporary_home

HERMES = {"memories/MEMORY.md": "Deploys on Friday\n§\nUses uv", "memories/USER.md": "Ana"}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return temporary_home(tmp_path, monkeypatch)


def listed(capsys, home: Path) -> tuple[list[str], list[dict]]:
    """`memtui stores` and `--json`: both sane, exit 0, the HOME unchanged."""
    before = tree_digest(home)
    answers = []
    for argv in (("stores",), ("stores", "--json")):
        code, out, err = cli(capsys, *argv)
        assert_sane(argv, code, out, err)
        assert code == 0, err
        answers.append(out)
    assert tree_digest(home) == before
    return answers[0].splitlines()[1:], json.loads(answers[1])


NAMES = {
    "escape": "-\x1b[2J\x1b]0;pwned\x07",
    "bidi": "-\u202egnp.exe",
    "zero-width": "-a\u200bb",
    "newline": "-a\nb",
    "markup": "-[bold]x[red]",
}


@pytest.mark.parametrize("name", list(NAMES))
def test_a_project_named_to_fool_the_terminal_is_listed_escaped(home, capsys, name):
    write_tree(home / ".claude" / "projects" / NAMES[name] / "memory", CLAUDE)
    rows, found = listed(capsys, home)
    assert len(rows) == 1 and len(found) == 1
    assert found[0]["layouts"] == ["claude"] and found[0]["files"] == 2
    if name == "newline":  # no name can split its row and pass for another store
        assert rows[0].startswith("~/.claude/projects/-a\\nb/memory")
    if name == "markup":
        assert "[bold]x[red]" in rows[0]


@pytest.mark.parametrize("where", ["dev-zero", "fifo", "a-file", "root", "missing"])
def test_hermes_home_that_is_no_home(home, capsys, monkeypatch, tmp_path, where):
    target = {
        "dev-zero": "/dev/zero",
        "fifo": str(tmp_path / "fifo"),
        "a-file": str(tmp_path / "file"),
        "root": "/",
        "missing": str(tmp_path / "nowhere"),
    }[where]
    if where == "fifo":
        os.mkfifo(target)
    if where == "a-file":
        Path(target).write_text("memories/MEMORY.md\n")
    monkeypatch.setenv("HERMES_HOME", target)
    write_tree(home / ".hermes", HERMES)
    _, found = listed(capsys, home)
    assert [f["layouts"] for f in found] == [["hermes"]]


def test_a_profile_that_links_back_to_its_home_is_listed_once(home, capsys):
    write_tree(home / ".hermes", HERMES)
    (home / ".hermes" / "profiles").mkdir()
    (home / ".hermes" / "profiles" / "loop").symlink_to(home / ".hermes")
    (home / ".hermes" / "profiles" / "up").symlink_to("../..")
    _, found = listed(capsys, home)
    assert [f["layouts"] for f in found] == [["hermes"]]


def test_a_home_dir_linked_to_the_filesystem_root_is_not_walked(home, capsys):
    (home / ".hermes").symlink_to("/")
    (home / ".openclaw").mkdir()
    (home / ".openclaw" / "workspace").symlink_to("/proc/self")
    _, found = listed(capsys, home)
    assert found == []


def test_stores_whose_files_are_fifos_or_devices_are_measured_without_hanging(home, capsys):
    hermes = write_tree(home / ".hermes", {"memories/USER.md": "Ana"})
    os.mkfifo(hermes / "memories" / "MEMORY.md")
    (hermes / "pending" / "memory").mkdir(parents=True)
    os.mkfifo(hermes / "pending" / "memory" / "0a0a0a01.json")
    (hermes / "config.yaml").symlink_to("/dev/zero")
    ws = write_tree(home / ".openclaw" / "workspace", {"SOUL.md": "# Soul\n"})
    os.mkfifo(ws / "AGENTS.md")
    (ws / "MEMORY.md").symlink_to("/dev/urandom")
    project = write_tree(home / ".claude" / "projects" / "-p" / "memory", CLAUDE)
    (project / "zero.md").symlink_to("/dev/zero")
    _, found = listed(capsys, home)
    assert {tuple(f["layouts"]) for f in found} >= {("hermes",), ("claude",)}
    assert all(f["problem"] is None or "internal" not in f["problem"] for f in found)
