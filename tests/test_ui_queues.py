"""Other agents' approval queues (engine.queue) in the pending pane, driven by Pilot over
the demo's real Hermes home and OpenClaw workspace: a row per staged write with why it
would be refused, the engine's preview (diff and gauge), approve and reject through the
engine with the fingerprints shown, read-only records never changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Footer, Input
from textual.widgets._footer import FooterKey

from memtui.engine.queue import QueueItem
from memtui.ui.panes.pending import PendingPane
from memtui.ui.screens.prompt import PromptScreen
from tests.conftest import tree_digest
from tests.ui_helpers import HostApp, answer_confirm, demo_store, run, until

ADD = "hermes-pending:3f1a9c02"  # adds to USER.md: applies
REPLACE = "hermes-pending:7b22e410"  # a replace in MEMORY.md: applies
STALE = "hermes-pending:0d6b3e58"
AMBIGUOUS = "hermes-pending:5e7a1b94"
OVER = "hermes-pending:8c3d2f17"
SKILL = "hermes-pending:skills/b7d41e09"  # read-only
PENDING = Path("pending") / "memory"


class QueueOnly(HostApp):
    """The real app with only the pending pane; what it says is recorded."""

    focus_first = "#pane-pending"

    def compose(self) -> ComposeResult:
        yield PendingPane(id="pane-pending")
        yield Footer()


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return demo_store(tmp_path / "demo")


@pytest.fixture
def hermes(demo: Path) -> Path:
    return demo / "hermes"


async def shown(pilot: Pilot, app: HostApp) -> PendingPane:
    pane = app.query_one(PendingPane)
    await until(pilot, lambda: len(pane.items) > 0, what="the queue's rows")
    return pane


async def highlight(pilot: Pilot, pane: PendingPane, item_id: str) -> QueueItem:
    pane.rows.cursor = pane.positions[item_id]
    await until(pilot, lambda: item_id in pane.preview_text.plain, what=f"{item_id}'s preview")
    item = pane.current
    assert item is not None and item.id == item_id
    return item


def said(app: HostApp, needle: str) -> bool:
    return any(needle in text for _, text in app.said)


def record(root: Path, item_id: str) -> Path:
    return root / PENDING / f"{item_id.partition(':')[2]}.json"


# --- the rows ------------------------------------------------------------------------


def test_each_staged_write_is_a_row_saying_why_it_would_be_refused(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        row = {item.id: pane.render_row(pane.positions[item.id]).plain for item in pane.items}
        assert "add → memories/USER.md" in row[ADD] and "✗" not in row[ADD]
        assert "✗ stale" in row[STALE]
        assert "✗ ambiguous" in row[AMBIGUOUS]
        assert "✗ over the" in row[OVER]  # the rest cut to the column
        assert "read-only" in row[SKILL]
        header = pane.header_text.plain
        assert f"{len(pane.items)} queued" in header
        refused = sum(1 for item in pane.items if not item.approvable)
        assert f"{refused} cannot be accepted" in header
        assert "No dsh layout" not in header

    run(QueueOnly(hermes), body)


def test_the_preview_is_the_engines_diff_and_gauge_before_after_limit(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, ADD)
        await until(pilot, lambda: "→" in pane.preview_text.plain.split("approving")[-1])
        text = pane.preview_text.plain
        assert "+Prefers metric unit" in text
        gauge = next(line for line in text.splitlines() if line.startswith("memories/USER.md:"))
        before, _, rest = gauge.removeprefix("memories/USER.md: ").partition(" → ")
        after, _, limit = rest.partition(" / ")
        assert int(after.replace(",", "")) > int(before.replace(",", ""))
        assert limit.endswith("chars")
        await highlight(pilot, pane, STALE)
        await until(pilot, lambda: "nothing: approving is refused" in pane.preview_text.plain)
        assert "stale" in pane.preview_text.plain

    before = tree_digest(hermes)
    run(QueueOnly(hermes), body)
    assert tree_digest(hermes) == before  # a preview writes nothing


# --- approve ---------------------------------------------------------------------------


def test_a_approves_the_highlighted_write_as_hermes_would(hermes: Path) -> None:
    user = hermes / "memories" / "USER.md"

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, ADD)
        await pilot.press("a")
        await until(pilot, lambda: ADD not in pane.positions, what="the approved row to go")

    run(QueueOnly(hermes), body)
    assert "Prefers metric unit" in user.read_text("utf-8")
    assert not record(hermes, ADD).exists()


def test_the_selection_approves_what_applies_and_names_what_is_refused(hermes: Path) -> None:
    memory = hermes / "memories" / "MEMORY.md"
    stale = record(hermes, STALE).read_bytes()

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        for item_id in (ADD, REPLACE, STALE):
            pane.rows.cursor = pane.positions[item_id]
            await pilot.press("space")
        assert pane.selected == {ADD, REPLACE, STALE}
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert question.startswith(
            "Approve 2 queued writes? Each is applied as its agent would apply it, as one "
            "operation that z undoes."
        )
        # the one the engine refuses, by name, with its reason (the row's problem)
        stale_item = next(i for i in pane.items if i.id == STALE)
        assert f"Refused, left as they are (1):\n  {STALE}: {stale_item.problem}" in question
        await until(pilot, lambda: REPLACE not in pane.positions and ADD not in pane.positions)
        # the selection went with the action: the refused one is not left selected ...
        assert pane.selected == set() and pane.rows.selected == set()
        assert "✓" not in pane.render_row(pane.positions[STALE]).plain
        # ... so `r` on another row rejects that row, not the one refused before
        await highlight(pilot, pane, AMBIGUOUS)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert isinstance(app.screen, PromptScreen)
        assert AMBIGUOUS in app.screen.question and STALE not in app.screen.question
        await pilot.press("escape")

    old = memory.read_text("utf-8")
    run(QueueOnly(hermes), body)
    assert memory.read_text("utf-8") != old
    assert record(hermes, STALE).read_bytes() == stale


def test_a_cancelled_approve_keeps_the_selection(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        for item_id in (ADD, OVER):
            pane.rows.cursor = pane.positions[item_id]
            await pilot.press("space")
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "n")
        assert question.startswith("Approve 1 queued write?") and f"  {OVER}: over" in question
        assert pane.selected == {ADD, OVER}  # nothing was done: the selection stays

    before = tree_digest(hermes)
    run(QueueOnly(hermes), body)
    assert tree_digest(hermes) == before


def test_a_refused_write_is_said_and_nothing_changes(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        for item_id in (AMBIGUOUS, OVER, SKILL):
            await highlight(pilot, pane, item_id)
            await pilot.press("a")
            await until(pilot, lambda item_id=item_id: said(app, f"{item_id}: "))

    before = tree_digest(hermes)
    run(QueueOnly(hermes), body)
    assert tree_digest(hermes) == before


def test_a_record_the_agent_changed_since_it_was_shown_is_a_conflict(hermes: Path) -> None:
    """The fingerprint shown goes with the approve: the engine refuses a changed record."""

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, ADD)
        path = record(hermes, ADD)
        path.write_text(path.read_text("utf-8").replace("metric", "imperial"), "utf-8")
        await pilot.press("a")
        await until(pilot, lambda: any(sev == "error" for sev, _ in app.said))

    run(QueueOnly(hermes), body)
    assert "imperial" in record(hermes, ADD).read_text("utf-8")  # still pending, as changed
    assert "metric" not in (hermes / "memories" / "USER.md").read_text("utf-8")


# --- reject ------------------------------------------------------------------------------


def test_r_rejects_with_a_reason_and_the_record_leaves_the_queue(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, STALE)  # refused if approved, but it can be rejected
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert isinstance(app.screen, PromptScreen) and STALE in app.screen.question
        app.screen.query_one(Input).value = "out of date"
        await pilot.press("enter")
        await until(pilot, lambda: STALE not in pane.positions, what="the rejected row to go")

    run(QueueOnly(hermes), body)
    assert not record(hermes, STALE).exists()
    assert "out of date" in (hermes / ".history" / "audit.jsonl").read_text("utf-8")


def test_the_preview_leaves_a_rejected_record_as_the_list_does(hermes: Path) -> None:
    """The preview showed the rejected record until its debounce ran out after the
    reload: now it changes in the same step as the list."""
    moments: list[bool] = []  # at the first look with the row gone: still previewed?

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, STALE)
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one(Input).value = "out of date"
        await pilot.press("enter")

        def gone() -> bool:
            if STALE in pane.positions:
                return False
            moments.append(STALE in pane.preview_text.plain)
            return True

        await until(pilot, gone, what="the rejected row to go")

    run(QueueOnly(hermes), body)
    assert moments == [False]


def test_read_only_records_are_never_rejected_either(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, SKILL)
        assert "read-only here" in pane.preview_text.plain
        await pilot.press("r")
        await until(pilot, lambda: said(app, f"{SKILL}: read-only here"))
        assert not isinstance(app.screen, PromptScreen)

    before = tree_digest(hermes)
    run(QueueOnly(hermes), body)
    assert tree_digest(hermes) == before


def test_a_read_only_store_approves_nothing(hermes: Path) -> None:
    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, ADD)
        assert pane.check_action("accept", ()) is False
        await pilot.press("a", "r")
        await pilot.pause()

    before = tree_digest(hermes)
    run(QueueOnly(hermes, read_only=True), body)
    assert tree_digest(hermes) == before


def footer_keys(app: HostApp) -> set[str]:
    return {key.key for key in app.screen.query(FooterKey)}


def test_e_is_not_offered_on_a_queued_write(hermes: Path) -> None:
    """A queued write is approved or rejected as staged, never edited: its footer has
    no `e`, and the key does nothing."""

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await highlight(pilot, pane, ADD)
        await until(pilot, lambda: {"a", "r"} <= footer_keys(app), what="the footer")
        assert "e" not in footer_keys(app)
        assert pane.check_action("edit", ()) is False
        await pilot.press("e")
        await pilot.pause()
        assert app.screen is app.screen_stack[0] and app.said == []

    run(QueueOnly(hermes), body)


def test_e_is_offered_on_a_candidate_and_not_on_a_queued_write(demo: Path) -> None:
    import shutil

    for folder in ("memories", "pending/memory"):
        shutil.copytree(demo / "hermes" / folder, demo / folder)

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        await until(pilot, lambda: "e" in footer_keys(app), what="e on a candidate's row")
        await highlight(pilot, pane, ADD)
        await until(pilot, lambda: "e" not in footer_keys(app), what="no e on a queued write")
        pane.rows.cursor = 0
        await until(pilot, lambda: "e" in footer_keys(app), what="e back on a candidate")

    run(QueueOnly(demo), body)


# --- any layout's queue ------------------------------------------------------------------


def test_openclaws_audit_queue_shows_and_applies_the_same_way(demo: Path) -> None:
    workspace = demo / "openclaw"
    audit = workspace / "memory" / "audit" / "suggestions.jsonl"

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        first: Any = pane.items[0]
        assert first.approvable and first.line == 1
        await highlight(pilot, pane, first.id)
        await until(pilot, lambda: "+" in pane.preview_text.plain.split("approving")[-1])
        lines = len(audit.read_text("utf-8").splitlines())
        await pilot.press("a")
        await until(pilot, lambda: len(audit.read_text("utf-8").splitlines()) > lines)

    run(QueueOnly(workspace), body)


def test_the_palette_offers_approving_on_a_store_with_only_a_queue(hermes: Path) -> None:
    from memtui.ui.app import MemtuiApp
    from memtui.ui.commands import commands

    async def body(pilot: Pilot, app: MemtuiApp) -> None:
        await shown(pilot, app)
        titles = {c.title for c in commands(app)}
        assert {"Pending: accept", "Pending: reject"} <= titles

    run(MemtuiApp(str(hermes), watch=False), body, loaded=True)


def test_a_source_changed_since_it_was_shown_is_recorded_as_a_conflict(demo: Path) -> None:
    """OpenClaw's rule: a staged range whose text changed is marked conflict, never
    applied; the app says so and shows the queue as it now is."""
    workspace = demo / "openclaw"
    memory, user = workspace / "MEMORY.md", workspace / "USER.md"
    audit = workspace / "memory" / "audit" / "suggestions.jsonl"
    users = user.read_bytes()

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        moving = next(i for i in pane.items if i.action == "move" and i.approvable)
        await highlight(pilot, pane, moving.id)
        memory.write_text("a line the agent added\n" + memory.read_text("utf-8"), "utf-8")
        await pilot.press("a")
        await until(pilot, lambda: said(app, "marked conflict"))
        gone = lambda: not any(i.id == moving.id and i.approvable for i in pane.items)  # noqa: E731
        await until(pilot, gone, what="the queue read again")

    run(QueueOnly(workspace), body)
    assert memory.read_text("utf-8").startswith("a line the agent added\n")
    assert user.read_bytes() == users
    assert '"conflict"' in audit.read_text("utf-8").splitlines()[-1]


def test_a_suggestion_shown_as_a_conflict_is_recorded_as_the_cli_records_it(demo: Path) -> None:
    """Approving a suggestion already listed as changed appends OpenClaw's conflict
    record, as `memtui accept` does (the app said so but wrote nothing)."""
    workspace = demo / "openclaw"
    audit = workspace / "memory" / "audit" / "suggestions.jsonl"
    memories = {p: p.read_bytes() for p in workspace.glob("*.md")}

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        stale = next(i for i in pane.items if i.records_refusal)
        await highlight(pilot, pane, stale.id)
        await pilot.press("a")
        await until(pilot, lambda: said(app, "marked conflict"))
        await until(pilot, lambda: stale.id not in pane.positions, what="the queue read again")

    run(QueueOnly(workspace), body)
    assert '"status":"conflict"' in audit.read_text("utf-8").splitlines()[-1]
    assert {p: p.read_bytes() for p in workspace.glob("*.md")} == memories


def test_openclaws_confirm_names_the_suggestion_approving_marks_conflict(demo: Path) -> None:
    """Selected with one that applies, a suggestion shown as a conflict is named in the
    dialog with the engine's reason; approving records its conflict, as OpenClaw does."""
    workspace = demo / "openclaw"
    audit = workspace / "memory" / "audit" / "suggestions.jsonl"

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        good = next(i for i in pane.items if i.approvable)
        stale = next(i for i in pane.items if i.records_refusal)
        for item in (good, stale):
            pane.rows.cursor = pane.positions[item.id]
            await pilot.press("space")
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert question.startswith("Approve 1 queued write?")
        assert f"  {stale.id}: {stale.problem}" in question
        assert "approving marks it conflict" in question
        await until(pilot, lambda: said(app, "marked conflict"), what="the conflict recorded")
        await until(pilot, lambda: good.id not in pane.positions, what="the approved row to go")
        assert pane.selected == set()

    run(QueueOnly(workspace), body)
    assert '"status":"conflict"' in audit.read_text("utf-8")


