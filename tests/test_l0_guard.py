"""The dsh L0 meta-rules (memory_management_sop.md, SPEC §3) are read-only unless the user
insists: the engine and the CLI refuse an edit without --insist, the app's editor is locked
until ctrl+u, and the file is never archived as a topic."""

from __future__ import annotations

from pathlib import Path

from memtui.layouts.workspace import ops as workspace
from tests.conftest import run_cli, write_tree
from tests.helpers import DSH_INDEX, ENV

L0_STORE = {
    "index.txt": DSH_INDEX,
    "facts.md": "# Facts\n",
    "memory_management_sop.md": "# Meta-rules\n- No Execution, No Memory\n",
}


def test_l0_edit_is_refused_unless_insisted(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused
    from memtui.engine.ops.edit import edit_entry

    root = write_tree(tmp_path / "dsh", L0_STORE)
    new_file = write_tree(tmp_path, {"new.md": "# Meta-rules\n- changed\n"}) / "new.md"
    got = run_cli(
        "edit",
        "file:memory_management_sop.md",
        "--text-file",
        str(new_file),
        "--store",
        str(root),
        env=ENV,
    )
    assert got.returncode == 1 and "--insist" in got.stderr
    assert (root / "memory_management_sop.md").read_text() == L0_STORE["memory_management_sop.md"]
    try:
        edit_entry(str(root), "file:memory_management_sop.md", "x\n")
    except Refused as exc:
        assert "L0" in str(exc)
    else:
        raise AssertionError("the engine wrote L0 without insist")
    got = run_cli(
        "edit",
        "file:memory_management_sop.md",
        "--text-file",
        str(new_file),
        "--insist",
        "--store",
        str(root),
        env=ENV,
    )
    assert got.returncode == 0, got.stderr
    assert (root / "memory_management_sop.md").read_text() == "# Meta-rules\n- changed\n"


def test_l0_in_the_app_is_locked_until_ctrl_u(tmp_path: Path) -> None:
    from memtui.ui import editing
    from memtui.ui.screens.edit import EditScreen
    from tests.ui_helpers import HostApp, run, until

    root = write_tree(tmp_path / "dsh", L0_STORE)
    l0 = root / "memory_management_sop.md"

    async def body(pilot, app) -> None:  # type: ignore[no-untyped-def]
        await until(pilot, lambda: app.store is not None)
        editing.edit_entry(app, "file:memory_management_sop.md")
        await until(pilot, lambda: isinstance(app.screen, EditScreen))
        await pilot.pause()
        screen = app.screen
        assert screen.locked and screen.buffer.read_only
        assert screen.check_action("save", ()) is False
        await pilot.press("x", "ctrl+s")  # nothing typed, nothing saved
        await pilot.pause()
        assert l0.read_text() == L0_STORE["memory_management_sop.md"]
        await pilot.press("ctrl+u")  # the user insists
        assert not screen.buffer.read_only
        screen.buffer.insert("- added\n", screen.buffer.document.end)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, EditScreen))

    run(HostApp(root), body)
    assert l0.read_text() == L0_STORE["memory_management_sop.md"] + "- added\n"


def test_the_l0_file_is_not_archived_as_a_topic(tmp_path: Path) -> None:
    from memtui.engine.ops.common import Refused

    root = write_tree(tmp_path / "dsh", L0_STORE)
    try:
        workspace.archive_topic(str(root), "management_sop")
    except Refused as exc:
        assert "L0" in str(exc)
    else:
        raise AssertionError("the L0 file was archived as a topic")
    assert (root / "memory_management_sop.md").exists()
