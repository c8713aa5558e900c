"""The pending queue in bulk, driven by Pilot over demo stores: the preview shows what
`a` does to the whole selection; accepting several asks once, with the count (the
real ConfirmScreen); the preview split can be resized and zoomed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import ProgressBar

from memtui.ui.widgets.working import Working
from tests import demo_facts as facts
from tests.conftest import memory_digest
from tests.test_ui_live import needs_flock
from tests.test_ui_pending import PendingOnly, loaded, preview_of
from tests.ui_helpers import answer_confirm, demo_store, run, until


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


def test_the_preview_shows_what_a_does_to_the_whole_selection(demo: Path) -> None:
    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await preview_of(pilot, pane, f"pending:{facts.FIRST}")
        await pilot.press("space", "space", "space")  # the first three; rests on the 4th
        text = await preview_of(pilot, pane, "3 selected")
        for cid in (facts.FIRST, facts.SECOND, facts.THIRD):
            assert f"pending:{cid}" in text
        text = await preview_of(pilot, pane, "+++ b/")
        for cid in (facts.FIRST, facts.SECOND, facts.THIRD):  # each would leave the queue
            assert f"moves pending/{cid}.md → archive/pending/{cid}.md" in text
        fourth = pane.current
        assert fourth is not None and f"pending:{fourth.name}" not in text
        await pilot.press("ctrl+a")  # every acceptable one
        await preview_of(pilot, pane, f"{facts.CANDIDATES - 1} selected")
        await pilot.press("ctrl+a")  # cleared: the highlighted one again
        await preview_of(pilot, pane, f"pending:{fourth.name}  ")

    run(PendingOnly(str(demo)), body)


def test_accepting_several_asks_once_and_no_writes_nothing(demo: Path) -> None:
    before = memory_digest(demo)

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("space", "space", "space")
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "n")
        assert question.startswith("Accept 3 candidates")
        assert len(pane.items) == facts.CANDIDATES

    run(PendingOnly(str(demo)), body)
    assert memory_digest(demo) == before


def test_the_dialog_names_the_candidate_refused_and_the_selection_goes(demo: Path) -> None:
    """One acceptable and one without evidence selected: the dialog names the refused one
    with the engine's reason; afterwards nothing stays selected for a later key."""
    refused = f"pending/{facts.NO_EVIDENCE}.md"
    refused_id = f"pending:{facts.NO_EVIDENCE}"

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("space")  # the first
        pane.rows.cursor = pane.positions[refused_id]
        await pilot.press("space")
        assert pane.selected == {f"pending:{facts.FIRST}", refused_id}
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert question.startswith("Accept 1 candidate into memory?")
        assert f"  {facts.NO_EVIDENCE}: no evidence (No Execution, No Memory)" in question
        await until(pilot, lambda: len(pane.items) == facts.CANDIDATES - 1)
        assert pane.selected == set() and pane.rows.selected == set()
        assert "✓" not in pane.render_row(pane.positions[refused_id]).plain

    run(PendingOnly(str(demo)), body)
    assert (demo / refused).exists()


@needs_flock
def test_a_bulk_accept_shows_its_progress_and_the_wait_for_the_agents_lock(
    agent_holding_the_lock: tuple[Path, Path],
) -> None:
    """Done of total and a bar, from the engine's chunks; "waiting for the store lock"
    while, and only while, the agent holds it."""
    root, release = agent_holding_the_lock
    seen: list[str] = []

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("ctrl+a", "a")
        await answer_confirm(pilot, app, "y")
        total = facts.CANDIDATES - 1  # all but the one without evidence
        working = await until_found(pilot, app, Working)
        await until(pilot, lambda: bool(working.lines), what="the accept's line")
        line = next(iter(working.lines.values()))
        await until(pilot, lambda: "waiting for the store lock" in line.said.plain)
        seen.append(line.said.plain)
        bar = line.query_one(ProgressBar)
        assert (bar.total, bar.progress) == (total, 0)
        said = lambda: any("waiting for the store lock (.memory.lock)" in t for _, t in app.said)  # noqa: E731
        await until(pilot, lambda: line.display and said(), what="the wait shown and said")
        release.touch()
        await until(pilot, lambda: len(pane.items) == 1, what="the accept to land")
        assert not working.lines  # the change ended: its line went with it

    run(PendingOnly(str(root)), body)
    assert seen and f"0 of {facts.CANDIDATES - 1}" in seen[0]