def test_one_selection_accepts_a_candidate_and_approves_a_queued_write(demo: Path) -> None:
    """A store with dsh's candidates and a Hermes queue: both in one list, one confirm,
    one operation; each through its own engine call."""
    import shutil

    for folder in ("memories", "pending/memory"):
        shutil.copytree(demo / "hermes" / folder, demo / folder)
    user = demo / "memories" / "USER.md"

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        first, cid = pane.items[0].id, pane.items[0].name
        assert pane.items[0].approvable and pane.positions[first] == 0
        await pilot.press("space")
        pane.rows.cursor = pane.positions[ADD]
        await pilot.press("space")
        assert pane.selected == {first, ADD}
        await pilot.press("a")
        question = await answer_confirm(pilot, app, "y")
        assert question.startswith("Approve 1 candidate and 1 queued write?")
        gone = lambda: first not in pane.positions and ADD not in pane.positions  # noqa: E731
        await until(pilot, gone, what="both rows to go")
        assert said(app, f"accept {cid} and {ADD}")

    candidates = sorted((demo / "pending").glob("*.md"))
    run(QueueOnly(demo), body)
    assert not candidates[0].exists()
    assert (demo / "archive" / "pending" / candidates[0].name).exists()
    assert "Prefers metric unit" in user.read_text("utf-8")
    assert not record(demo, ADD).exists()


def test_a_bulk_reject_takes_the_rest_and_names_a_record_changed_meanwhile(hermes: Path) -> None:
    changed = record(hermes, AMBIGUOUS)

    async def body(pilot: Pilot, app: QueueOnly) -> None:
        pane = await shown(pilot, app)
        for item_id in (STALE, AMBIGUOUS):
            pane.rows.cursor = pane.positions[item_id]
            await pilot.press("space")
        changed.write_text(changed.read_text("utf-8").replace("harbor", "Harbor"), "utf-8")
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        app.screen.query_one(Input).value = "stale by now"
        await pilot.press("enter")
        await until(pilot, lambda: said(app, f"not rejected: {AMBIGUOUS}: "))
        await until(pilot, lambda: STALE not in pane.positions, what="the rejected row to go")

    run(QueueOnly(hermes), body)
    assert not record(hermes, STALE).exists()
    assert "Harbor" in changed.read_text("utf-8")  # the agent's version, left in the queue
