"""`f` on a `secret` finding in the Warnings pane: the fix menu offers redact or purge;
the dry-run diff never shows the value; redact applies after the confirm and `z` undoes
it; purge's confirm says it cannot be undone and, answered yes, leaves no file of the
store holding the value. Pilot over a real Claude store."""

from __future__ import annotations

from pathlib import Path

from memtui.ui.screens.choose import ChoiceScreen
from memtui.ui.screens.report import DryRunScreen
from tests.planted_stores import GH, grep, make, memory
from tests.test_ui_fix_key import WarningsOnly, press_f_on
from tests.ui_helpers import answer_confirm, run, until


async def dry_run_of(pilot, app, choice: str) -> None:
    await press_f_on(pilot, app, "secret")
    await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), what="the fix menu")
    assert app.screen.choices == ["redact", "purge"]
    if choice == "purge":
        await pilot.press("down")
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(app.screen, DryRunScreen), what="the dry run")
    shown = "\n".join(app.screen.lines)
    assert "[REDACTED:GitHub token]" in shown and GH not in shown


def test_redact_from_the_fix_menu_then_z_undoes_it(tmp_path: Path) -> None:
    root = make(tmp_path, "claude")
    before = memory(root)
    app = WarningsOnly(root)

    async def body(pilot, app) -> None:
        await dry_run_of(pilot, app, "redact")
        assert memory(root) == before
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert "cannot be undone" not in question
        deploy = root / "deploy.md"
        await until(pilot, lambda: GH not in deploy.read_text(encoding="utf-8"))
        await pilot.press("z")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: memory(root) == before, what="the redact undone")

    run(app, body, loaded=True)


def test_purge_from_the_fix_menu_says_it_cannot_be_undone(tmp_path: Path) -> None:
    root = make(tmp_path, "claude")
    app = WarningsOnly(root)

    async def body(pilot, app) -> None:
        await dry_run_of(pilot, app, "purge")
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert "cannot be undone" in question and GH not in question
        await until(pilot, lambda: grep(root, GH) == [], what="the value gone from the store")

    run(app, body, loaded=True)
    assert "[REDACTED:GitHub token]" in (root / "deploy.md").read_text(encoding="utf-8")
