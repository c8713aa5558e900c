"""A layout's commands are data (engine.commands): every registered layout's are
well formed and import nothing of their write path when declared; a layout the faces
have never heard of gets its `memtui add KIND`, its place in `memtui maintain` and its
palette entry from its declaration alone; and `maintain` runs only the maintenance of
the layouts the store holds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from memtui.engine import commands as engine_commands
from memtui.engine.commands import Ask, Command, declared, resolve
from memtui.engine.layouts import detectors
from memtui.engine.layouts.base import Detection, Layout
from tests.conftest import run_cli, tree_digest, write_tree
from tests.helpers import REPO

WORKSPACE = {"memory.md": "# Memory\n\n## Projects\n- {garden} → memory_garden.md\n"}
WORKSPACE["memory_garden.md"] = "# Garden\nroses\n"


def test_every_declared_command_is_well_formed() -> None:
    found = list(declared())
    assert {layout for layout, _ in found} >= {"workspace", "companion", "dsh"}
    ids = [c.id for _, c in found]
    assert len(ids) == len(set(ids)), "a command id twice"
    added = [c.name for _, c in found if c.verb == "add"]
    assert sorted(added) == sorted(set(added)) and "" not in added
    for _, command in found:
        assert callable(resolve(command.run)), command.id
        assert command.then in ("", *ids), command.id
        assert command.help or command.title, f"{command.id} is offered nowhere"
        for ask in command.asks:
            for spec in (ask.check, ask.options, ask.shape):
                assert not spec or callable(resolve(spec)), (command.id, ask.name, spec)


def test_declaring_the_commands_imports_no_write_path() -> None:
    probe = (
        "import json, sys\n"
        "from memtui.engine.commands import declared\n"
        "list(declared())\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    got = subprocess.run(
        [sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert got.returncode == 0, got.stderr
    loaded = set(json.loads(got.stdout))
    assert "memtui.engine.write.transaction" not in loaded
    assert not {m for m in loaded if m.endswith((".ops", ".entries", ".layout"))}


def test_an_answer_is_never_named_as_a_face_keeps_its_own() -> None:
    for name in ("store", "dry_run", "json", "kind", "not an identifier"):
        with pytest.raises(ValueError):
            Ask(name, "help")


# --- a layout the faces have never heard of -------------------------------------------

CALLS: list[dict[str, Any]] = []


def add_note(root: str, *, dry_run: bool = False, **answers: Any) -> None:
    CALLS.append({"root": root, "dry_run": dry_run, **answers})


def tidy(root: str, *, dry_run: bool = False) -> None:
    CALLS.append({"tidy": root, "dry_run": dry_run})


def check_mood(value: Any, answers: dict[str, Any]) -> None:
    from memtui.engine.errors import MemtuiError

    if value == "grumpy":
        raise MemtuiError("notes are never grumpy")


NOTES = (
    Command(
        "notes.add",
        add_note,
        verb="add",
        name="note",
        help="a note in notes.md",
        title="Add a note",
        about="To notes.md",
        label="add note {text}",
        asks=(
            Ask("text", "the note, one line", prompt="The note"),
            Ask("mood", "how it felt", flag="--mood", optional=True, check=check_mood),
            Ask("count", "how many", flag="--count", kind="int", optional=True),
        ),
    ),
    Command("notes.tidy", tidy, verb="maintain", help="tidy notes.md"),
)


class NotesDetection(Detection):
    """A third party's layout: it shares the workspace's store, and brings commands."""

    name = "notes"
    full = f"{__name__}:Notes"
    order = 5

    def detect(self, top: Any) -> bool:
        return "memory.md" in top.files

    def commands(self) -> tuple[Command, ...]:
        return NOTES


class Notes(NotesDetection, Layout):
    def parse(self, reader: Any, top: Any) -> Any:
        return {}


@pytest.fixture
def with_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    registered = {"notes": NotesDetection(), **detectors()}
    for where in ("layouts", "detection", "store"):  # the modules that bound it
        monkeypatch.setattr(f"memtui.engine.{where}.detectors", lambda: registered)
    CALLS.clear()


def test_a_new_layouts_add_command_is_an_add_kind_with_its_arguments(
    with_notes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memtui.cli import main

    root = write_tree(tmp_path / "ws", WORKSPACE)
    code = main(
        ["add", "note", "buy seeds", "--mood", "glad", "--count", "3", "--store", str(root)]
    )
    assert code == 0, capsys.readouterr().err
    assert [
        {"root": str(root), "dry_run": False, "text": "buy seeds", "mood": "glad", "count": 3}
    ] == CALLS
    capsys.readouterr()
    with pytest.raises(SystemExit) as wrong:  # the positional is required
        main(["add", "note", "--store", str(root)])
    assert wrong.value.code == 2
    assert "the following arguments are required: text" in capsys.readouterr().err


def test_maintain_runs_the_maintenance_of_the_layouts_the_store_holds(
    with_notes: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memtui.cli import main

    root = write_tree(tmp_path / "ws", WORKSPACE)
    assert main(["maintain", "--store", str(root)]) == 0
    assert [{"tidy": str(root), "dry_run": True}] == CALLS  # notes' only: no dsh here
    assert main(["maintain", "--apply", "--store", str(root)]) == 0
    assert CALLS[-1] == {"tidy": str(root), "dry_run": False}


def test_maintain_on_a_store_without_maintenance_writes_nothing(tmp_path: Path) -> None:
    """A workspace store has no maintenance: `maintain --apply` says so and writes not a
    byte (it used to run the dsh maintenance there, writing index.txt into it)."""
    root = write_tree(tmp_path / "ws", WORKSPACE)
    before = tree_digest(root)
    got = run_cli("maintain", "--apply", "--store", str(root))
    assert (got.returncode, got.stdout) == (0, "nothing to change\n"), got.stderr
    assert tree_digest(root) == before


def test_the_check_is_the_layouts_and_the_app_asks_in_turn(
    with_notes: None, tmp_path: Path
) -> None:
    """Whether an answer will do is the layout's check, in its words; the app offers the
    command in the palette, asks the questions that have a prompt, and runs it."""
    from memtui.ui.commands import commands
    from memtui.ui.screens.prompt import PromptScreen
    from tests.test_ui_palette import SayingApp, answer_prompt
    from tests.ui_helpers import run, until

    note = NOTES[0]
    assert engine_commands.refusal(note.asks[1], "grumpy", {}) == "notes are never grumpy"
    assert engine_commands.refusal(note.asks[1], "glad", {}) is None
    root = write_tree(tmp_path / "ws", WORKSPACE)

    async def body(pilot: Any, app: SayingApp) -> None:
        await until(pilot, lambda: app.store is not None)
        assert "notes" in app.store.layouts
        assert "Add a note" in {c.title for c in commands(app)}
        app.action_command("notes.add")
        await answer_prompt(pilot, app, "water the roses")
        await until(pilot, lambda: bool(CALLS))
        await until(pilot, lambda: not isinstance(app.screen, PromptScreen))

    run(SayingApp(root), body)
    assert [{"root": str(root), "dry_run": False, "text": "water the roses"}] == CALLS
