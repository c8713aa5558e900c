"""What an edit refuses, in the engine, the CLI and the app's editor, with nothing written:
empty text (removing an entry is what archive is for), and text that would leave a
candidate without its front matter (or its entry_type and target), a sop without the
front matter it had, or an event or section without its heading.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer, Static

from memtui.engine.ops.common import Refused
from memtui.engine.ops.edit import edit_entry
from memtui.ui import editing
from memtui.ui.screens.edit import EditScreen
from tests.conftest import TODAY, run_cli, tree_digest, write_tree
from tests.helpers import EVENTS, EVENTS_MD, candidate
from tests.ui_helpers import HostApp, press_until, run, until

CANDIDATE = candidate("c-1", "HOSTS", "- db is 10.0.0.5\n")
SOP = "---\ntitle: deploy\nowner: ops\n---\n# deploy\n\n1. build\n2. ship\n"
STORE = {
    ".memory.lock": "",
    "index.txt": "[RULES] No Execution, No Memory\n",
    "facts.md": "## HOSTS\n- db is 10.0.0.5\n",
    "sops/deploy.md": SOP,
    "sops/plain.md": "# plain\n\n1. run\n",
    "pending/c-1.md": CANDIDATE,
    EVENTS: EVENTS_MD,
    "memory_travel.md": "# 旅行\n- 京都\n",
}

EMPTY = ["", "\n", "  \n\t\n"]
ENTRIES = ["event:E007", "fact:HOSTS", "pending:c-1", "sop:deploy", "topic:travel"]

# (entry, new text, what the refusal says)
BROKEN = [
    ("pending:c-1", "a note typed above\n" + CANDIDATE, "no front matter"),
    ("file:pending/c-1.md", "a note typed above\n" + CANDIDATE, "no front matter"),
    ("pending:c-1", CANDIDATE.replace("---\nid", "---\nid: [unclosed\nx"), "broken front matter"),
    ("pending:c-1", CANDIDATE.replace("entry_type: fact\n", ""), "entry_type"),
    ("pending:c-1", CANDIDATE.replace("target: HOSTS\n", ""), "no target"),
    ("pending:c-1", CANDIDATE.replace("\n---\n- db", "\n- db"), "closing"),
    ("sop:deploy", "a note typed above\n" + SOP, "front matter must stay at the top"),
    ("sop:deploy", SOP.replace("owner: ops", "owner: [ops"), "broken front matter"),
    ("event:E007", "a note typed above\n" + EVENTS_MD.split("\n\n")[1], "heading"),
    ("fact:HOSTS", "a note\n## HOSTS\n- db is 10.0.0.5\n", "heading"),
]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "store", STORE)


# --- the engine ------------------------------------------------------------------------


@pytest.mark.parametrize("text", EMPTY, ids=repr)
@pytest.mark.parametrize("entry", ENTRIES)
def test_empty_text_is_refused(root, entry, text):
    before = tree_digest(root)
    with pytest.raises(Refused, match="empty; an edit never removes an entry"):
        edit_entry(str(root), entry, text)
    assert tree_digest(root) == before


@pytest.mark.parametrize(("entry", "text", "why"), BROKEN, ids=lambda v: str(v)[:40])
def test_text_that_breaks_the_entry_is_refused(root, entry, text, why):
    before = tree_digest(root)
    with pytest.raises(Refused, match=why):
        edit_entry(str(root), entry, text)
    assert tree_digest(root) == before


def test_edits_that_keep_the_structure_are_written(root):
    edit_entry(str(root), "pending:c-1", CANDIDATE.replace("10.0.0.5", "10.0.0.6"))
    assert "10.0.0.6" in (root / "pending/c-1.md").read_text("utf-8")
    edit_entry(str(root), "sop:deploy", SOP.replace("2. ship", "2. ship it"))
    assert (root / "sops/deploy.md").read_text("utf-8").endswith("2. ship it\n")
    # a sop that had no front matter may take a first line of prose
    edit_entry(str(root), "sop:plain", "Run it daily.\n# plain\n\n1. run\n")
    assert (root / "sops/plain.md").read_text("utf-8").startswith("Run it daily.\n")


# --- the CLI -----------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["empty file", "whitespace", "/dev/null", "closed stdin"])
def test_cli_edit_with_empty_text_exits_1_and_writes_nothing(root, tmp_path, source):
    given = tmp_path / "new.txt"
    given.write_text("" if source == "empty file" else " \n\n", "utf-8")
    path = {"/dev/null": "/dev/null", "closed stdin": "-"}.get(source, str(given))
    before = tree_digest(root)
    got = subprocess.run(
        [sys.executable, "-m", "memtui", "edit", "E007", "--text-file", path, "--store", str(root)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MEMTUI_TODAY": TODAY, "MEMTUI_DEBUG": ""},
    )
    assert got.returncode == 1, (got.stdout, got.stderr)
    assert "empty" in got.stderr and "archive" in got.stderr
    assert tree_digest(root) == before


def test_cli_edit_that_breaks_a_candidate_exits_1_and_writes_nothing(root, tmp_path):
    new = tmp_path / "new.md"
    new.write_text("a note typed above\n" + CANDIDATE, "utf-8")
    before = tree_digest(root)
    got = run_cli("edit", "pending:c-1", "--text-file", str(new), "--store", str(root))
    assert got.returncode == 1
    assert "pending/c-1.md" in got.stderr and "front matter" in got.stderr
    assert tree_digest(root) == before


# --- the app's editor ------------------------------------------------------------------


class Host(HostApp):
    """The real app with no panes: the editor is opened as app.py opens it."""

    def compose(self) -> ComposeResult:
        yield Static("host")
        yield Footer()

    def edit_entry(self, entry_id: str) -> None:
        editing.edit_entry(self, entry_id)


async def save_is_refused(pilot: Pilot, app: Host, entry_id: str, typing: list[str]) -> str:
    """Open the editor on `entry_id`, type `typing` at its very start (or clear it when
    typing is empty), save: the editor stays open with the user's text and the reason."""
    await until(pilot, lambda: app.store is not None)
    app.edit_entry(entry_id)
    await until(pilot, lambda: isinstance(app.screen, EditScreen))
    screen = app.screen
    assert isinstance(screen, EditScreen)
    await pilot.pause()
    if typing:
        screen.buffer.cursor_location = (0, 0)
        await pilot.press(*typing)
    else:
        screen.set_text("")
    text = screen.buffer.text
    await press_until(pilot, "ctrl+s", lambda: screen.banner.has_class("-error"))
    assert app.screen is screen and screen.buffer.text == text
    return str(screen.banner.render())


@pytest.mark.parametrize(
    ("entry", "typing", "why"),
    [
        ("pending:c-1", ["n", "o", "t", "e", "enter"], "front matter"),
        ("sop:deploy", ["n", "o", "t", "e", "enter"], "front matter"),
        ("event:E007", [], "empty"),
    ],
)
def test_app_editor_refuses_and_keeps_the_text(root, entry, typing, why):
    async def body(pilot: Pilot, app: Host) -> None:
        banner = await save_is_refused(pilot, app, entry, typing)
        assert "Refused" in banner and why in banner

    before = tree_digest(root)
    run(Host(root), body)
    assert tree_digest(root) == before