async def until_found(pilot, app, kind):  # type: ignore[no-untyped-def]
    await until(pilot, lambda: bool(app.query(kind)), what=kind.__name__)
    return app.query_one(kind)


def test_accepting_one_does_not_ask(demo: Path) -> None:
    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("a")
        await until(pilot, lambda: len(pane.items) == facts.CANDIDATES - 1)

    run(PendingOnly(str(demo)), body)


def test_the_preview_split_resizes_and_zooms(demo: Path) -> None:
    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        preview = pane.query_one("#pending-preview")
        listing = pane.query_one("#pending-list")
        await pilot.pause()
        start = preview.size.width
        await pilot.press("]", "]")
        await until(pilot, lambda: preview.size.width > start)
        await pilot.press("[", "[", "[", "[")
        await until(pilot, lambda: preview.size.width < start)
        await pilot.press("m")
        await until(
            pilot, lambda: not listing.display and preview.outer_size.width == pane.size.width
        )
        await pilot.press("m")
        await until(pilot, lambda: listing.display and preview.size.width < start)
        assert pane.rows.has_focus

    run(PendingOnly(str(demo)), body)


def test_a_selection_too_large_to_read_is_not_dry_run(
    demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over TOGETHER_MAX items the preview says how many and runs no dry run, which would
    compete with the accept that follows (benchmarks/ui.py, bulk_side_by_side)."""
    from memtui.ui.panes import pending_preview

    monkeypatch.setattr(pending_preview, "TOGETHER_MAX", 2)
    ran: list[object] = []
    real = pending_preview.dry_run
    monkeypatch.setattr(pending_preview, "dry_run", lambda *a: ran.append(a) or real(*a))

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("space", "space")
        await preview_of(pilot, pane, "+++ b/")  # two: dry-run together
        ran.clear()
        await pilot.press("space")
        text = await preview_of(pilot, pane, "3 selected: no preview of what accepting")
        assert "+++ b/" not in text and not ran

    run(PendingOnly(str(demo)), body)


@needs_flock
def test_a_bulk_reject_shows_its_progress_and_waits_only_while_the_agent_holds_the_lock(
    agent_holding_the_lock: tuple[Path, Path],
) -> None:
    """Select all and reject goes the bulk accept's way: the engine's chunks report done
    of total; "waiting for the store lock" is shown while the agent holds it, and the
    reject lands once it lets go."""
    root, release = agent_holding_the_lock

    async def body(pilot, app) -> None:
        pane = await loaded(pilot, app)
        await pilot.press("ctrl+a", "r")
        await until(pilot, lambda: type(app.screen).__name__ == "PromptScreen")
        await pilot.press(*"stale", "enter")
        working = await until_found(pilot, app, Working)
        await until(pilot, lambda: bool(working.lines), what="the reject's line")
        line = next(iter(working.lines.values()))
        await until(pilot, lambda: "waiting for the store lock" in line.said.plain)
        total = int(line.said.plain.split(" of ", 1)[1].split()[0])  # "0 of N · …"
        assert line.said.plain.startswith("0 of ") and total > 1
        assert len(pane.items) == facts.CANDIDATES  # nothing moved while the agent holds it
        release.touch()
        await until(pilot, lambda: len(pane.items) == facts.CANDIDATES - total, what="it lands")
        assert not working.lines
        rejected.append(total)

    rejected: list[int] = []
    archived = lambda: len(list((root / "archive" / "rejected").glob("*.md")))  # noqa: E731
    before = archived()
    run(PendingOnly(str(root)), body)
    assert archived() == before + rejected[0]
