"""The `f` key on a finding in the Warnings pane: its quick fix as a dry-run diff (the report
screen), `a` and the real ConfirmScreen to apply it, `z` to undo it. Pilot over
demo stores."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.app import ComposeResult

from memtui.ui.panes.warnings import WarningsPane
from memtui.ui.screens.choose import ChoiceScreen
from memtui.ui.screens.report import DryRunScreen
from tests.conftest import memory_digest as memory
from tests.ui_helpers import HostApp, answer_confirm, demo_store, run, until


class WarningsOnly(HostApp):
    focus_first = "#pane-warnings"

    def compose(self) -> ComposeResult:
        yield WarningsPane(id="pane-warnings")


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


async def press_f_on(pilot, app, code: str) -> None:
    """`f` with the cursor on the first finding of `code`."""
    pane = app.query_one(WarningsPane)
    await until(pilot, lambda: pane.findings)
    index = next(n for n, item in enumerate(pane.items) if getattr(item, "code", "") == code)
    pane.rows.cursor = index
    await pilot.pause()
    await pilot.press("f")


def test_f_on_an_orphan_shows_the_diff_then_applies_after_confirm_and_z_undoes(demo) -> None:
    before = memory(demo)
    app = WarningsOnly(demo)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "topic-orphan")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen), what="the dry run")
        lines = app.screen.lines
        assert "+- 随手记的点子（未整理） → memory_draft_ideas.md" in lines
        assert memory(demo) == before  # a dry run writes nothing
        await pilot.press("a")
        await answer_confirm(pilot, app, "y")
        index = demo / "memory.md"
        await until(pilot, lambda: "→ memory_draft_ideas.md" in index.read_text(encoding="utf-8"))
        await until(
            pilot,
            lambda: (
                app.store is not None
                and not any(f.code == "topic-orphan" for f in app.store.findings)
            ),
        )
        await pilot.press("z")
        await answer_confirm(pilot, app, "y")
        await until(pilot, lambda: memory(demo) == before, what="the fix undone")

    run(app, body, loaded=True)


def test_f_then_no_at_the_confirm_writes_nothing(demo) -> None:
    before = memory(demo)
    app = WarningsOnly(demo)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "pointer-missing")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))  # remove or create
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen))
        assert "-- 旧版博客迁移记录 → memory_blog_migration.md" in app.screen.lines
        await pilot.press("a")
        await answer_confirm(pilot, app, "enter")  # Enter on No

    run(app, body, loaded=True)
    assert memory(demo) == before


def test_f_on_a_full_category_asks_which_item_and_offers_no_core_item(demo) -> None:
    app = WarningsOnly(demo)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "profile-category-full")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        choices = app.screen.choices
        assert choices[0] == "跑步（周三晚上固定）" and not any("称呼" in c for c in choices)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen))
        await pilot.press("a")
        await answer_confirm(pilot, app, "y")
        archived = demo / "archive" / "memory" / "user_profile.md"
        await until(pilot, lambda: archived.exists())
        assert "- 跑步（周三晚上固定）" in archived.read_text(encoding="utf-8")

    run(app, body, loaded=True)


def test_f_on_a_finding_without_a_fix_says_so(demo) -> None:
    app = WarningsOnly(demo)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "event-stars")
        await until(pilot, lambda: any("has no quick fix" in t for _s, t in app.said))

    run(app, body, loaded=True)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_snapshot_fix_dry_run(demo, snap_compare, size) -> None:
    async def ready(pilot) -> None:
        app = pilot.app
        await until(pilot, lambda: app.store is not None)
        await press_f_on(pilot, app, "topic-orphan")
        await until(pilot, lambda: isinstance(app.screen, DryRunScreen))
        await pilot.pause()

    assert snap_compare(WarningsOnly(demo), terminal_size=size, run_before=ready)


def test_read_only_hides_f_and_says_why(demo) -> None:
    before = memory(demo)
    app = WarningsOnly(demo, read_only=True)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "topic-orphan")
        await until(pilot, lambda: any("read-only" in t for _s, t in app.said))
        assert not isinstance(app.screen, DryRunScreen)

    run(app, body, loaded=True)
    assert memory(demo) == before


def test_f_on_an_orphan_of_a_blocked_index_says_why_and_writes_nothing(demo) -> None:
    index = demo / "memory.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text + "\n" * (180 - text.count("\n")), encoding="utf-8")  # at its block
    before = memory(demo)
    app = WarningsOnly(demo)

    async def body(pilot, app) -> None:
        await press_f_on(pilot, app, "topic-orphan")  # the dry run already says why
        await until(pilot, lambda: any("blocked at 180" in t for _s, t in app.said))
        assert not isinstance(app.screen, DryRunScreen)

    run(app, body, loaded=True)
    assert memory(demo) == before
