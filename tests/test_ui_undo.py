"""`z` in the app undoes the last operation (SPEC §3d) through the real ConfirmScreen,
and a history row names the operation that made its snapshot; rolling back one
file of a multi-file operation offers the undo instead. Pilot over demo stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from memtui.engine.oplog import operations, snapshot_owner
from memtui.engine.write.operation import operation
from memtui.layouts.dsh.ops import accept
from memtui.ui.screens.confirm import ConfirmScreen
from memtui.ui.screens.history import HistoryScreen
from tests import demo_facts as facts
from tests.conftest import memory_digest as memory
from tests.ui_helpers import HostApp, answer_confirm, demo_store, run, until


@pytest.fixture
def accepted(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A demo store where two candidates were accepted as one operation; and the
    store as it was before."""
    root = demo_store(tmp_path / "demo")
    before = memory(root)
    with operation():
        accept(str(root), [facts.FIRST, facts.SECOND])
    assert memory(root) != before
    return root, before


def test_z_lists_the_files_and_yes_puts_every_one_back(accepted) -> None:
    root, before = accepted
    app = HostApp(root)

    async def body(pilot, app) -> None:
        await pilot.press("z")
        question = await answer_confirm(pilot, app, "y")
        assert "memory-meta.json" in question and "facts.md" in question
        assert f"pending/{facts.FIRST}" in question or "pending/" in question
        await until(pilot, lambda: memory(root) == before, what="every file put back")
        await until(pilot, lambda: any("undo accept" in t for _s, t in app.said))

    run(app, body, loaded=True)
    assert memory(root) == before
    assert operations(str(root))[-1].op == "undo"


def test_z_answered_no_changes_nothing(accepted) -> None:
    root, _before = accepted
    now = memory(root)
    app = HostApp(root)

    async def body(pilot, app) -> None:
        await pilot.press("z")
        await answer_confirm(pilot, app, "enter")  # Enter on No

    run(app, body, loaded=True)
    assert memory(root) == now
    assert operations(str(root))[-1].op == "accept"


def test_z_after_the_agent_wrote_a_file_is_refused_and_says_so(accepted) -> None:
    root, _before = accepted
    facts_md = root / "facts.md"
    facts_md.write_bytes(facts_md.read_bytes() + b"- the agent's own fact\n")
    now = memory(root)
    app = HostApp(root)

    async def body(pilot, app) -> None:
        await pilot.press("z")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: any(s == "error" for s, _t in app.said))

    run(app, body, loaded=True)
    assert memory(root) == now
    errors = [t for s, t in app.said if s == "error"]
    assert "facts.md changed since" in errors[0]


def test_z_with_an_empty_log_says_there_is_nothing_to_undo(tmp_path: Path) -> None:
    root = demo_store(tmp_path / "demo")
    app = HostApp(root)

    async def body(pilot, app) -> None:
        await pilot.press("z")
        await until(pilot, lambda: any("nothing to undo" in t for _s, t in app.said))
        assert not isinstance(app.screen, ConfirmScreen)

    run(app, body, loaded=True)


def test_history_row_names_the_operation_and_rollback_offers_the_undo(accepted) -> None:
    root, before = accepted
    owners = snapshot_owner(str(root))
    op = operations(str(root))[-1]
    assert {o.opid for o in owners.values()} == {op.opid}
    app = HostApp(root)

    async def body(pilot, app) -> None:
        app.show_history("facts.md")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        screen = app.screen
        shown = screen.query_one("#history-list").render_line(0).text
        assert "accept by" in shown
        label = screen.query_one("#history-diff-label").render().plain
        assert op.opid in label
        await pilot.press("r")
        question = await answer_confirm(pilot, app, "y")
        assert "Undo the whole operation" in question and "memory-meta.json" in question
        await until(pilot, lambda: memory(root) == before, what="the whole accept undone")

    run(app, body, loaded=True)
